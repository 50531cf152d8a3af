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
        notices: notices.iter().map(ToString::to_string).collect(),
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

/// What a key asked the app to do, by skin name.
#[derive(Debug, PartialEq)]
enum Asked {
    None,
    Preview(String),
    Keep(String),
    Restore(String),
}

fn asked(action: OverlayAction) -> Asked {
    match action {
        OverlayAction::None => Asked::None,
        OverlayAction::App(AppEvent::Skin(SkinEvent::Preview(theme))) => {
            Asked::Preview(theme.name.clone())
        }
        OverlayAction::App(AppEvent::Skin(SkinEvent::Keep(entry))) => Asked::Keep(entry.name),
        OverlayAction::App(AppEvent::Skin(SkinEvent::Restore(theme))) => {
            Asked::Restore(theme.name.clone())
        }
        other => panic!("unexpected {other:?}"),
    }
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
    assert_eq!(asked(p.handle_key(key(KeyCode::Up))), Asked::None);
    assert_eq!(
        asked(p.handle_key(key(KeyCode::Down))),
        Asked::Preview("ares".into())
    );
    assert_eq!(
        asked(p.handle_key(key(KeyCode::Char('j')))),
        Asked::Preview("neon".into())
    );
    assert_eq!(asked(p.handle_key(key(KeyCode::Down))), Asked::None);
    assert_eq!(
        asked(p.handle_key(key(KeyCode::Home))),
        Asked::Preview("default".into())
    );
    assert_eq!(
        asked(p.handle_key(key(KeyCode::End))),
        Asked::Preview("neon".into())
    );
    assert_eq!(
        asked(p.handle_key(KeyEvent::new(KeyCode::Char('p'), KeyModifiers::CONTROL))),
        Asked::Preview("ares".into())
    );
    assert_eq!(p.selected(), 1);
}

#[test]
fn enter_keeps_and_esc_q_ctrl_c_restore() {
    let mut p = picker("ares");
    assert_eq!(
        asked(p.handle_key(key(KeyCode::Enter))),
        Asked::Keep("ares".into())
    );
    for code in [KeyCode::Esc, KeyCode::Char('q')] {
        assert_eq!(
            asked(p.handle_key(key(code))),
            Asked::Restore("default".into())
        );
    }
    assert_eq!(
        asked(p.handle_key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL))),
        Asked::Restore("default".into())
    );
    assert_eq!(p.original().name, "default");
}

#[test]
fn an_empty_picker_only_closes() {
    let mut p = SkinPicker::new(Vec::new(), "default", Arc::new(Theme::default()));
    assert_eq!(asked(p.handle_key(key(KeyCode::Down))), Asked::None);
    assert_eq!(
        asked(p.handle_key(key(KeyCode::Enter))),
        Asked::Restore("default".into())
    );
}

fn draw(p: &mut SkinPicker, width: u16, height: u16) -> Terminal<TestBackend> {
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
    asked(p.handle_key(key(KeyCode::End)));
    insta::assert_snapshot!(
        "skin_picker_user_skin_selected",
        draw(&mut p, 70, 12).backend()
    );
}

#[test]
fn narrow_terminals_cut_descriptions_not_names() {
    let mut p = picker("ares");
    let terminal = draw(&mut p, 30, 12);
    let rows = crate::tui::test_support::screen_rows(&terminal);
    let row = rows.iter().find(|r| r.contains("ares")).unwrap();
    assert!(row.contains("▸ ares"), "{row:?}");
    assert!(rows.iter().any(|r| r.contains("neon")), "{rows:#?}");
}
