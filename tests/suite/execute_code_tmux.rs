//! `execute_code` in the TUI, in tmux with the real binary: the script's own tool calls are
//! lines of its cell (not cells of their own), a dangerous command inside the script asks in
//! the approvals pane "via execute_code", and the cell ends with what the script printed, not
//! the JSON the model got.

use std::time::Duration;

use serde_json::json;

use crate::support;
use support::Response;
use support::ScriptedCall;
use support::ScriptedServer;
use support::tmux::Tmux;
use support::tmux_app::TmuxApp as App;

const WAIT: Duration = Duration::from_secs(20);

const SCRIPT: &str = r#"from hermes_tools import search_files, read_file, terminal
hits = search_files("TODO", target="content")
paths = sorted({m["path"] for m in hits["matches"]})
for path in paths:
    text = read_file(path)["content"]
result = terminal("rm -rf build")
print(f"{len(paths)} files with TODOs; cleanup exit {result['exit_code']}")
"#;

#[test]
fn a_scripts_calls_nest_in_its_cell_and_ask_via_execute_code() {
    if !Tmux::available() {
        eprintln!("skipping: tmux is not installed (scripts/test.sh installs it)");
        return;
    }
    if std::process::Command::new("python3")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("skipping: python3 is not installed (scripts/test.sh installs it)");
        return;
    }
    let args = json!({ "code": SCRIPT }).to_string();
    let sleeper = json!({
        "code": "import os, time\nopen('sleeper.pid', 'w').write(str(os.getpid()))\n\
                 print('waiting', flush=True)\ntime.sleep(60)\n"
    })
    .to_string();
    let server = ScriptedServer::start_on_own_thread([
        Response::tool_calls([ScriptedCall::new("x1", "execute_code", &args)]),
        Response::text(["Both ", "files ", "read."]),
        Response::tool_calls([ScriptedCall::new("x2", "execute_code", &sleeper)]),
    ]);
    let app = App::new(&server, "");
    std::fs::write(app.dir.path().join("a.txt"), "TODO: one\n").unwrap();
    std::fs::write(app.dir.path().join("b.txt"), "TODO: two\n").unwrap();
    std::fs::create_dir_all(app.dir.path().join("build")).unwrap();
    std::fs::write(app.dir.path().join("build/out.o"), "x").unwrap();
    let tmux = app.start();
    tmux.wait_for_text("Message Hermes", WAIT);

    tmux.type_text("read the TODO files");
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for_text("$ rm -rf build", WAIT);
    assert!(
        screen.contains("main agent via execute_code wants to"),
        "{screen}"
    );
    assert!(screen.contains("execute_code (7 lines)"), "{screen}");
    assert!(
        screen.contains("↳"),
        "the script's calls are lines: {screen}"
    );
    assert!(screen.contains("read_file a.txt"), "{screen}");
    tmux.keys(&["y"]);

    let screen = tmux.wait_for_text("Both files read.", WAIT);
    assert!(
        screen.contains("2 files with TODOs; cleanup exit 0"),
        "{screen}"
    );
    assert!(screen.contains("read_file b.txt"), "{screen}");
    assert!(
        !screen.contains("tool_calls_made"),
        "no raw JSON in the cell: {screen}"
    );
    assert!(!app.dir.path().join("build").exists(), "approved: it ran");

    // Esc while a script runs kills it at once, with Hermes's message.
    tmux.type_text("now wait");
    tmux.keys(&["Enter"]);
    let pid_file = app.dir.path().join("sleeper.pid");
    let deadline = std::time::Instant::now() + WAIT;
    let pid: i32 = loop {
        if let Some(pid) = std::fs::read_to_string(&pid_file)
            .ok()
            .and_then(|s| s.parse().ok())
        {
            break pid;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the script never started"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    let pressed = std::time::Instant::now();
    tmux.keys(&["Escape"]);
    tmux.wait_for_text("[execution interrupted — user sent a new message]", WAIT);
    assert!(
        pressed.elapsed() < Duration::from_secs(5),
        "{:?}",
        pressed.elapsed()
    );
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    assert!(
        stat.is_empty() || stat.contains(") Z "),
        "the script {pid} was killed: {stat}"
    );

    tmux.keys(&["C-c"]);
    tmux.keys(&["C-c"]);
    tmux.wait_for_text("[exited 0]", WAIT);
}
