use std::path::Path;

use super::*;
use crate::voice::audio::AudioError;
use crate::voice::tts::command::CommandTts;

/// Records what it is asked to play.
#[derive(Default)]
struct RecordingSink {
    clips: Mutex<Vec<Clip>>,
    stops: Mutex<usize>,
    refuse: bool,
}

impl AudioSink for RecordingSink {
    fn play(&self, clip: Clip) -> Result<(), AudioError> {
        if self.refuse {
            return Err(AudioError::NoDevice("test sink has no device".into()));
        }
        self.clips.lock().unwrap().push(clip);
        Ok(())
    }
    fn stop(&self) {
        *self.stops.lock().unwrap() += 1;
    }
    fn is_idle(&self) -> bool {
        true
    }
}

impl RecordingSink {
    fn lengths(&self) -> Vec<usize> {
        self.clips
            .lock()
            .unwrap()
            .iter()
            .map(|c| c.samples.len())
            .collect()
    }
}

/// A command provider whose clip has one sample per byte of text (sox), logging each run in
/// `runs`, failing on text containing FAIL, sleeping `delay` first.
fn tone_synth(dir: &Path, delay: &str) -> Arc<Synthesizer> {
    let runs = dir.join("runs");
    let command = format!(
        "sleep {delay}; cat {{input_path}} >> '{}'; echo >> '{}'; \
         if grep -q FAIL {{input_path}}; then echo refused >&2; exit 2; fi; \
         sox -r 8000 -n -r 8000 -c 1 -b 16 {{output_path}} synth \"$(wc -c < {{input_path}})s\" sine 440",
        runs.display(),
        runs.display()
    );
    Arc::new(Synthesizer::from_command(
        CommandTts {
            name: "tone".into(),
            command,
            format: "wav".into(),
            timeout: Duration::from_secs(30),
            voice: String::new(),
            model: String::new(),
            speed: 1.0,
        },
        5000,
    ))
}

fn runs(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join("runs"))
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

fn drain(rx: &mut mpsc::UnboundedReceiver<SpeechEvent>) -> Vec<SpeechEvent> {
    let mut out = Vec::new();
    while let Ok(e) = rx.try_recv() {
        out.push(e);
    }
    out
}

const THREE: [&str; 3] = [
    "The first sentence is right here.",
    "A second, somewhat longer sentence follows it.",
    "Third and last.",
];

#[tokio::test]
async fn sentences_play_in_order_with_their_own_audio() {
    let dir = tempfile::tempdir().unwrap();
    let sink = Arc::new(RecordingSink::default());
    let (tx, mut rx) = mpsc::unbounded_channel();
    let options = SpeakerOptions {
        events: Some(tx),
        lookahead: 2,
        min_sentence_chars: 0,
        ..SpeakerOptions::default()
    };
    let mut speaker = Speaker::start(tone_synth(dir.path(), "0"), Arc::clone(&sink) as _, options);
    for word in THREE.join(" ").split_inclusive(' ') {
        speaker.push_delta(word);
    }
    speaker.wait().await;
    let expected: Vec<usize> = THREE.iter().map(|s| s.len()).collect();
    assert_eq!(sink.lengths(), expected);
    let events = drain(&mut rx);
    let firsts: Vec<usize> = events
        .iter()
        .filter_map(|e| match e {
            SpeechEvent::FirstAudio { index, .. } => Some(*index),
            _ => None,
        })
        .collect();
    assert_eq!(firsts, vec![0, 1, 2]);
    assert_eq!(events.last(), Some(&SpeechEvent::Done { stopped: false }));
    assert_eq!(*sink.stops.lock().unwrap(), 0);
}

#[tokio::test]
async fn the_cache_skips_the_provider_the_second_time() {
    let dir = tempfile::tempdir().unwrap();
    let cache = AudioCache::new(dir.path().join("audio_cache"));
    let synth = tone_synth(dir.path(), "0");
    for round in 0..2 {
        let sink = Arc::new(RecordingSink::default());
        let (tx, mut rx) = mpsc::unbounded_channel();
        let options = SpeakerOptions {
            cache: Some(cache.clone()),
            events: Some(tx),
            ..SpeakerOptions::default()
        };
        let mut speaker = Speaker::start(Arc::clone(&synth), Arc::clone(&sink) as _, options);
        speaker.push_delta(THREE[1]);
        speaker.wait().await;
        assert_eq!(sink.lengths(), vec![THREE[1].len()], "round {round}");
        let from_cache = drain(&mut rx).iter().any(|e| {
            matches!(
                e,
                SpeechEvent::FirstAudio {
                    from_cache: true,
                    ..
                }
            )
        });
        assert_eq!(from_cache, round == 1);
    }
    assert_eq!(runs(dir.path()), vec![THREE[1]], "synthesised once");
}

#[tokio::test]
async fn a_failed_sentence_is_reported_and_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let sink = Arc::new(RecordingSink::default());
    let (tx, mut rx) = mpsc::unbounded_channel();
    let options = SpeakerOptions {
        events: Some(tx),
        ..SpeakerOptions::default()
    };
    let mut speaker = Speaker::start(tone_synth(dir.path(), "0"), Arc::clone(&sink) as _, options);
    speaker.push_delta("This sentence will FAIL in the provider. ");
    speaker.push_delta("But this one is spoken all the same.");
    speaker.wait().await;
    assert_eq!(
        sink.lengths(),
        vec!["But this one is spoken all the same.".len()]
    );
    let failed: Vec<_> = drain(&mut rx)
        .into_iter()
        .filter_map(|e| match e {
            SpeechEvent::Failed { index, error } => Some((index, error.to_string())),
            _ => None,
        })
        .collect();
    assert_eq!(failed.len(), 1);
    assert_eq!(failed[0].0, 0);
    assert!(failed[0].1.contains("refused"), "{}", failed[0].1);
}

#[tokio::test]
async fn stop_silences_at_once_and_synthesises_nothing_more() {
    let dir = tempfile::tempdir().unwrap();
    let sink = Arc::new(RecordingSink::default());
    let (tx, mut rx) = mpsc::unbounded_channel();
    let options = SpeakerOptions {
        events: Some(tx),
        lookahead: 1,
        ..SpeakerOptions::default()
    };
    let mut speaker = Speaker::start(
        tone_synth(dir.path(), "0.4"),
        Arc::clone(&sink) as _,
        options,
    );
    let handle = speaker.stop_handle();
    for i in 0..6 {
        speaker.push_delta(&format!("This is sentence number {i} of the reply. "));
    }
    // Wait for the first audio, then stop from the handle.
    loop {
        match rx.recv().await.unwrap() {
            SpeechEvent::FirstAudio { index: 0, .. } => break,
            _ => continue,
        }
    }
    handle.stop();
    let played = sink.lengths().len();
    assert!(speaker.is_stopped());
    speaker.push_delta("Ignored after the stop, this sentence is never spoken. ");
    speaker.wait().await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(sink.lengths().len(), played, "nothing played after stop");
    assert_eq!(*sink.stops.lock().unwrap(), 1);
    // At most sentence 0 and the lookahead sentence 1 were started (2 runs), never more.
    let started = runs(dir.path()).len();
    assert!(
        started <= 2,
        "{started} syntheses started: {:?}",
        runs(dir.path())
    );
    let events = drain(&mut rx);
    assert!(
        events.contains(&SpeechEvent::Done { stopped: true }),
        "{events:?}"
    );
}

#[tokio::test]
async fn a_sink_without_a_device_stops_the_speaker() {
    let dir = tempfile::tempdir().unwrap();
    let sink = Arc::new(RecordingSink {
        refuse: true,
        ..RecordingSink::default()
    });
    let (tx, mut rx) = mpsc::unbounded_channel();
    let options = SpeakerOptions {
        events: Some(tx),
        ..SpeakerOptions::default()
    };
    let mut speaker = Speaker::start(tone_synth(dir.path(), "0"), Arc::clone(&sink) as _, options);
    speaker.push_delta(&THREE.join(" "));
    speaker.wait().await;
    let events = drain(&mut rx);
    assert!(
        events.iter().any(|e| matches!(
            e,
            SpeechEvent::Failed {
                error: SynthError::Playback(_),
                ..
            }
        )),
        "{events:?}"
    );
    assert!(events.contains(&SpeechEvent::Done { stopped: true }));
}
