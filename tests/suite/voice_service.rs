//! The voice service end to end with stand-in devices: a WAV-file microphone and a WAV sink.
//! Push-to-talk → beeps → VAD → real whisper (tiny.en, when `WHISPER_TEST_MODEL` is set) →
//! transcript; takes without speech and the end of continuous mode; speaking a streamed reply
//! with the espeak-ng command provider and stopping it; no microphone at all.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;
use std::sync::Mutex;
use std::time::Duration;

use hermes::config::Config;
use hermes::config::EnvLookup;
use hermes::config::HermesHome;
use hermes::protocol::CaptureState;
use hermes::protocol::TranscriptUse;
use hermes::protocol::VoiceCommand;
use hermes::protocol::VoiceEvent;
use hermes::protocol::VoiceHandle;
use hermes::protocol::VoiceOp;
use hermes::voice::SAMPLE_RATE;
use hermes::voice::audio::AudioError;
use hermes::voice::audio::AudioSink;
use hermes::voice::capture::CaptureSource;
use hermes::voice::capture::Pacing;
use hermes::voice::capture::WavCapture;
use hermes::voice::playback::WavSink;
use hermes::voice::service::VoiceDevices;
use hermes::voice::service::VoiceSettings;

/// A microphone that plays `takes` in turn (the last one repeats) and a shared WAV sink.
struct FakeDevices {
    takes: Mutex<Vec<Vec<i16>>>,
    sink: Arc<WavSink>,
    microphone_missing: bool,
}

impl VoiceDevices for FakeDevices {
    fn microphone(&self) -> Result<Box<dyn CaptureSource>, AudioError> {
        if self.microphone_missing {
            return Err(AudioError::NoDevice(
                "no microphone or audio input. Install/start PulseAudio or PipeWire".into(),
            ));
        }
        let mut takes = self.takes.lock().unwrap();
        let samples = if takes.len() > 1 {
            takes.remove(0)
        } else {
            takes[0].clone()
        };
        Ok(Box::new(WavCapture::from_samples(
            "test microphone",
            samples,
            Pacing::Unpaced,
        )))
    }

    fn speaker(&self) -> Result<Arc<dyn AudioSink>, AudioError> {
        Ok(Arc::clone(&self.sink) as _)
    }
}

fn silence(seconds: f64) -> Vec<i16> {
    vec![0; (seconds * f64::from(SAMPLE_RATE)) as usize]
}

/// `text` spoken by espeak-ng at 16 kHz mono, with silence after it.
fn speech(text: &str) -> Vec<i16> {
    let dir = tempfile::tempdir().unwrap();
    let raw = dir.path().join("speech.wav");
    let status = std::process::Command::new("espeak-ng")
        .args(["-w", raw.to_str().unwrap(), text])
        .status()
        .expect("espeak-ng runs (scripts/test.sh installs it)");
    assert!(status.success());
    let mut samples = silence(0.3);
    samples.extend(hermes::voice::wav::read_16k_mono(&raw).unwrap());
    samples.extend(silence(4.0));
    samples
}

struct Rig {
    _dir: tempfile::TempDir,
    handle: VoiceHandle,
    sink: Arc<WavSink>,
}

fn start(config: Config, takes: Vec<Vec<i16>>, microphone_missing: bool) -> Rig {
    let dir = tempfile::tempdir().unwrap();
    let home = HermesHome::from_base(dir.path(), None).unwrap();
    let sink = Arc::new(WavSink::new(Pacing::Unpaced));
    let devices = Arc::new(FakeDevices {
        takes: Mutex::new(takes),
        sink: Arc::clone(&sink),
        microphone_missing,
    });
    let path = std::env::var("PATH").unwrap_or_default();
    let process = [("PATH".to_string(), path)].into_iter().collect();
    let handle = hermes::voice::service::spawn(VoiceSettings {
        config,
        home,
        env: EnvLookup::from_maps(process, Default::default()),
        devices,
    });
    Rig {
        _dir: dir,
        handle,
        sink,
    }
}

impl Rig {
    fn send(&self, op: VoiceOp) {
        self.handle.ops.send(op).unwrap();
    }

    /// Events until `pred` matches (all of them, in order), failing after 60 s.
    async fn until(&mut self, mut pred: impl FnMut(&VoiceEvent) -> bool) -> Vec<VoiceEvent> {
        let mut seen = Vec::new();
        let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
        loop {
            let event = tokio::time::timeout_at(deadline, self.handle.events.recv())
                .await
                .unwrap_or_else(|_| panic!("timed out; saw {seen:#?}"))
                .expect("the voice service stopped");
            let done = pred(&event);
            seen.push(event);
            if done {
                return seen;
            }
        }
    }
}

fn notice_text(event: &VoiceEvent) -> Option<&str> {
    match event {
        VoiceEvent::Notice { text, .. } => Some(text),
        _ => None,
    }
}

fn captures(events: &[VoiceEvent]) -> Vec<CaptureState> {
    let mut states: Vec<CaptureState> = events
        .iter()
        .filter_map(|e| match e {
            VoiceEvent::State(s) => Some(s.capture),
            _ => None,
        })
        .collect();
    states.dedup();
    states
}

fn whisper_config() -> Option<Config> {
    let Ok(model) = std::env::var("WHISPER_TEST_MODEL") else {
        eprintln!("skipping: WHISPER_TEST_MODEL is not set (scripts/test.sh builds it)");
        return None;
    };
    let mut config = Config::default();
    config.stt.local.model = model;
    Some(config)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn push_to_talk_beeps_records_until_silence_and_sends_the_transcript() {
    let Some(config) = whisper_config() else {
        return;
    };
    let mut rig = start(
        config,
        vec![speech("Please open the settings file.")],
        false,
    );
    rig.send(VoiceOp::Command(VoiceCommand::On));
    rig.until(|e| matches!(e, VoiceEvent::State(s) if s.enabled))
        .await;
    rig.send(VoiceOp::RecordKeyPressed);
    let events = rig
        .until(|e| matches!(e, VoiceEvent::Transcript { .. }))
        .await;
    let Some(VoiceEvent::Transcript { text, usage }) = events.last() else {
        unreachable!()
    };
    let lower = text.to_lowercase();
    for word in ["open", "settings", "file"] {
        assert!(lower.contains(word), "{text:?} lacks {word:?}");
    }
    assert_eq!(
        *usage,
        TranscriptUse::Send,
        "voice.auto_send is on by default"
    );
    assert_eq!(
        captures(&events),
        [CaptureState::Recording, CaptureState::Transcribing]
    );
    assert!(
        events.iter().any(|e| matches!(e, VoiceEvent::Level { .. })),
        "the meter got levels"
    );
    // The 880 Hz start beep and the two 660 Hz stop beeps went to the speaker.
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while rig.sink.clips().len() < 2 && std::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let clips = rig.sink.clips();
    assert!(clips.len() >= 2, "{clips:?}");
    // The start beep (120 ms at 16 kHz) is not lost while the speaker is still opening.
    assert_eq!(clips[0].len, 1_920, "{clips:?}");
}

/// A frontend shows "voice mode on — press … to record" and the user presses the key at once:
/// the state that makes the key the record key must arrive first (CI lost such a press).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn voice_mode_on_and_off_send_the_state_before_the_notice() {
    let mut config = Config::default();
    config.stt.provider = "local_command".into();
    config.stt.local_command.command = "printf unused".into();
    config.voice.beep_enabled = false;
    let mut rig = start(config, vec![silence(1.0)], false);
    rig.send(VoiceOp::Command(VoiceCommand::On));
    let events = rig
        .until(|e| notice_text(e).is_some_and(|t| t.starts_with("voice mode on")))
        .await;
    assert!(
        events
            .iter()
            .any(|e| matches!(e, VoiceEvent::State(s) if s.enabled)),
        "{events:#?}"
    );
    rig.send(VoiceOp::Command(VoiceCommand::Off));
    let events = rig
        .until(|e| notice_text(e).is_some_and(|t| t == "voice mode off"))
        .await;
    assert!(
        events
            .iter()
            .any(|e| matches!(e, VoiceEvent::State(s) if !s.enabled)),
        "{events:#?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn takes_without_speech_retry_and_three_in_a_row_end_continuous_mode() {
    let mut config = Config::default();
    // No speech means whisper is never asked; a command engine keeps the test model-free.
    config.stt.provider = "local_command".into();
    config.stt.local_command.command = "printf unused".into();
    config.voice.beep_enabled = false;
    let mut rig = start(config, vec![silence(16.0)], false);
    rig.send(VoiceOp::Command(VoiceCommand::On));
    rig.send(VoiceOp::RecordKeyPressed);
    let events = rig
        .until(|e| notice_text(e).is_some_and(|t| t.contains("continuous mode stopped")))
        .await;
    let no_speech = events
        .iter()
        .filter_map(notice_text)
        .filter(|t| t.starts_with("no speech heard"))
        .count();
    assert_eq!(no_speech, 3, "{events:#?}");
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, VoiceEvent::Transcript { .. }))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_streamed_reply_is_spoken_sentence_by_sentence_and_stops_at_once() {
    let mut config = Config::default();
    config.tts.provider = "espeak".into();
    config.tts.providers.insert(
        "espeak".into(),
        hermes::config::TtsCommandConfig {
            command: "espeak-ng -w {output_path} -f {input_path}".into(),
            output_format: "wav".into(),
            ..Default::default()
        },
    );
    let mut rig = start(config, vec![silence(1.0)], false);
    rig.send(VoiceOp::Command(VoiceCommand::On));
    rig.send(VoiceOp::Command(VoiceCommand::Tts));
    rig.until(|e| matches!(e, VoiceEvent::State(s) if s.tts))
        .await;
    // The speaker opens off the actor; give it a moment.
    tokio::time::sleep(Duration::from_millis(200)).await;
    for delta in [
        "The first sentence is long enough to be spoken. ",
        "The second one ",
        "arrives in pieces, ",
    ] {
        rig.send(VoiceOp::ReplyDelta {
            turn_id: 1,
            text: delta.into(),
        });
    }
    rig.until(|e| matches!(e, VoiceEvent::State(s) if s.speaking))
        .await;
    // The first sentence is heard before the reply is complete.
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while rig.sink.samples().is_empty() && std::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(!rig.sink.samples().is_empty(), "no audio reached the sink");
    rig.send(VoiceOp::StopSpeaking);
    rig.until(|e| matches!(e, VoiceEvent::State(s) if !s.speaking))
        .await;
    assert!(rig.sink.stops() >= 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_microphone_the_record_key_says_what_is_wrong() {
    let mut rig = start(Config::default(), vec![silence(1.0)], true);
    rig.send(VoiceOp::Command(VoiceCommand::On));
    rig.send(VoiceOp::RecordKeyPressed);
    let events = rig
        .until(|e| notice_text(e).is_some_and(|t| t.starts_with("No audio device found")))
        .await;
    let last = notice_text(events.last().unwrap()).unwrap();
    assert!(last.contains("PulseAudio or PipeWire"), "{last}");
    rig.send(VoiceOp::Command(VoiceCommand::Status));
    let events = rig
        .until(|e| notice_text(e).is_some_and(|t| t.starts_with("voice mode on")))
        .await;
    assert!(
        notice_text(events.last().unwrap())
            .unwrap()
            .contains("continuous off")
    );
}
