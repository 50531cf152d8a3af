#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;

use crossterm::event::KeyCode;
use crossterm::event::KeyEvent;
use crossterm::event::KeyModifiers;
use pretty_assertions::assert_eq;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use super::*;

fn entry(name: &str, origin: SkinOrigin, notices: &[&str]) -> SkinEntry {
    SkinEntry {
        name: name.into(),
        description: format!("the {name} skin"),
        origin,
        theme: Arc::new(Theme {
            name: name.into(),
            ..Theme::default()
        }),
        notices: notices.iter().map(|n| n.to_string()).collect(),
    }
}

fn picker(current: &str) -> SkinPicker {
    let entries = vec![
        entry("default", SkinOrigin::BuiltIn, &[]),
        entry("ares", SkinOrigin::BuiltIn, &[]),
        entry(
            "neon",
            SkinOrigin::User,
            &["neon.yaml line 4: unknown key `colours`"],
        ),
    ];
    SkinPicker::new(entries, current, Arc::new(Theme::default()))
}

fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

#[test]
fn opens_on_the_current_skin_or_the_first() {
    assert_eq!(picker("ares").selected(), 1);
    assert_eq!(picker("gone").selected(), 0);
}

#[test]
fn moving_previews_each_entry_and_stops_at_the_ends() {
    let mut p = picker("default");
    assert_eq!(p.handle_key(key(KeyCode::Up)), SkinPickerAction::None);
    assert_eq!(
        p.handle_key(key(KeyCode::Down)),
        SkinPickerAction::Preview(1)
    );
    assert_eq!(
        p.handle_key(key(KeyCode::Char('j'))),
        SkinPickerAction::Preview(2)
    );
    assert_eq!(p.handle_key(key(KeyCode::Down)), SkinPickerAction::None);
    assert_eq!(
        p.handle_key(key(KeyCode::Home)),
        SkinPickerAction::Preview(0)
    );
    assert_eq!(
        p.handle_key(key(KeyCode::End)),
        SkinPickerAction::Preview(2)
    );
    assert_eq!(
        p.handle_key(KeyEvent::new(KeyCode::Char('p'), KeyModifiers::CONTROL)),
        SkinPickerAction::Preview(1)
    );
    assert_eq!(p.selected(), 1);
}

#[test]
fn enter_keeps_and_esc_q_ctrl_c_restore() {
    let mut p = picker("ares");
    assert_eq!(p.handle_key(key(KeyCode::Enter)), SkinPickerAction::Keep(1));
    for code in [KeyCode::Esc, KeyCode::Char('q')] {
        assert_eq!(p.handle_key(key(code)), SkinPickerAction::Restore);
    }
    assert_eq!(
        p.handle_key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL)),
        SkinPickerAction::Restore
    );
    assert_eq!(p.original().name, "default");
}

#[test]
fn an_empty_picker_only_closes() {
    let mut p = SkinPicker::new(Vec::new(), "default", Arc::new(Theme::default()));
    assert_eq!(p.handle_key(key(KeyCode::Down)), SkinPickerAction::None);
    assert_eq!(p.handle_key(key(KeyCode::Enter)), SkinPickerAction::Restore);
}

fn draw(p: &SkinPicker, width: u16, height: u16) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal
        .draw(|frame| {
            let area = frame.area();
            p.render(area, frame.buffer_mut(), &Theme::default());
        })
        .unwrap();
    terminal
}

#[test]
fn lists_names_descriptions_origins_and_the_selected_skins_notice() {
    let mut p = picker("default");
    p.handle_key(key(KeyCode::End));
    insta::assert_snapshot!("skin_picker_user_skin_selected", draw(&p, 70, 12).backend());
}

#[test]
fn narrow_terminals_cut_descriptions_not_names() {
    let p = picker("ares");
    let terminal = draw(&p, 30, 12);
    let rows = crate::tui::test_support::screen_rows(&terminal);
    let row = rows.iter().find(|r| r.contains("ares")).unwrap();
    assert!(row.contains("▸ ares"), "{row:?}");
    assert!(rows.iter().any(|r| r.contains("neon")), "{rows:#?}");
}
