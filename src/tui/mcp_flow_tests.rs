#![allow(clippy::unwrap_used, clippy::expect_used)]

use crossterm::event::KeyCode;
use pretty_assertions::assert_eq;

use super::*;
use crate::config::HermesHome;
use crate::protocol::Event;
use crate::protocol::McpStatus;
use crate::protocol::McpTransport;
use crate::tui::test_support::WithSession;
use crate::tui::test_support::app_with_events;
use crate::tui::test_support::draw_app;
use crate::tui::test_support::last_notice;
use crate::tui::test_support::next_app_event;
use crate::tui::test_support::ops_sent;
use crate::tui::test_support::press;
use crate::tui::test_support::screen_rows;
use crate::tui::test_support::setup;
use crate::tui::test_support::test_app;
use crate::tui::test_support::type_text;
use crate::tui::transcript::Cell;

fn server(
    name: &str,
    transport: McpTransport,
    state: McpServerState,
    tools: &[&str],
) -> McpServerStatus {
    McpServerStatus {
        name: name.into(),
        transport,
        state,
        tools: tools
            .iter()
            .map(|t| crate::util::mcp_names::mcp_tool_name(name, t))
            .collect(),
    }
}

/// One server in each state, two failed ones (retrying, and given up).
fn servers() -> Vec<McpServerStatus> {
    vec![
        server(
            "filesystem",
            McpTransport::Stdio,
            McpServerState::Connected,
            &["read_file", "write_file", "list_directory"],
        ),
        server(
            "time",
            McpTransport::Stdio,
            McpServerState::Connected,
            &["now"],
        ),
        server(
            "github",
            McpTransport::Http,
            McpServerState::Failed {
                reason: "connection refused".into(),
                retry_in_secs: Some(4),
            },
            &[],
        ),
        server(
            "sqlite",
            McpTransport::Stdio,
            McpServerState::Failed {
                reason: "exited with status 1".into(),
                retry_in_secs: None,
            },
            &[],
        ),
        server("docs", McpTransport::Http, McpServerState::Connecting, &[]),
        server("legacy", McpTransport::Stdio, McpServerState::Disabled, &[]),
    ]
}

fn run(app: &mut App, line: &str) {
    type_text(app, line);
    press(app, KeyCode::Enter);
}

fn last_info_body(app: &App) -> String {
    app.transcript
        .entries()
        .iter()
        .rev()
        .find_map(|e| match e.cell() {
            Cell::Info { body, .. } => Some(body.clone()),
            _ => None,
        })
        .unwrap()
}

fn saved_setting(home: &HermesHome) -> bool {
    crate::config::load(home)
        .config
        .approvals
        .mcp_reload_confirm
}

#[test]
fn the_status_section_has_one_line_per_server_with_failures_explained() {
    let section = status_section(&servers());
    insta::assert_snapshot!("mcp_status_section", section);
    assert_eq!(section.lines().count(), 7);
    assert!(
        section.contains("\n  time · stdio · connected · 1 tool\n"),
        "{section}"
    );
    assert!(
        section.contains("github · http · failed · 0 tools — connection refused; retrying in 4 s"),
        "{section}"
    );
}

#[tokio::test]
async fn status_shows_the_servers_the_engine_reported_or_how_to_add_one() {
    let (_dir, mut app, _ops) = setup();
    run(&mut app, "/status");
    let body = last_info_body(&app);
    assert!(body.ends_with(NO_SERVERS), "{body}");
    crate::tui::engine_link::on_engine_event(
        &mut app,
        Event::McpStatus(McpStatus { servers: servers() }),
    );
    run(&mut app, "/status");
    let body = last_info_body(&app);
    assert!(body.ends_with(&status_section(&servers())), "{body}");
    assert!(
        body.contains("HERMES_HOME: "),
        "the rest is still there: {body}"
    );
}

#[tokio::test]
async fn reload_asks_first_and_reload_now_sends_the_op() {
    let (_dir, mut app, mut ops) = setup();
    assert_eq!(
        app.mcp.reload_confirm,
        ReloadConfirm::Ask,
        "Hermes's default"
    );
    run(&mut app, "/reload-mcp");
    assert!(app.overlays.contains::<ReloadDialog>());
    assert!(
        !ops_sent(&mut ops).contains(&Op::ReloadMcp),
        "nothing before the answer"
    );
    press(&mut app, KeyCode::Enter);
    assert!(!app.overlays.contains::<ReloadDialog>());
    assert_eq!(ops_sent(&mut ops), [Op::ReloadMcp]);
    assert_eq!(last_notice(&app).as_deref(), Some(RELOADING));
    assert_eq!(
        app.mcp.reload_confirm,
        ReloadConfirm::Ask,
        "asks again next time"
    );
}

#[tokio::test]
async fn keys_go_to_the_dialog_not_the_composer() {
    let (_dir, mut app, mut ops) = setup();
    run(&mut app, "/reload-mcp");
    press(&mut app, KeyCode::Char('x'));
    press(&mut app, KeyCode::Down);
    assert!(app.composer.is_empty());
    assert_eq!(
        app.overlays
            .find::<ReloadDialog>()
            .unwrap()
            .dialog()
            .selected(),
        1
    );
    press(&mut app, KeyCode::Char('1'));
    assert_eq!(ops_sent(&mut ops), [Op::ReloadMcp]);
}

#[tokio::test]
async fn esc_n_and_the_cancel_choice_leave_the_tools_unchanged() {
    for answer in [KeyCode::Esc, KeyCode::Char('n'), KeyCode::Char('3')] {
        let (_dir, mut app, mut ops) = setup();
        run(&mut app, "/reload-mcp");
        press(&mut app, answer);
        assert!(!app.overlays.contains::<ReloadDialog>(), "{answer:?}");
        assert!(ops_sent(&mut ops).is_empty(), "{answer:?}");
        assert_eq!(last_notice(&app).as_deref(), Some(CANCELLED), "{answer:?}");
    }
}

#[tokio::test]
async fn reload_now_and_a_false_setting_skip_the_dialog() {
    let (_dir, mut app, mut ops) = setup();
    run(&mut app, "/reload-mcp now");
    assert!(!app.overlays.contains::<ReloadDialog>());
    assert_eq!(ops_sent(&mut ops), [Op::ReloadMcp]);

    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("config.yaml"),
        "approvals:\n  mcp_reload_confirm: false\n",
    )
    .unwrap();
    let (mut app, mut ops) = test_app(&dir, WithSession::Yes);
    assert_eq!(app.mcp.reload_confirm, ReloadConfirm::DontAsk);
    run(&mut app, "/reload-mcp");
    assert!(!app.overlays.contains::<ReloadDialog>());
    assert_eq!(ops_sent(&mut ops), [Op::ReloadMcp]);
    assert_eq!(last_notice(&app).as_deref(), Some(RELOADING));
}

#[tokio::test]
async fn other_arguments_get_the_usage() {
    let (_dir, mut app, mut ops) = setup();
    run(&mut app, "/reload-mcp github");
    assert!(!app.overlays.contains::<ReloadDialog>());
    assert!(ops_sent(&mut ops).is_empty());
    assert!(
        last_notice(&app)
            .unwrap()
            .starts_with("usage: /reload-mcp [now]")
    );
}

#[test]
fn without_a_session_reload_only_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let (mut app, _ops) = test_app(&dir, WithSession::No);
    command(&mut app, "now");
    let notice = last_notice(&app).unwrap();
    assert!(
        notice.starts_with("no model session is running"),
        "{notice}"
    );
    assert!(
        app.transcript.entries().iter().all(|e| !matches!(
            e.cell(),
            Cell::Notice { text, .. } if text == RELOADING
        )),
        "does not claim to reload"
    );
}

#[tokio::test]
async fn dont_ask_again_reloads_stops_asking_and_saves_the_setting() {
    let (_dir, mut app, mut ops, mut events) = app_with_events();
    run(&mut app, "/reload-mcp");
    press(&mut app, KeyCode::Char('2'));
    assert_eq!(ops_sent(&mut ops), [Op::ReloadMcp]);
    assert_eq!(
        app.mcp.reload_confirm,
        ReloadConfirm::DontAsk,
        "off at once"
    );
    next_app_event(&mut app, &mut events).await;
    let notice = last_notice(&app).unwrap();
    assert!(
        notice.starts_with("/reload-mcp will no longer ask"),
        "{notice}"
    );
    assert!(!saved_setting(&app.home));
    run(&mut app, "/reload-mcp");
    assert!(!app.overlays.contains::<ReloadDialog>());
    assert_eq!(ops_sent(&mut ops), [Op::ReloadMcp]);
}

#[tokio::test]
async fn a_failed_save_is_a_warning() {
    let (_dir, mut app, mut ops, mut events) = app_with_events();
    // A config.yaml that does not parse cannot be edited.
    std::fs::write(app.home.config_path(), "approvals: [unclosed\n").unwrap();
    run(&mut app, "/reload-mcp");
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Enter);
    assert_eq!(ops_sent(&mut ops), [Op::ReloadMcp]);
    next_app_event(&mut app, &mut events).await;
    let warning = app
        .transcript
        .entries()
        .iter()
        .rev()
        .find_map(|e| match e.cell() {
            Cell::Notice {
                level: NoticeLevel::Warning,
                text,
            } => Some(text.clone()),
            _ => None,
        })
        .unwrap();
    assert!(
        warning.starts_with("could not save approvals.mcp_reload_confirm: "),
        "{warning}"
    );
}

#[tokio::test]
async fn the_dialog_sits_over_the_side_panes() {
    let (_dir, mut app, _ops) = setup();
    run(&mut app, "/reload-mcp");
    let terminal = draw_app(&mut app, 120, 30);
    insta::assert_snapshot!("app_reload_mcp_dialog_120x30", terminal.backend());
    let rows = screen_rows(&terminal);
    let title_row = rows
        .iter()
        .find(|r| r.contains("Reload MCP servers?"))
        .unwrap();
    let column = title_row.chars().position(|c| c == '╭').unwrap();
    assert!(
        column > 60,
        "right-aligned, over the side panes: {title_row}"
    );
}
