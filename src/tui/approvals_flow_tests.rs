use std::time::Duration;
use std::time::Instant;

use crossterm::event::Event as TermEvent;
use crossterm::event::KeyCode;
use crossterm::event::KeyEvent;
use crossterm::event::KeyModifiers;
use pretty_assertions::assert_eq;

use super::*;
use crate::protocol::ApprovalKind;
use crate::protocol::ApprovalResolved;
use crate::protocol::Event;
use crate::protocol::TurnStarted;
use crate::tui::engine_link::on_engine_event;
use crate::tui::test_support::WithSession;
use crate::tui::test_support::ops_sent;
use crate::tui::test_support::press;
use crate::tui::test_support::setup;
use crate::tui::test_support::test_app;
use crate::tui::transcript::Cell;

const ALL: [ApprovalDecision; 4] = [
    ApprovalDecision::Once,
    ApprovalDecision::Session,
    ApprovalDecision::Always,
    ApprovalDecision::Deny,
];

fn request(id: &str, command: &str) -> ApprovalRequest {
    ApprovalRequest {
        id: id.into(),
        agent: "main".into(),
        via: None,
        kind: ApprovalKind::Command,
        subject: command.into(),
        reason: "recursive delete".into(),
        cwd: "/work".into(),
        choices: ALL.to_vec(),
        timeout_secs: 60,
    }
}

fn arrive(app: &mut App, request: ApprovalRequest) {
    on_engine_event(app, Event::ApprovalRequest(request));
}

fn press_with(app: &mut App, code: KeyCode, modifiers: KeyModifiers) {
    crate::tui::input::on_terminal_event(app, TermEvent::Key(KeyEvent::new(code, modifiers)));
}

fn reply(id: &str, decision: ApprovalDecision) -> Op {
    Op::ApprovalReply {
        id: id.into(),
        decision,
    }
}

fn notices(app: &App) -> Vec<String> {
    app.transcript
        .entries()
        .iter()
        .filter_map(|e| match e.cell() {
            Cell::Notice { text, .. } => Some(text.clone()),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn a_request_takes_focus_and_y_s_a_n_answer_it_once() {
    for (key, decision) in [
        ('y', ApprovalDecision::Once),
        ('s', ApprovalDecision::Session),
        ('a', ApprovalDecision::Always),
        ('n', ApprovalDecision::Deny),
        ('Y', ApprovalDecision::Once),
    ] {
        let (_dir, mut app, mut ops) = setup();
        arrive(&mut app, request("r1", "rm -rf build"));
        assert_eq!(app.focus, Focus::Approvals, "an idle composer gives focus");
        assert!(app.approvals.take_bell(), "the bell rings");
        press(&mut app, KeyCode::Char(key));
        assert_eq!(ops_sent(&mut ops), vec![reply("r1", decision)], "key {key}");
        assert!(
            app.side.approvals.is_empty(),
            "answered requests leave the queue"
        );
        assert_eq!(app.focus, Focus::Composer, "focus goes back");
        press(&mut app, KeyCode::Char(key));
        assert_eq!(ops_sent(&mut ops), vec![], "never answered twice");
        assert_eq!(
            app.composer.text(),
            key.to_string(),
            "later keys type again"
        );
    }
}

#[tokio::test]
async fn esc_denies_instead_of_interrupting_the_waiting_turn() {
    let (_dir, mut app, mut ops) = setup();
    on_engine_event(&mut app, Event::TurnStarted(TurnStarted { turn_id: 1 }));
    arrive(&mut app, request("r1", "rm -rf build"));
    press(&mut app, KeyCode::Esc);
    assert_eq!(
        ops_sent(&mut ops),
        vec![reply("r1", ApprovalDecision::Deny)]
    );
    // With the queue empty, Esc interrupts again.
    press(&mut app, KeyCode::Esc);
    assert_eq!(ops_sent(&mut ops), vec![Op::Interrupt]);
}

#[tokio::test]
async fn ctrl_c_still_interrupts_from_the_pane() {
    let (_dir, mut app, mut ops) = setup();
    on_engine_event(&mut app, Event::TurnStarted(TurnStarted { turn_id: 1 }));
    arrive(&mut app, request("r1", "rm -rf build"));
    press_with(&mut app, KeyCode::Char('c'), KeyModifiers::CONTROL);
    assert_eq!(ops_sent(&mut ops), vec![Op::Interrupt]);
    assert_eq!(
        app.side.approvals.pending_count(),
        1,
        "the engine settles it"
    );
}

#[tokio::test]
async fn arrows_move_between_requests_and_answers() {
    let (_dir, mut app, mut ops) = setup();
    for (id, command) in [("r1", "rm -rf a"), ("r2", "rm -rf b"), ("r3", "rm -rf c")] {
        arrive(&mut app, request(id, command));
    }
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Up);
    assert_eq!(app.side.approvals.selected_index(), 1);
    // → highlights "Allow this session"; Enter gives it.
    press(&mut app, KeyCode::Right);
    press(&mut app, KeyCode::Enter);
    assert_eq!(
        ops_sent(&mut ops),
        vec![reply("r2", ApprovalDecision::Session)]
    );
    assert_eq!(app.focus, Focus::Approvals, "two still wait");
    // ← from the first answer wraps to Deny.
    press(&mut app, KeyCode::Left);
    press(&mut app, KeyCode::Enter);
    let selected = app.side.approvals.selected().map(|p| p.request.id.clone());
    assert_eq!(selected, Some("r1".to_string()));
    assert_eq!(
        ops_sent(&mut ops),
        vec![reply("r3", ApprovalDecision::Deny)]
    );
    press(&mut app, KeyCode::Char('3'));
    assert_eq!(
        ops_sent(&mut ops),
        vec![reply("r1", ApprovalDecision::Always)]
    );
    assert_eq!(app.focus, Focus::Composer);
}

#[tokio::test]
async fn an_answer_not_offered_is_refused_with_a_hint() {
    let (_dir, mut app, mut ops) = setup();
    let mut hook = request("h1", "~/.hermes/agent-hooks/x.sh");
    hook.kind = ApprovalKind::HookConsent;
    hook.choices = vec![
        ApprovalDecision::Once,
        ApprovalDecision::Always,
        ApprovalDecision::Deny,
    ];
    arrive(&mut app, hook);
    press(&mut app, KeyCode::Char('s'));
    assert_eq!(ops_sent(&mut ops), vec![]);
    let hint = app
        .hint
        .as_ref()
        .map(|h| h.text.clone())
        .unwrap_or_default();
    assert!(hint.contains("Allow this session"), "{hint}");
    press(&mut app, KeyCode::Char('a'));
    assert_eq!(
        ops_sent(&mut ops),
        vec![reply("h1", ApprovalDecision::Always)]
    );
}

#[tokio::test]
async fn resolved_requests_vanish_with_a_notice_unless_the_user_answered() {
    let (_dir, mut app, mut ops) = setup();
    arrive(&mut app, request("r1", "rm -rf x"));
    arrive(&mut app, request("r2", "git push --force"));
    arrive(&mut app, request("r3", "chmod 777 /srv"));
    on_engine_event(
        &mut app,
        Event::ApprovalResolved(ApprovalResolved {
            id: "r1".into(),
            decision: ApprovalDecision::Deny,
            decided_by: DecidedBy::Timeout,
        }),
    );
    on_engine_event(
        &mut app,
        Event::ApprovalResolved(ApprovalResolved {
            id: "r3".into(),
            decision: ApprovalDecision::Deny,
            decided_by: DecidedBy::Cancelled,
        }),
    );
    assert_eq!(app.side.approvals.pending_count(), 1);
    assert_eq!(app.focus, Focus::Approvals);
    // The user answers r2; the engine confirms it (no notice), then a stray timeout for an
    // id already answered still names its command.
    press(&mut app, KeyCode::Char('y'));
    assert_eq!(
        ops_sent(&mut ops),
        vec![reply("r2", ApprovalDecision::Once)]
    );
    assert_eq!(app.focus, Focus::Composer);
    on_engine_event(
        &mut app,
        Event::ApprovalResolved(ApprovalResolved {
            id: "r2".into(),
            decision: ApprovalDecision::Once,
            decided_by: DecidedBy::User,
        }),
    );
    arrive(&mut app, request("r4", "rm -rf y"));
    press(&mut app, KeyCode::Char('n'));
    on_engine_event(
        &mut app,
        Event::ApprovalResolved(ApprovalResolved {
            id: "r4".into(),
            decision: ApprovalDecision::Deny,
            decided_by: DecidedBy::Cancelled,
        }),
    );
    assert_eq!(
        notices(&app),
        vec![
            "⏱ approval timed out — denied: rm -rf x".to_string(),
            "approval cancelled — denied: chmod 777 /srv".to_string(),
            "approval cancelled — denied: rm -rf y".to_string(),
        ]
    );
}

#[tokio::test]
async fn the_last_resolution_gives_focus_back_to_where_it_was() {
    let (_dir, mut app, _ops) = setup();
    app.focus = Focus::Chat;
    arrive(&mut app, request("r1", "rm -rf x"));
    assert_eq!(app.focus, Focus::Approvals);
    on_engine_event(
        &mut app,
        Event::ApprovalResolved(ApprovalResolved {
            id: "r1".into(),
            decision: ApprovalDecision::Deny,
            decided_by: DecidedBy::Timeout,
        }),
    );
    assert_eq!(app.focus, Focus::Chat);
}

#[tokio::test]
async fn a_draft_or_recent_typing_keeps_focus_and_the_hidden_column_opens() {
    let (_dir, mut app, mut ops) = setup();
    app.side_visibility = SideVisibility::Hidden;
    press(&mut app, KeyCode::Char('y'));
    press(&mut app, KeyCode::Char('e'));
    arrive(&mut app, request("r1", "rm -rf x"));
    assert_eq!(app.focus, Focus::Composer, "never steals from a draft");
    assert_eq!(app.side_visibility, SideVisibility::Shown);
    press(&mut app, KeyCode::Char('s'));
    assert_eq!(app.composer.text(), "yes", "the keys stay the composer's");
    assert_eq!(ops_sent(&mut ops), vec![]);
    // F3 answers; F3 again goes back.
    press(&mut app, KeyCode::F(3));
    assert_eq!(app.focus, Focus::Approvals);
    press(&mut app, KeyCode::F(3));
    assert_eq!(app.focus, Focus::Composer);
    press(&mut app, KeyCode::F(3));
    press(&mut app, KeyCode::Char('n'));
    assert_eq!(
        ops_sent(&mut ops),
        vec![reply("r1", ApprovalDecision::Deny)]
    );
    assert_eq!(app.focus, Focus::Composer);
    assert_eq!(app.side_visibility, SideVisibility::Hidden, "restored");

    // An empty composer, but a key pressed a moment ago: still no focus change.
    app.composer.clear();
    press(&mut app, KeyCode::Backspace);
    arrive(&mut app, request("r2", "rm -rf y"));
    assert_eq!(app.focus, Focus::Composer);
    // Once the grace has passed, the next request takes focus.
    app.approvals.last_key = Some(Instant::now() - TYPING_GRACE);
    arrive(&mut app, request("r3", "rm -rf z"));
    assert_eq!(app.focus, Focus::Approvals);
}

#[tokio::test]
async fn a_hidden_pane_opens_focused_on_arrival() {
    let (_dir, mut app, _ops) = setup();
    app.side_visibility = SideVisibility::Hidden;
    app.focus = Focus::Goals;
    arrive(&mut app, request("r1", "rm -rf build"));
    assert_eq!(app.focus, Focus::Approvals);
    let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(120, 30)).unwrap();
    let now = Instant::now();
    terminal
        .draw(|f| crate::tui::render::render_app(f.area(), f.buffer_mut(), &mut app, now))
        .unwrap();
    let screen = format!("{}", terminal.backend());
    assert!(screen.contains("Approvals"), "{screen}");
    assert!(screen.contains("$ rm -rf build"), "{screen}");
    assert!(screen.contains("[y] Allow once"), "{screen}");
    assert_eq!(app.status.hidden_approvals, 0, "on screen: no status hint");
}

#[tokio::test]
async fn the_status_bar_counts_requests_the_screen_does_not_show() {
    let (_dir, mut app, _ops) = setup();
    press(&mut app, KeyCode::Char('x'));
    arrive(&mut app, request("r1", "rm -rf a"));
    arrive(&mut app, request("r2", "rm -rf b"));
    let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(80, 24)).unwrap();
    let now = Instant::now();
    terminal
        .draw(|f| crate::tui::render::render_app(f.area(), f.buffer_mut(), &mut app, now))
        .unwrap();
    let screen = format!("{}", terminal.backend());
    assert_eq!(
        app.status.hidden_approvals, 2,
        "80 columns: summary line only"
    );
    assert!(screen.contains("⚠ 2 approvals · F3"), "{screen}");
}

#[tokio::test]
async fn the_bell_rings_once_per_second_at_most() {
    let (_dir, mut app, _ops) = setup();
    // A draft keeps focus in the composer, so every arrival is "unfocused".
    press(&mut app, KeyCode::Char('x'));
    let t0 = Instant::now();
    let mut rang = Vec::new();
    for (i, ms) in [0u64, 200, 600, 999, 1_000, 1_300, 2_500]
        .iter()
        .enumerate()
    {
        on_request(
            &mut app,
            request(&format!("r{i}"), "rm -rf x"),
            t0 + Duration::from_millis(*ms),
        );
        rang.push(app.approvals.take_bell());
    }
    assert_eq!(rang, vec![true, false, false, false, true, false, true]);
}

#[tokio::test]
async fn approvals_bell_false_keeps_quiet_and_a_focused_pane_never_rings() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("config.yaml"),
        "approvals:\n  bell: false\n",
    )
    .unwrap();
    let (mut app, _ops) = test_app(&dir, WithSession::Yes);
    arrive(&mut app, request("r1", "rm -rf x"));
    assert!(!app.approvals.take_bell());
    assert_eq!(app.approvals.bell, Bell::Off);

    let (_dir, mut app, _ops) = setup();
    app.focus = Focus::Approvals;
    arrive(&mut app, request("r1", "rm -rf x"));
    assert!(!app.approvals.take_bell(), "already looking at it");
}

#[tokio::test]
async fn v_copies_the_whole_request_into_the_transcript() {
    let (_dir, mut app, _ops) = setup();
    arrive(&mut app, request("r1", "rm -rf build\necho done"));
    press(&mut app, KeyCode::Char('v'));
    let info = app
        .transcript
        .entries()
        .iter()
        .find_map(|e| match e.cell() {
            Cell::Info { title, body } => Some((title.clone(), body.clone())),
            _ => None,
        });
    assert_eq!(
        info,
        Some((
            "Approval request from main".to_string(),
            "rm -rf build\necho done\nwhy: recursive delete\nin: /work".to_string()
        ))
    );
    assert_eq!(app.side.approvals.pending_count(), 1, "still waiting");
}

#[tokio::test]
async fn a_session_ending_clears_the_queue() {
    let (_dir, mut app, _ops) = setup();
    arrive(&mut app, request("r1", "rm -rf x"));
    session_ended(&mut app);
    assert!(app.side.approvals.is_empty());
    assert_eq!(app.focus, Focus::Composer);
}

#[tokio::test]
async fn snapshot_app_with_a_request_wide_and_narrow() {
    let (_dir, mut app, _ops) = setup();
    crate::tui::input::send_message(&mut app, "clean the build".into(), Vec::new());
    on_engine_event(&mut app, Event::TurnStarted(TurnStarted { turn_id: 1 }));
    app.approvals.last_key = None;
    arrive(&mut app, request("r1", "rm -rf build/ target/"));
    let mut second = request("r2", "git push --force origin main");
    second.agent = "research-1".into();
    second.reason = "force push".into();
    arrive(&mut app, second);
    let now = app.side.approvals.pending()[0].arrived + Duration::from_millis(4_200);
    for (name, width, height) in [
        ("app_approvals_120x30", 120, 30),
        ("app_approvals_80x24", 80, 24),
    ] {
        let mut terminal =
            ratatui::Terminal::new(ratatui::backend::TestBackend::new(width, height)).unwrap();
        terminal
            .draw(|f| crate::tui::render::render_app(f.area(), f.buffer_mut(), &mut app, now))
            .unwrap();
        insta::assert_snapshot!(name, terminal.backend());
    }
}

#[tokio::test]
async fn a_request_right_after_sending_a_message_takes_focus() {
    let (_dir, mut app, _ops) = setup();
    for c in "clean up".chars() {
        press(&mut app, KeyCode::Char(c));
    }
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.composer.text(), "", "sent");
    arrive(&mut app, request("r1", "rm -rf build"));
    assert_eq!(
        app.focus,
        Focus::Approvals,
        "the draft is gone; nothing to protect"
    );
}
