use pretty_assertions::assert_eq;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use super::*;
use crate::protocol::GoalUpdate;

/// 2026-11-29 19:00 UTC.
const EVENING: u64 = 1_795_978_800;
const GOAL: &str = "Create four files /tmp/note_{1..4}.txt, one per turn, each containing its \
                    number as text";

fn verdict(turn: u32, outcome: VerdictOutcome, reason: &str, minute: u64) -> GoalVerdict {
    GoalVerdict {
        turn,
        outcome,
        reason: reason.into(),
        at: EVENING + minute * 60,
    }
}

/// The walkthrough's goal three turns in: two subgoals, three "continue" verdicts.
fn active() -> GoalSnapshot {
    GoalSnapshot {
        goal: GOAL.into(),
        status: GoalStatus::Active,
        subgoals: vec![
            "each file ends with a newline".into(),
            "no other files appear in /tmp".into(),
        ],
        turns_used: 3,
        max_turns: 20,
        judging: false,
        verdicts: vec![
            verdict(
                1,
                VerdictOutcome::Continue,
                "Only 1 of 4 files has been created; 3 files remain.",
                1,
            ),
            verdict(
                2,
                VerdictOutcome::Continue,
                "2 of 4 files created; 2 remain.",
                2,
            ),
            verdict(
                3,
                VerdictOutcome::Continue,
                "3 of 4 files created; 1 remains.",
                4,
            ),
        ],
    }
}

fn pane_with(goal: Option<GoalSnapshot>) -> GoalsPane {
    let mut pane = GoalsPane::default();
    pane.apply(&GoalUpdate { goal });
    pane
}

fn draw(pane: &GoalsPane, width: u16, height: u16, focus: PaneFocus) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    let theme = Theme::default();
    terminal
        .draw(|frame| {
            let area = frame.area();
            pane.render(area, frame.buffer_mut(), &theme, focus);
        })
        .unwrap();
    terminal
}

use crate::tui::test_support::screen_rows as screen;

#[test]
fn empty_state_names_the_command() {
    let pane = pane_with(None);
    let t = draw(&pane, 43, 8, PaneFocus::Focused);
    insta::assert_snapshot!("goals_empty", t.backend());
    assert!(screen(&t).join("\n").contains("a set a goal"));
}

#[test]
fn active_goal_with_subgoals_and_verdicts() {
    let pane = pane_with(Some(active()));
    // Tall enough for everything; the newest verdict comes first.
    let t = draw(&pane, 43, 14, PaneFocus::Focused);
    insta::assert_snapshot!("goals_active", t.backend());
    // The side column's usual size: goal, status and subgoals first, then what fits.
    let t = draw(&pane, 43, 10, PaneFocus::Unfocused);
    insta::assert_snapshot!("goals_active_short", t.backend());
}

#[test]
fn judging_shows_on_the_status_row() {
    let mut goal = active();
    goal.judging = true;
    let t = draw(&pane_with(Some(goal)), 43, 10, PaneFocus::Unfocused);
    insta::assert_snapshot!("goals_judging", t.backend());
}

#[test]
fn paused_by_the_budget() {
    let mut goal = active();
    goal.status = GoalStatus::Paused;
    goal.turns_used = 20;
    goal.subgoals.clear();
    goal.verdicts.push(verdict(
        21,
        VerdictOutcome::JudgeError,
        "judge timed out after 30 s",
        40,
    ));
    let t = draw(&pane_with(Some(goal)), 43, 10, PaneFocus::Focused);
    insta::assert_snapshot!("goals_paused_budget", t.backend());
}

#[test]
fn achieved() {
    let mut goal = active();
    goal.status = GoalStatus::Achieved;
    goal.verdicts.push(verdict(
        4,
        VerdictOutcome::Done,
        "All four files were created with the specified content, completing the goal.",
        5,
    ));
    let t = draw(&pane_with(Some(goal)), 43, 10, PaneFocus::Focused);
    insta::assert_snapshot!("goals_achieved", t.backend());
}

#[test]
fn cleared_goal_is_shown_dim_and_counts_as_none() {
    let mut goal = active();
    goal.status = GoalStatus::Cleared;
    goal.subgoals.clear();
    let pane = pane_with(Some(goal));
    assert!(!pane.has_goal());
    assert_eq!(pane.summary(), "—");
    let t = draw(&pane, 43, 8, PaneFocus::Focused);
    insta::assert_snapshot!("goals_cleared", t.backend());
}

#[test]
fn clear_confirmation_takes_the_first_row() {
    let mut pane = pane_with(Some(active()));
    pane.open_prompt();
    let t = draw(&pane, 43, 8, PaneFocus::Focused);
    insta::assert_snapshot!("goals_clear_prompt", t.backend());
    // An update that leaves no goal closes it.
    pane.apply(&GoalUpdate { goal: None });
    assert_eq!(pane.prompt(), ClearPrompt::Closed);
}

#[test]
fn narrow_short_pane_cuts_with_ellipses() {
    let mut goal = active();
    goal.subgoals
        .push("the numbers are written as digits".into());
    goal.judging = true;
    let pane = pane_with(Some(goal));
    let t = draw(&pane, 28, 8, PaneFocus::Focused);
    insta::assert_snapshot!("goals_narrow_short", t.backend());
    let rows = screen(&t);
    assert!(rows[2].contains('…'), "the goal is cut: {rows:?}");
    assert!(
        rows.iter().any(|r| r.contains("Subgoals · 1 of 3")),
        "the cut subgoals are counted: {rows:?}"
    );
    // Even three rows keep the goal and its status.
    let t = draw(&pane, 28, 4, PaneFocus::Unfocused);
    let rows = screen(&t);
    assert!(rows[1].contains("Create"), "{rows:?}");
    assert!(rows[2].contains("active"), "{rows:?}");
}

#[test]
fn no_row_is_wider_than_the_pane() {
    let mut goal = active();
    goal.goal = "x".repeat(200);
    goal.subgoals.push("y".repeat(90));
    for width in [5_u16, 12, 20, 28, 43, 56] {
        for height in [3_u16, 5, 8, 14] {
            let pane = pane_with(Some(goal.clone()));
            let inner = usize::from(width.saturating_sub(4)).max(1);
            let rows = usize::from(height.saturating_sub(2));
            for line in content(&pane, inner, rows, &Theme::default()) {
                assert!(line.width() <= inner, "{width}x{height}: {line:?}");
            }
            assert!(content(&pane, inner, rows, &Theme::default()).len() <= rows.max(1));
        }
    }
}

#[test]
fn bar_rounds_but_is_full_only_at_the_budget() {
    let cells = |used, max| {
        let mut goal = active();
        goal.turns_used = used;
        goal.max_turns = max;
        filled_cells(&goal)
    };
    assert_eq!(cells(0, 20), 0);
    assert_eq!(cells(1, 20), 1);
    assert_eq!(cells(3, 20), 2);
    assert_eq!(cells(10, 20), 5);
    assert_eq!(cells(19, 20), 9);
    assert_eq!(cells(20, 20), 10);
    assert_eq!(cells(25, 20), 10);
    assert_eq!(cells(0, 0), 0);
    assert_eq!(cells(u32::MAX - 1, u32::MAX), 9);
}

#[test]
fn key_hints_follow_the_status() {
    let mut goal = active();
    assert_eq!(
        key_hint(&pane_with(Some(goal.clone()))),
        "p pause · c clear · a subgoal"
    );
    goal.status = GoalStatus::Paused;
    assert_eq!(
        key_hint(&pane_with(Some(goal.clone()))),
        "p resume · c clear · a subgoal"
    );
    goal.status = GoalStatus::Achieved;
    assert_eq!(key_hint(&pane_with(Some(goal))), "c clear · a new goal");
    assert_eq!(key_hint(&pane_with(None)), "a set a goal");
    assert_eq!(clock(EVENING + 4 * 60), "19:04");
}

#[test]
fn status_verdicts_and_prompt_use_their_roles() {
    let theme = Theme::default();
    let fg = |role: Role| theme.style(role).fg;
    let find = |t: &Terminal<TestBackend>, text: &str| {
        let rows = screen(t);
        let (y, row) = rows
            .iter()
            .enumerate()
            .find(|(_, r)| r.contains(text))
            .unwrap_or_else(|| panic!("{text:?} not in {rows:?}"));
        let column = row[..row.find(text).unwrap()].chars().count();
        t.backend().buffer()[(u16::try_from(column).unwrap(), u16::try_from(y).unwrap())].fg
    };
    let mut goal = active();
    goal.status = GoalStatus::Paused;
    let mut pane = pane_with(Some(goal.clone()));
    pane.open_prompt();
    let t = draw(&pane, 43, 14, PaneFocus::Focused);
    assert_eq!(Some(find(&t, "⏸ paused")), fg(Role::Warn));
    assert_eq!(Some(find(&t, "Clear the goal?")), fg(Role::Warn));
    assert_eq!(Some(find(&t, "Subgoals")), fg(Role::Label));
    assert_eq!(Some(find(&t, "continue")), fg(Role::Accent));
    goal.status = GoalStatus::Achieved;
    goal.verdicts
        .push(verdict(4, VerdictOutcome::Done, "all there", 5));
    let t = draw(&pane_with(Some(goal)), 43, 14, PaneFocus::Focused);
    assert_eq!(Some(find(&t, "✓ achieved")), fg(Role::Ok));
    assert_eq!(Some(find(&t, "done ·")), fg(Role::Ok));
}

#[test]
fn desired_height_fits_everything_and_no_more() {
    let pane = pane_with(Some(active()));
    // Goal 3 rows, status 1, subgoals 1 + 2, verdicts 1 + 3, borders 2.
    let wanted = pane.desired_height(43);
    assert_eq!(wanted, 13);
    let rows = screen(&draw(&pane, 43, wanted, PaneFocus::Unfocused));
    let all = rows.join("\n");
    // Nothing is cut but the verdict reasons, which are one row each by design.
    assert!(all.contains("number as text "), "the whole goal: {rows:?}");
    assert!(!all.contains("Subgoals ·"), "all subgoals: {rows:?}");
    assert!(all.contains("2. no other files"), "{rows:?}");
    assert!(
        all.contains("#1 continue"),
        "the oldest verdict shows: {rows:?}"
    );
    // The last content row is the oldest verdict, right above the bottom border.
    assert!(rows[usize::from(wanted) - 2].contains("#1"), "{rows:?}");
    // One row less and the oldest verdict goes.
    let short = screen(&draw(&pane, 43, wanted - 1, PaneFocus::Unfocused)).join("\n");
    assert!(!short.contains("#1 continue"), "{short}");
    // The clear prompt takes a row of its own.
    let mut prompted = pane;
    prompted.open_prompt();
    assert_eq!(prompted.desired_height(43), wanted + 1);
}

#[test]
fn desired_height_is_small_when_empty_and_capped_when_long() {
    // "No standing goal." and the two-row hint, in borders.
    assert_eq!(pane_with(None).desired_height(43), 5);
    let mut goal = active();
    for turn in 4..30 {
        goal.verdicts
            .push(verdict(turn, VerdictOutcome::Continue, "not yet", 10));
    }
    assert_eq!(pane_with(Some(goal)).desired_height(43), MAX_DESIRED_ROWS);
    // Degenerate widths ask for something sane rather than overflowing.
    for width in [0_u16, 1, 4, 5] {
        let wanted = pane_with(Some(active())).desired_height(width);
        assert!(
            (3..=MAX_DESIRED_ROWS).contains(&wanted),
            "{width}: {wanted}"
        );
    }
}
