//! The knowledge layer through the real binary: every completed message reaches state.db
//! (even when hermes is killed with SIGKILL mid-stream), `--continue` resumes with history and
//! token counts, `hermes sessions` lists and exports, skills run as slash commands, and every
//! way a run ends marks its session ended with Hermes's reason (`-z` success and failure and
//! subagents: `agent_close`; the app's Ctrl+D, SIGTERM and SIGHUP: `cli_close`).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;
use crate::support::env::CleanEnv;

use std::time::Duration;

use hermes::store::SessionStore;
use support::Response;
use support::ScriptedCall;
use support::ScriptedServer;

struct Fixture {
    dir: tempfile::TempDir,
}

impl Fixture {
    fn new(server: &ScriptedServer) -> Self {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("home")).unwrap();
        std::fs::create_dir_all(dir.path().join("work")).unwrap();
        std::fs::write(dir.path().join("home/config.yaml"), server.config_yaml()).unwrap();
        Self { dir }
    }

    fn command(&self, args: &[&str]) -> tokio::process::Command {
        let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_hermes"));
        cmd.clean_env()
            .args(args)
            .current_dir(self.dir.path().join("work"))
            .env("HERMES_HOME", self.dir.path().join("home"))
            .stdin(std::process::Stdio::null())
            .kill_on_drop(true);
        cmd
    }

    async fn run(&self, args: &[&str]) -> (i32, String, String) {
        let out = tokio::time::timeout(Duration::from_secs(60), self.command(args).output())
            .await
            .unwrap()
            .unwrap();
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }

    fn store(&self) -> SessionStore {
        SessionStore::open(&self.dir.path().join("home/state.db")).unwrap()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn continue_resumes_history_and_token_counts() {
    let server = ScriptedServer::start([
        Response::text(["Noted: ", "42."]).with_usage(100, 7),
        Response::text(["It was 42."]).with_usage(150, 5),
    ])
    .await;
    let fx = Fixture::new(&server);
    let (code, out, err) = fx.run(&["-z", "my number is 42"]).await;
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "Noted: 42.\n");
    let (code, out, err) = fx.run(&["--continue", "-z", "what was my number?"]).await;
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, "It was 42.\n");
    // The second request carried the first exchange, with the same system prompt.
    let requests = server.completion_requests();
    let first = requests[0].body["messages"].as_array().unwrap();
    let second = requests[1].body["messages"].as_array().unwrap();
    assert_eq!(first[0], second[0], "system prompt kept byte for byte");
    assert_eq!(second[1]["content"], "my number is 42");
    assert_eq!(second[2]["content"], "Noted: 42.");
    // One session, four messages, token counts summed across both runs.
    let store = fx.store();
    let sessions = store
        .list_sessions(&hermes::store::ListQuery::default())
        .unwrap();
    assert_eq!(sessions.len(), 1);
    let row = store.session(&sessions[0].id).unwrap().unwrap();
    assert_eq!(row.message_count, 4);
    assert_eq!(row.input_tokens, 250);
    assert_eq!(row.output_tokens, 12);
    // The CLI finds it by a word in it and exports it.
    let (code, out, _) = fx.run(&["sessions", "list", "--search", "number"]).await;
    assert_eq!(code, 0);
    assert!(out.contains(&row.id), "{out}");
    let (code, out, _) = fx
        .run(&["sessions", "export", &row.id[..13], "--format", "md"])
        .await;
    assert_eq!(code, 0);
    assert!(out.contains("It was 42."), "{out}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_mid_stream_keeps_every_completed_message() {
    let words: Vec<String> = (0..400).map(|i| format!("w{i} ")).collect();
    let server = ScriptedServer::start([
        Response::tool_calls([ScriptedCall::new("c1", "todo", "{}")]),
        Response::text(words).with_delay_ms(20),
    ])
    .await;
    let fx = Fixture::new(&server);
    let mut child = fx.command(&["-z", "plan then talk"]).spawn().unwrap();
    server.wait_for_requests(2, Duration::from_secs(20)).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    child.start_kill().unwrap();
    let status = child.wait().await.unwrap();
    assert!(!status.success());
    let store = fx.store();
    assert_eq!(store.integrity_check().unwrap(), "ok");
    let sessions = store
        .list_sessions(&hermes::store::ListQuery::default())
        .unwrap();
    let history = store.load_history(&sessions[0].id).unwrap();
    let roles: Vec<String> = history.iter().map(|m| format!("{:?}", m.role)).collect();
    // user, assistant (tool call), tool result — all complete before the kill; the reply
    // that was streaming is not there.
    assert_eq!(roles, ["User", "Assistant", "Tool"], "{history:?}");
    assert_eq!(history[1].tool_calls[0].name, "todo");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bundled_skills_are_seeded_and_offered_to_the_model() {
    let server = ScriptedServer::start([Response::text(["ok"])]).await;
    let fx = Fixture::new(&server);
    let (code, _, err) = fx.run(&["-z", "hi"]).await;
    assert_eq!(code, 0, "{err}");
    let body = &server.completion_requests()[0].body;
    let system = body["messages"][0]["content"].as_str().unwrap();
    assert!(system.contains("git-commit"), "skills index in the prompt");
    let tools: Vec<&str> = body["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap())
        .collect();
    for name in [
        "memory",
        "session_search",
        "skills_list",
        "skill_view",
        "skill_manage",
    ] {
        assert!(tools.contains(&name), "{name} missing from {tools:?}");
    }
    let (code, out, _) = fx.run(&["skills", "list"]).await;
    assert_eq!(code, 0);
    assert!(out.contains("code-review"), "{out}");
}

fn all_sessions(store: &SessionStore) -> Vec<hermes::store::SessionRow> {
    store
        .list_sessions(&hermes::store::ListQuery {
            include_hidden: hermes::store::Hidden::Include,
            ..hermes::store::ListQuery::default()
        })
        .unwrap()
        .iter()
        .map(|s| store.session(&s.id).unwrap().unwrap())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_shot_runs_end_their_session_whether_they_succeed_or_fail() {
    let server = ScriptedServer::start([Response::text(["fine"]), Response::status(401)]).await;
    let fx = Fixture::new(&server);
    let (code, _, err) = fx.run(&["-z", "works"]).await;
    assert_eq!(code, 0, "{err}");
    let (code, _, _) = fx.run(&["-z", "fails"]).await;
    assert_ne!(code, 0);
    let rows = all_sessions(&fx.store());
    assert_eq!(rows.len(), 2);
    for row in &rows {
        assert!(row.ended_at.is_some(), "{row:?}");
        assert_eq!(row.end_reason.as_deref(), Some("agent_close"), "{row:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_subagent_session_carries_hermes_delegate_marker_and_ends_with_its_run() {
    let server = ScriptedServer::start_echo().await;
    let fx = Fixture::new(&server);
    let (code, _, err) = fx.run(&["-z", "delegate: say alpha"]).await;
    assert_eq!(code, 0, "{err}");
    let rows = all_sessions(&fx.store());
    let parent = rows.iter().find(|r| r.source.as_str() == "cli").unwrap();
    let child = rows
        .iter()
        .find(|r| r.source.as_str() == "subagent")
        .expect("the subagent's session");
    assert_eq!(child.parent_session_id.as_deref(), Some(parent.id.as_str()));
    assert_eq!(
        child.model_config.as_ref().unwrap()["_delegate_from"],
        parent.id.as_str()
    );
    assert_eq!(child.end_reason.as_deref(), Some("agent_close"));
    assert_eq!(parent.end_reason.as_deref(), Some("agent_close"));
}

/// The app's own exits: Ctrl+D on an empty composer, SIGTERM, SIGHUP.
#[test]
fn the_app_ends_its_session_however_it_is_closed() {
    use support::tmux::Tmux;
    use support::tmux_app::TmuxApp;
    if !Tmux::available() {
        eprintln!("skipping: tmux is not installed (scripts/test.sh installs it)");
        return;
    }
    let server = ScriptedServer::start_echo_on_own_thread();
    for how in ["ctrl-d", "TERM", "HUP"] {
        let app = TmuxApp::new(&server, "");
        let tmux = app.start_with("", &[]);
        tmux.type_text("hello there");
        tmux.keys(&["Enter"]);
        tmux.wait_for_chat_text("You said: hello there", Duration::from_secs(15));
        let pid = app_pid(&tmux);
        match how {
            "ctrl-d" => tmux.keys(&["C-d"]),
            signal => {
                let status = std::process::Command::new("kill")
                    .args([&format!("-{signal}"), &pid.to_string()])
                    .status()
                    .unwrap();
                assert!(status.success());
            }
        }
        let deadline = std::time::Instant::now() + Duration::from_secs(8);
        while std::path::Path::new(&format!("/proc/{pid}")).exists()
            && !std::fs::read_to_string(format!("/proc/{pid}/stat"))
                .unwrap_or_default()
                .contains(") Z ")
        {
            assert!(
                std::time::Instant::now() < deadline,
                "{how}: hermes still running"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        let store = SessionStore::open(&app.home().join("state.db")).unwrap();
        let rows = all_sessions(&store);
        assert_eq!(rows.len(), 1, "{how}");
        assert_eq!(rows[0].end_reason.as_deref(), Some("cli_close"), "{how}");
        assert!(rows[0].ended_at.is_some(), "{how}");
    }
}

/// hermes's pid: the tmux pane runs a shell that runs hermes.
fn app_pid(tmux: &support::tmux::Tmux) -> u32 {
    let out = std::process::Command::new("tmux")
        .args(["display", "-p", "-t", tmux.name(), "#{pane_pid}"])
        .output()
        .unwrap();
    let shell: u32 = String::from_utf8_lossy(&out.stdout).trim().parse().unwrap();
    let children = std::process::Command::new("pgrep")
        .args(["-P", &shell.to_string()])
        .output()
        .unwrap();
    String::from_utf8_lossy(&children.stdout)
        .lines()
        .next()
        .map(|l| l.trim().parse().unwrap())
        .unwrap_or(shell)
}
