//! Voice audio through the real ALSA stack (cpal and rodio, libasound), headless: the ALSA
//! `file` plugin plays into a raw file and records from one (tests/fixtures/audio/
//! asoundrc.example). ALSA reads `$HOME/.asoundrc`, so each test runs its body in a child
//! process (this same binary, `--exact <test>`) with HOME pointing at a temp dir holding the
//! config and the raw files; the parent's environment is never touched.
//!
//! The file plugin is not clocked: capture arrives faster than real time and playback drains
//! as fast as the CPU goes, so timings here are audio time, not wall time.
//!
//! These tests never skip: if libasound or the file plugin is missing they fail and say so.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use hermes::voice::audio::{AudioError, AudioSink, Clip};
use hermes::voice::beep;
use hermes::voice::capture::{
    BufferPolicy, CaptureSource, CpalCapture, StopSignal, TakeEnd, list_devices, record_take,
};
use hermes::voice::playback::RodioSink;
use hermes::voice::vad::{StopReason, VadSettings};

const CHILD: &str = "HERMES_VOICE_AUDIO_CHILD";
const CAPTURE_RAW: &str = "capture.raw";
const PLAYBACK_RAW: &str = "playback.raw";
const RATE: usize = 16_000;

/// `test`'s name as the test binary knows it: this module's path without the crate's name.
fn full_name(test: &str) -> String {
    let module = module_path!()
        .split_once("::")
        .map_or(module_path!(), |(_, rest)| rest);
    format!("{module}::{test}")
}

/// Run `body` in a child process whose HOME is a fresh dir set up by `setup`; in the child,
/// run `body` with that dir.
fn in_child(test: &str, setup: impl FnOnce(&Path), body: impl FnOnce(&Path)) {
    if std::env::var_os(CHILD).is_some() {
        let home = PathBuf::from(std::env::var_os("HOME").expect("HOME"));
        body(&home);
        return;
    }
    let home = tempfile::tempdir().unwrap();
    setup(home.path());
    let started = Instant::now();
    let out = Command::new(std::env::current_exe().unwrap())
        .args([
            &full_name(test),
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD, "1")
        .env("HOME", home.path())
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("ALSA_CONFIG_PATH")
        .output()
        .expect("run the test binary again as the child");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "{test} failed in its ALSA child process ({:?}):\n--- stdout\n{stdout}\n--- stderr\n{stderr}",
        out.status
    );
    assert!(
        stdout.contains("1 passed"),
        "the child did not run {test}:\n{stdout}"
    );
    // Shown with --nocapture: the child's measurements.
    eprint!("{stderr}");
    eprintln!("{test}: child ran in {:?}", started.elapsed());
}

/// `$HOME/.asoundrc` from the fixture, with the raw files in `home`.
fn write_asoundrc(home: &Path) {
    let example = include_str!("../fixtures/audio/asoundrc.example");
    let config = example
        .replace(
            "@PLAYBACK_RAW@",
            &home.join(PLAYBACK_RAW).display().to_string(),
        )
        .replace(
            "@CAPTURE_RAW@",
            &home.join(CAPTURE_RAW).display().to_string(),
        );
    std::fs::write(home.join(".asoundrc"), config).unwrap();
}

/// Raw S16_LE samples as the file plugin reads and writes them.
fn write_raw(path: &Path, samples: &[i16]) {
    let bytes: Vec<u8> = samples.iter().flat_map(|s| s.to_le_bytes()).collect();
    std::fs::write(path, bytes).unwrap();
}

fn read_raw(path: &Path) -> Vec<i16> {
    let bytes = std::fs::read(path)
        .unwrap_or_else(|e| panic!("{}: {e} (did ALSA open the file plugin?)", path.display()));
    bytes
        .chunks_exact(2)
        .map(|b| i16::from_le_bytes([b[0], b[1]]))
        .collect()
}

fn tone(hz: f64, secs: f64, amp: f64) -> Vec<i16> {
    let n = (secs * RATE as f64) as usize;
    (0..n)
        .map(|i| (amp * (2.0 * std::f64::consts::PI * hz * i as f64 / RATE as f64).sin()) as i16)
        .collect()
}

fn zero_crossing_hz(samples: &[i16]) -> f64 {
    let crossings = samples
        .windows(2)
        .filter(|w| (w[0] < 0) != (w[1] < 0))
        .count();
    crossings as f64 / 2.0 / (samples.len() as f64 / RATE as f64)
}

/// The span from the first to the last sample louder than `level`.
fn loud_span(samples: &[i16], level: u16) -> Option<&[i16]> {
    let first = samples.iter().position(|s| s.unsigned_abs() > level)?;
    let last = samples.iter().rposition(|s| s.unsigned_abs() > level)?;
    Some(&samples[first..=last])
}

/// Stretches where some sample is louder than `level`, split at 20 ms of quiet.
fn sounding_runs(samples: &[i16], level: u16) -> Vec<(usize, &[i16])> {
    let mut runs = Vec::new();
    let mut start = None;
    let mut last = 0;
    for (i, s) in samples.iter().enumerate() {
        if s.unsigned_abs() > level {
            start.get_or_insert(i);
            last = i;
        } else if let Some(first) = start
            && i - last > RATE / 50
        {
            runs.push((first, &samples[first..=last]));
            start = None;
        }
    }
    if let Some(first) = start {
        runs.push((first, &samples[first..=last]));
    }
    runs
}

fn alsa_failed(what: &str, e: &AudioError) -> ! {
    panic!(
        "{what} through the ALSA file plugin failed: {e}\n\
         (CI installs libasound2 and alsa-lib's file plugin; this test does not skip)"
    )
}

#[test]
fn capture_through_alsa_records_a_take_until_the_silence() {
    in_child(
        "capture_through_alsa_records_a_take_until_the_silence",
        |home| {
            write_asoundrc(home);
            // 0.5 s of silence, 1 s of a 440 Hz tone (RMS ≈ 5 600), then silence. The file
            // is longer than the take (after its end the plugin repeats stale buffers) and the
            // take fits in one capture period (the plugin loses input between periods).
            let audio = [
                vec![0; RATE / 2],
                tone(440.0, 1.0, 8000.0),
                vec![0; RATE * 8],
            ]
            .concat();
            write_raw(&home.join(CAPTURE_RAW), &audio);
        },
        |_home| {
            let devices = list_devices().unwrap_or_else(|e| alsa_failed("listing devices", &e));
            assert!(
                devices.inputs.iter().any(|d| d.is_default)
                    && devices.outputs.iter().any(|d| d.is_default),
                "a default input and output: {devices:?}"
            );

            let mut mic = CpalCapture::with_buffer(BufferPolicy::Auto);
            let started = Instant::now();
            let mut levels = Vec::new();
            let take = record_take(&mut mic, VadSettings::default(), &StopSignal::new(), |l| {
                levels.push(l)
            })
            .unwrap_or_else(|e| alsa_failed("capture", &e));
            let took = started.elapsed();
            eprintln!(
                "take: {} samples ({:.2} s of audio) in {took:?} from {:?}, {} level updates, \
                 {} dropped buffers",
                take.samples.len(),
                take.samples.len() as f64 / RATE as f64,
                mic.name(),
                levels.len(),
                mic.dropped_buffers()
            );
            assert_eq!(take.reason, TakeEnd::Vad(StopReason::SilenceAfterSpeech));
            assert!(take.heard_speech);
            assert_eq!(mic.dropped_buffers(), 0);
            // Speech ends at 1.5 s; the VAD stops 3 s later (plus the plug plugin's and our
            // resamplers' few milliseconds).
            let secs = take.samples.len() as f64 / RATE as f64;
            assert!((4.4..4.7).contains(&secs), "take of {secs} s");
            let voiced = loud_span(&take.samples, 2000).expect("the tone arrived");
            let start = take
                .samples
                .iter()
                .position(|s| s.unsigned_abs() > 2000)
                .unwrap();
            eprintln!(
                "tone from {:.3} s to {:.3} s of the take",
                start as f64 / RATE as f64,
                (start + voiced.len()) as f64 / RATE as f64
            );
            let voiced_secs = voiced.len() as f64 / RATE as f64;
            assert!(
                (0.95..1.05).contains(&voiced_secs),
                "tone lasted {voiced_secs} s"
            );
            let hz = zero_crossing_hz(voiced);
            assert!((hz - 440.0).abs() < 5.0, "tone at {hz} Hz");
            assert!(
                (take.peak_rms - 5657.0).abs() < 400.0,
                "peak RMS {}",
                take.peak_rms
            );
            // The file plugin delivers the whole take in one period, so the meter got one
            // reading (after the closing silence); the meter itself is unit-tested.
            assert!(!levels.is_empty());
        },
    );
}

#[test]
fn playback_through_alsa_writes_the_beep() {
    in_child(
        "playback_through_alsa_writes_the_beep",
        |home| {
            write_asoundrc(home);
            write_raw(&home.join(CAPTURE_RAW), &[0; 16]);
        },
        |home| {
            let sink = RodioSink::open().unwrap_or_else(|e| alsa_failed("playback", &e));
            assert!(sink.is_idle());

            // Two clips queued and stopped at once: idle immediately, both dropped.
            sink.play(Clip::new(tone(300.0, 20.0, 3000.0), 16_000))
                .unwrap();
            sink.play(Clip::new(tone(550.0, 0.5, 6000.0), 16_000))
                .unwrap();
            assert!(!sink.is_idle());
            sink.stop();
            assert!(sink.is_idle(), "idle the moment stop returns");
            // The file device is unclocked: what had reached the mixer may still play for a
            // few ms of wall time. Let it end so the beep is heard alone.
            std::thread::sleep(Duration::from_millis(100));

            let queued = Instant::now();
            sink.play(beep::start_beep()).unwrap();
            let deadline = Instant::now() + Duration::from_secs(5);
            while !sink.is_idle() {
                assert!(Instant::now() < deadline, "the beep never finished playing");
                std::thread::sleep(Duration::from_millis(1));
            }
            eprintln!("beep queued to idle: {:?}", queued.elapsed());
            // The device buffer (~50 ms) drains into the file; then close the device.
            std::thread::sleep(Duration::from_millis(200));
            drop(sink);

            let written = read_raw(&home.join(PLAYBACK_RAW));
            let runs = sounding_runs(&written, 500);
            eprintln!(
                "playback file: {} samples; sounding runs (start, len, Hz): {:?}",
                written.len(),
                runs.iter()
                    .map(|r| (r.0, r.1.len(), zero_crossing_hz(r.1).round()))
                    .collect::<Vec<_>>()
            );
            let (_, beep) = runs.last().expect("the beep reached the playback file");
            // Before the beep, only whatever of the first clip got out before the stop (often
            // nothing; on this unclocked device its pieces may have gaps between them) — never
            // the queued second clip — and nothing after the beep.
            let before = &runs[..runs.len() - 1];
            for (_, stopped) in before {
                let hz = zero_crossing_hz(stopped);
                assert!(
                    stopped.len() < 200 || (hz - 300.0).abs() < 10.0,
                    "only the first clip: {hz} Hz"
                );
            }
            let stopped: usize = before.iter().map(|r| r.1.len()).sum();
            assert!(stopped < 20 * RATE, "cut short: {stopped} samples");
            let hz = zero_crossing_hz(beep);
            assert!((hz - 880.0).abs() < 15.0, "beep at {hz} Hz");
            let ms = beep.len() as f64 * 1000.0 / RATE as f64;
            assert!((105.0..=125.0).contains(&ms), "beep lasted {ms} ms");
            let peak = beep.iter().map(|s| s.unsigned_abs()).max().unwrap();
            assert!((9_000..=10_500).contains(&peak), "beep peak {peak}");
        },
    );
}

#[test]
fn no_alsa_device_is_reported_as_no_audio_device_with_a_hint() {
    in_child(
        "no_alsa_device_is_reported_as_no_audio_device_with_a_hint",
        |home| {
            // A default PCM on a sound card that does not exist.
            std::fs::write(
                home.join(".asoundrc"),
                "pcm.!default { type hw; card 97 }\nctl.!default { type hw; card 97 }\n",
            )
            .unwrap();
        },
        |_home| {
            let err = RodioSink::open().expect_err("no output device");
            assert!(matches!(err, AudioError::NoDevice(_)), "{err:?}");
            let text = err.to_string();
            assert!(text.starts_with("No audio device found"), "{text}");
            assert!(
                text.contains("aplay -l") && text.contains("PipeWire"),
                "{text}"
            );

            let mut mic = CpalCapture::new();
            let err = mic.start().expect_err("no input device");
            assert!(matches!(err, AudioError::NoDevice(_)), "{err:?}");
            assert!(err.to_string().contains("arecord -l"), "{err}");
        },
    );
}

/// The output device is open only while something plays: ALSA's file plugin is unclocked, so
/// an open device writes silence into the file as fast as it can. After a clip and the idle
/// delay the file stops growing; the next clip opens the device again and is heard.
#[test]
fn playback_closes_the_device_when_idle_and_reopens_for_the_next_clip() {
    in_child(
        "playback_closes_the_device_when_idle_and_reopens_for_the_next_clip",
        |home| {
            write_asoundrc(home);
            write_raw(&home.join(CAPTURE_RAW), &[0; 16]);
        },
        |home| {
            let sink = RodioSink::open().unwrap_or_else(|e| alsa_failed("playback", &e));
            sink.play(beep::start_beep()).unwrap();
            let deadline = Instant::now() + Duration::from_secs(5);
            while !sink.is_idle() {
                assert!(Instant::now() < deadline, "the beep never finished playing");
                std::thread::sleep(Duration::from_millis(5));
            }
            // Past the idle delay (1.5 s) the device is closed: the file no longer grows.
            std::thread::sleep(Duration::from_millis(2_500));
            let file = home.join(PLAYBACK_RAW);
            let size = std::fs::metadata(&file).unwrap().len();
            std::thread::sleep(Duration::from_millis(1_000));
            let later = std::fs::metadata(&file).unwrap().len();
            assert_eq!(
                size, later,
                "the idle device kept writing: {size} → {later} bytes"
            );
            // The next clip opens it again and is played.
            sink.play(beep::start_beep()).unwrap();
            while !sink.is_idle() {
                assert!(
                    Instant::now() < deadline + Duration::from_secs(5),
                    "the second beep never finished"
                );
                std::thread::sleep(Duration::from_millis(5));
            }
            std::thread::sleep(Duration::from_millis(200));
            drop(sink);
            let written = read_raw(&file);
            let runs = sounding_runs(&written, 500);
            let (_, beep) = runs
                .last()
                .expect("the second beep reached the playback file");
            let hz = zero_crossing_hz(beep);
            assert!((hz - 880.0).abs() < 15.0, "beep at {hz} Hz");
        },
    );
}
