use super::*;
use crate::voice::playback::WavSink;

fn home() -> (tempfile::TempDir, HermesHome) {
    let dir = tempfile::tempdir().unwrap();
    let home = HermesHome::from_base(dir.path(), None).unwrap();
    (dir, home)
}

#[test]
fn the_model_list_marks_the_configured_and_installed_models() {
    let (_dir, home) = home();
    let config = Config::default();
    let path = super::super::stt::models::model_path(&home, "tiny.en");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, vec![0u8; 3 * 1024 * 1024]).unwrap();
    let text = models_text(&home, &config);
    assert!(text.contains("* base.en"), "{text}");
    assert!(text.contains("tiny.en          installed, 3 MiB"), "{text}");
    assert!(text.contains("large-v3"), "{text}");
    assert!(text.contains("hermes voice models download NAME"), "{text}");
}

#[test]
fn record_and_play_records_the_asked_length_and_plays_it_back() {
    let tone: Vec<i16> = (0..48_000)
        .map(|i| ((i as f64 * 0.2).sin() * 8_000.0) as i16)
        .collect();
    let mut microphone = crate::voice::capture::WavCapture::from_samples(
        "tone.wav",
        tone,
        crate::voice::capture::Pacing::Unpaced,
    );
    let sink = Arc::new(WavSink::new(crate::voice::capture::Pacing::Unpaced));
    let report = record_and_play(
        &mut microphone,
        Some(Arc::clone(&sink) as _),
        Duration::from_secs(2),
    )
    .unwrap();
    assert_eq!(report.recorded, Duration::from_secs(2));
    assert!(report.peak_rms > 5_000.0, "{report:?}");
    assert_eq!(sink.samples().len(), 32_000);
}

#[tokio::test]
async fn say_writes_a_wav_with_the_command_provider() {
    if !std::path::Path::new("/usr/bin/espeak-ng").is_file() {
        eprintln!("skipping: espeak-ng is not installed (scripts/test.sh installs it)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("hello.wav");
    let mut config = Config::default();
    config.tts.provider = "espeak".into();
    config.tts.providers.insert(
        "espeak".into(),
        crate::config::TtsCommandConfig {
            command: "espeak-ng -w {output_path} -f {input_path}".into(),
            output_format: "wav".into(),
            ..Default::default()
        },
    );
    let env = EnvLookup::from_maps(Default::default(), Default::default());
    let no_speaker = || -> Result<Arc<dyn AudioSink>, AudioError> {
        Err(AudioError::NoDevice("not in this test".into()))
    };
    let report = say(
        "Hello from the test.",
        Some(&out),
        &config,
        &env,
        &no_speaker,
    )
    .await
    .unwrap();
    assert_eq!(report.provider, "espeak");
    assert!(report.audio > Duration::from_millis(500), "{report:?}");
    let clip = crate::voice::wav::read_clip(&out).unwrap();
    assert!(!clip.samples.is_empty());
}
