//! Speech to text with the real whisper tiny.en model on espeak-ng speech (spec-002c §3).
//!
//! `WHISPER_TEST_MODEL` is the path of `ggml-tiny.en.bin` built by
//! `scripts/whisper-test-model/make-test-model.sh` (scripts/test.sh builds it and sets the
//! variable); without it these tests print why they skip and pass. They need `espeak-ng` and
//! `sox` (scripts/lib.sh TEST_PACKAGES). Each prints the real-time factor (transcription time
//! / audio duration).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use hermes::config::{HermesHome, SttConfig};
use hermes::voice::stt::{Filtered, SttProvider, Transcriber, select};

fn model() -> Option<PathBuf> {
    if !cfg!(feature = "whisper") {
        println!("skipping: this build has no local whisper (cargo feature `whisper`)");
        return None;
    }
    match std::env::var_os("WHISPER_TEST_MODEL").filter(|v| !v.is_empty()) {
        Some(path) => Some(PathBuf::from(path)),
        None => {
            println!(
                "skipping: WHISPER_TEST_MODEL is not set (scripts/test.sh builds it: \
                 bash scripts/whisper-test-model/make-test-model.sh PATH)"
            );
            None
        }
    }
}

/// `text` spoken by espeak-ng, as 16 kHz mono i16.
fn speak(dir: &Path, text: &str) -> Vec<i16> {
    let raw = dir.join("espeak.wav");
    let wav = dir.join("speech16k.wav");
    let status = Command::new("espeak-ng")
        .args(["-v", "en-us", "-s", "150", "-w"])
        .arg(&raw)
        .arg(text)
        .status()
        .expect("espeak-ng is needed (scripts/lib.sh TEST_PACKAGES)");
    assert!(status.success(), "espeak-ng failed");
    let status = Command::new("sox")
        .arg(&raw)
        .args(["-r", "16000", "-c", "1", "-b", "16"])
        .arg(&wav)
        .status()
        .expect("sox is needed (scripts/lib.sh TEST_PACKAGES)");
    assert!(status.success(), "sox failed");
    let reader = hound::WavReader::open(&wav).unwrap();
    let spec = reader.spec();
    assert_eq!((spec.sample_rate, spec.channels), (16_000, 1));
    reader.into_samples().map(Result::unwrap).collect()
}

fn local_engine(model: &Path, dir: &Path) -> Transcriber {
    let home = HermesHome::from_base(dir.join("home"), None).unwrap();
    let mut config = SttConfig::default();
    config.local.model = model.to_string_lossy().into_owned();
    config.local.language = "en".into();
    let env = |_: &str| None;
    let selected = select(&config, &home, &env).unwrap();
    assert_eq!(selected.transcriber.provider(), SttProvider::Local);
    assert!(selected.fallback_note.is_none());
    selected.transcriber
}

fn duration_of(samples: &[i16]) -> Duration {
    Duration::from_secs_f64(samples.len() as f64 / 16_000.0)
}

/// How many of `words` occur in `text` (case-insensitive, whole words).
fn words_heard(text: &str, words: &[&str]) -> usize {
    let heard: Vec<String> = text
        .split(|c: char| !c.is_alphanumeric())
        .map(str::to_lowercase)
        .collect();
    words
        .iter()
        .filter(|w| heard.iter().any(|h| h == *w))
        .count()
}

#[tokio::test]
async fn tiny_en_transcribes_espeak_speech() {
    let Some(model) = model() else { return };
    let dir = tempfile::tempdir().unwrap();
    let engine = local_engine(&model, dir.path());

    let load_started = Instant::now();
    engine.preload().await.unwrap();
    let load = load_started.elapsed();

    let cases: [(&str, &[&str]); 3] = [
        (
            "Please open the settings file.",
            &["please", "open", "settings", "file"],
        ),
        (
            "Create a new branch and commit the changes.",
            &["create", "new", "branch", "commit", "changes"],
        ),
        (
            "What is the weather like in Paris today?",
            &["what", "weather", "like", "paris", "today"],
        ),
    ];
    for (sentence, key_words) in cases {
        let samples = speak(dir.path(), sentence);
        let audio = duration_of(&samples);
        let transcript = engine.transcribe(&samples).await.unwrap();
        let rtf = transcript.elapsed.as_secs_f64() / audio.as_secs_f64();
        println!(
            "tiny.en: {:.2} s of speech in {:.2} s (RTF {rtf:.2}, {} threads; model load {:.2} s): {:?}",
            audio.as_secs_f64(),
            transcript.elapsed.as_secs_f64(),
            hermes::voice::stt::whisper::thread_count(),
            load.as_secs_f64(),
            transcript.text
        );
        let heard = words_heard(&transcript.text, key_words);
        assert!(
            heard + 1 >= key_words.len(),
            "heard {heard} of {key_words:?} in {:?}",
            transcript.text
        );
        let Filtered::Speech(text) = transcript.filtered() else {
            panic!("real speech was filtered out: {:?}", transcript.text);
        };
        assert_eq!(words_heard(&text, key_words), heard);
    }
}

#[tokio::test]
async fn silence_and_noise_yield_nothing_for_the_agent() {
    let Some(model) = model() else { return };
    let dir = tempfile::tempdir().unwrap();
    let engine = local_engine(&model, dir.path());
    let silence = vec![0i16; 16_000 * 3];
    let transcript = engine.transcribe(&silence).await.unwrap();
    println!("tiny.en on 3 s of silence: {:?}", transcript.text);
    assert_eq!(transcript.filtered(), Filtered::Hallucination);

    let mut seed = 0x2545_f491_u32;
    let hiss: Vec<i16> = (0..16_000 * 2)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            ((seed % 200) as i16) - 100
        })
        .collect();
    let transcript = engine.transcribe(&hiss).await.unwrap();
    println!("tiny.en on 2 s of faint hiss: {:?}", transcript.text);
    assert_eq!(transcript.filtered(), Filtered::Hallucination);
}

#[tokio::test]
async fn a_short_clip_is_padded_and_clones_share_the_model() {
    let Some(model) = model() else { return };
    let dir = tempfile::tempdir().unwrap();
    let engine = local_engine(&model, dir.path());
    let samples = speak(dir.path(), "Yes.");
    assert!(
        duration_of(&samples) < Duration::from_secs(1),
        "clip too long for this test"
    );
    let first = engine.transcribe(&samples).await.unwrap();
    let clone = engine.clone();
    let second = clone.transcribe(&samples).await.unwrap();
    println!(
        "tiny.en on {:.2} s: {:?} (first call {:.2} s with load, clone {:.2} s)",
        duration_of(&samples).as_secs_f64(),
        second.text,
        first.elapsed.as_secs_f64(),
        second.elapsed.as_secs_f64()
    );
    assert_eq!(first.text, second.text);
    assert!(
        words_heard(&second.text, &["yes"]) == 1,
        "{:?}",
        second.text
    );
}

#[tokio::test]
async fn a_file_without_weights_is_an_error_naming_it() {
    let Some(model) = model() else { return };
    let dir = tempfile::tempdir().unwrap();
    // The real header and vocabulary, then nothing: whisper.cpp must refuse it, not crash.
    let bytes = std::fs::read(&model).unwrap();
    let cut = dir.path().join("ggml-cut.bin");
    std::fs::write(&cut, &bytes[..1 << 20]).unwrap();
    let engine = local_engine(&cut, dir.path());
    let err = engine.transcribe(&[0i16; 16_000]).await.unwrap_err();
    let text = err.to_string();
    assert!(text.contains("ggml-cut.bin"), "{text}");
    assert!(text.contains("cut short"), "{text}");
    println!("cut model: {text}");
}
