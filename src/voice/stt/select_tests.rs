use std::collections::BTreeMap;

use super::*;

struct Fixture {
    _dir: tempfile::TempDir,
    home: HermesHome,
    env: BTreeMap<String, String>,
    config: SttConfig,
}

impl Fixture {
    fn new(provider: &str) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let home = HermesHome::from_base(dir.path(), None).unwrap();
        let config = SttConfig {
            provider: provider.into(),
            ..SttConfig::default()
        };
        Self {
            _dir: dir,
            home,
            env: BTreeMap::new(),
            config,
        }
    }

    fn set(&mut self, key: &str, value: &str) -> &mut Self {
        self.env.insert(key.into(), value.into());
        self
    }

    fn install_model(&self, name: &str) {
        let path = crate::voice::stt::models::model_path(&self.home, name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, crate::voice::stt::test_model::tiny_header()).unwrap();
    }

    fn select(&self) -> Result<Selected, SttError> {
        let env = |k: &str| self.env.get(k).cloned();
        select(&self.config, &self.home, &env)
    }
}

fn api_debug(selected: &Selected) -> String {
    let Transcriber::Api(api) = &selected.transcriber else {
        panic!("not an API engine: {:?}", selected.transcriber);
    };
    format!("{api:?}")
}

#[test]
fn groq_with_a_key_uses_config_model_and_url() {
    let mut f = Fixture::new("groq");
    f.set("GROQ_API_KEY", "gsk_1");
    let s = f.select().unwrap();
    assert_eq!(s.transcriber.provider(), SttProvider::Groq);
    assert!(s.fallback_note.is_none());
    let Transcriber::Api(api) = &s.transcriber else {
        panic!()
    };
    assert_eq!(
        api.url(),
        "https://api.groq.com/openai/v1/audio/transcriptions"
    );
    assert!(api_debug(&s).contains("whisper-large-v3-turbo"));
    assert!(api_debug(&s).contains("Some(\"en\")"));
}

#[test]
fn env_overrides_win_over_config() {
    let mut f = Fixture::new("groq");
    f.set("GROQ_API_KEY", "gsk_1")
        .set("STT_GROQ_MODEL", "whisper-large-v3")
        .set("GROQ_BASE_URL", "http://127.0.0.1:1/v1");
    let s = f.select().unwrap();
    let Transcriber::Api(api) = &s.transcriber else {
        panic!()
    };
    assert_eq!(api.url(), "http://127.0.0.1:1/v1/audio/transcriptions");
    assert!(api_debug(&s).contains("\"whisper-large-v3\""));

    let mut f = Fixture::new("openai");
    f.set("OPENAI_API_KEY", "sk-1")
        .set("STT_OPENAI_MODEL", "gpt-4o-transcribe")
        .set("STT_OPENAI_BASE_URL", "http://127.0.0.1:2/v1/");
    f.config.local.language = "auto".into();
    let s = f.select().unwrap();
    let Transcriber::Api(api) = &s.transcriber else {
        panic!()
    };
    assert_eq!(api.url(), "http://127.0.0.1:2/v1/audio/transcriptions");
    assert!(api_debug(&s).contains("gpt-4o-transcribe"));
    assert!(api_debug(&s).contains("language: None"));
}

#[test]
fn openai_prefers_voice_tools_key() {
    let mut f = Fixture::new("openai");
    f.set("VOICE_TOOLS_OPENAI_KEY", "sk-voice");
    assert_eq!(
        f.select().unwrap().transcriber.provider(),
        SttProvider::OpenAi
    );
    let mut f = Fixture::new("openai");
    f.set("OPENAI_API_KEY", "sk-main");
    assert_eq!(
        f.select().unwrap().transcriber.provider(),
        SttProvider::OpenAi
    );
}

#[test]
fn build_without_a_key_names_the_variable() {
    let f = Fixture::new("openai");
    let env = |_: &str| None;
    let err = build(SttProvider::OpenAi, &f.config, &f.home, &env).unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("VOICE_TOOLS_OPENAI_KEY or OPENAI_API_KEY"),
        "{text}"
    );
    let err = build(SttProvider::Groq, &f.config, &f.home, &env).unwrap_err();
    assert!(err.to_string().contains("GROQ_API_KEY"), "{err}");
}

#[cfg(feature = "whisper")]
#[test]
fn groq_without_a_key_falls_back_to_local_whisper() {
    let f = Fixture::new("groq");
    f.install_model("base.en");
    let s = f.select().unwrap();
    assert_eq!(s.transcriber.provider(), SttProvider::Local);
    let note = s.fallback_note.unwrap();
    assert!(note.contains("GROQ_API_KEY"), "{note}");
    assert!(note.contains("using local whisper"), "{note}");
}

#[test]
fn a_missing_model_falls_back_to_the_env_command_then_the_cloud() {
    let mut f = Fixture::new("local");
    f.set("HERMES_LOCAL_STT_COMMAND", "my-stt {input_path}")
        .set("GROQ_API_KEY", "gsk_1");
    let s = f.select().unwrap();
    assert_eq!(s.transcriber.provider(), SttProvider::LocalCommand);
    assert!(s.transcriber.describe().contains("my-stt {input_path}"));
    let note = s.fallback_note.unwrap();
    if cfg!(feature = "whisper") {
        assert!(
            note.contains("hermes voice models download base.en"),
            "{note}"
        );
    }

    let mut f = Fixture::new("local");
    f.set("GROQ_API_KEY", "gsk_1").set("OPENAI_API_KEY", "sk-1");
    assert_eq!(
        f.select().unwrap().transcriber.provider(),
        SttProvider::Groq
    );
}

#[test]
fn no_provider_at_all_explains_each() {
    let f = Fixture::new("local");
    let err = f.select().unwrap_err();
    assert!(matches!(err, SttError::NoProvider(_)), "{err:?}");
    let text = err.to_string();
    for needle in [
        "local:",
        "local_command:",
        "HERMES_LOCAL_STT_COMMAND",
        "GROQ_API_KEY",
        "OPENAI_API_KEY",
    ] {
        assert!(text.contains(needle), "{needle} missing in {text}");
    }
}

#[test]
fn config_command_wins_over_env_command() {
    let mut f = Fixture::new("local_command");
    f.config.local_command.command = "from-config {input_path}".into();
    f.set("HERMES_LOCAL_STT_COMMAND", "from-env");
    let s = f.select().unwrap();
    assert!(s.transcriber.describe().contains("from-config"));
    assert!(s.fallback_note.is_none());
}

#[test]
fn an_unknown_provider_is_an_error() {
    let f = Fixture::new("mistral");
    let err = f.select().unwrap_err();
    assert!(
        err.to_string().contains("unknown stt.provider `mistral`"),
        "{err}"
    );
}

#[cfg(not(feature = "whisper"))]
#[test]
fn without_whisper_local_says_how_to_get_it() {
    let f = Fixture::new("local");
    f.install_model("base.en");
    let env = |_: &str| None;
    let err = build(SttProvider::Local, &f.config, &f.home, &env).unwrap_err();
    assert!(matches!(err, SttError::NoLocalWhisper));
}
