use std::time::Duration;
use std::time::Instant;

use serde_json::json;

use super::*;
use crate::tools::ToolOutcome;
use crate::tools::terminal::TerminalTool;
use crate::tools::test_support::ctx;

async fn start(ctx: &ToolContext, command: &str) -> String {
    let out = TerminalTool
        .call(json!({"command": command, "background": true}), ctx)
        .await;
    let v: serde_json::Value = serde_json::from_str(&out.content).unwrap();
    v["session_id"].as_str().unwrap().to_string()
}

async fn process(ctx: &ToolContext, args: serde_json::Value) -> serde_json::Value {
    let out = ProcessTool.call(args, ctx).await;
    assert_eq!(out.outcome, ToolOutcome::Ok, "{}", out.content);
    serde_json::from_str(&out.content).unwrap()
}

#[tokio::test]
async fn wait_returns_exit_code_and_output() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = ctx(dir.path());
    let id = start(&ctx, "echo one; echo two >&2; exit 4").await;
    let v = process(
        &ctx,
        json!({"action": "wait", "session_id": id, "timeout": 5}),
    )
    .await;
    assert_eq!(v["state"], "exited");
    assert_eq!(v["exit_code"], 4);
    assert_eq!(v["timed_out"], false);
    let output = v["new_output"].as_str().unwrap();
    assert!(output.contains("one") && output.contains("two"), "{output}");
    // Already reported: the next poll has nothing new.
    let v = process(&ctx, json!({"action": "poll", "session_id": id})).await;
    assert_eq!(v["new_output"], "");
}

/// Poll until some output arrives (the machine may be busy), returning that first answer.
async fn poll_until_output(ctx: &ToolContext, id: &str) -> serde_json::Value {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let v = process(ctx, json!({"action": "poll", "session_id": id})).await;
        if v["new_output"] != "" || Instant::now() > deadline {
            return v;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn poll_reports_only_new_output() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = ctx(dir.path());
    let id = start(&ctx, "echo first; sleep 0.5; echo second; sleep 30").await;
    let v = poll_until_output(&ctx, &id).await;
    assert_eq!(v["state"], "running");
    assert_eq!(v["new_output"], "first\n");
    assert!(v.get("exit_code").is_none());
    let v = poll_until_output(&ctx, &id).await;
    assert_eq!(v["new_output"], "second\n");
    let log = ProcessTool
        .call(json!({"action": "log", "session_id": id}), &ctx)
        .await;
    assert!(log.content.contains("first\nsecond\n"), "{}", log.content);
    assert!(log.content.contains("running"), "{}", log.content);
}

#[tokio::test]
async fn wait_times_out_and_kill_stops_the_group() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = ctx(dir.path());
    let id = start(&ctx, "sleep 30 & sleep 30; wait").await;
    let started = Instant::now();
    let v = process(
        &ctx,
        json!({"action": "wait", "session_id": id, "timeout": 0.3}),
    )
    .await;
    assert!(started.elapsed() < Duration::from_secs(2));
    assert_eq!(v["timed_out"], true);
    assert_eq!(v["state"], "running");
    let out = ProcessTool
        .call(json!({"action": "kill", "session_id": id}), &ctx)
        .await;
    assert!(out.content.starts_with("killed proc_"), "{}", out.content);
    let v = process(&ctx, json!({"action": "list"})).await;
    assert_eq!(v["processes"][0]["state"], "killed");
    assert_eq!(v["processes"][0]["signal"], 9);
    let out = ProcessTool
        .call(json!({"action": "kill", "session_id": id}), &ctx)
        .await;
    assert!(out.content.contains("already finished"), "{}", out.content);
}

#[tokio::test]
async fn write_sends_stdin() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = ctx(dir.path());
    let id = start(&ctx, "read line; echo got:$line").await;
    let out = ProcessTool
        .call(
            json!({"action": "write", "session_id": id, "data": "hello\n"}),
            &ctx,
        )
        .await;
    assert_eq!(out.outcome, ToolOutcome::Ok, "{}", out.content);
    let v = process(
        &ctx,
        json!({"action": "wait", "session_id": id, "timeout": 5}),
    )
    .await;
    assert_eq!(v["exit_code"], 0);
    assert_eq!(v["new_output"], "got:hello\n");
    let out = ProcessTool
        .call(
            json!({"action": "write", "session_id": id, "data": "more"}),
            &ctx,
        )
        .await;
    assert_eq!(out.outcome, ToolOutcome::Error);
    assert!(out.content.contains("has exited"), "{}", out.content);
}

#[tokio::test]
async fn list_shows_processes() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = ctx(dir.path());
    let v = process(&ctx, json!({"action": "list"})).await;
    assert_eq!(v["processes"], json!([]));
    let id = start(&ctx, "sleep 30").await;
    let v = process(&ctx, json!({"action": "list"})).await;
    let p = &v["processes"][0];
    assert_eq!(p["session_id"], id.as_str());
    assert_eq!(p["command"], "sleep 30");
    assert_eq!(p["state"], "running");
    assert!(p["pid"].as_u64().unwrap() > 1);
    assert!(p["runtime_s"].is_number());
}

#[tokio::test]
async fn errors_for_unknown_or_missing_ids() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = ctx(dir.path());
    let out = ProcessTool
        .call(json!({"action": "poll", "session_id": "proc_nope"}), &ctx)
        .await;
    assert_eq!(out.outcome, ToolOutcome::Error);
    assert!(
        out.content.contains("no background process proc_nope"),
        "{}",
        out.content
    );
    let out = ProcessTool.call(json!({"action": "log"}), &ctx).await;
    assert!(
        out.content.contains("session_id is required"),
        "{}",
        out.content
    );
    let out = ProcessTool.call(json!({"action": "explode"}), &ctx).await;
    assert_eq!(out.outcome, ToolOutcome::Error);
    // Another session cannot see this session's processes.
    let id = start(&ctx, "sleep 30").await;
    let other = crate::tools::test_support::ctx(dir.path());
    let out = ProcessTool
        .call(json!({"action": "poll", "session_id": id}), &other)
        .await;
    assert_eq!(out.outcome, ToolOutcome::Error);
}

#[tokio::test]
async fn wait_is_cancellable() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = ctx(dir.path());
    let id = start(&ctx, "sleep 30").await;
    let cancel = ctx.cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(200)).await;
        cancel.cancel();
    });
    let started = Instant::now();
    let out = ProcessTool
        .call(json!({"action": "wait", "session_id": id}), &ctx)
        .await;
    assert!(started.elapsed() < Duration::from_secs(2));
    assert_eq!(out.outcome, ToolOutcome::Cancelled);
}

#[tokio::test]
async fn retained_output_is_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = ctx(dir.path());
    let id = start(
        &ctx,
        "echo HEAD; head -c 1000000 /dev/zero | tr '\\0' x; echo; echo TAIL",
    )
    .await;
    process(
        &ctx,
        json!({"action": "wait", "session_id": id, "timeout": 5}),
    )
    .await;
    let proc = ctx.session.processes().get(&id).unwrap();
    let log = proc.log(usize::MAX);
    assert!(log.starts_with("HEAD\n"), "{}", &log[..20]);
    assert!(log.ends_with("x\nTAIL\n"));
    assert!(log.len() < 250_000, "{}", log.len());
    assert!(log.contains("bytes omitted"));
}
