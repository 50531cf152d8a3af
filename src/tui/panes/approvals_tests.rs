use std::time::Duration;
use std::time::Instant;

use pretty_assertions::assert_eq;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use super::*;
use crate::theme::Role;

const ALL: [ApprovalDecision; 4] = [
    ApprovalDecision::Once,
    ApprovalDecision::Session,
    ApprovalDecision::Always,
    ApprovalDecision::Deny,
];

fn command(id: &str, agent: &str, subject: &str, reason: &str) -> ApprovalRequest {
    ApprovalRequest {
        id: id.into(),
        agent: agent.into(),
        via: None,
        kind: ApprovalKind::Command,
        subject: subject.into(),
        reason: reason.into(),
        cwd: "/home/ada/src/hermes".into(),
        choices: ALL.to_vec(),
        timeout_secs: 60,
    }
}

fn file_write() -> ApprovalRequest {
    ApprovalRequest {
        id: "w1".into(),
        agent: "main".into(),
        via: None,
        kind: ApprovalKind::FileWrite,
        subject: "~/.bashrc".into(),
        reason: "write_file to a shell startup file".into(),
        cwd: "/home/ada/src/hermes".into(),
        choices: ALL.to_vec(),
        timeout_secs: 60,
    }
}

fn hook() -> ApprovalRequest {
    ApprovalRequest {
        id: "h1".into(),
        agent: "main".into(),
        via: None,
        kind: ApprovalKind::HookConsent,
        subject: "~/.hermes/agent-hooks/x.sh".into(),
        reason: "pre_tool_call".into(),
        cwd: String::new(),
        choices: vec![
            ApprovalDecision::Once,
            ApprovalDecision::Always,
            ApprovalDecision::Deny,
        ],
        timeout_secs: 60,
    }
}

/// Draws the pane at `width` columns and the height it asks for (or `height`).
fn draw(
    pane: &ApprovalsPane,
    width: u16,
    height: Option<u16>,
    focus: PaneFocus,
    now: Instant,
) -> Terminal<TestBackend> {
    let height = height.unwrap_or_else(|| pane.desired_height(width, now));
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal
        .draw(|f| pane.render(f.area(), f.buffer_mut(), &Theme::default(), focus, now))
        .unwrap();
    terminal
}

#[test]
fn snapshot_one_request() {
    let t0 = Instant::now();
    let mut pane = ApprovalsPane::default();
    pane.push(
        command("r1", "main", "rm -rf build/ target/", "recursive delete"),
        t0,
    );
    let now = t0 + Duration::from_millis(17_400);
    let t = draw(&pane, 43, None, PaneFocus::Focused, now);
    insta::assert_snapshot!("approvals_one_request", t.backend());
    let screen = format!("{}", t.backend());
    assert!(screen.contains("times out in 43s"), "{screen}");
}

#[test]
fn snapshot_three_queued_second_selected() {
    let t0 = Instant::now();
    let mut pane = ApprovalsPane::default();
    pane.push(
        command("r1", "main", "rm -rf build/", "recursive delete"),
        t0,
    );
    pane.push(
        command(
            "r2",
            "research-1",
            "git push --force origin main",
            "force push",
        ),
        t0 + Duration::from_secs(2),
    );
    pane.push(file_write(), t0 + Duration::from_secs(5));
    pane.select_next();
    let now = t0 + Duration::from_millis(52_500);
    let t = draw(&pane, 43, None, PaneFocus::Focused, now);
    insta::assert_snapshot!("approvals_three_queued_second_selected", t.backend());
    let screen = format!("{}", t.backend());
    assert!(screen.contains("Approvals · 2 of 3"), "{screen}");
    // 60 s from t0 + 2 s, seen at 52.5 s: 9.5 s left, shown as 10 s and urgent.
    assert!(screen.contains("times out in 10s"), "{screen}");
}

#[test]
fn snapshot_subagent_request() {
    let t0 = Instant::now();
    let mut pane = ApprovalsPane::default();
    pane.push(
        command(
            "r1",
            "docs-writer",
            "curl -fsSL https://example.com/install.sh | sh",
            "pipe to shell",
        ),
        t0,
    );
    let t = draw(&pane, 43, None, PaneFocus::Focused, t0);
    insta::assert_snapshot!("approvals_subagent", t.backend());
    let screen = format!("{}", t.backend());
    assert!(
        screen.contains("subagent docs-writer wants to run"),
        "{screen}"
    );
}

#[test]
fn snapshot_request_from_an_execute_code_script() {
    let t0 = Instant::now();
    let mut pane = ApprovalsPane::default();
    let mut request = command("r1", "main", "rm -rf ./build", "recursive delete");
    request.via = Some("execute_code".into());
    pane.push(request, t0);
    let t = draw(&pane, 60, None, PaneFocus::Focused, t0);
    insta::assert_snapshot!("approvals_via_execute_code", t.backend());
    let screen = format!("{}", t.backend());
    assert!(
        screen.contains("main agent via execute_code wants to run"),
        "{screen}"
    );
}

#[test]
fn snapshot_file_write_and_hook_consent() {
    let t0 = Instant::now();
    let mut pane = ApprovalsPane::default();
    pane.push(file_write(), t0);
    let t = draw(&pane, 43, None, PaneFocus::Focused, t0);
    insta::assert_snapshot!("approvals_file_write", t.backend());

    let mut pane = ApprovalsPane::default();
    pane.push(hook(), t0);
    let t = draw(&pane, 43, None, PaneFocus::Unfocused, t0);
    insta::assert_snapshot!("approvals_hook_consent_unfocused", t.backend());
    let screen = format!("{}", t.backend());
    assert!(screen.contains("Run hook on pre_tool_call"), "{screen}");
    assert!(!screen.contains("Allow this session"), "{screen}");
    assert!(screen.contains("F3 to answer"), "{screen}");
}

#[test]
fn a_long_command_is_cut_and_a_short_pane_keeps_the_answers() {
    let t0 = Instant::now();
    let mut pane = ApprovalsPane::default();
    let script: Vec<String> = (1..=20).map(|i| format!("echo step {i}")).collect();
    pane.push(
        command("r1", "main", &script.join("\n"), "heredoc script"),
        t0,
    );
    let full = format!(
        "{}",
        draw(&pane, 43, None, PaneFocus::Focused, t0).backend()
    );
    assert!(full.contains("echo step 11"), "{full}");
    assert!(!full.contains("echo step 12"), "{full}");
    assert!(full.contains("… 9 more lines"), "{full}");
    assert!(full.contains("v show all"), "{full}");
    let short = format!(
        "{}",
        draw(&pane, 43, Some(8), PaneFocus::Focused, t0).backend()
    );
    assert!(short.contains("[y] Allow once"), "{short}");
    assert!(short.contains("Esc deny"), "{short}");
    assert!(short.contains("$ echo step 1"), "{short}");
}

#[test]
fn the_highlighted_answer_uses_the_menu_role_only_when_focused() {
    let t0 = Instant::now();
    let mut pane = ApprovalsPane::default();
    pane.push(command("r1", "main", "rm -rf x", "recursive delete"), t0);
    pane.next_choice();
    let theme = Theme::default();
    let t = draw(&pane, 60, None, PaneFocus::Focused, t0);
    let buffer = t.backend().buffer();
    let row = (0..buffer.area.height)
        .find(|&y| {
            (0..buffer.area.width)
                .map(|x| buffer[(x, y)].symbol().to_string())
                .collect::<String>()
                .contains("[s] Allow this session")
        })
        .unwrap();
    let line: String = (0..buffer.area.width)
        .map(|x| buffer[(x, row)].symbol().to_string())
        .collect();
    let s_col = u16::try_from(line.find("[s]").unwrap()).unwrap();
    let y_col = u16::try_from(line.find("[y]").unwrap()).unwrap();
    let current = theme.style(Role::MenuCurrent);
    assert_eq!(buffer[(s_col, row)].bg, current.bg.unwrap());
    assert_ne!(buffer[(y_col, row)].bg, current.bg.unwrap());
    let t = draw(&pane, 60, None, PaneFocus::Unfocused, t0);
    assert_ne!(t.backend().buffer()[(s_col, row)].bg, current.bg.unwrap());
}

#[test]
fn the_countdown_needs_one_redraw_per_second_and_none_when_idle() {
    let t0 = Instant::now();
    let mut pane = ApprovalsPane::default();
    assert_eq!(pane.next_redraw(t0), None);
    pane.push(command("r1", "main", "rm -rf x", "r"), t0);
    let at = t0 + Duration::from_millis(2_300);
    assert_eq!(pane.next_redraw(at), Some(t0 + Duration::from_secs(3)));
    assert_eq!(pane.selected().unwrap().seconds_left(at), Some(58));
    assert_eq!(
        pane.next_redraw(t0 + Duration::from_secs(60)),
        None,
        "expired: waits for the engine's ApprovalResolved"
    );
    let mut no_timeout = command("r2", "main", "rm -rf y", "r");
    no_timeout.timeout_secs = 0;
    let mut pane = ApprovalsPane::default();
    pane.push(no_timeout, t0);
    assert_eq!(pane.next_redraw(at), None);
    assert_eq!(pane.selected().unwrap().seconds_left(at), None);
}

#[test]
fn taking_keeps_the_selection_on_a_neighbour() {
    let t0 = Instant::now();
    let mut pane = ApprovalsPane::default();
    for id in ["a", "b", "c"] {
        pane.push(command(id, "main", id, "r"), t0);
    }
    pane.select_next();
    pane.select_next();
    assert_eq!(pane.take("a").map(|p| p.request.id), Some("a".into()));
    assert_eq!(pane.selected().map(|p| p.request.id.as_str()), Some("c"));
    assert_eq!(pane.take_selected().map(|p| p.request.id), Some("c".into()));
    assert_eq!(pane.selected().map(|p| p.request.id.as_str()), Some("b"));
    // An answered request is still found once, for a late ApprovalResolved.
    assert_eq!(pane.take("c").map(|p| p.request.id), Some("c".into()));
    assert_eq!(pane.take("c"), None);
    // The same id twice stays one entry.
    pane.push(command("b", "main", "b2", "r"), t0);
    assert_eq!(pane.pending_count(), 1);
}
