use crossterm::event::Event as TermEvent;
use pretty_assertions::assert_eq;

use super::*;
use crate::protocol::Event;
use crate::tui::engine_link::on_engine_event;
use crate::tui::test_support::WithSession;
use crate::tui::test_support::sample_tree;
use crate::tui::test_support::session_info;
use crate::tui::test_support::spawned;
use crate::tui::test_support::test_app;

fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

fn pane() -> (AgentsPane, Instant) {
    let (tree, now) = sample_tree();
    let pane = AgentsPane {
        tree,
        ..AgentsPane::default()
    };
    (pane, now)
}

fn press(pane: &mut AgentsPane, code: KeyCode, now: Instant) -> MonitorAction {
    list_key(pane, key(code), now)
}

fn stop(id: &str, control: SubagentControl) -> MonitorAction {
    MonitorAction::Send(Op::Subagent {
        id: id.into(),
        control,
    })
}

#[test]
fn keys_map_to_ops() {
    let (mut pane, now) = pane();
    assert_eq!(
        press(&mut pane, KeyCode::Char('x'), now),
        stop("a1", SubagentControl::Stop)
    );
    assert_eq!(
        press(&mut pane, KeyCode::Char('X'), now),
        stop("a1", SubagentControl::StopSubtree)
    );
    assert_eq!(
        press(&mut pane, KeyCode::Char('p'), now),
        MonitorAction::Send(Op::SetSpawning(Spawning::Paused))
    );
    assert_eq!(pane.spawning, Spawning::Paused);
    assert_eq!(
        press(&mut pane, KeyCode::Char('p'), now),
        MonitorAction::Send(Op::SetSpawning(Spawning::Allowed))
    );
    assert_eq!(
        press(&mut pane, KeyCode::Char('j'), now),
        MonitorAction::Handled
    );
    assert_eq!(
        press(&mut pane, KeyCode::Char('x'), now),
        stop("a1.1", SubagentControl::Stop)
    );
    // Finished children cannot be stopped or steered.
    press(&mut pane, KeyCode::Down, now);
    assert_eq!(
        press(&mut pane, KeyCode::Char('x'), now),
        MonitorAction::Hint("task 2: summarise the README has already finished".into())
    );
    assert!(matches!(
        press(&mut pane, KeyCode::Char('e'), now),
        MonitorAction::Hint(_)
    ));
    assert_eq!(pane.steer, None);
    for code in [KeyCode::Enter, KeyCode::Char('t')] {
        assert_eq!(
            press(&mut pane, code, now),
            MonitorAction::Open {
                id: "a2".into(),
                view: SubagentView::Log
            }
        );
    }
    assert_eq!(
        press(&mut pane, KeyCode::Char('d'), now),
        MonitorAction::Open {
            id: "a2".into(),
            view: SubagentView::Details
        }
    );
    assert_eq!(press(&mut pane, KeyCode::Esc, now), MonitorAction::Back);
    let ctrl_t = KeyEvent::new(KeyCode::Char('t'), KeyModifiers::CONTROL);
    assert_eq!(list_key(&mut pane, ctrl_t, now), MonitorAction::Ignored);
}

#[test]
fn selection_moves_and_clamps() {
    let (mut pane, now) = pane();
    assert_eq!(pane.selected_id(now).as_deref(), Some("a1"));
    press(&mut pane, KeyCode::Up, now);
    assert_eq!(pane.selected_id(now).as_deref(), Some("a1"));
    press(&mut pane, KeyCode::Char('G'), now);
    assert_eq!(pane.selected_id(now).as_deref(), Some("a3"));
    press(&mut pane, KeyCode::Down, now);
    assert_eq!(pane.selected_id(now).as_deref(), Some("a3"));
    press(&mut pane, KeyCode::Char('g'), now);
    assert_eq!(pane.selected_id(now).as_deref(), Some("a1"));
    // A filter that hides the selection falls back to the first listed row.
    press(&mut pane, KeyCode::Char('G'), now);
    press(&mut pane, KeyCode::Char('f'), now);
    assert_eq!(pane.filter.label(), "running");
    assert_eq!(pane.selected_id(now).as_deref(), Some("a1"));
    press(&mut pane, KeyCode::Char('s'), now);
    assert_eq!(pane.sort.label(), "busiest");
}

#[test]
fn steer_input_sends_and_queues() {
    let (mut pane, now) = pane();
    assert_eq!(
        press(&mut pane, KeyCode::Char('e'), now),
        MonitorAction::Handled
    );
    for c in "use x ".chars() {
        assert_eq!(
            press(&mut pane, KeyCode::Char(c), now),
            MonitorAction::Handled
        );
    }
    press(&mut pane, KeyCode::Backspace, now);
    // `x` is text here, not "stop".
    assert_eq!(pane.steer.as_ref().map(|s| s.text.as_str()), Some("use x"));
    assert_eq!(
        press(&mut pane, KeyCode::Enter, now),
        stop(
            "a1",
            SubagentControl::Steer {
                text: "use x".into()
            }
        )
    );
    assert_eq!(pane.steer, None);
    let node = pane.tree.get("a1").unwrap();
    assert_eq!(node.steers.len(), 1);
    assert_eq!(
        node.steers[0].state,
        crate::tui::subagents::SteerState::Queued
    );
    // Esc cancels; an empty message is not sent.
    press(&mut pane, KeyCode::Char('e'), now);
    assert_eq!(
        press(&mut pane, KeyCode::Enter, now),
        MonitorAction::Handled
    );
    assert!(pane.steer.is_some());
    press(&mut pane, KeyCode::Esc, now);
    assert_eq!(pane.steer, None);
}

#[test]
fn app_routes_monitor_keys_and_commands() {
    let dir = tempfile::tempdir().unwrap();
    let (mut app, mut ops) = test_app(&dir, WithSession::Yes);
    on_engine_event(&mut app, session_info());
    on_engine_event(&mut app, Event::Subagent(spawned("a", None, 1, "task a")));
    let press = |app: &mut App, code: KeyCode| {
        crate::tui::input::on_terminal_event(app, TermEvent::Key(key(code)));
    };
    // Not focused: `x` is typing.
    press(&mut app, KeyCode::Char('x'));
    assert_eq!(app.composer.text(), "x");
    app.composer.clear();
    crate::tui::commands::execute(&mut app, "tasks", "");
    assert_eq!(app.focus, Focus::Agents);
    press(&mut app, KeyCode::Char('x'));
    assert_eq!(
        ops.try_recv().unwrap(),
        Op::Subagent {
            id: "a".into(),
            control: SubagentControl::Stop
        }
    );
    press(&mut app, KeyCode::Enter);
    assert_eq!(
        app.monitor.overlay.as_ref().map(|o| o.view),
        Some(SubagentView::Log)
    );
    press(&mut app, KeyCode::Char('d'));
    assert_eq!(
        app.monitor.overlay.as_ref().map(|o| o.view),
        Some(SubagentView::Details)
    );
    press(&mut app, KeyCode::Esc);
    assert!(app.monitor.overlay.is_none());
    assert_eq!(app.focus, Focus::Agents);
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.focus, Focus::Composer);
    // F7 folds the live bar from anywhere.
    press(&mut app, KeyCode::F(7));
    assert_eq!(app.monitor.live_bar, LiveBarMode::Collapsed);
    press(&mut app, KeyCode::F(7));
    assert_eq!(app.monitor.live_bar, LiveBarMode::Expanded);
    assert!(app.composer.is_empty());
}

#[test]
fn redraws_once_a_second_only_while_children_run() {
    let (tree, now) = sample_tree();
    assert_eq!(next_redraw(&tree, now), Some(now + Duration::from_secs(1)));
    let mut tree = tree;
    let end = |id: &str| {
        crate::tui::test_support::subagent(
            id,
            crate::protocol::SubagentEventKind::Finished {
                status: crate::protocol::SubagentStatus::Completed,
                summary: String::new(),
                duration_ms: 1,
            },
        )
    };
    tree.apply(&end("a1"), now);
    tree.apply(&end("a1.1"), now);
    assert_eq!(next_redraw(&tree, now), None);
}

#[test]
fn the_app_draws_the_live_bar_and_the_monitor() {
    let dir = tempfile::tempdir().unwrap();
    let (mut app, _ops) = test_app(&dir, WithSession::Yes);
    on_engine_event(&mut app, session_info());
    on_engine_event(&mut app, Event::Subagent(spawned("a", None, 1, "task a")));
    let screen = |app: &mut App| {
        let area = ratatui::layout::Rect::new(0, 0, 120, 30);
        let mut buf = ratatui::buffer::Buffer::empty(area);
        crate::tui::render::render_app(area, &mut buf, app, Instant::now());
        buf.content()
            .iter()
            .map(|c| c.symbol().to_string())
            .collect::<String>()
    };
    let text = screen(&mut app);
    assert!(text.contains("1 subagent running"));
    assert!(!text.contains("Spawn tree"));
    open(&mut app);
    assert!(screen(&mut app).contains("Spawn tree"));
}
