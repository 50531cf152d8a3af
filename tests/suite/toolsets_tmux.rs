//! `/tools` as a user meets it, in tmux with the real binary against the scripted provider:
//! the overlay lists the toolsets with toggles, Space switches the first one off (saved to
//! config.yaml, and the overlay says when that applies), the running session keeps its
//! tools, and after `/new` the request no longer carries that toolset's tools.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use std::time::Duration;

use support::Response;
use support::ScriptedServer;
use support::tmux::Tmux;
use support::tmux_app::TmuxApp;

const WAIT: Duration = Duration::from_secs(20);

#[test]
fn switch_a_toolset_off_in_the_overlay_and_new_sessions_lose_its_tools() {
    if !Tmux::available() {
        eprintln!("skipping: tmux is not installed (scripts/test.sh installs it)");
        return;
    }
    let server = ScriptedServer::start_on_own_thread([
        Response::text(["first answer"]),
        Response::text(["second answer"]),
    ]);
    let app = TmuxApp::new(&server, "");
    let tmux = app.start_with("", &[]);
    tmux.type_text("/tools");
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for_text("Space/Enter switch", WAIT);
    assert!(screen.contains("applies from /new"), "{screen}");
    // The first row is selected: its name follows the first `[x]`.
    let first = screen
        .lines()
        .find_map(|l| l.split("[x] ").nth(1))
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("no enabled toolset in\n{screen}"))
        .to_string();
    tmux.keys(&["Space"]);
    let screen = tmux.wait_for_text(&format!("{first} disabled"), WAIT);
    assert!(screen.contains(&format!("[ ] {first}")), "{screen}");
    let config = std::fs::read_to_string(app.home().join("config.yaml")).unwrap();
    assert!(config.contains("platform_toolsets:\n  cli:\n"), "{config}");
    assert!(!config.contains(&format!("    - {first}\n")), "{config}");
    tmux.keys(&["Escape"]);
    tmux.wait_for("the overlay to close", WAIT, |s| {
        !s.contains("Space/Enter switch")
    });

    let gone: Vec<String> = hermes::config::toolset_catalog::get(&first)
        .unwrap()
        .tools
        .iter()
        .map(ToString::to_string)
        // Hermes's `browser` toolset lists `web_search` too, so it stays offered while
        // `browser` is on (as in Hermes); every other tool of the toolset goes.
        .filter(|t| !(first == "web" && t == "web_search"))
        .collect();
    tmux.type_text("hello");
    tmux.keys(&["Enter"]);
    tmux.wait_for_chat_text("first answer", WAIT);
    let before = server.completion_requests()[0].tool_names();
    assert!(
        gone.iter().any(|t| before.contains(t)),
        "the running session keeps its tools: {before:?}"
    );

    tmux.type_text("/new");
    tmux.keys(&["Enter"]);
    tmux.wait_for_text("with the toolsets from config.yaml", WAIT);
    tmux.type_text("hello again");
    tmux.keys(&["Enter"]);
    tmux.wait_for_chat_text("second answer", WAIT);
    let after = server.completion_requests()[1].tool_names();
    assert!(!after.is_empty());
    for tool in &gone {
        assert!(
            !after.contains(tool),
            "{tool} still offered after /new: {after:?}"
        );
    }
}
