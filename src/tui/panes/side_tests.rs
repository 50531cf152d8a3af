use std::time::Instant;

use pretty_assertions::assert_eq;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;
use ratatui::style::Modifier;

use super::*;
use crate::tui::layout::LayoutInput;
use crate::tui::layout::SideVisibility;
use crate::tui::layout::compute_layout;
use crate::tui::test_support::sample_tree;
use crate::tui::test_support::screen_rows;

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

#[test]
fn empty_panes_focused_and_not() {
    let theme = Theme::default();
    let panes = SidePanes::default();
    for (name, focus) in [
        ("unfocused", PaneFocus::Unfocused),
        ("focused", PaneFocus::Focused),
    ] {
        let t = draw(40, 7, |a, b| panes.agents.render(a, b, &theme, focus));
        insta::assert_snapshot!(format!("agents_empty_{name}"), t.backend());
        let t = draw(40, 6, |a, b| panes.goals.render(a, b, &theme, focus));
        insta::assert_snapshot!(format!("goals_empty_{name}"), t.backend());
        let t = draw(40, 6, |a, b| {
            panes.approvals.render(a, b, &theme, focus, Instant::now())
        });
        insta::assert_snapshot!(format!("approvals_empty_{name}"), t.backend());
    }
}

#[test]
fn focused_border_uses_the_focused_role() {
    let theme = Theme::default();
    let panes = SidePanes::default();
    let focused = draw(30, 5, |a, b| {
        panes.goals.render(a, b, &theme, PaneFocus::Focused);
    });
    let corner = &focused.backend().buffer()[(0, 0)];
    assert_eq!(corner.fg, theme.style(Role::BorderFocused).fg.unwrap());
    assert!(corner.modifier.contains(Modifier::BOLD));
    let unfocused = draw(30, 5, |a, b| {
        panes.goals.render(a, b, &theme, PaneFocus::Unfocused);
    });
    let corner = &unfocused.backend().buffer()[(0, 0)];
    assert_eq!(corner.fg, theme.style(Role::Border).fg.unwrap());
    assert!(!corner.modifier.contains(Modifier::BOLD));
}

#[test]
fn summary_line_narrow_and_very_narrow() {
    let theme = Theme::default();
    let panes = SidePanes::default();
    let t = draw(80, 1, |a, b| {
        panes.render(&SideRegion::Summary(a), Focus::Composer, b, &theme);
    });
    insta::assert_snapshot!("side_summary_80", t.backend());
    // Too narrow for the hint: it is left out rather than cut.
    let line = panes.summary_line(40, &theme);
    let text: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
    assert_eq!(text, " agents 0 · goal — · approvals 0");
}

#[test]
fn focused_pane_expands_in_a_narrow_terminal() {
    let theme = Theme::default();
    let panes = SidePanes::default();
    let layout = compute_layout(&LayoutInput {
        area: Rect::new(0, 0, 44, 21),
        side: SideVisibility::Shown,
        focus: Focus::Approvals,
        composer_height: 0,
        popup_height: 0,
        queue_height: 0,
    });
    // 44 columns is narrow, so the focused pane expands into the chat's place.
    let t = draw(44, 21, |_, b| {
        panes.render(&layout.side, Focus::Approvals, b, &theme);
    });
    insta::assert_snapshot!("side_expanded_narrow_focused_approvals", t.backend());
}

#[test]
fn side_column_in_a_wide_terminal() {
    let theme = Theme::default();
    let panes = SidePanes::default();
    let layout = compute_layout(&LayoutInput {
        area: Rect::new(0, 0, 120, 19),
        side: SideVisibility::Shown,
        focus: Focus::Agents,
        composer_height: 0,
        popup_height: 0,
        queue_height: 0,
    });
    let t = draw(120, 19, |_, b| {
        panes.render(&layout.side, Focus::Agents, b, &theme);
    });
    insta::assert_snapshot!("side_column_wide_focused_agents", t.backend());
}

#[test]
fn a_pane_is_focused_only_when_the_focus_is_on_it() {
    assert_eq!(
        PaneFocus::of(Focus::Agents, Focus::Agents),
        PaneFocus::Focused
    );
    assert_eq!(
        PaneFocus::of(Focus::Agents, Focus::Chat),
        PaneFocus::Unfocused
    );
}

#[test]
fn wants_ask_for_nothing_without_a_goal_or_a_request() {
    let panes = SidePanes::default();
    let now = Instant::now();
    // The empty Subagents pane: two rows of text, a blank row and the hint, in borders.
    assert_eq!(
        panes.wants(43, now),
        PaneWants {
            agents: 6,
            goals: 0,
            approvals: 0,
        }
    );
    let theme = Theme::default();
    let t = draw(43, 6, |a, b| {
        panes
            .agents
            .render_at(a, b, &theme, PaneFocus::Unfocused, now);
    });
    let rows = screen_rows(&t);
    assert!(rows[2].contains("delegate_task"), "{rows:?}");
    assert!(rows[4].contains("Ctrl+T focus"), "{rows:?}");
}

#[test]
fn wants_count_the_subagent_rows_and_the_goal() {
    let (tree, now) = sample_tree();
    let mut panes = SidePanes::default();
    panes.agents.tree = tree;
    panes.goals.set(Some(crate::protocol::GoalSnapshot {
        goal: "ship it".into(),
        status: crate::protocol::GoalStatus::Active,
        subgoals: vec!["tests pass".into()],
        turns_used: 1,
        max_turns: 20,
        judging: false,
        verdicts: Vec::new(),
    }));
    let wants = panes.wants(43, now);
    // The totals line and four children, in borders.
    assert_eq!(wants.agents, 7);
    // Goal, status, "Subgoals" and one subgoal, in borders.
    assert_eq!(wants.goals, 6);
    assert_eq!(wants.goals, panes.goals.desired_height(43));
    assert_eq!(wants.approvals, 0);
    let theme = Theme::default();
    let t = draw(43, wants.agents, |a, b| {
        panes
            .agents
            .render_at(a, b, &theme, PaneFocus::Unfocused, now);
    });
    let rows = screen_rows(&t);
    assert!(rows[5].contains("task 3"), "the last child shows: {rows:?}");
}
