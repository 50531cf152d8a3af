use crossterm::event::KeyModifiers;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use super::*;
use crate::protocol::Yolo;

fn info() -> SessionInfo {
    SessionInfo {
        sandbox: String::new(),
        session_id: "s".into(),
        model: "gpt-4.1".into(),
        provider: "openai-api".into(),
        base_url: "https://api.openai.com/v1".into(),
        cwd: "/w".into(),
        tools: Vec::new(),
        context_window: 128_000,
        yolo: Yolo::Off,
        title: None,
        resumed_messages: 0,
        slash_commands: Vec::new(),
    }
}

fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

fn env(key: &str) -> Option<String> {
    matches!(key, "OPENAI_API_KEY" | "OPENROUTER_API_KEY").then(|| "sk-x".to_string())
}

#[test]
fn lists_current_model_and_providers_with_keys() {
    let picker = ModelPicker::new(Some(&info()), &env);
    let labels: Vec<&str> = picker.entries().iter().map(|e| e.label.as_str()).collect();
    assert_eq!(
        labels,
        [
            "gpt-4.1 (openai-api)",
            "anthropic/claude-sonnet-4 (OpenRouter)"
        ],
        "the current model is first; openai's default is not repeated; no key, no entry"
    );
}

#[test]
fn choosing_an_entry_switches_and_the_current_one_just_closes() {
    let mut picker = ModelPicker::new(Some(&info()), &env);
    assert!(matches!(
        picker.handle_key(key(KeyCode::Enter)),
        OverlayAction::Close
    ));
    assert!(matches!(
        picker.handle_key(key(KeyCode::Down)),
        OverlayAction::None
    ));
    assert!(!picker.is_complete());
    let OverlayAction::Send(op) = picker.handle_key(key(KeyCode::Enter)) else {
        panic!("Enter on another entry switches");
    };
    assert_eq!(
        op,
        Op::SwitchModel(ModelSelection {
            model: "anthropic/claude-sonnet-4".into(),
            provider: Some("openrouter".into()),
            base_url: None,
        })
    );
    assert!(picker.is_complete(), "the picker closes after switching");
    assert!(matches!(
        picker.handle_key(key(KeyCode::Esc)),
        OverlayAction::Close
    ));
}

#[test]
fn local_servers_add_one_entry_per_model() {
    let mut picker = ModelPicker::new(None, &|_| None);
    picker.add_local_servers(&[LocalServer {
        name: "Ollama".into(),
        base_url: "http://127.0.0.1:11434/v1".into(),
        models: vec!["qwen2.5:7b".into(), "llama3".into()],
    }]);
    assert_eq!(picker.entries().len(), 2);
    assert_eq!(
        picker.entries()[0].selection,
        ModelSelection {
            model: "qwen2.5:7b".into(),
            provider: Some("custom".into()),
            base_url: Some("http://127.0.0.1:11434/v1".into()),
        }
    );
}

#[test]
fn snapshot_model_picker() {
    let mut picker = ModelPicker::new(Some(&info()), &env);
    picker.add_local_servers(&[LocalServer {
        name: "llama-server".into(),
        base_url: "http://127.0.0.1:8080/v1".into(),
        models: vec!["qwen3-8b".into()],
    }]);
    picker.handle_key(key(KeyCode::Down));
    let mut terminal = Terminal::new(TestBackend::new(90, 14)).unwrap();
    terminal
        .draw(|f| picker.render(f.area(), f.buffer_mut(), &Theme::default()))
        .unwrap();
    insta::assert_snapshot!("model_picker", terminal.backend());
}
