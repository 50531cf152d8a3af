use std::sync::Arc;
use std::time::Duration;
use std::time::Instant;

use serde_json::json;

use super::*;
use crate::tools::ToolOutcome;
use crate::tools::test_support::FakeHost;
use crate::tools::test_support::ctx;
use crate::tools::test_support::ctx_with;

async fn run(ctx: &ToolContext, args: serde_json::Value) -> ToolOutput {
    TerminalTool.call(args, ctx).await
}

/// Alive = exists and is not a zombie (an orphan may wait for a reaper that never comes).
pub(crate) fn pid_alive(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => false,
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| !rest.trim_start().starts_with('Z')),
    }
}

#[tokio::test]
async fn runs_command_and_reports_exit_code() {
    let dir = tempfile::tempdir().unwrap();
    let host = Arc::new(FakeHost::default());
    let ctx = ctx_with(dir.path(), Arc::clone(&host));
    let out = run(
        &ctx,
        json!({"command": "echo hello; echo oops >&2; exit 3"}),
    )
    .await;
    assert_eq!(out.outcome, ToolOutcome::Ok);
    assert!(out.content.contains("hello"), "{}", out.content);
    assert!(out.content.contains("oops"), "{}", out.content);
    assert!(out.content.ends_with("exit code 3"), "{}", out.content);
    // An update may carry several lines.
    let updates = host.lines();
    let lines: Vec<&str> = updates.iter().flat_map(|u| u.lines()).collect();
    assert!(lines.contains(&"hello"), "{lines:?}");
    assert!(lines.contains(&"oops"), "{lines:?}");
}

#[tokio::test]
async fn runs_in_cwd_and_workdir() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    let ctx = ctx(dir.path());
    let out = run(&ctx, json!({"command": "pwd"})).await;
    assert!(
        out.content.contains(dir.path().to_str().unwrap()),
        "{}",
        out.content
    );
    let out = run(&ctx, json!({"command": "pwd", "workdir": "sub"})).await;
    assert!(out.content.contains("/sub"), "{}", out.content);
    let out = run(&ctx, json!({"command": "pwd", "workdir": "missing"})).await;
    assert_eq!(out.outcome, ToolOutcome::Error);
    assert!(out.content.contains("does not exist"), "{}", out.content);
}

#[tokio::test]
async fn empty_output_and_bad_args() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = ctx(dir.path());
    let out = run(&ctx, json!({"command": "true"})).await;
    assert_eq!(out.content, "(no output)\n\nexit code 0");
    let out = run(&ctx, json!({"cmd": "true"})).await;
    assert_eq!(out.outcome, ToolOutcome::Error);
    let out = run(&ctx, json!({"command": "  "})).await;
    assert_eq!(out.outcome, ToolOutcome::Error);
}

#[tokio::test]
async fn drains_stdout_and_stderr_concurrently() {
    let dir = tempfile::tempdir().unwrap();
    let mut ctx = ctx(dir.path());
    ctx.limits.max_output_bytes = 1_000_000;
    // 200 KB to each stream: far above a pipe buffer, so reading one pipe first would deadlock.
    let cmd = "head -c 200000 /dev/zero | tr '\\0' Q; head -c 200000 /dev/zero | tr '\\0' J >&2; \
               head -c 200000 /dev/zero | tr '\\0' K";
    let started = Instant::now();
    let out = tokio::time::timeout(Duration::from_secs(10), run(&ctx, json!({"command": cmd})))
        .await
        .expect("deadlocked");
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(out.content.matches('Q').count(), 200_000);
    assert_eq!(out.content.matches('J').count(), 200_000);
    assert_eq!(out.content.matches('K').count(), 200_000);
}

#[tokio::test]
async fn caps_output_head_and_tail() {
    let dir = tempfile::tempdir().unwrap();
    let mut ctx = ctx(dir.path());
    ctx.limits.max_output_bytes = 1000;
    let out = run(
        &ctx,
        json!({"command": "echo START; seq 1 100000; echo END"}),
    )
    .await;
    assert!(out.content.starts_with("START\n"), "{}", &out.content[..50]);
    assert!(out.content.contains("\n100000\nEND\n"), "{}", out.content);
    assert!(out.content.contains("bytes omitted …]"), "{}", out.content);
    assert!(out.content.len() < 1200, "{}", out.content.len());
}

/// A million short lines used to be a million progress events (each two allocations and a
/// channel message, which the frontend could not keep up with): now they are a few updates,
/// each with a bounded number of the newest lines.
#[tokio::test]
async fn many_short_lines_make_a_few_bounded_progress_updates() {
    let dir = tempfile::tempdir().unwrap();
    let host = Arc::new(FakeHost::default());
    let ctx = ctx_with(dir.path(), Arc::clone(&host));
    let started = Instant::now();
    let out = run(
        &ctx,
        json!({"command": "yes | head -c 2000000; seq 1 500000; echo last"}),
    )
    .await;
    let elapsed = started.elapsed();
    assert!(
        out.content.contains("\nlast\n\nexit code 0"),
        "{}",
        out.content
    );
    let updates = host.lines();
    // One at once, then at most one per interval, and the last one when the command ends.
    let most =
        2 + (elapsed.as_millis() / crate::tools::output::PROGRESS_INTERVAL.as_millis()) as usize;
    assert!(
        updates.len() <= most,
        "{} updates in {elapsed:?}",
        updates.len()
    );
    for update in &updates {
        assert!(update.lines().count() <= 2 * crate::tools::output::PROGRESS_LINES);
    }
    assert_eq!(updates.last().and_then(|u| u.lines().last()), Some("last"));
}

#[tokio::test]
async fn a_line_after_a_burst_shows_without_waiting_for_more_output() {
    let dir = tempfile::tempdir().unwrap();
    let host = Arc::new(FakeHost::default());
    let ctx = ctx_with(dir.path(), Arc::clone(&host));
    let call = run(
        &ctx,
        json!({"command": "echo first; sleep 0.03; echo second; sleep 3; echo done", "timeout": 10}),
    );
    let watch = async {
        let deadline = Instant::now() + Duration::from_secs(2);
        loop {
            let seen = host.lines().join("\n");
            if seen.lines().any(|l| l == "second") {
                return true;
            }
            if Instant::now() > deadline {
                return false;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    };
    let (out, shown) = tokio::join!(call, watch);
    assert!(
        shown,
        "'second' was held back until more output came: {:?}",
        host.lines()
    );
    assert!(out.content.contains("done"), "{}", out.content);
}

#[tokio::test]
async fn invalid_utf8_is_lossy_and_binary_is_summarised() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = ctx(dir.path());
    let out = run(&ctx, json!({"command": "printf 'ok \\377\\376 end\\n'"})).await;
    assert!(
        out.content.contains("ok \u{fffd}\u{fffd} end"),
        "{}",
        out.content
    );
    let out = run(&ctx, json!({"command": "printf 'a\\000b\\000c'"})).await;
    assert!(
        out.content.starts_with("[binary output: 5 bytes"),
        "{}",
        out.content
    );
    assert!(out.content.ends_with("exit code 0"), "{}", out.content);
}

#[tokio::test]
async fn timeout_kills_the_process_group() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = ctx(dir.path());
    let pidfile = dir.path().join("child.pid");
    // The grandchild `sleep` is in the same group and must die too.
    let cmd = format!("sleep 30 & echo $! > {}; wait", pidfile.display());
    let started = Instant::now();
    let out = run(&ctx, json!({"command": cmd, "timeout": 1})).await;
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(out.outcome, ToolOutcome::Error);
    assert!(
        out.content.contains("timed out after 1 s"),
        "{}",
        out.content
    );
    assert!(
        out.content.contains("process group was killed"),
        "{}",
        out.content
    );
    let pid: i32 = std::fs::read_to_string(&pidfile)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(!pid_alive(pid), "grandchild {pid} survived the timeout");
}

#[tokio::test]
async fn config_timeout_applies_when_no_argument() {
    let dir = tempfile::tempdir().unwrap();
    let mut ctx = ctx(dir.path());
    ctx.limits.terminal_timeout = Duration::from_millis(300);
    let started = Instant::now();
    let out = run(&ctx, json!({"command": "sleep 30"})).await;
    assert!(started.elapsed() < Duration::from_secs(3));
    assert!(out.content.contains("timed out"), "{}", out.content);
}

#[tokio::test]
async fn cancellation_kills_promptly() {
    let dir = tempfile::tempdir().unwrap();
    let host = Arc::new(FakeHost::default());
    let ctx = ctx_with(dir.path(), Arc::clone(&host));
    let cancel = ctx.cancel.clone();
    // Cancel once the command is visibly running.
    tokio::spawn(async move {
        while !host.lines().contains(&"before".to_string()) {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        cancel.cancel();
    });
    let started = Instant::now();
    let out = run(&ctx, json!({"command": "echo before; sleep 30"})).await;
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(out.outcome, ToolOutcome::Cancelled);
    assert!(out.content.contains("before"), "{}", out.content);
    assert!(out.content.contains("cancelled"), "{}", out.content);
}

#[tokio::test]
async fn leftover_background_child_does_not_hang_the_call() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = ctx(dir.path());
    let started = Instant::now();
    let out = run(&ctx, json!({"command": "sleep 5 & echo started"})).await;
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "{:?}",
        started.elapsed()
    );
    assert!(out.content.contains("started"), "{}", out.content);
    assert!(out.content.ends_with("exit code 0"), "{}", out.content);
}

#[tokio::test]
async fn denied_commands_do_not_run() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("ran");
    let ctx = ctx(dir.path());
    let out = run(
        &ctx,
        json!({"command": format!("touch {}; rm -rf /", marker.display())}),
    )
    .await;
    assert_eq!(out.outcome, ToolOutcome::Denied);
    assert!(out.content.contains("blocked"), "{}", out.content);
    assert!(!marker.exists());
}

#[tokio::test]
async fn pty_runs_without_one_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = ctx(dir.path());
    let out = run(&ctx, json!({"command": "echo hi", "pty": true})).await;
    assert!(
        out.content.starts_with("[note: pty=true is not supported"),
        "{}",
        out.content
    );
    assert!(out.content.contains("hi"), "{}", out.content);
}

#[tokio::test]
async fn background_returns_id_and_pid_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = ctx(dir.path());
    let started = Instant::now();
    let out = run(&ctx, json!({"command": "sleep 30", "background": true})).await;
    assert!(started.elapsed() < Duration::from_secs(1));
    let v: serde_json::Value = serde_json::from_str(&out.content).unwrap();
    let id = v["session_id"].as_str().unwrap();
    assert!(id.starts_with("proc_"), "{id}");
    let pid = v["pid"].as_i64().unwrap() as i32;
    assert!(pid_alive(pid));
    let list = ctx.session.processes().list();
    assert_eq!(list.len(), 1);
    assert_eq!(list[0].id, id);
    ctx.session.shutdown();
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(!pid_alive(pid), "shutdown left {pid} running");
}

#[tokio::test]
async fn dropping_the_session_kills_background_processes() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = ctx(dir.path());
    let out = run(&ctx, json!({"command": "sleep 30", "background": true})).await;
    let v: serde_json::Value = serde_json::from_str(&out.content).unwrap();
    let pid = v["pid"].as_i64().unwrap() as i32;
    drop(ctx);
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(!pid_alive(pid), "drop left {pid} running");
}

#[test]
fn preview_and_schema() {
    let t = TerminalTool;
    assert_eq!(
        t.preview(&json!({"command": "cargo test\nmore"})),
        "cargo test…"
    );
    let schema = t.schema();
    assert_eq!(schema.name, "terminal");
    assert_eq!(schema.parameters["required"], json!(["command"]));
    assert_eq!(t.concurrency(), Concurrency::Sequential);
}
