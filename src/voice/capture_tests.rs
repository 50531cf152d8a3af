use std::sync::mpsc::Sender;

use super::device::buffer_size;
use super::*;
use crate::voice::audio::Clip;

const RATE: f64 = SAMPLE_RATE as f64;

fn tone(secs: f64, amp: f64) -> Samples {
    let n = (secs * RATE).round() as usize;
    (0..n)
        .map(|i| (amp * (2.0 * std::f64::consts::PI * 440.0 * i as f64 / RATE).sin()) as i16)
        .collect()
}

fn silence(secs: f64) -> Samples {
    vec![0; (secs * RATE).round() as usize]
}

fn run(source: &mut dyn CaptureSource, stop: &StopSignal) -> (Take, Vec<f32>) {
    let mut levels = Vec::new();
    let take = record_take(source, VadSettings::default(), stop, |l| levels.push(l)).unwrap();
    (take, levels)
}

#[test]
fn a_take_from_a_wav_file_stops_three_seconds_after_speech() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("hello.wav");
    let audio = [silence(0.5), tone(1.0, 4000.0), silence(6.0)].concat();
    crate::voice::wav::write(&path, &Clip::new(audio.clone(), SAMPLE_RATE)).unwrap();

    let mut source = WavCapture::open(&path, Pacing::Unpaced).unwrap();
    assert!(source.name().ends_with("hello.wav"));
    let (take, levels) = run(&mut source, &StopSignal::new());
    assert_eq!(take.reason, TakeEnd::Vad(StopReason::SilenceAfterSpeech));
    assert!(take.heard_speech);
    // Speech ends at 1.5 s; the take is cut at the frame that completed 3 s of silence.
    let secs = take.samples.len() as f64 / RATE;
    assert!((secs - 4.5).abs() <= 0.021, "{secs} s");
    assert_eq!(take.samples[..], audio[..take.samples.len()]);
    assert!((take.peak_rms - 2828.0).abs() < 50.0, "{}", take.peak_rms);
    assert!(
        levels.iter().any(|&l| l > 0.7) && levels[0] < 0.1,
        "{levels:?}"
    );
}

#[test]
fn a_source_that_runs_out_ends_the_take_without_speech() {
    let mut source = WavCapture::from_samples("short", silence(2.0), Pacing::Unpaced);
    let (take, _) = run(&mut source, &StopSignal::new());
    assert_eq!(take.reason, TakeEnd::SourceEnded);
    assert!(!take.heard_speech);
    assert_eq!(take.samples.len(), 32_000);

    let mut source = WavCapture::from_samples("quiet", silence(16.0), Pacing::Unpaced);
    let (take, _) = run(&mut source, &StopSignal::new());
    assert_eq!(take.reason, TakeEnd::Vad(StopReason::NoSpeech));
    assert_eq!(take.samples.len(), 15 * 16_000);
}

#[test]
fn the_stop_signal_ends_a_real_time_take_promptly() {
    let mut source = WavCapture::from_samples("talk", tone(20.0, 4000.0), Pacing::RealTime);
    let stop = StopSignal::new();
    let stopper = stop.clone();
    let started = Instant::now();
    let handle = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        stopper.stop();
    });
    let (take, _) = run(&mut source, &stop);
    let waited = started.elapsed();
    handle.join().unwrap();
    assert_eq!(take.reason, TakeEnd::Stopped);
    // Generous bounds: CI machines are busy; the point is "not the whole 20 s".
    assert!(waited < Duration::from_secs(3), "{waited:?}");
    // Real-time pacing: ~0.3 s of audio arrived, not the whole 20 s.
    let secs = take.samples.len() as f64 / RATE;
    assert!((0.2..3.0).contains(&secs), "{secs} s");
}

#[test]
fn real_time_pacing_delivers_audio_at_one_second_per_second() {
    let mut source =
        WavCapture::from_samples("pace", silence(0.5), Pacing::RealTime).with_chunk(1600);
    let started = Instant::now();
    let rx = source.start().unwrap();
    let chunks: Vec<Samples> = rx.iter().map(Result::unwrap).collect();
    let took = started.elapsed();
    assert_eq!(chunks.len(), 5);
    assert!(chunks.iter().all(|c| c.len() == 1600));
    assert!(
        (Duration::from_millis(450)..Duration::from_secs(3)).contains(&took),
        "{took:?}"
    );
}

#[test]
fn restarting_a_wav_source_plays_it_again_and_stop_disconnects() {
    let mut source = WavCapture::from_samples("x", tone(0.2, 1000.0), Pacing::Unpaced);
    let first: usize = source
        .start()
        .unwrap()
        .iter()
        .map(|c| c.unwrap().len())
        .sum();
    let second: usize = source
        .start()
        .unwrap()
        .iter()
        .map(|c| c.unwrap().len())
        .sum();
    assert_eq!((first, second), (3200, 3200));

    let mut slow = WavCapture::from_samples("y", tone(10.0, 1000.0), Pacing::RealTime);
    let rx = slow.start().unwrap();
    slow.stop();
    let got: usize = rx.iter().map(|c| c.unwrap().len()).sum();
    assert!(got < 16_000, "stopped early: {got}");
}

/// A source that starts and then delivers nothing, or one error.
struct Broken {
    error: bool,
    tx: Option<Sender<Chunk>>,
}

impl CaptureSource for Broken {
    fn start(&mut self) -> Result<Receiver<Chunk>, AudioError> {
        let (tx, rx) = mpsc::channel();
        if self.error {
            tx.send(Err(AudioError::Device("unplugged".into())))
                .unwrap();
        }
        self.tx = Some(tx);
        Ok(rx)
    }
    fn stop(&mut self) {
        self.tx = None;
    }
    fn name(&self) -> String {
        "broken mic".into()
    }
}

#[test]
fn a_stalled_or_failing_source_is_an_error_not_a_hang() {
    let mut stalled = Broken {
        error: false,
        tx: None,
    };
    let started = Instant::now();
    let err = record_take_with_stall(
        &mut stalled,
        VadSettings::default(),
        &StopSignal::new(),
        |_| {},
        StallLimits {
            first_audio: Duration::from_millis(150),
            between_chunks: Duration::from_millis(150),
        },
    )
    .unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(1));
    assert!(
        err.to_string().contains("broken mic delivered no audio"),
        "{err}"
    );
    assert!(stalled.tx.is_none(), "the source was stopped");

    let mut failing = Broken {
        error: true,
        tx: None,
    };
    let err = record_take(
        &mut failing,
        VadSettings::default(),
        &StopSignal::new(),
        |_| {},
    )
    .unwrap_err();
    assert!(
        matches!(err, AudioError::Device(ref d) if d == "unplugged"),
        "{err}"
    );
    assert!(failing.tx.is_none());
}

/// A source whose first audio comes late (a headset waking up), then stops after a few chunks
/// without disconnecting.
struct LateStarter {
    keep_alive: Option<Sender<Chunk>>,
}

impl CaptureSource for LateStarter {
    fn start(&mut self) -> Result<Receiver<Chunk>, AudioError> {
        let (tx, rx) = mpsc::channel();
        let sender = tx.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(400));
            for _ in 0..3 {
                let _ = sender.send(Ok(vec![0i16; 800]));
                std::thread::sleep(Duration::from_millis(20));
            }
        });
        self.keep_alive = Some(tx);
        Ok(rx)
    }
    fn stop(&mut self) {
        self.keep_alive = None;
    }
    fn name(&self) -> String {
        "sleepy headset".into()
    }
}

#[test]
fn the_first_audio_may_come_later_than_the_gap_allowed_between_chunks() {
    let mut source = LateStarter { keep_alive: None };
    let mut chunks_seen = 0;
    let err = record_take_with_stall(
        &mut source,
        VadSettings::default(),
        &StopSignal::new(),
        |_| chunks_seen += 1,
        StallLimits {
            first_audio: Duration::from_secs(5),
            between_chunks: Duration::from_millis(150),
        },
    )
    .unwrap_err();
    // It waited out the 400 ms start, took the audio, then failed on the 150 ms gap.
    assert_eq!(chunks_seen, 3);
    assert!(
        err.to_string()
            .contains("sleepy headset delivered no audio for 0.15 s"),
        "{err}"
    );
    assert!(source.keep_alive.is_none(), "the source was stopped");
}

#[test]
fn a_missing_wav_file_is_a_file_error() {
    let err = WavCapture::open(Path::new("/nonexistent/take.wav"), Pacing::Unpaced).unwrap_err();
    assert!(err.to_string().contains("/nonexistent/take.wav"), "{err}");
}

#[test]
fn the_no_device_hint_says_how_to_fix_it_and_mentions_ssh() {
    let local = device_hint(
        Direction::Input,
        Some("cannot open default"),
        Session::Local,
    );
    assert!(local.contains("PulseAudio or PipeWire"), "{local}");
    assert!(local.contains("`arecord -l`") && local.contains("cannot open default"));
    assert!(!local.contains("SSH"));
    let err = AudioError::NoDevice(local).to_string();
    assert!(
        err.starts_with("No audio device found: "),
        "Hermes's words: {err}"
    );

    let remote = device_hint(Direction::Input, None, Session::Ssh);
    assert!(
        remote.contains("SSH session") && remote.contains("remote machine's"),
        "{remote}"
    );
    let out = device_hint(Direction::Output, None, Session::Ssh);
    assert!(
        out.contains("`aplay -l`") && out.contains("speakers"),
        "{out}"
    );

    let env = |pairs: &'static [(&'static str, &'static str)]| {
        move |k: &str| {
            pairs
                .iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        }
    };
    assert!(over_ssh(env(&[(
        "SSH_CONNECTION",
        "10.0.0.2 5555 10.0.0.1 22"
    )])));
    assert_eq!(
        Session::detect(env(&[("SSH_TTY", "/dev/pts/3")])),
        Session::Ssh
    );
    assert_eq!(
        Session::detect(env(&[("SSH_TTY", ""), ("HOME", "/root")])),
        Session::Local
    );
}

#[test]
fn the_alsa_file_plugin_is_recognised_in_config_text() {
    let example = include_str!("../../tests/fixtures/audio/asoundrc.example");
    assert!(uses_file_plugin(example));
    assert!(uses_file_plugin("pcm.x { type \"file\"; slave.pcm null }"));
    assert!(uses_file_plugin("pcm.x {\n  type=file\n}"));
    assert!(!uses_file_plugin(
        "pcm.!default { type pulse }\nctl.!default { type pulse }"
    ));
    assert!(!uses_file_plugin(
        "pcm.fileout { type plug; slave.pcm \"fileout2\" }"
    ));
    assert!(!uses_file_plugin(
        "# type file, commented out\npcm.x { type hw; card 0 }"
    ));
    assert_eq!(
        buffer_size(BufferPolicy::Fixed(4096)),
        cpal::BufferSize::Fixed(4096)
    );
    assert_eq!(
        buffer_size(BufferPolicy::DeviceDefault),
        cpal::BufferSize::Default
    );
}
