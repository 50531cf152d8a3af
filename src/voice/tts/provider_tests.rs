use std::collections::BTreeMap;

use super::*;
use crate::config::TtsCommandConfig;

fn env(pairs: &[(&str, &str)]) -> EnvLookup {
    let map: BTreeMap<String, String> = pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    EnvLookup::from_maps(map, BTreeMap::new())
}

fn config(provider: &str) -> TtsConfig {
    TtsConfig {
        provider: provider.into(),
        ..TtsConfig::default()
    }
}

fn with_command(name: &str, entry: TtsCommandConfig) -> TtsConfig {
    let mut c = config(name);
    c.providers.insert(name.into(), entry);
    c
}

fn espeak() -> TtsCommandConfig {
    TtsCommandConfig {
        command: "espeak-ng -w {output_path} -f {input_path}".into(),
        output_format: "WAV".into(),
        ..TtsCommandConfig::default()
    }
}

fn command_of(s: &Synthesizer) -> &CommandTts {
    match &s.backend {
        Backend::Command(c) => c,
        _ => panic!("not a command provider"),
    }
}

#[test]
fn openai_needs_a_key_and_prefers_the_voice_tools_key() {
    let err = Synthesizer::from_config(&config("openai"), &env(&[])).unwrap_err();
    assert!(matches!(err, SynthError::MissingKey { .. }), "{err:?}");
    assert!(err.to_string().contains("VOICE_TOOLS_OPENAI_KEY"), "{err}");
    let key_of = |s: &Synthesizer| match &s.backend {
        Backend::OpenAi(api) => api.key.clone(),
        _ => panic!("not openai"),
    };
    let s =
        Synthesizer::from_config(&config("openai"), &env(&[("OPENAI_API_KEY", "sk-b")])).unwrap();
    assert_eq!(key_of(&s), "sk-b");
    let both = env(&[
        ("OPENAI_API_KEY", "sk-b"),
        ("VOICE_TOOLS_OPENAI_KEY", "sk-a"),
    ]);
    let s = Synthesizer::from_config(&config("openai"), &both).unwrap();
    assert_eq!(key_of(&s), "sk-a");
    assert_eq!(s.provider(), "openai");
    assert_eq!(s.max_text_length(), 4096);
    assert!(
        !format!("{s:?}").contains("sk-a"),
        "Debug must not show the key"
    );
}

#[test]
fn elevenlabs_needs_its_key_and_caps_by_model() {
    let err = Synthesizer::from_config(&config("elevenlabs"), &env(&[])).unwrap_err();
    assert!(err.to_string().contains("ELEVENLABS_API_KEY"), "{err}");
    let mut c = config("elevenlabs");
    c.elevenlabs.model_id = "eleven_flash_v2_5".into();
    let s = Synthesizer::from_config(&c, &env(&[("ELEVENLABS_API_KEY", "xi")])).unwrap();
    assert_eq!(s.max_text_length(), 40_000);
    c.elevenlabs.max_text_length = serde_norway::Value::Bool(true);
    let s = Synthesizer::from_config(&c, &env(&[("ELEVENLABS_API_KEY", "xi")])).unwrap();
    assert_eq!(
        s.max_text_length(),
        40_000,
        "a boolean falls back to the model default"
    );
}

#[test]
fn edge_is_configured_from_tts_edge() {
    let c = TtsConfig {
        speed: 1.5,
        ..TtsConfig::default()
    };
    let s = Synthesizer::from_config(&c, &env(&[])).unwrap();
    assert_eq!(s.provider(), "edge");
    assert_eq!(s.max_text_length(), 5000);
    assert!(s.identity().contains(super::super::edge::DEFAULT_URL));
    assert!(s.identity().contains("en-US-AriaNeural"));
    let s = Synthesizer::from_config(&c, &env(&[("HERMES_EDGE_TTS_URL", "ws://127.0.0.1:9/x")]))
        .unwrap();
    assert!(
        s.identity().contains("ws://127.0.0.1:9/x"),
        "{}",
        s.identity()
    );
}

#[test]
fn unknown_providers_are_named() {
    let err = Synthesizer::from_config(&config("nope"), &env(&[])).unwrap_err();
    assert_eq!(err, SynthError::UnknownProvider("nope".into()));
}

#[test]
fn built_in_names_win_over_command_entries() {
    let c = with_command("openai", espeak());
    let err = Synthesizer::from_config(&c, &env(&[])).unwrap_err();
    assert!(matches!(err, SynthError::MissingKey { .. }), "{err:?}");
}

#[test]
fn command_entries_resolve_format_timeout_speed_and_cap() {
    let mut c = with_command("espeak", espeak());
    c.speed = 1.5;
    let s = Synthesizer::from_config(&c, &env(&[])).unwrap();
    let cmd = command_of(&s);
    assert_eq!(cmd.format, "wav");
    assert_eq!(cmd.timeout, Duration::from_secs(120));
    assert_eq!(cmd.speed, 1.5, "the global speed applies");
    assert_eq!(s.max_text_length(), limits::COMMAND_DEFAULT);

    let mut entry = espeak();
    entry.output_format = String::new();
    entry.timeout = 7;
    entry.speed = 0.8;
    entry.max_text_length = serde_norway::Value::Number(64.into());
    let s = Synthesizer::from_config(&with_command("espeak", entry), &env(&[])).unwrap();
    let cmd = command_of(&s);
    assert_eq!(cmd.format, "mp3");
    assert_eq!(cmd.timeout, Duration::from_secs(7));
    assert_eq!(cmd.speed, 0.8, "the provider's own speed wins");
    assert_eq!(s.max_text_length(), 64);

    let mut entry = espeak();
    entry.max_text_length = serde_norway::Value::Number((-3).into());
    let s = Synthesizer::from_config(&with_command("espeak", entry), &env(&[])).unwrap();
    assert_eq!(s.max_text_length(), limits::COMMAND_DEFAULT);
}

#[test]
fn bad_command_entries_are_config_errors() {
    let mut entry = espeak();
    entry.command = "  ".into();
    let err = Synthesizer::from_config(&with_command("x", entry), &env(&[])).unwrap_err();
    assert!(
        err.to_string().contains("tts.providers.x.command is empty"),
        "{err}"
    );
    let mut entry = espeak();
    entry.kind = "plugin".into();
    let err = Synthesizer::from_config(&with_command("x", entry), &env(&[])).unwrap_err();
    assert!(err.to_string().contains("only `command`"), "{err}");
}

#[test]
fn identity_changes_with_voice_and_speed() {
    let e = env(&[("OPENAI_API_KEY", "sk-secret-123")]);
    let a = Synthesizer::from_config(&config("openai"), &e).unwrap();
    let mut c = config("openai");
    c.openai.voice = "nova".into();
    let b = Synthesizer::from_config(&c, &e).unwrap();
    c.openai.speed = 1.25;
    let d = Synthesizer::from_config(&c, &e).unwrap();
    assert_ne!(a.identity(), b.identity());
    assert_ne!(b.identity(), d.identity());
    assert!(
        !a.identity().contains("sk-secret-123"),
        "no key in the identity"
    );
}

#[tokio::test]
async fn text_is_truncated_before_the_command_runs() {
    let dir = tempfile::tempdir().unwrap();
    let seen = dir.path().join("seen.txt");
    let mut entry = espeak();
    entry.command = format!(
        "cp {{input_path}} '{}'; espeak-ng -w {{output_path}} -f {{input_path}}",
        seen.display()
    );
    entry.max_text_length = serde_norway::Value::Number(12.into());
    let s = Synthesizer::from_config(&with_command("espeak", entry), &env(&[])).unwrap();
    let clip = s
        .synthesize(
            "Twelve chars and then much more text.",
            &CancellationToken::new(),
        )
        .await
        .unwrap();
    assert!(!clip.samples.is_empty());
    assert_eq!(std::fs::read_to_string(&seen).unwrap(), "Twelve chars");
}
