use crossterm::event::KeyCode;
use crossterm::event::KeyEvent;
use crossterm::event::KeyModifiers;
use pretty_assertions::assert_eq;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use super::*;
use crate::config::HermesHome;
use crate::theme::Theme;

fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

fn press(o: &mut Onboarding, code: KeyCode) -> OverlayAction {
    o.handle_key(key(code))
}

fn type_text(o: &mut Onboarding, text: &str) {
    for c in text.chars() {
        press(o, KeyCode::Char(c));
    }
}

fn ollama() -> LocalServer {
    LocalServer {
        name: "Ollama".into(),
        base_url: "http://127.0.0.1:11434/v1".into(),
        models: vec![
            "qwen2.5:7b".into(),
            "llama3.2:3b".into(),
            "hermes3:8b".into(),
        ],
    }
}

fn snapshot(o: &Onboarding, name: &str) {
    let mut terminal = Terminal::new(TestBackend::new(84, 20)).unwrap();
    let theme = Theme::default();
    terminal
        .draw(|f| o.draw(f.area(), f.buffer_mut(), &theme))
        .unwrap();
    insta::assert_snapshot!(name, terminal.backend());
}

#[test]
fn hosted_flow_key_then_model_then_test() {
    let mut o = Onboarding::new();
    assert_eq!(press(&mut o, KeyCode::Down), OverlayAction::None);
    press(&mut o, KeyCode::Enter); // OpenAI
    assert_eq!(o.step(), &Step::ApiKey);
    // An empty key is refused with a hint.
    assert_eq!(press(&mut o, KeyCode::Enter), OverlayAction::None);
    assert_eq!(o.step(), &Step::ApiKey);
    type_text(&mut o, "sk-test-1234");
    press(&mut o, KeyCode::Enter);
    assert_eq!(o.step(), &Step::Model);
    let action = press(&mut o, KeyCode::Enter);
    let expected = ProviderChoice {
        provider: "openai-api".into(),
        base_url: None,
        api_key: Some("sk-test-1234".into()),
        api_key_env: Some("OPENAI_API_KEY"),
        model: "gpt-4.1".into(),
    };
    assert!(
        matches!(&action, OverlayAction::App(AppEvent::TestConnection(choice)) if *choice == expected),
        "{action:?}"
    );
    assert_eq!(o.step(), &Step::Testing);
    assert_eq!(o.result(), None);
    o.set_test_result(Ok(()));
    assert!(o.is_done());
    assert_eq!(o.result(), Some(&expected));
}

#[test]
fn default_models_per_hosted_provider() {
    for (row, model) in [
        (0, "anthropic/claude-sonnet-4"),
        (1, "gpt-4.1"),
        (2, "claude-sonnet-4-20250514"),
        (3, "Hermes-4-405B"),
    ] {
        let mut o = Onboarding::new();
        for _ in 0..row {
            press(&mut o, KeyCode::Down);
        }
        press(&mut o, KeyCode::Enter);
        type_text(&mut o, "k");
        press(&mut o, KeyCode::Enter);
        let OverlayAction::App(AppEvent::TestConnection(choice)) = press(&mut o, KeyCode::Enter)
        else {
            panic!("expected a test");
        };
        assert_eq!(choice.model, model);
        assert_eq!(choice.provider, HOSTED[row].id);
    }
}

#[test]
fn failure_shows_error_and_goes_back_with_entries_kept() {
    let mut o = Onboarding::new();
    press(&mut o, KeyCode::Enter);
    type_text(&mut o, "bad");
    press(&mut o, KeyCode::Enter);
    press(&mut o, KeyCode::Enter);
    o.set_test_result(Err("the key was rejected (HTTP 401)".into()));
    assert_eq!(
        o.step(),
        &Step::Failed("the key was rejected (HTTP 401)".into())
    );
    assert_eq!(o.result(), None);
    press(&mut o, KeyCode::Enter);
    assert_eq!(o.step(), &Step::ApiKey);
    type_text(&mut o, "-fixed");
    press(&mut o, KeyCode::Enter);
    let OverlayAction::App(AppEvent::TestConnection(choice)) = press(&mut o, KeyCode::Enter) else {
        panic!("expected a test");
    };
    assert_eq!(choice.api_key.as_deref(), Some("bad-fixed"));
    // Esc from a failure returns to the list.
    o.set_test_result(Err("nope".into()));
    press(&mut o, KeyCode::Esc);
    assert_eq!(o.step(), &Step::Choose);
}

#[test]
fn late_test_result_is_ignored_after_leaving_the_testing_step() {
    let mut o = Onboarding::new();
    press(&mut o, KeyCode::Enter);
    type_text(&mut o, "k");
    press(&mut o, KeyCode::Enter);
    press(&mut o, KeyCode::Enter);
    press(&mut o, KeyCode::Esc);
    assert_eq!(o.step(), &Step::Model);
    o.set_test_result(Ok(()));
    assert_eq!(o.step(), &Step::Model);
    assert!(!o.is_done());
}

#[test]
fn esc_walks_back_and_cancels_on_the_first_step() {
    let mut o = Onboarding::new();
    press(&mut o, KeyCode::Enter);
    press(&mut o, KeyCode::Esc);
    assert_eq!(o.step(), &Step::Choose);
    assert!(matches!(
        press(&mut o, KeyCode::Esc),
        OverlayAction::App(AppEvent::Quit)
    ));
    let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
    let mut o = Onboarding::new();
    press(&mut o, KeyCode::Enter);
    assert!(matches!(
        o.handle_key(ctrl_c),
        OverlayAction::App(AppEvent::Quit)
    ));
}

#[test]
fn custom_flow_url_optional_key_model() {
    let mut o = Onboarding::new();
    for _ in 0..4 {
        press(&mut o, KeyCode::Down);
    }
    press(&mut o, KeyCode::Enter);
    assert_eq!(o.step(), &Step::BaseUrl);
    type_text(&mut o, "not a url");
    press(&mut o, KeyCode::Enter);
    assert_eq!(o.step(), &Step::BaseUrl);
    let clear = KeyEvent::new(KeyCode::Char('u'), KeyModifiers::CONTROL);
    o.handle_key(clear);
    o.paste_into_field("http://10.0.0.5:9000/v1/\n");
    press(&mut o, KeyCode::Enter);
    assert_eq!(o.step(), &Step::ApiKey);
    press(&mut o, KeyCode::Enter); // no key
    assert_eq!(o.step(), &Step::Model);
    assert_eq!(press(&mut o, KeyCode::Enter), OverlayAction::None); // empty model refused
    type_text(&mut o, "my-model");
    let OverlayAction::App(AppEvent::TestConnection(choice)) = press(&mut o, KeyCode::Enter) else {
        panic!("expected a test");
    };
    assert_eq!(
        choice,
        ProviderChoice {
            provider: "custom".into(),
            base_url: Some("http://10.0.0.5:9000/v1".into()),
            api_key: None,
            api_key_env: None,
            model: "my-model".into(),
        }
    );
    // Esc from the model goes back through the key to the URL.
    press(&mut o, KeyCode::Esc);
    press(&mut o, KeyCode::Esc);
    assert_eq!(o.step(), &Step::ApiKey);
    press(&mut o, KeyCode::Esc);
    assert_eq!(o.step(), &Step::BaseUrl);
}

#[test]
fn local_server_goes_straight_to_its_first_model() {
    let mut o = Onboarding::new();
    o.set_local_servers(vec![ollama()]);
    assert_eq!(o.entries().len(), 6);
    press(&mut o, KeyCode::End);
    press(&mut o, KeyCode::Enter);
    assert_eq!(o.step(), &Step::Model);
    press(&mut o, KeyCode::Down);
    press(&mut o, KeyCode::Down);
    press(&mut o, KeyCode::Up);
    let OverlayAction::App(AppEvent::TestConnection(choice)) = press(&mut o, KeyCode::Enter) else {
        panic!("expected a test");
    };
    assert_eq!(choice.provider, "custom");
    assert_eq!(
        choice.base_url.as_deref(),
        Some("http://127.0.0.1:11434/v1")
    );
    assert_eq!(choice.model, "llama3.2:3b");
    assert_eq!(choice.api_key, None);
}

#[test]
fn debug_never_prints_the_key() {
    let choice = ProviderChoice {
        provider: "openrouter".into(),
        base_url: None,
        api_key: Some("sk-or-secret".into()),
        api_key_env: Some("OPENROUTER_API_KEY"),
        model: "m".into(),
    };
    let debug = format!("{choice:?}");
    assert!(!debug.contains("sk-or-secret"), "{debug}");
    assert!(debug.contains("***"));
}

#[test]
fn save_choice_writes_env_0600_and_config_keys() {
    let dir = tempfile::tempdir().unwrap();
    let home = HermesHome::from_base(dir.path(), None).unwrap();
    std::fs::write(
        home.config_path(),
        "# mine\nmodel:\n  default: old\n  base_url: http://stale/v1\n",
    )
    .unwrap();
    let choice = ProviderChoice {
        provider: "openrouter".into(),
        base_url: None,
        api_key: Some("sk-or-123".into()),
        api_key_env: Some("OPENROUTER_API_KEY"),
        model: "anthropic/claude-sonnet-4".into(),
    };
    save_choice(&home, &choice).unwrap();
    let env = std::fs::read_to_string(home.env_path()).unwrap();
    assert_eq!(env.trim(), "OPENROUTER_API_KEY=sk-or-123");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(home.env_path())
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    let loaded = crate::config::load(&home);
    assert_eq!(loaded.config.model.provider, "openrouter");
    assert_eq!(loaded.config.model.default, "anthropic/claude-sonnet-4");
    assert_eq!(
        loaded.config.model.base_url, "",
        "a stale base URL is cleared"
    );
    let text = std::fs::read_to_string(home.config_path()).unwrap();
    assert!(text.starts_with("# mine\n"), "comments kept: {text}");
    assert!(
        !text.contains("sk-or-123"),
        "the key stays out of config.yaml"
    );

    let local = ProviderChoice {
        provider: "custom".into(),
        base_url: Some("http://127.0.0.1:11434/v1".into()),
        api_key: None,
        api_key_env: None,
        model: "qwen2.5:7b".into(),
    };
    save_choice(&home, &local).unwrap();
    let loaded = crate::config::load(&home);
    assert_eq!(loaded.config.model.provider, "custom");
    assert_eq!(loaded.config.model.base_url, "http://127.0.0.1:11434/v1");
    assert_eq!(loaded.config.model.default, "qwen2.5:7b");
}

#[test]
fn snapshots_of_each_step() {
    let mut o = Onboarding::new();
    snapshot(&o, "onboarding_choose_searching");
    o.set_local_servers(vec![ollama()]);
    press(&mut o, KeyCode::Down);
    snapshot(&o, "onboarding_choose_with_local_server");
    let mut none = Onboarding::new();
    none.set_local_servers(Vec::new());
    snapshot(&none, "onboarding_choose_no_local_server");

    press(&mut o, KeyCode::Up);
    press(&mut o, KeyCode::Enter);
    type_text(&mut o, "sk-or-v1-abcdef");
    snapshot(&o, "onboarding_api_key_masked");
    press(&mut o, KeyCode::Enter);
    snapshot(&o, "onboarding_model");
    press(&mut o, KeyCode::Enter);
    snapshot(&o, "onboarding_testing");
    o.set_test_result(Err(
        "the key was rejected (HTTP 401); check it and try again".into(),
    ));
    snapshot(&o, "onboarding_failed");
}
