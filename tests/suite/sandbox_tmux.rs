//! The sandbox as a user meets it, in tmux with the real binary and the scripted provider:
//! a benign-looking write outside the workspace is refused by the kernel, the Approvals pane
//! asks to re-run it outside naming the path, and approving runs it once; `/status` shows the
//! sandbox's state; with Landlock reported missing there is a notice and approvals only.

use std::time::Duration;

use crate::support;
use support::Response;
use support::ScriptedCall;
use support::ScriptedServer;
use support::tmux::Tmux;
use support::tmux_app::TmuxApp as App;

const WAIT: Duration = Duration::from_secs(20);

#[test]
fn a_sandbox_refusal_is_escalated_in_the_approvals_pane_and_approved_once() {
    if !Tmux::available() {
        eprintln!("skipping: tmux is not installed (scripts/test.sh installs it)");
        return;
    }
    // Outside the workspace and outside the temp dirs the sandbox lets commands write.
    let outside = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let target = outside.path().join("notes.txt");
    let command = format!("echo from-hermes > {}", target.display());
    let server = ScriptedServer::start_on_own_thread([
        Response::tool_calls([ScriptedCall::terminal("c1", &command)]),
        Response::text(["Wrote ", "the notes."]),
    ]);
    let app = App::new(&server, "");
    let tmux = app.start();
    tmux.wait_for_text("Message Hermes", WAIT);
    tmux.type_text("/status");
    tmux.keys(&["Enter"]);
    tmux.wait_for_text("sandbox: workspace-write, network on", WAIT);

    tmux.type_text("write the notes");
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for_text("the sandbox blocked", WAIT);
    assert!(screen.contains(&target.display().to_string()), "{screen}");
    assert!(!target.exists(), "the sandboxed run wrote nothing");
    tmux.keys(&["y"]);
    tmux.wait_for_text("Wrote the notes.", WAIT);
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "from-hermes\n");
    let requests = server.requests();
    let result = requests[1].tool_results().join("\n");
    assert!(result.contains("outside the sandbox"), "{result}");

    tmux.keys(&["C-c"]);
    tmux.keys(&["C-c"]);
    tmux.wait_for_text("[exited 0]", WAIT);
}

#[test]
fn without_landlock_there_is_a_notice_and_status_says_why() {
    if !Tmux::available() {
        eprintln!("skipping: tmux is not installed (scripts/test.sh installs it)");
        return;
    }
    let server = ScriptedServer::start_on_own_thread([Response::text(["hi"])]);
    let app = App::new(&server, "");
    let tmux = app.start_with(
        "",
        &[(
            hermes::safety::sandbox::SIMULATE_UNAVAILABLE_ENV,
            "1".to_string(),
        )],
    );
    let screen = tmux.wait_for_text("sandbox unavailable", WAIT);
    assert!(screen.contains("commands run with approvals"), "{screen}");
    tmux.type_text("/status");
    tmux.keys(&["Enter"]);
    tmux.wait_for_text("sandbox: unavailable (Landlock reported missing", WAIT);
    tmux.keys(&["C-c"]);
    tmux.keys(&["C-c"]);
    tmux.wait_for_text("[exited 0]", WAIT);
}
