use ratatui::Terminal;
use ratatui::backend::TestBackend;

use super::*;

fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

fn item(id: &str, title: Option<&str>, first: &str) -> SessionListItem {
    SessionListItem {
        id: id.into(),
        title: title.map(str::to_string),
        started: "2026-11-28 17:05".into(),
        message_count: 12,
        first_message: Some(first.into()),
    }
}

fn search(query: &str) -> OverlayAction {
    OverlayAction::Send(Op::ListSessions {
        query: query.into(),
        limit: 50,
    })
}

#[test]
fn typing_searches_and_stale_results_are_ignored() {
    let mut picker = SessionsPicker::new("");
    assert_eq!(picker.handle_key(key(KeyCode::Char('p'))), search("p"));
    assert_eq!(picker.handle_key(key(KeyCode::Char('a'))), search("pa"));
    picker.set_results("p", vec![item("old", None, "stale")]);
    assert_eq!(
        picker.handle_key(key(KeyCode::Enter)),
        OverlayAction::None,
        "stale results ignored"
    );
    picker.set_results(
        "pa",
        vec![
            item("s1", Some("parser work"), "fix"),
            item("s2", None, "pager"),
        ],
    );
    assert_eq!(picker.handle_key(key(KeyCode::Down)), OverlayAction::None);
    assert_eq!(
        picker.handle_key(key(KeyCode::Enter)),
        OverlayAction::Send(Op::ResumeSession {
            target: "s2".into()
        })
    );
    assert!(picker.is_complete(), "resuming closes the picker");
    assert_eq!(picker.handle_key(key(KeyCode::Backspace)), search("p"));
    assert_eq!(picker.handle_key(key(KeyCode::Esc)), OverlayAction::Close);
}

#[test]
fn snapshot_sessions_picker() {
    let mut picker = SessionsPicker::new("pars");
    picker.set_results(
        "pars",
        vec![
            item(
                "s1",
                Some("config parser refactor"),
                "find the config parser",
            ),
            item("s2", None, "why does the parser panic on tabs?"),
        ],
    );
    let mut terminal = Terminal::new(TestBackend::new(90, 12)).unwrap();
    terminal
        .draw(|f| picker.render(f.area(), f.buffer_mut(), &Theme::default()))
        .unwrap();
    insta::assert_snapshot!("sessions_picker", terminal.backend());
}
