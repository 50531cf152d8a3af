//! The real binary's life cycle at its edges: SIGTERM and SIGHUP to `hermes -z` during a tool
//! call, a session continued after `kill -9` during one, a failed write of the answer, and
//! start-up with an odd HERMES_HOME (a file, read-only, a BOM in config.yaml or `.env`).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use std::process::Child;
use std::process::Stdio;
use std::time::Duration;
use std::time::Instant;

use support::Response;
use support::ScriptedCall;
use support::ScriptedServer;
use support::cli_home::CliHome;
use support::cli_home::Run;

/// A `terminal` command that runs 30 s and can be found by its text (`/proc/*/cmdline`).
fn slow_command(marker: &str) -> String {
    format!("sleep 30 && echo {marker}")
}

fn marker() -> String {
    format!("lifecycle_{}_{}", std::process::id(), fastrand::u32(..))
}

/// The pids whose command line contains `marker`.
fn pids_with(marker: &str) -> Vec<i32> {
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| {
            let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            String::from_utf8_lossy(&cmdline).contains(marker) && !stat.contains(") Z ")
        })
        .collect()
}

fn wait_until(what: &str, limit: Duration, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + limit;
    while !done() {
        assert!(Instant::now() < deadline, "waited {limit:?} for {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Kill the process groups of the commands carrying `marker` (what a test left behind).
fn kill_left_over(marker: &str) {
    for pid in pids_with(marker) {
        // SAFETY: kill(2) on a process group this test started; no memory is involved.
        unsafe {
            libc::kill(-libc::getpgid(pid), libc::SIGKILL);
        }
    }
}

fn home_for(server: &ScriptedServer) -> CliHome {
    CliHome::new(&format!(
        "{}provider:\n  stream_idle_timeout: 5\n  max_retries: 1\n",
        server.config_yaml()
    ))
}

/// `hermes -z PROMPT`, started; returns once its tool command (carrying `marker`) runs.
fn start_tool_call(fx: &CliHome, server: &ScriptedServer, marker: &str) -> Child {
    let child = fx
        .command(&["-z", "wait for it"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_until("the first request", Duration::from_secs(20), || {
        !server.completion_requests().is_empty()
    });
    wait_until("the tool's command", Duration::from_secs(20), || {
        !pids_with(marker).is_empty()
    });
    child
}

fn finish(child: Child, limit: Duration) -> Run {
    let pid = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(limit) {
        Ok(out) => out.unwrap().into(),
        Err(_) => {
            // SAFETY: kill(2) on our own child, so the test does not leave it behind.
            unsafe { libc::kill(pid as i32, libc::SIGKILL) };
            panic!("hermes did not exit within {limit:?}");
        }
    }
}

fn stopped_by(signal: i32, code: i32, name: &str) {
    let mark = marker();
    let server =
        ScriptedServer::start_on_own_thread([Response::tool_calls([ScriptedCall::terminal(
            "call_slow",
            &slow_command(&mark),
        )])]);
    let fx = home_for(&server);
    let child = start_tool_call(&fx, &server, &mark);
    // SAFETY: kill(2) on our own child with a valid signal.
    assert_eq!(unsafe { libc::kill(child.id() as i32, signal) }, 0);
    let run = finish(child, Duration::from_secs(15));
    let left = pids_with(&mark);
    kill_left_over(&mark);
    assert_eq!(run.code, code, "stderr: {}", run.stderr);
    assert!(
        left.is_empty(),
        "{name}: the tool's command survived: {left:?}"
    );
    let reasons = run.stderr.lines().filter(|l| l.contains(name)).count();
    assert_eq!(reasons, 1, "one line naming {name}: {}", run.stderr);
    // What happened is stored: the call's (cancelled) result and the session's end.
    let db = rusqlite::Connection::open(fx.home().join("state.db")).unwrap();
    let result: String = db
        .query_row(
            "SELECT content FROM messages WHERE tool_call_id = 'call_slow'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(result.contains("cancelled"), "{result}");
    let ended: Option<String> = db
        .query_row("SELECT end_reason FROM sessions", [], |r| r.get(0))
        .unwrap();
    assert!(ended.is_some(), "the session was not ended");
}

#[test]
fn sigterm_during_a_tool_call_kills_its_command_and_exits_143() {
    stopped_by(libc::SIGTERM, 143, "SIGTERM");
}

#[test]
fn sighup_during_a_tool_call_kills_its_command_and_exits_129() {
    stopped_by(libc::SIGHUP, 129, "SIGHUP");
}

#[test]
fn a_session_killed_during_a_tool_call_continues_with_the_call_answered() {
    let mark = marker();
    let server = ScriptedServer::start_on_own_thread([
        Response::tool_calls([ScriptedCall::terminal("call_slow", &slow_command(&mark))]),
        Response::text(["Carried ", "on."]),
    ]);
    let fx = home_for(&server);
    let mut child = start_tool_call(&fx, &server, &mark);
    child.kill().unwrap();
    child.wait().unwrap();
    kill_left_over(&mark);
    let run: Run = fx.command(&["-c", "-z", "next"]).output().unwrap().into();
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    assert_eq!(run.stdout.trim(), "Carried on.");
    let requests = server.completion_requests();
    let answered: Vec<&serde_json::Value> = requests[1]
        .messages()
        .iter()
        .filter(|m| m["role"] == "tool" && m["tool_call_id"] == "call_slow")
        .collect();
    assert_eq!(answered.len(), 1, "{:#}", requests[1].body["messages"]);
    assert!(
        answered[0]["content"]
            .as_str()
            .unwrap()
            .contains("interrupted"),
        "{}",
        answered[0]
    );
    // Stored once: a third run finds nothing to repair.
    let db = rusqlite::Connection::open(fx.home().join("state.db")).unwrap();
    let results: i64 = db
        .query_row(
            "SELECT COUNT(*) FROM messages WHERE tool_call_id = 'call_slow'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(results, 1);
}

#[test]
fn an_answer_that_cannot_be_written_is_an_error_not_a_success() {
    let server = ScriptedServer::start_on_own_thread([Response::text(["lost ", "answer"])]);
    let fx = home_for(&server);
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let run: Run = fx
        .command(&["-z", "hi"])
        .stdout(full)
        .output()
        .unwrap()
        .into();
    assert_eq!(run.code, 10, "stderr: {}", run.stderr);
    assert!(
        run.stderr.contains("could not write") && run.stderr.contains("No space left"),
        "{}",
        run.stderr
    );
}

/// Whether this test can run hermes as another user (root with `setpriv`): root ignores
/// directory permissions, so a read-only home needs an unprivileged user.
fn can_drop_privileges() -> bool {
    // SAFETY: getuid has no preconditions.
    let root = unsafe { libc::getuid() } == 0;
    root && std::process::Command::new("setpriv")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// `hermes ARGS` as user `nobody` in `fx`, whose home is made read-only (and its parents
/// traversable).
fn run_as_nobody_in_read_only_home(fx: &CliHome, args: &[&str]) -> Run {
    use std::os::unix::fs::PermissionsExt;
    use support::env::CleanEnv;
    let mode = |path: &std::path::Path, mode: u32| {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
    };
    mode(fx.dir.path(), 0o755);
    mode(&fx.work(), 0o777);
    mode(&fx.home().join("config.yaml"), 0o644);
    mode(&fx.home(), 0o555);
    let hermes = env!("CARGO_BIN_EXE_hermes");
    let out = std::process::Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups", hermes])
        .args(args)
        .clean_env()
        .env("HERMES_HOME", fx.home())
        .env("HOME", fx.work())
        .current_dir(fx.work())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    // Writable again, so the temporary directory can be removed.
    mode(&fx.home(), 0o755);
    out.into()
}

#[test]
fn a_read_only_home_runs_without_logs_and_history_with_one_notice_each() {
    if !can_drop_privileges() {
        eprintln!("skipping: needs root and setpriv to run as an unprivileged user");
        return;
    }
    let server = ScriptedServer::start_on_own_thread([Response::text(["still ", "works"])]);
    let fx = home_for(&server);
    let run = run_as_nobody_in_read_only_home(&fx, &["-z", "hi"]);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    assert_eq!(run.stdout.trim(), "still works");
    for (what, needle) in [
        ("the log file", "logs"),
        ("the session database", "state.db"),
        ("the bundled skills", "skills"),
        ("SOUL.md", "SOUL.md"),
    ] {
        let lines = run.stderr.lines().filter(|l| l.contains(needle)).count();
        assert_eq!(lines, 1, "one notice for {what}: {}", run.stderr);
    }
    for line in run.stderr.lines() {
        assert!(
            line.matches("os error").count() <= 1 && line.matches("unable to open").count() <= 1,
            "said twice: {line}"
        );
    }
}

#[test]
fn sessions_list_on_a_read_only_home_lists_what_is_there() {
    if !can_drop_privileges() {
        eprintln!("skipping: needs root and setpriv to run as an unprivileged user");
        return;
    }
    // No state.db, and none can be made: nothing to list, not an error.
    let fx = CliHome::new("");
    let run = run_as_nobody_in_read_only_home(&fx, &["sessions", "list"]);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    assert_eq!(run.stdout, "no sessions yet\n", "stderr: {}", run.stderr);
    // An existing database is read in place.
    let fx = CliHome::new("");
    {
        let store = hermes::store::SessionStore::open(&fx.home().join("state.db")).unwrap();
        let session = hermes::store::NewSession {
            id: "20261201_120000_abcdef".into(),
            source: hermes::store::Source::Cli,
            model: "m".into(),
            title: Some("read-only listing".into()),
            ..hermes::store::NewSession::default()
        };
        store.create_session(&session).unwrap();
    }
    use std::os::unix::fs::PermissionsExt;
    for name in ["state.db", "state.db-wal", "state.db-shm"] {
        let path = fx.home().join(name);
        if path.exists() {
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        }
    }
    let run = run_as_nobody_in_read_only_home(&fx, &["sessions", "list"]);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    assert!(
        run.stdout.contains("read-only listing"),
        "stdout: {} stderr: {}",
        run.stdout,
        run.stderr
    );
}

#[test]
fn a_home_that_is_a_file_is_one_clear_line() {
    let fx = CliHome::new("");
    let file = fx.dir.path().join("not-a-dir");
    std::fs::write(&file, "x").unwrap();
    let run: Run = fx
        .command(&["-z", "hi"])
        .env("HERMES_HOME", &file)
        .output()
        .unwrap()
        .into();
    assert_eq!(run.code, 2, "stderr: {}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(run.stderr.contains("is a file"), "{}", run.stderr);
    assert!(!run.stderr.contains("os error 17"), "{}", run.stderr);
}

#[test]
fn a_config_and_env_with_byte_order_marks_are_read() {
    let server = ScriptedServer::start_on_own_thread([Response::text(["bom ", "ok"])]);
    let fx = CliHome::new(&format!(
        "\u{feff}{}provider:\n  max_retries: 1\n",
        server.config_yaml()
    ));
    // A BOM before the first key, and a bad line that must not hide the keys after it.
    std::fs::write(
        fx.home().join(".env"),
        "\u{feff}FIRST=1\nthis line is not an assignment\nCUSTOM_API_KEY=sk-after-the-bad-line\n",
    )
    .unwrap();
    let run: Run = fx.command(&["-z", "hi"]).output().unwrap().into();
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    assert_eq!(run.stdout.trim(), "bom ok");
    assert!(!run.stderr.contains("document"), "{}", run.stderr);
    let sent = server.completion_requests();
    assert_eq!(
        sent[0].header("authorization"),
        Some("Bearer sk-after-the-bad-line"),
        "{}",
        run.stderr
    );
}
