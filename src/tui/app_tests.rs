//! Whole-screen snapshots: the app drawn by `render_app` from protocol events, with a fake
//! session (no engine).

use std::time::Instant;

use ratatui::Terminal;
use ratatui::backend::TestBackend;

use super::*;
use crate::protocol::MessageDelta;
use crate::protocol::TurnStarted;
use crate::tui::test_support::WithSession;
use crate::tui::test_support::session_info;
use crate::tui::test_support::test_app;

fn conversation(app: &mut App) {
    super::super::engine_link::on_engine_event(app, session_info());
    crate::tui::test_support::list_files_turn(app);
}

fn draw(app: &mut App, width: u16, height: u16) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    let now = app.status.session_started;
    terminal
        .draw(|frame| {
            let area = frame.area();
            super::super::render::render_app(area, frame.buffer_mut(), app, now);
        })
        .unwrap();
    terminal
}

#[tokio::test]
async fn empty_app_wide() {
    let dir = tempfile::tempdir().unwrap();
    let (mut app, _ops) = test_app(&dir, WithSession::Yes);
    super::super::engine_link::on_engine_event(&mut app, session_info());
    insta::assert_snapshot!("app_empty_120x30", draw(&mut app, 120, 30).backend());
}

#[tokio::test]
async fn conversation_wide_and_narrow() {
    let dir = tempfile::tempdir().unwrap();
    let (mut app, mut ops) = test_app(&dir, WithSession::Yes);
    conversation(&mut app);
    assert_eq!(ops.try_recv().unwrap(), Op::user("list the files"));
    insta::assert_snapshot!("app_conversation_120x30", draw(&mut app, 120, 30).backend());
    insta::assert_snapshot!(
        "app_conversation_narrow_80x24",
        draw(&mut app, 80, 24).backend()
    );
}

#[tokio::test]
async fn busy_turn_shows_spinner_and_hint() {
    let dir = tempfile::tempdir().unwrap();
    let (mut app, _ops) = test_app(&dir, WithSession::Yes);
    super::super::engine_link::on_engine_event(&mut app, session_info());
    super::super::input::send_message(&mut app, "think hard".into(), Vec::new());
    super::super::engine_link::on_engine_event(
        &mut app,
        Event::TurnStarted(TurnStarted { turn_id: 1 }),
    );
    super::super::engine_link::on_engine_event(
        &mut app,
        Event::MessageDelta(MessageDelta {
            turn_id: 1,
            text: "Working on it ".into(),
        }),
    );
    let screen = format!("{}", draw(&mut app, 100, 20).backend());
    assert!(screen.contains("writing"), "{screen}");
    assert!(screen.contains("Working on it"), "{screen}");
    insta::assert_snapshot!("app_busy_100x20", screen);
}

#[tokio::test]
async fn no_provider_opens_onboarding() {
    let dir = tempfile::tempdir().unwrap();
    let (mut app, _ops) = test_app(&dir, WithSession::No);
    app.start_session();
    assert!(
        app.overlays
            .contains::<crate::tui::overlays::onboarding::Onboarding>()
    );
    let _ = Instant::now();
    insta::assert_snapshot!("app_onboarding_100x30", draw(&mut app, 100, 30).backend());
}
