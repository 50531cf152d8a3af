use std::time::Duration;

use crossterm::event::KeyCode;
use pretty_assertions::assert_eq;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use tokio::sync::mpsc::UnboundedReceiver;

use super::*;
use crate::protocol::Event;
use crate::protocol::MessageComplete;
use crate::protocol::SpawnTree;
use crate::protocol::SpawnTrees;
use crate::protocol::SubagentEventKind as K;
use crate::protocol::SubagentStatus;
use crate::protocol::SubagentUsage;
use crate::theme::Theme;
use crate::tui::engine_link::on_engine_event;
use crate::tui::overlays::spawn_trees::tests::trees;
use crate::tui::overlays::subagent::SubagentView;
use crate::tui::test_support::last_notice;
use crate::tui::test_support::ops_sent;
use crate::tui::test_support::press;
use crate::tui::test_support::setup;
use crate::tui::test_support::spawned;

fn ev(id: &str, kind: K) -> SubagentEvent {
    SubagentEvent {
        id: id.into(),
        kind,
    }
}

/// A finished batch: `s1` (with a child `s1.1`) completed after 42 s, `s2` failed after 7 s.
fn recorded() -> Vec<SubagentEvent> {
    let finished = |id: &str, status, secs: u64| {
        ev(
            id,
            K::Finished {
                status,
                summary: format!("{id} is over"),
                duration_ms: secs * 1_000,
            },
        )
    };
    vec![
        spawned("s1", None, 1, "task 1: audit the parser"),
        spawned("s2", None, 1, "task 2: bench the lexer"),
        spawned("s1.1", Some("s1"), 2, "task 1.1: fuzz the tokens"),
        ev(
            "s1.1",
            K::Activity {
                event: Box::new(Event::MessageComplete(MessageComplete {
                    turn_id: 1,
                    text: "No crash in **10k** inputs.".into(),
                    reasoning: None,
                })),
            },
        ),
        ev(
            "s1",
            K::Usage(SubagentUsage {
                api_calls: 3,
                tool_calls: 5,
                input_tokens: 9_000,
                output_tokens: 1_200,
                cost_usd: Some(0.0123),
            }),
        ),
        finished("s1.1", SubagentStatus::Completed, 20),
        finished("s2", SubagentStatus::Failed, 7),
        finished("s1", SubagentStatus::Completed, 42),
    ]
}

fn load_history(app: &mut App, ops: &mut UnboundedReceiver<Op>) {
    crate::tui::commands::execute(app, "agents", "history");
    assert_eq!(ops_sent(ops), vec![Op::ListSpawnTrees]);
    on_engine_event(app, Event::SpawnTrees(SpawnTrees { trees: trees() }));
    press(app, KeyCode::Enter);
    assert_eq!(ops_sent(ops), vec![Op::LoadSpawnTree { id: "t2".into() }]);
    assert!(!app.overlays.contains::<SpawnTreesPicker>());
    on_engine_event(
        app,
        Event::SpawnTree(SpawnTree {
            id: "t2".into(),
            events: recorded(),
        }),
    );
}

#[tokio::test]
async fn agents_history_lists_loads_and_shows_the_saved_tree() {
    let (_dir, mut app, mut ops) = setup();
    load_history(&mut app, &mut ops);
    assert_eq!(app.focus, Focus::Agents);
    let saved = app.monitor.history.as_ref().unwrap();
    assert_eq!(saved.pane.saved.as_deref(), Some("2025-03-04 17:20"));
    assert_eq!(saved.pane.tree.len(), 3);
    let s1 = saved.pane.tree.get("s1").unwrap();
    // The recorded duration, not 0 and not wall-clock time.
    assert_eq!(
        s1.elapsed(saved.at + Duration::from_secs(3600)),
        Duration::from_secs(42)
    );
    // The live tree is untouched.
    assert!(app.side.agents.tree.is_empty());
}

#[tokio::test]
async fn empty_list_closes_with_a_notice_and_bad_args_show_usage() {
    let (_dir, mut app, mut ops) = setup();
    crate::tui::commands::execute(&mut app, "agents", "history");
    on_engine_event(
        &mut app,
        Event::SpawnTrees(SpawnTrees { trees: Vec::new() }),
    );
    assert!(!app.overlays.contains::<SpawnTreesPicker>());
    assert_eq!(
        last_notice(&app).as_deref(),
        Some("no saved spawn trees yet")
    );
    crate::tui::commands::execute(&mut app, "agents", "bogus");
    assert!(last_notice(&app).unwrap().starts_with("usage: /agents"));
    assert_eq!(ops_sent(&mut ops), vec![Op::ListSpawnTrees]);
}

#[tokio::test]
async fn esc_closes_the_picker_and_unasked_trees_are_ignored() {
    let (_dir, mut app, mut ops) = setup();
    crate::tui::commands::execute(&mut app, "agents", "history");
    press(&mut app, KeyCode::Esc);
    assert!(!app.overlays.contains::<SpawnTreesPicker>());
    on_engine_event(
        &mut app,
        Event::SpawnTree(SpawnTree {
            id: "t2".into(),
            events: recorded(),
        }),
    );
    assert!(app.monitor.history.is_none());
    assert_eq!(ops_sent(&mut ops), vec![Op::ListSpawnTrees]);
}

#[tokio::test]
async fn history_is_read_only_and_esc_goes_back_to_live() {
    let (_dir, mut app, mut ops) = setup();
    load_history(&mut app, &mut ops);
    for code in ['x', 'X', 'e', 'p'] {
        press(&mut app, KeyCode::Char(code));
    }
    assert_eq!(ops_sent(&mut ops), Vec::<Op>::new());
    assert!(app.hint.as_ref().unwrap().text.contains("read-only"));
    // Logs and details open as usual, from the recorded activity.
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Enter);
    let overlay = app.monitor.overlay.as_ref().unwrap();
    assert_eq!(
        (overlay.id.as_str(), overlay.view),
        ("s1.1", SubagentView::Log)
    );
    let node = app.monitor.history.as_ref().unwrap().pane.tree.get("s1.1");
    assert!(node.unwrap().log.len() >= 2);
    press(&mut app, KeyCode::Esc);
    assert!(app.monitor.overlay.is_none());
    assert!(app.monitor.history.is_some());
    press(&mut app, KeyCode::Esc);
    assert!(app.monitor.history.is_none());
    assert_eq!(app.focus, Focus::Agents);
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.focus, Focus::Composer);
}

#[test]
fn history_monitor_snapshot() {
    let at = Instant::now();
    let pane = AgentsPane {
        tree: replay(&recorded(), at),
        saved: Some("2025-03-04 17:20".into()),
        ..AgentsPane::default()
    };
    let theme = Theme::default();
    let mut terminal = Terminal::new(TestBackend::new(110, 9)).unwrap();
    terminal
        .draw(|frame| {
            let area = frame.area();
            crate::tui::panes::agents_view::render_monitor(
                &pane,
                area,
                frame.buffer_mut(),
                &theme,
                at + Duration::from_secs(3600),
            );
        })
        .unwrap();
    insta::assert_snapshot!("history_monitor", terminal.backend());
}
