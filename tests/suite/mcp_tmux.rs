//! MCP as a user meets it, in tmux with the real binary against the scripted provider: add
//! the filesystem server with `hermes mcp add`, start hermes, see it in `/status`, have the
//! agent use one of its tools (the tool cell names the server), `/reload-mcp` through its
//! confirmation dialog; and a server killed mid-session announces itself and comes back.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;
use crate::support::env::CleanEnv;

use std::process::Command;
use std::time::Duration;

use support::Response;
use support::ScriptedServer;
use support::mcp;
use support::tmux::Tmux;
use support::tmux_app::TmuxApp;

const WAIT: Duration = Duration::from_secs(20);

fn hermes(app: &TmuxApp, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_hermes"))
        .clean_env()
        .args(args)
        .env("HERMES_HOME", app.home())
        .output()
        .unwrap()
}

#[test]
fn add_the_filesystem_server_see_it_in_status_and_use_it_in_a_turn() {
    if !Tmux::available() {
        eprintln!("skipping: tmux is not installed (scripts/test.sh installs it)");
        return;
    }
    let Some(modules) = mcp::node_modules() else {
        return;
    };
    let files = tempfile::tempdir().unwrap();
    std::fs::write(files.path().join("notes.md"), "# notes\n").unwrap();
    let args = serde_json::json!({"path": files.path()}).to_string();
    let server = ScriptedServer::start_on_own_thread([
        Response::tool_call("c1", "mcp_files_list_directory", &args),
        Response::text(["The folder holds notes.md. ✔️"]),
    ]);
    let app = TmuxApp::new(&server, "");
    let dir = files.path().display().to_string();
    let added = hermes(
        &app,
        &[
            "mcp",
            "add",
            "files",
            "--command",
            &mcp::filesystem_bin(&modules),
            "--no-test",
            "--args",
            &dir,
        ],
    );
    assert!(added.status.success(), "{added:?}");

    let tmux = app.start_with("", &[]);
    status_until(&tmux, "files · stdio · connected · 14 tools");

    tmux.type_text("what is in the folder?");
    tmux.keys(&["Enter"]);
    let chat = tmux.wait_for_chat_text("The folder holds notes.md.", WAIT);
    assert!(chat.contains("list_directory"), "{chat}");
    assert!(
        chat.contains("files · MCP"),
        "the tool cell names its server: {chat}"
    );
    // The tool cell's emoji and the answer's `✔️` are as wide in tmux as hermes counted them:
    // their rows' right borders line up with the prompt's.
    let screen = tmux.screen();
    let border_of = |needle: &str| {
        let line = screen.lines().find(|l| l.contains(needle)).unwrap();
        right_border_column(line).unwrap_or_else(|| panic!("no border in {line:?}"))
    };
    let plain = border_of("what is in the folder?");
    assert_eq!(border_of("files · MCP"), plain, "{screen}");
    assert_eq!(border_of("The folder holds"), plain, "{screen}");
    let requests = server.completion_requests();
    let results = requests[1].tool_results();
    assert_eq!(results, ["[FILE] notes.md"]);

    tmux.type_text("/reload-mcp");
    tmux.keys(&["Enter"]);
    tmux.wait_for_text("Reload now", WAIT);
    tmux.keys(&["Enter"]);
    tmux.wait_for_chat_text("MCP servers reloaded: files connected (14 tools)", WAIT);
}

#[test]
fn a_server_killed_mid_session_is_announced_and_comes_back() {
    if !Tmux::available() {
        eprintln!("skipping: tmux is not installed (scripts/test.sh installs it)");
        return;
    }
    let Some(_modules) = mcp::node_modules() else {
        return;
    };
    let server = ScriptedServer::start_on_own_thread([
        Response::tool_call("c1", "mcp_changing_pid", "{}"),
        Response::text(["noted"]),
    ]);
    let app = TmuxApp::new(&server, "");
    let config = app.home().join("config.yaml");
    let mut yaml = std::fs::read_to_string(&config).unwrap();
    yaml.push_str(&format!(
        "mcp_servers:\n  changing:\n    command: node\n    args: ['{}']\n",
        mcp::changing_server()
    ));
    std::fs::write(&config, yaml).unwrap();
    let tmux = app.start_with("", &[]);
    tmux.type_text("what is the pid?");
    tmux.keys(&["Enter"]);
    tmux.wait_for_chat_text("noted", WAIT);
    let requests = server.completion_requests();
    let pid = requests[1].tool_results()[0].trim().to_string();
    assert!(
        Command::new("kill")
            .args(["-9", &pid])
            .status()
            .unwrap()
            .success()
    );
    tmux.wait_for_chat_text("MCP server 'changing' stopped", WAIT);
    let chat = tmux.wait_for_chat_text("MCP server 'changing' reconnected (2 tools)", WAIT);
    assert!(
        chat.contains("its 2 tools are unavailable; retrying in 1 s"),
        "{chat}"
    );
    status_until(&tmux, "changing · stdio · connected · 2 tools");
}

/// `/status` (a snapshot) until it shows `line`: the server may still be connecting.
fn status_until(tmux: &Tmux, line: &str) {
    let deadline = std::time::Instant::now() + WAIT;
    loop {
        tmux.type_text("/status");
        tmux.keys(&["Enter"]);
        std::thread::sleep(Duration::from_millis(300));
        if support::tmux::chat_text(&tmux.screen()).contains(line) {
            return;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "/status never showed {line:?}:\n{}",
            tmux.screen()
        );
    }
}

#[test]
fn a_long_call_shows_its_progress_then_its_result() {
    if !Tmux::available() {
        eprintln!("skipping: tmux is not installed (scripts/test.sh installs it)");
        return;
    }
    let Some(modules) = mcp::node_modules() else {
        return;
    };
    let server = ScriptedServer::start_on_own_thread([
        Response::tool_call(
            "c1",
            "mcp_ev_trigger_long_running_operation",
            r#"{"duration": 3, "steps": 3}"#,
        ),
        Response::text(["The operation finished."]),
    ]);
    let app = TmuxApp::new(&server, "");
    let config = app.home().join("config.yaml");
    let mut yaml = std::fs::read_to_string(&config).unwrap();
    yaml.push_str(&format!(
        "mcp_servers:\n  ev:\n    command: {}\n",
        mcp::everything_bin(&modules)
    ));
    std::fs::write(&config, yaml).unwrap();
    let tmux = app.start_with("", &[]);
    tmux.type_text("run the long operation");
    tmux.keys(&["Enter"]);
    // Each step shows for about a second on the running cell.
    tmux.wait_for("a progress line", WAIT, |screen| {
        let chat = support::tmux::chat_text(screen);
        chat.contains("running…") && (chat.contains("┊ 1/3") || chat.contains("┊ 2/3"))
    });
    let chat = tmux.wait_for_chat_text("The operation finished.", WAIT);
    assert!(chat.contains("Long running operation completed"), "{chat}");
}

/// The display column of the chat pane's right border on a captured row.
fn right_border_column(line: &str) -> Option<usize> {
    use unicode_width::UnicodeWidthStr;
    let inner = line.strip_prefix('│')?;
    let end = inner.find('│')?;
    Some(1 + inner[..end].width())
}
