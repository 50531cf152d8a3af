//! Snapshots of the monitor, its overlays, the compact pane and the live bar, all drawn from
//! `test_support::sample_tree` at a fixed `now`.

use crossterm::event::KeyCode;
use crossterm::event::KeyEvent;
use crossterm::event::KeyModifiers;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use super::*;
use crate::tui::agents_flow::list_key;
use crate::tui::overlays::subagent::SubagentOverlay;
use crate::tui::overlays::subagent::SubagentView;
use crate::tui::panes::live_bar::LiveBarMode;
use crate::tui::panes::live_bar::desired_height;
use crate::tui::panes::live_bar::render_live_bar;
use crate::tui::subagents::FilterMode;
use crate::tui::subagents::SortMode;
use crate::tui::test_support::sample_tree;
use crate::tui::test_support::spawned;

fn draw(width: u16, height: u16, f: impl FnOnce(Rect, &mut Buffer)) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal
        .draw(|frame| {
            let area = frame.area();
            f(area, frame.buffer_mut());
        })
        .unwrap();
    terminal
}

fn pane() -> (AgentsPane, Instant) {
    let (tree, now) = sample_tree();
    let pane = AgentsPane {
        tree,
        ..AgentsPane::default()
    };
    (pane, now)
}

#[test]
fn monitor_tree_wide() {
    let (pane, now) = pane();
    let theme = Theme::default();
    let t = draw(120, 10, |a, b| render_monitor(&pane, a, b, &theme, now));
    insta::assert_snapshot!("monitor_tree_wide", t.backend());
}

#[test]
fn monitor_tree_narrow_drops_columns() {
    let (pane, now) = pane();
    let theme = Theme::default();
    let t = draw(64, 10, |a, b| render_monitor(&pane, a, b, &theme, now));
    insta::assert_snapshot!("monitor_tree_narrow", t.backend());
}

#[test]
fn monitor_sorted_and_filtered() {
    let (mut pane, now) = pane();
    let theme = Theme::default();
    pane.sort = SortMode::Status;
    pane.selected = Some("a3".into());
    let t = draw(120, 10, |a, b| render_monitor(&pane, a, b, &theme, now));
    insta::assert_snapshot!("monitor_sorted_by_status", t.backend());
    pane.sort = SortMode::Spawn;
    pane.filter = FilterMode::Failed;
    let t = draw(120, 8, |a, b| render_monitor(&pane, a, b, &theme, now));
    insta::assert_snapshot!("monitor_filtered_failed", t.backend());
    pane.filter = FilterMode::Leaves;
    let t = draw(120, 8, |a, b| render_monitor(&pane, a, b, &theme, now));
    insta::assert_snapshot!("monitor_filtered_leaves", t.backend());
}

#[test]
fn monitor_paused_with_steer_input() {
    let (mut pane, now) = pane();
    let theme = Theme::default();
    for c in [
        'p', 'e', 'u', 's', 'e', ' ', 'n', 'e', 'x', 't', 'e', 's', 't',
    ] {
        list_key(
            &mut pane,
            KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE),
            now,
        );
    }
    let t = draw(120, 9, |a, b| render_monitor(&pane, a, b, &theme, now));
    insta::assert_snapshot!("monitor_paused_steering", t.backend());
}

#[test]
fn compact_pane_in_the_side_column() {
    let (pane, now) = pane();
    let theme = Theme::default();
    let t = draw(44, 8, |a, b| {
        pane.render_at(a, b, &theme, PaneFocus::Unfocused, now);
    });
    insta::assert_snapshot!("agents_pane_compact", t.backend());
}

#[test]
fn log_view_renders_like_the_chat() {
    let (pane, now) = pane();
    let theme = Theme::default();
    let mut overlay = SubagentOverlay::new("a2", SubagentView::Log);
    let t = draw(80, 12, |a, b| overlay.render(&pane.tree, a, b, &theme, now));
    insta::assert_snapshot!("subagent_log", t.backend());
    let mut overlay = SubagentOverlay::new("a1", SubagentView::Log);
    let t = draw(80, 8, |a, b| overlay.render(&pane.tree, a, b, &theme, now));
    insta::assert_snapshot!("subagent_log_running_tool", t.backend());
    let mut gone = SubagentOverlay::new("nope", SubagentView::Log);
    let t = draw(60, 5, |a, b| gone.render(&pane.tree, a, b, &theme, now));
    insta::assert_snapshot!("subagent_log_gone", t.backend());
}

#[test]
fn details_view() {
    let (mut pane, now) = pane();
    let theme = Theme::default();
    if let Some(node) = pane.tree.get_mut("a1") {
        node.steer_sent("skip the slow tests");
    }
    let mut overlay = SubagentOverlay::new("a1", SubagentView::Details);
    let t = draw(90, 16, |a, b| overlay.render(&pane.tree, a, b, &theme, now));
    insta::assert_snapshot!("subagent_details_running", t.backend());
    let mut overlay = SubagentOverlay::new("a3", SubagentView::Details);
    let t = draw(90, 14, |a, b| overlay.render(&pane.tree, a, b, &theme, now));
    insta::assert_snapshot!("subagent_details_failed", t.backend());
}

#[test]
fn live_bar_expanded_collapsed_and_capped() {
    let (mut pane, now) = pane();
    let theme = Theme::default();
    let h = desired_height(&pane.tree, LiveBarMode::Expanded, 10);
    assert_eq!(h, 3);
    let t = draw(80, h, |a, b| {
        render_live_bar(&pane.tree, LiveBarMode::Expanded, a, b, &theme, now);
    });
    insta::assert_snapshot!("live_bar_expanded", t.backend());
    assert_eq!(desired_height(&pane.tree, LiveBarMode::Collapsed, 10), 1);
    let t = draw(80, 1, |a, b| {
        render_live_bar(&pane.tree, LiveBarMode::Collapsed, a, b, &theme, now);
    });
    insta::assert_snapshot!("live_bar_collapsed", t.backend());
    for n in 0..4 {
        pane.tree.apply(
            &spawned(&format!("b{n}"), None, 1, &format!("batch {n}")),
            now,
        );
    }
    let h = desired_height(&pane.tree, LiveBarMode::Expanded, 4);
    assert_eq!(h, 4);
    let t = draw(80, h, |a, b| {
        render_live_bar(&pane.tree, LiveBarMode::Expanded, a, b, &theme, now);
    });
    insta::assert_snapshot!("live_bar_capped", t.backend());
}

#[test]
fn live_bar_is_absent_when_nothing_runs() {
    let pane = AgentsPane::default();
    assert_eq!(desired_height(&pane.tree, LiveBarMode::Expanded, 10), 0);
}
