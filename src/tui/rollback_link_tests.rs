use crossterm::event::Event as TermEvent;
use crossterm::event::KeyCode;
use crossterm::event::KeyModifiers;
use pretty_assertions::assert_eq;
use tokio::sync::mpsc::UnboundedReceiver;

use super::*;
use crate::protocol::Event;
use crate::tui::engine_link::on_engine_event;
use crate::tui::test_support::WithSession;
use crate::tui::test_support::session_info;
use crate::tui::test_support::test_app;
use crate::tui::transcript::Cell;

fn setup() -> (tempfile::TempDir, App, UnboundedReceiver<Op>) {
    let dir = tempfile::tempdir().unwrap();
    let (mut app, ops) = test_app(&dir, WithSession::Yes);
    on_engine_event(&mut app, session_info());
    (dir, app, ops)
}

fn press(app: &mut App, code: KeyCode) {
    let key = KeyEvent::new(code, KeyModifiers::NONE);
    crate::tui::input::on_terminal_event(app, TermEvent::Key(key));
}

fn ops_sent(ops: &mut UnboundedReceiver<Op>) -> Vec<Op> {
    std::iter::from_fn(|| ops.try_recv().ok()).collect()
}

fn last_notice(app: &App) -> Option<String> {
    app.transcript
        .entries()
        .iter()
        .rev()
        .find_map(|e| match e.cell() {
            Cell::Notice { text, .. } => Some(text.clone()),
            _ => None,
        })
}

fn list() -> Event {
    Event::CheckpointList {
        checkpoints: crate::tui::overlays::rollback::tests::checkpoints(),
    }
}

#[tokio::test]
async fn rollback_lists_shows_the_diff_and_restores_on_y() {
    let (_dir, mut app, mut ops) = setup();
    crate::tui::commands::execute(&mut app, "rollback", "");
    assert_eq!(ops_sent(&mut ops), vec![Op::ListCheckpoints]);
    on_engine_event(&mut app, list());
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Enter);
    assert_eq!(
        ops_sent(&mut ops),
        vec![Op::CheckpointDiff { id: "cp2".into() }]
    );
    on_engine_event(
        &mut app,
        Event::CheckpointDiff {
            id: "cp2".into(),
            diff: crate::tui::overlays::rollback::tests::DIFF.into(),
        },
    );
    press(&mut app, KeyCode::Char('y'));
    assert_eq!(
        ops_sent(&mut ops),
        vec![Op::RestoreCheckpoint { id: "cp2".into() }]
    );
    assert!(app.rollback.is_none());
    assert_eq!(
        last_notice(&app).as_deref(),
        Some("restoring checkpoint 2 (2026-05-02 09:37)…")
    );
}

#[tokio::test]
async fn rollback_n_goes_straight_to_the_diff() {
    let (_dir, mut app, mut ops) = setup();
    crate::tui::commands::execute(&mut app, "rollback", "3");
    on_engine_event(&mut app, list());
    assert_eq!(
        ops_sent(&mut ops),
        vec![Op::ListCheckpoints, Op::CheckpointDiff { id: "cp1".into() }]
    );
    // Esc goes back to the list, Esc again closes without restoring anything.
    press(&mut app, KeyCode::Esc);
    assert!(app.rollback.is_some());
    press(&mut app, KeyCode::Esc);
    assert!(app.rollback.is_none());
    assert_eq!(ops_sent(&mut ops), vec![]);
}

#[tokio::test]
async fn no_checkpoints_and_bad_arguments_are_notices() {
    let (_dir, mut app, mut ops) = setup();
    crate::tui::commands::execute(&mut app, "rollback", "");
    on_engine_event(
        &mut app,
        Event::CheckpointList {
            checkpoints: Vec::new(),
        },
    );
    assert!(app.rollback.is_none());
    assert_eq!(
        last_notice(&app).as_deref(),
        Some("no checkpoints yet for /work")
    );
    crate::tui::commands::execute(&mut app, "rollback", "last");
    assert!(app.rollback.is_none());
    assert!(
        last_notice(&app)
            .unwrap_or_default()
            .starts_with("usage: /rollback [N]")
    );
    crate::tui::commands::execute(&mut app, "rollback", "9");
    on_engine_event(&mut app, list());
    assert!(app.rollback.is_some(), "the list is shown instead");
    assert_eq!(
        last_notice(&app).as_deref(),
        Some("no checkpoint 9 — 3 exist (1 = newest)")
    );
    assert_eq!(
        ops_sent(&mut ops),
        vec![Op::ListCheckpoints, Op::ListCheckpoints]
    );
}
