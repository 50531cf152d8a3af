use super::super::*;
use crate::tui::history::InputHistory;
use crossterm::event::KeyCode;
use crossterm::event::KeyEvent;
use crossterm::event::KeyModifiers;
use pretty_assertions::assert_eq;
use std::path::PathBuf;

fn composer() -> Composer {
    let mut c = Composer::new(InputHistory::new(PathBuf::from("/nonexistent/tui_history")));
    c.set_path_candidates(
        [
            "docs/",
            "my file.txt",
            "src/",
            "src/main.rs",
            "src/tui/",
            "src/tui/app.rs",
        ]
        .into_iter()
        .map(str::to_owned)
        .collect(),
    );
    c
}

fn key(c: &mut Composer, code: KeyCode) -> ComposerAction {
    c.handle_key(KeyEvent::new(code, KeyModifiers::NONE))
}

fn typed(c: &mut Composer, text: &str) {
    for ch in text.chars() {
        key(c, KeyCode::Char(ch));
    }
}

fn popup_matches(c: &Composer) -> Vec<String> {
    c.path_popup()
        .map(|p| p.matches().to_vec())
        .unwrap_or_default()
}

#[test]
fn typing_an_at_word_opens_the_popup_and_asks_for_a_listing_once() {
    let mut c = composer();
    assert!(!c.wants_path_candidates());
    typed(&mut c, "look at @sr");
    assert!(c.wants_path_candidates());
    c.note_path_candidates_requested();
    assert!(!c.wants_path_candidates());
    assert_eq!(popup_matches(&c)[0], "src/");
    c.set_path_candidates(vec!["src/".into(), "srv.rs".into()]);
    assert!(!c.wants_path_candidates());
    assert_eq!(popup_matches(&c), vec!["src/", "srv.rs"]);
    typed(&mut c, "v ");
    assert_eq!(c.path_popup(), None);
    typed(&mut c, "@");
    assert!(c.wants_path_candidates(), "a new @ word asks again");
}

#[test]
fn tab_completes_a_folder_then_a_file() {
    let mut c = composer();
    typed(&mut c, "read @sr");
    assert_eq!(key(&mut c, KeyCode::Tab), ComposerAction::Changed);
    assert_eq!(c.text(), "read @src/");
    assert_eq!(
        popup_matches(&c),
        vec!["src/main.rs", "src/tui/", "src/tui/app.rs"]
    );
    key(&mut c, KeyCode::Down);
    key(&mut c, KeyCode::Down);
    key(&mut c, KeyCode::Up);
    key(&mut c, KeyCode::Tab);
    assert_eq!(c.text(), "read @src/tui/");
    typed(&mut c, "a");
    assert_eq!(key(&mut c, KeyCode::Enter), ComposerAction::Changed);
    assert_eq!(c.text(), "read @src/tui/app.rs ");
    assert_eq!(c.path_popup(), None);
    typed(&mut c, "now");
    assert_eq!(c.text(), "read @src/tui/app.rs now");
}

#[test]
fn completing_mid_text_replaces_the_whole_word_and_quotes_spaces() {
    let mut c = composer();
    c.set_text("a @my b");
    for _ in 0..2 {
        key(&mut c, KeyCode::Left);
    }
    assert_eq!(popup_matches(&c), vec!["my file.txt"]);
    key(&mut c, KeyCode::Tab);
    assert_eq!(c.text(), "a @\"my file.txt\"  b");
}

#[test]
fn enter_sends_when_the_word_already_names_a_path() {
    let mut c = composer();
    typed(&mut c, "@src/");
    assert!(c.path_popup().is_some());
    match key(&mut c, KeyCode::Enter) {
        ComposerAction::Submit(Submission::Message(text)) => assert_eq!(text, "@src/"),
        other => panic!("expected a submit, got {other:?}"),
    }
}

#[test]
fn esc_closes_until_the_word_changes() {
    let mut c = composer();
    typed(&mut c, "@s");
    assert_eq!(key(&mut c, KeyCode::Esc), ComposerAction::Changed);
    assert_eq!(c.path_popup(), None);
    assert_eq!(key(&mut c, KeyCode::Esc), ComposerAction::None);
    typed(&mut c, "r");
    assert!(c.path_popup().is_some());
}

#[test]
fn no_path_popup_for_emails_slash_commands_or_recalled_history() {
    let mut c = composer();
    typed(&mut c, "me@sr");
    assert_eq!(c.path_popup(), None);
    c.clear();
    typed(&mut c, "/he");
    assert!(c.popup().is_some());
    assert_eq!(c.path_popup(), None);
    c.clear();
    c.remember("check @src");
    key(&mut c, KeyCode::Up);
    assert_eq!(c.text(), "check @src");
    assert_eq!(c.path_popup(), None, "↑/↓ keep walking history");
}
