use super::*;

const RATE: f64 = SAMPLE_RATE as f64;

/// A 300 Hz sine of peak `amp` (RMS = amp / √2) for `secs`.
fn tone(secs: f64, amp: f64) -> Vec<i16> {
    let n = (secs * RATE).round() as usize;
    (0..n)
        .map(|i| (amp * (2.0 * std::f64::consts::PI * 300.0 * i as f64 / RATE).sin()) as i16)
        .collect()
}

/// Speech-level tone: RMS ≈ 2 100, ten times the default threshold.
fn speech(secs: f64) -> Vec<i16> {
    tone(secs, 3000.0)
}

/// Room noise: RMS ≈ 35, well under the threshold but not digital zero.
fn quiet(secs: f64) -> Vec<i16> {
    tone(secs, 50.0)
}

fn join(parts: &[Vec<i16>]) -> Vec<i16> {
    parts.concat()
}

/// Syllables: `count` × (`on` s of speech, `off` s of quiet).
fn syllables(count: usize, on: f64, off: f64) -> Vec<i16> {
    (0..count)
        .flat_map(|_| join(&[speech(on), quiet(off)]))
        .collect()
}

/// Run the VAD over `audio` in `chunk`-sized pieces; (status, stop sample, heard speech).
fn run(settings: VadSettings, audio: &[i16], chunk: usize) -> (VadStatus, Option<usize>, bool) {
    let mut vad = Vad::new(settings);
    for c in audio.chunks(chunk) {
        vad.push(c);
    }
    (vad.status(), vad.stopped_at(), vad.heard_speech())
}

fn secs(samples: Option<usize>) -> f64 {
    samples.expect("stopped") as f64 / RATE
}

#[test]
fn speech_then_silence_stops_three_seconds_after_the_speech_ends() {
    let audio = join(&[quiet(0.5), speech(1.0), quiet(10.0)]);
    let (status, at, heard) = run(VadSettings::default(), &audio, 480);
    assert_eq!(status, VadStatus::Stopped(StopReason::SilenceAfterSpeech));
    assert!(heard);
    let at = secs(at);
    assert!(
        (at - 4.5).abs() <= 0.021,
        "stopped at {at} s, speech ended at 1.5 s"
    );
}

#[test]
fn a_configured_silence_duration_is_used() {
    let settings = VadSettings {
        silence: Duration::from_millis(1500),
        ..VadSettings::default()
    };
    let audio = join(&[speech(1.0), quiet(5.0)]);
    let at = secs(run(settings, &audio, 320).1);
    assert!((at - 2.5).abs() <= 0.021, "{at}");
}

#[test]
fn short_dips_between_syllables_neither_reset_confirmation_nor_end_the_take() {
    // 0.1 s syllables with 0.2 s gaps: no single run reaches 0.3 s, the dips are tolerated.
    let audio = join(&[syllables(3, 0.1, 0.2), quiet(10.0)]);
    let (status, at, heard) = run(VadSettings::default(), &audio, 512);
    assert!(heard, "speech confirmed across the dips");
    assert_eq!(status, VadStatus::Stopped(StopReason::SilenceAfterSpeech));
    // The third syllable (confirming 0.3 s voiced) ends at 2 × 0.3 + 0.1 = 0.7 s.
    let at = secs(at);
    assert!((at - 3.7).abs() <= 0.021, "{at}");

    // 10 s of talking with 0.4 s pauses: the take runs until 3 s after the last word.
    let audio = join(&[syllables(25, 0.6, 0.4), quiet(6.0)]);
    let at = secs(run(VadSettings::default(), &audio, 999).1);
    assert!((at - (24.0 + 0.6 + 3.0)).abs() <= 0.021, "{at}");
}

#[test]
fn dips_longer_than_the_tolerance_reset_a_speech_attempt() {
    // 0.1 s bursts 0.35 s apart: each attempt is forgotten before it reaches 0.3 s voiced.
    let audio = syllables(40, 0.1, 0.35);
    let (status, at, heard) = run(VadSettings::default(), &audio, 700);
    assert!(!heard);
    assert_eq!(status, VadStatus::Stopped(StopReason::NoSpeech));
    assert!((secs(at) - 15.0).abs() < 0.001);
}

#[test]
fn resumed_speech_restarts_the_silence_clock_but_a_blip_does_not() {
    let resumed = join(&[speech(1.0), quiet(2.0), speech(1.0), quiet(6.0)]);
    let at = secs(run(VadSettings::default(), &resumed, 256).1);
    assert!((at - 7.0).abs() <= 0.021, "resumed speech: {at}");

    let blip = join(&[speech(1.0), quiet(1.5), speech(0.1), quiet(6.0)]);
    let at = secs(run(VadSettings::default(), &blip, 256).1);
    assert!(
        (at - 4.0).abs() <= 0.021,
        "a 0.1 s blip is part of the silence: {at}"
    );
}

#[test]
fn pure_silence_stops_with_no_speech_at_fifteen_seconds() {
    let digital = vec![0i16; 20 * SAMPLE_RATE as usize];
    let (status, at, heard) = run(VadSettings::default(), &digital, 1600);
    assert_eq!(status, VadStatus::Stopped(StopReason::NoSpeech));
    assert!(!heard);
    assert_eq!(at, Some(15 * SAMPLE_RATE as usize));

    let mut vad = Vad::new(VadSettings::default());
    assert_eq!(vad.push(&quiet(14.9)), VadStatus::Listening);
    assert_eq!(
        vad.push(&quiet(0.2)),
        VadStatus::Stopped(StopReason::NoSpeech)
    );
}

#[test]
fn continuous_speech_stops_at_the_hard_cap() {
    let audio = speech(121.0);
    let (status, at, heard) = run(VadSettings::default(), &audio, 4096);
    assert_eq!(status, VadStatus::Stopped(StopReason::MaxLength));
    assert!(heard);
    assert_eq!(at, Some(120 * SAMPLE_RATE as usize));

    let short = VadSettings {
        max: Some(Duration::from_secs(5)),
        ..VadSettings::default()
    };
    assert_eq!(
        run(short, &speech(6.0), 333).0,
        VadStatus::Stopped(StopReason::MaxLength)
    );
    // No cap: two minutes of speech keep going.
    let uncapped = VadSettings {
        max: None,
        ..VadSettings::default()
    };
    assert_eq!(run(uncapped, &speech(125.0), 8000).0, VadStatus::Speaking);
}

#[test]
fn noise_just_under_the_threshold_never_counts_and_just_over_does() {
    // RMS 198 vs threshold 200.
    let under = tone(16.0, 198.0 * std::f64::consts::SQRT_2);
    let (status, _, heard) = run(VadSettings::default(), &under, 1000);
    assert_eq!(status, VadStatus::Stopped(StopReason::NoSpeech));
    assert!(!heard);

    // RMS 203: the same signal a hair louder is speech.
    let over = join(&[tone(1.0, 203.0 * std::f64::consts::SQRT_2), quiet(4.0)]);
    let (status, _, heard) = run(VadSettings::default(), &over, 1000);
    assert!(heard);
    assert_eq!(status, VadStatus::Stopped(StopReason::SilenceAfterSpeech));
}

#[test]
fn chunk_sizes_do_not_change_the_result() {
    let audio = join(&[
        quiet(0.7),
        syllables(6, 0.15, 0.25),
        quiet(2.0),
        speech(0.5),
        quiet(4.0),
    ]);
    let reference = run(VadSettings::default(), &audio, audio.len());
    assert_eq!(
        reference.0,
        VadStatus::Stopped(StopReason::SilenceAfterSpeech)
    );
    for chunk in [1, 7, 319, 320, 321, 1024, 16_000] {
        assert_eq!(
            run(VadSettings::default(), &audio, chunk),
            reference,
            "chunk {chunk}"
        );
    }
}

#[test]
fn audio_after_the_stop_is_ignored() {
    let mut vad = Vad::new(VadSettings::default());
    vad.push(&join(&[speech(1.0), quiet(3.5)]));
    let at = vad.stopped_at();
    assert!(at.is_some());
    assert_eq!(
        vad.push(&speech(2.0)),
        VadStatus::Stopped(StopReason::SilenceAfterSpeech)
    );
    assert_eq!(vad.stopped_at(), at);
}

#[test]
fn settings_come_from_the_voice_config() {
    let mut voice = VoiceConfig {
        silence_threshold: 500,
        silence_duration: 1.5,
        max_recording_seconds: 30,
        ..VoiceConfig::default()
    };
    let s = VadSettings::from_config(&voice);
    assert_eq!(s.threshold, 500);
    assert_eq!(s.silence, Duration::from_millis(1500));
    assert_eq!(s.max, Some(Duration::from_secs(30)));
    assert_eq!(s.no_speech, Duration::from_secs(15));

    voice.max_recording_seconds = 0;
    voice.silence_duration = -2.0;
    let s = VadSettings::from_config(&voice);
    assert_eq!(s.max, None, "0 = no cap, as in Hermes");
    assert_eq!(
        s.silence,
        Duration::from_secs(3),
        "nonsense falls back to 3 s"
    );
    voice.silence_duration = f64::NAN;
    assert_eq!(
        VadSettings::from_config(&voice).silence,
        Duration::from_secs(3)
    );

    let d = VadSettings::default();
    assert_eq!((d.threshold, d.silence), (200, Duration::from_secs(3)));
    assert_eq!(d.max, Some(Duration::from_secs(120)));
}

#[test]
fn level_is_logarithmic_and_rises_and_falls_with_the_voice() {
    assert_eq!(level_from_rms(0.0), 0.0);
    assert_eq!(level_from_rms(f64::NAN), 0.0);
    assert_eq!(level_from_rms(10.0), 0.0);
    assert!((level_from_rms(100.0) - 1.0 / 3.0).abs() < 1e-6);
    assert!((level_from_rms(1000.0) - 2.0 / 3.0).abs() < 1e-6);
    assert_eq!(level_from_rms(32767.0), 1.0);

    let mut vad = Vad::new(VadSettings::default());
    vad.push(&quiet(0.5));
    let idle = vad.level();
    vad.push(&speech(0.5));
    let talking = vad.level();
    assert!(
        idle < 0.25 && talking > 0.7,
        "idle {idle}, talking {talking}"
    );
    assert!((vad.rms() - 2121.0).abs() < 5.0, "{}", vad.rms());
    vad.push(&vec![0; FRAME * 2]);
    let falling = vad.level();
    assert!(
        falling < talking && falling > 0.3,
        "falls smoothly: {falling}"
    );
    vad.push(&vec![0; FRAME * 30]);
    assert!(vad.level() < 0.01);
    assert!((vad.peak_rms() - 2121.0).abs() < 5.0);
}

#[test]
fn level_bars_render_the_latest_levels_at_a_fixed_width() {
    assert_eq!(level_bars(&[], 4), "▁▁▁▁");
    assert_eq!(level_bars(&[0.0, 0.5, 1.0], 5), "▁▁▁▅█");
    let levels = [0.1, 0.3, 0.45, 0.7, 0.9, 0.95, 0.7, 0.3];
    assert_eq!(level_bars(&levels, 8), "▂▃▄▆▇█▆▃");
    assert_eq!(level_bars(&levels, 3), "█▆▃", "only the newest");
    assert_eq!(levels.map(level_step), [1, 2, 3, 5, 6, 7, 5, 2]);
    assert_eq!(level_bars(&[f32::NAN, -1.0, 7.0], 3), "▁▁█");
}
