use crossterm::event::KeyCode;
use pretty_assertions::assert_eq;

use super::*;
use crate::protocol::CheckpointDiff;
use crate::protocol::CheckpointList;
use crate::protocol::Event;
use crate::tui::engine_link::on_engine_event;
use crate::tui::test_support::last_notice;
use crate::tui::test_support::ops_sent;
use crate::tui::test_support::press;
use crate::tui::test_support::setup;

fn list() -> Event {
    Event::CheckpointList(CheckpointList {
        checkpoints: crate::tui::overlays::rollback::tests::checkpoints(),
    })
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
        Event::CheckpointDiff(CheckpointDiff {
            id: "cp2".into(),
            diff: crate::tui::overlays::rollback::tests::DIFF.into(),
        }),
    );
    press(&mut app, KeyCode::Char('y'));
    assert_eq!(
        ops_sent(&mut ops),
        vec![Op::RestoreCheckpoint { id: "cp2".into() }]
    );
    assert!(!app.overlays.contains::<RollbackOverlay>());
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
    assert!(app.overlays.contains::<RollbackOverlay>());
    press(&mut app, KeyCode::Esc);
    assert!(!app.overlays.contains::<RollbackOverlay>());
    assert_eq!(ops_sent(&mut ops), vec![]);
}

#[tokio::test]
async fn no_checkpoints_and_bad_arguments_are_notices() {
    let (_dir, mut app, mut ops) = setup();
    crate::tui::commands::execute(&mut app, "rollback", "");
    on_engine_event(
        &mut app,
        Event::CheckpointList(CheckpointList {
            checkpoints: Vec::new(),
        }),
    );
    assert!(!app.overlays.contains::<RollbackOverlay>());
    assert_eq!(
        last_notice(&app).as_deref(),
        Some("no checkpoints yet for /work")
    );
    crate::tui::commands::execute(&mut app, "rollback", "last");
    assert!(!app.overlays.contains::<RollbackOverlay>());
    assert!(
        last_notice(&app)
            .unwrap_or_default()
            .starts_with("usage: /rollback [N]")
    );
    crate::tui::commands::execute(&mut app, "rollback", "9");
    on_engine_event(&mut app, list());
    assert!(
        app.overlays.contains::<RollbackOverlay>(),
        "the list is shown instead"
    );
    assert_eq!(
        last_notice(&app).as_deref(),
        Some("no checkpoint 9 — 3 exist (1 = newest)")
    );
    assert_eq!(
        ops_sent(&mut ops),
        vec![Op::ListCheckpoints, Op::ListCheckpoints]
    );
}
