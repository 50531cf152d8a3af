use crossterm::event::KeyCode;
use crossterm::event::KeyEvent;
use pretty_assertions::assert_eq;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use super::*;
use crate::protocol::CONTINUATION_MARKER;
use crate::protocol::Event;
use crate::protocol::GoalProgress;
use crate::protocol::GoalSnapshot;
use crate::protocol::GoalUpdate;
use crate::protocol::HistoryReplay;
use crate::protocol::MessageComplete;
use crate::protocol::MessageStart;
use crate::protocol::PauseCause;
use crate::protocol::ReplayMessage;
use crate::protocol::TurnStarted;
use crate::theme::Theme;
use crate::tui::panes::chat::ChatFocus;
use crate::tui::panes::chat::ChatView;
use crate::tui::test_support::last_notice;
use crate::tui::test_support::ops_sent;
use crate::tui::test_support::press;
use crate::tui::test_support::setup;
use crate::tui::transcript::Cell;
use crate::tui::transcript::Transcript;

const GOAL: &str = "Create four files /tmp/note_{1..4}.txt, one per turn, each containing its \
                    number as text";

fn snapshot(status: GoalStatus) -> GoalSnapshot {
    GoalSnapshot {
        goal: "ship it".into(),
        status,
        subgoals: Vec::new(),
        turns_used: 1,
        max_turns: 20,
        judging: false,
        verdicts: Vec::new(),
    }
}

fn update(app: &mut App, status: Option<GoalStatus>) {
    super::super::engine_link::on_engine_event(
        app,
        Event::GoalUpdate(GoalUpdate {
            goal: status.map(snapshot),
        }),
    );
}

/// Types `text` into the composer and presses Enter.
fn submit(app: &mut App, text: &str) {
    app.focus = Focus::Composer;
    app.composer.set_text(text);
    press(app, KeyCode::Enter);
}

fn user_cells(app: &App) -> Vec<String> {
    app.transcript
        .entries()
        .iter()
        .filter_map(|e| match e.cell() {
            Cell::User { text, .. } => Some(text.clone()),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn goal_text_sets_the_goal_and_shows_the_typed_line() {
    let (_dir, mut app, mut ops) = setup();
    submit(&mut app, "/goal Create four files");
    assert_eq!(
        ops_sent(&mut ops),
        vec![Op::Goal(GoalCommand::Set {
            text: "Create four files".into()
        })]
    );
    assert_eq!(user_cells(&app), vec!["/goal Create four files"]);
}

#[tokio::test]
async fn goal_pause_mid_turn_is_sent_at_once_not_queued() {
    let (_dir, mut app, mut ops) = setup();
    super::super::engine_link::on_engine_event(
        &mut app,
        Event::TurnStarted(TurnStarted { turn_id: 1 }),
    );
    assert!(app.turn_running);
    for (typed, command) in [
        ("/goal pause", GoalCommand::Pause),
        ("/goal status", GoalCommand::Status),
        ("/goal", GoalCommand::Status),
        ("/goal clear", GoalCommand::Clear),
    ] {
        submit(&mut app, typed);
        assert_eq!(ops_sent(&mut ops), vec![Op::Goal(command)], "{typed}");
    }
    assert!(app.queue.is_empty());
    assert!(
        user_cells(&app).is_empty(),
        "only /goal <text> shows a line"
    );
}

#[tokio::test]
async fn subgoal_commands_and_their_usage_line() {
    let (_dir, mut app, mut ops) = setup();
    submit(&mut app, "/subgoal remove 2");
    assert_eq!(
        ops_sent(&mut ops),
        vec![Op::Goal(GoalCommand::RemoveSubgoal { number: 2 })]
    );
    submit(&mut app, "/subgoal each file ends with a newline");
    submit(&mut app, "/subgoal");
    submit(&mut app, "/subgoal clear");
    assert_eq!(
        ops_sent(&mut ops),
        vec![
            Op::Goal(GoalCommand::AddSubgoal {
                text: "each file ends with a newline".into()
            }),
            Op::Goal(GoalCommand::ListSubgoals),
            Op::Goal(GoalCommand::ClearSubgoals),
        ]
    );
    submit(&mut app, "/subgoal remove");
    assert!(ops_sent(&mut ops).is_empty());
    assert!(
        last_notice(&app).is_some_and(|n| n.starts_with("usage: /subgoal remove N")),
        "{:?}",
        last_notice(&app)
    );
}

#[test]
fn p_pauses_an_active_goal_and_resumes_a_paused_one() {
    let (_dir, mut app, mut ops) = setup();
    update(&mut app, Some(GoalStatus::Active));
    app.focus = Focus::Goals;
    press(&mut app, KeyCode::Char('p'));
    assert_eq!(ops_sent(&mut ops), vec![Op::Goal(GoalCommand::Pause)]);
    // The pane waits for the engine: still active until it says otherwise.
    assert_eq!(app.side.goals.status(), Some(GoalStatus::Active));
    update(&mut app, Some(GoalStatus::Paused));
    press(&mut app, KeyCode::Char('p'));
    assert_eq!(ops_sent(&mut ops), vec![Op::Goal(GoalCommand::Resume)]);
    assert_eq!(app.focus, Focus::Goals);
    // Without a goal, p only explains.
    update(&mut app, None);
    press(&mut app, KeyCode::Char('p'));
    assert!(ops_sent(&mut ops).is_empty());
    assert!(app.hint.as_ref().is_some_and(|h| h.text.contains("/goal")));
}

#[test]
fn c_asks_first_and_y_clears() {
    let (_dir, mut app, mut ops) = setup();
    update(&mut app, Some(GoalStatus::Active));
    app.focus = Focus::Goals;
    press(&mut app, KeyCode::Char('c'));
    assert_eq!(app.side.goals.prompt(), ClearPrompt::Open);
    assert!(ops_sent(&mut ops).is_empty());
    // Other keys wait for the answer.
    press(&mut app, KeyCode::Char('p'));
    assert!(ops_sent(&mut ops).is_empty());
    press(&mut app, KeyCode::Char('y'));
    assert_eq!(ops_sent(&mut ops), vec![Op::Goal(GoalCommand::Clear)]);
    assert_eq!(app.side.goals.prompt(), ClearPrompt::Closed);
}

#[test]
fn c_then_n_or_esc_keeps_the_goal() {
    let (_dir, mut app, mut ops) = setup();
    update(&mut app, Some(GoalStatus::Paused));
    app.focus = Focus::Goals;
    press(&mut app, KeyCode::Char('c'));
    press(&mut app, KeyCode::Char('n'));
    assert_eq!(app.side.goals.prompt(), ClearPrompt::Closed);
    press(&mut app, KeyCode::Char('c'));
    // Esc answers the prompt; it neither leaves the pane nor interrupts.
    super::super::engine_link::on_engine_event(
        &mut app,
        Event::TurnStarted(TurnStarted { turn_id: 1 }),
    );
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.side.goals.prompt(), ClearPrompt::Closed);
    assert_eq!(app.focus, Focus::Goals);
    assert!(ops_sent(&mut ops).is_empty());
    // A prompt left open closes with the next key elsewhere.
    press(&mut app, KeyCode::Char('c'));
    app.focus = Focus::Composer;
    press(&mut app, KeyCode::Char('x'));
    assert_eq!(app.side.goals.prompt(), ClearPrompt::Closed);
}

#[test]
fn a_prefills_the_composer_and_focuses_it() {
    let (_dir, mut app, _ops) = setup();
    update(&mut app, Some(GoalStatus::Active));
    app.focus = Focus::Goals;
    press(&mut app, KeyCode::Char('a'));
    assert_eq!(app.focus, Focus::Composer);
    assert_eq!(app.composer.text(), "/subgoal ");
    // The user types the criterion and sends it.
    for c in "no stray files".chars() {
        press(&mut app, KeyCode::Char(c));
    }
    assert_eq!(app.composer.text(), "/subgoal no stray files");
    // Without a goal there is nothing to add to: `a` starts a goal instead.
    update(&mut app, None);
    app.focus = Focus::Goals;
    press(&mut app, KeyCode::Char('a'));
    assert_eq!(app.composer.text(), "/goal ");
}

#[test]
fn typing_a_command_in_the_pane_goes_to_the_composer_not_the_pane_keys() {
    let (_dir, mut app, mut ops) = setup();
    update(&mut app, Some(GoalStatus::Active));
    app.focus = Focus::Goals;
    for c in "/goal status".chars() {
        press(&mut app, KeyCode::Char(c));
    }
    assert_eq!(app.focus, Focus::Composer);
    assert_eq!(app.composer.text(), "/goal status");
    assert!(ops_sent(&mut ops).is_empty(), "no pane key fired");
}

#[test]
fn pane_keys_leave_chords_and_other_keys_to_the_app() {
    let mut pane = GoalsPane::default();
    pane.set(Some(snapshot(GoalStatus::Active)));
    let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
    assert_eq!(pane_key(&mut pane, ctrl_c), GoalKeyAction::Ignored);
    let other = KeyEvent::new(KeyCode::Char('z'), KeyModifiers::NONE);
    assert_eq!(pane_key(&mut pane, other), GoalKeyAction::Ignored);
    let esc = KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE);
    assert_eq!(pane_key(&mut pane, esc), GoalKeyAction::Back);
}

#[test]
fn goal_updates_drive_the_status_badge_and_summary() {
    let (_dir, mut app, _ops) = setup();
    update(&mut app, Some(GoalStatus::Active));
    assert_eq!(
        app.status.goal,
        super::super::status_bar::GoalBadge::Active { used: 1, max: 20 }
    );
    assert_eq!(app.side.goals.summary(), "1/20");
    update(&mut app, Some(GoalStatus::Paused));
    assert_eq!(app.status.goal, super::super::status_bar::GoalBadge::Paused);
    update(&mut app, Some(GoalStatus::Achieved));
    assert_eq!(app.status.goal, super::super::status_bar::GoalBadge::Hidden);
    assert_eq!(app.side.goals.summary(), "done");
}

fn continuing(used: u32, reason: &str) -> Event {
    Event::GoalProgress(GoalProgress::Continuing {
        used,
        max_turns: 20,
        reason: reason.into(),
        prompt: format!(
            "{CONTINUATION_MARKER}\nGoal: {GOAL}\n\nContinue working toward this goal. Take the \
             next concrete step."
        ),
    })
}

fn reply(t: &mut Transcript, turn_id: u64, text: &str) {
    t.apply(&Event::MessageStart(MessageStart { turn_id }));
    t.apply(&Event::MessageComplete(MessageComplete {
        turn_id,
        text: text.into(),
        reasoning: None,
    }));
}

fn draw(t: &Transcript, width: u16, height: u16) -> Terminal<TestBackend> {
    let mut view = ChatView::new();
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal
        .draw(|frame| {
            let area = frame.area();
            view.render(
                t,
                area,
                frame.buffer_mut(),
                &Theme::default(),
                ChatFocus::Unfocused,
            );
        })
        .unwrap();
    terminal
}

#[test]
fn walkthrough_status_lines_in_the_transcript() {
    let mut t = Transcript::new();
    t.push_user(&format!("/goal {GOAL}"));
    t.apply(&Event::GoalProgress(GoalProgress::Set {
        goal: GOAL.into(),
        max_turns: 20,
    }));
    reply(&mut t, 1, "Created /tmp/note_1.txt.");
    t.apply(&continuing(
        1,
        "Only 1 of 4 files has been created; 3 files remain.",
    ));
    reply(&mut t, 2, "Created /tmp/note_2.txt. Two more to go.");
    t.apply(&continuing(2, "2 of 4 files created; 2 remain."));
    reply(&mut t, 3, "Created /tmp/note_3.txt.");
    t.apply(&continuing(3, "3 of 4 files created; 1 remains."));
    reply(&mut t, 4, "All four files have been created.");
    t.apply(&Event::GoalProgress(GoalProgress::Achieved {
        reason: "All four files were created with the specified content, completing the goal."
            .into(),
    }));
    let shown: Vec<String> = t
        .entries()
        .iter()
        .filter_map(|e| match e.cell() {
            Cell::User { text, .. } => Some(text.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(shown[1..], [CONTINUATION_MARKER; 3]);
    insta::assert_snapshot!("goal_walkthrough", draw(&t, 90, 40).backend());
}

#[test]
fn a_budget_pause_shows_its_detail() {
    let mut t = Transcript::new();
    t.apply(&Event::GoalProgress(GoalProgress::Paused {
        used: 20,
        max_turns: 20,
        cause: PauseCause::Budget,
    }));
    t.apply(&Event::GoalProgress(GoalProgress::Paused {
        used: 2,
        max_turns: 20,
        cause: PauseCause::User,
    }));
    t.apply(&Event::GoalProgress(GoalProgress::Resumed {
        max_turns: 20,
    }));
    t.apply(&Event::GoalProgress(GoalProgress::Cleared));
    let terminal = draw(&t, 60, 14);
    insta::assert_snapshot!("goal_paused_detail", terminal.backend());
    // The line in the warning role, its detail dimmer (row 1 and 3, after the border).
    let theme = Theme::default();
    let buf = terminal.backend().buffer();
    assert_eq!(buf[(2, 1)].symbol(), "⏸");
    assert_eq!(
        Some(buf[(2, 1)].fg),
        theme.style(crate::theme::Role::Warn).fg
    );
    assert_eq!(buf[(4, 3)].symbol(), "t");
    assert!(buf[(4, 3)].modifier.contains(ratatui::style::Modifier::DIM));
}

#[test]
fn replayed_continuations_show_their_marker_only() {
    let mut t = Transcript::new();
    t.apply(&Event::HistoryReplay(HistoryReplay {
        messages: vec![
            ReplayMessage::User {
                images: Vec::new(),
                text: format!("{CONTINUATION_MARKER}\nGoal: x\n\nContinue."),
            },
            ReplayMessage::User {
                images: Vec::new(),
                text: "plain\nmessage".into(),
            },
        ],
    }));
    let texts: Vec<&str> = t
        .entries()
        .iter()
        .filter_map(|e| match e.cell() {
            Cell::User { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(texts, vec![CONTINUATION_MARKER, "plain\nmessage"]);
}

#[test]
fn the_goal_in_the_whole_screen() {
    let (_dir, mut app, _ops) = setup();
    let events = [
        Event::GoalUpdate(GoalUpdate {
            goal: Some(GoalSnapshot {
                goal: GOAL.into(),
                subgoals: vec!["each file ends with a newline".into()],
                turns_used: 1,
                judging: true,
                verdicts: vec![crate::protocol::GoalVerdict {
                    turn: 1,
                    outcome: crate::protocol::VerdictOutcome::Continue,
                    reason: "Only 1 of 4 files has been created; 3 files remain.".into(),
                    at: 1_795_978_860,
                }],
                ..snapshot(GoalStatus::Active)
            }),
        }),
        continuing(1, "Only 1 of 4 files has been created; 3 files remain."),
    ];
    for event in events {
        super::super::engine_link::on_engine_event(&mut app, event);
    }
    app.focus = Focus::Goals;
    let terminal = crate::tui::test_support::draw_app(&mut app, 120, 30);
    insta::assert_snapshot!("app_goal_120x30", terminal.backend());
}

/// A goal with two subgoals and four verdicts, no subagents, the composer focused: the Goals
/// pane grows into the rows the idle Subagents pane leaves blank (its empty text and hint
/// still show), and Approvals keeps its third.
#[test]
fn the_goal_grows_into_idle_subagents_rows() {
    let (_dir, mut app, _ops) = setup();
    let verdict = |turn: u32, reason: &str| crate::protocol::GoalVerdict {
        turn,
        outcome: crate::protocol::VerdictOutcome::Continue,
        reason: reason.into(),
        at: 1_795_978_800 + u64::from(turn) * 60,
    };
    let goal = GoalSnapshot {
        goal: GOAL.into(),
        subgoals: vec![
            "each file ends with a newline".into(),
            "no other files appear in /tmp".into(),
        ],
        turns_used: 4,
        verdicts: vec![
            verdict(1, "Only 1 of 4 files has been created; 3 files remain."),
            verdict(2, "2 of 4 files created; 2 remain."),
            verdict(3, "3 of 4 files created; 1 remains."),
            verdict(4, "note_4.txt is missing its trailing newline."),
        ],
        ..snapshot(GoalStatus::Active)
    };
    super::super::engine_link::on_engine_event(
        &mut app,
        Event::GoalUpdate(GoalUpdate { goal: Some(goal) }),
    );
    let terminal = crate::tui::test_support::draw_app(&mut app, 120, 30);
    insta::assert_snapshot!("app_goal_grown_120x30", terminal.backend());
    let rows = crate::tui::test_support::screen_rows(&terminal);
    let row_of = |text: &str| rows.iter().position(|r| r.contains(text));
    // Subagents keeps its whole empty state; Goals shows both subgoals and the newest verdicts.
    assert!(row_of("Ctrl+T focus").is_some(), "{rows:?}");
    assert!(row_of("2. no other files").is_some(), "{rows:?}");
    assert!(row_of("#4 continue").is_some(), "{rows:?}");
    assert!(row_of("#3 continue").is_some(), "{rows:?}");
    assert!(
        row_of("╭ Goals").is_some_and(|y| y < 9),
        "Goals starts higher: {rows:?}"
    );
    assert_eq!(
        row_of("╭ Approvals"),
        Some(18),
        "Approvals keeps its 9 rows: {rows:?}"
    );
}
