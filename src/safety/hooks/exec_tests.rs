use std::time::{Duration, Instant};

use serde_json::json;

use super::super::test_support::{one, script};
use super::*;

fn ctx<'a>(cwd: &'a Path) -> PayloadContext<'a> {
    PayloadContext {
        tool_name: None,
        tool_input: None,
        session_id: "sess_1",
        cwd,
    }
}

async fn run_script(event: &str, body: &str, timeout: u64) -> (HookSpec, RunOutcome) {
    let dir = tempfile::tempdir().unwrap();
    let hook = script(dir.path(), "hook.sh", body);
    let spec = one(event, &hook, timeout).remove(0);
    let parsed = HookEvent::parse(event).unwrap();
    let outcome = run(
        &spec,
        &payload(parsed, &ctx(dir.path()), Map::new()),
        dir.path(),
    )
    .await;
    (spec, outcome)
}

#[test]
fn payload_has_the_documented_fields() {
    let args = json!({"command": "rm -rf /"});
    let cwd = Path::new("/home/user/project");
    let p = payload(
        HookEvent::PreToolCall,
        &PayloadContext {
            tool_name: Some("terminal"),
            tool_input: Some(&args),
            session_id: "sess_abc123",
            cwd,
        },
        extra_object(json!({"task_id": "t1"})),
    );
    assert_eq!(
        p,
        json!({
            "hook_event_name": "pre_tool_call",
            "tool_name": "terminal",
            "tool_input": {"command": "rm -rf /"},
            "session_id": "sess_abc123",
            "cwd": "/home/user/project",
            "extra": {"task_id": "t1"},
        })
    );
}

#[test]
fn non_tool_payloads_have_null_tool_fields() {
    let p = payload(HookEvent::PreLlmCall, &ctx(Path::new("/w")), Map::new());
    assert_eq!(p["tool_name"], Value::Null);
    assert_eq!(p["tool_input"], Value::Null);
    assert_eq!(p["extra"], json!({}));
}

#[test]
fn tool_input_that_is_not_an_object_is_null() {
    let args = json!("raw");
    let mut c = ctx(Path::new("/w"));
    c.tool_input = Some(&args);
    assert_eq!(
        payload(HookEvent::PreToolCall, &c, Map::new())["tool_input"],
        Value::Null
    );
}

#[test]
fn extra_becomes_an_object() {
    assert_eq!(Value::Object(extra_object(Value::Null)), json!({}));
    assert_eq!(
        Value::Object(extra_object(json!({"a": 1}))),
        json!({"a": 1})
    );
    assert_eq!(
        Value::Object(extra_object(json!([1]))),
        json!({"value": [1]})
    );
}

#[test]
fn both_block_dialects_are_understood() {
    let ev = HookEvent::PreToolCall;
    assert_eq!(
        parse_response(ev, r#"{"action": "block", "message": "Forbidden: rm -rf"}"#),
        Ok(HookResponse::Block("Forbidden: rm -rf".into()))
    );
    assert_eq!(
        parse_response(ev, r#"{"decision": "block", "reason": "no"}"#),
        Ok(HookResponse::Block("no".into()))
    );
    // Mixed keys fall back to the other dialect's message field.
    assert_eq!(
        parse_response(ev, r#"{"action": "block", "reason": "why"}"#),
        Ok(HookResponse::Block("why".into()))
    );
    assert_eq!(
        parse_response(ev, "\n  {\"decision\":\"block\",\"message\":\" m \"}\n"),
        Ok(HookResponse::Block("m".into()))
    );
}

#[test]
fn a_block_without_a_message_is_rejected() {
    for text in [
        r#"{"action": "block"}"#,
        r#"{"action": "block", "message": "  "}"#,
        r#"{"decision": "block", "reason": 5}"#,
    ] {
        let err = parse_response(HookEvent::PreToolCall, text)
            .unwrap_err()
            .to_string();
        assert!(err.contains("without a message"), "{text}: {err}");
    }
}

#[test]
fn other_json_is_a_silent_no_op() {
    for text in [
        "",
        "   \n",
        "{}",
        "[1, 2]",
        "\"block\"",
        "null",
        r#"{"action": "approve", "message": "x"}"#,
        r#"{"decision": "allow"}"#,
        r#"{"context": "only for pre_llm_call"}"#,
    ] {
        assert_eq!(
            parse_response(HookEvent::PreToolCall, text),
            Ok(HookResponse::Nothing),
            "{text}"
        );
    }
}

#[test]
fn context_is_read_only_for_pre_llm_call() {
    assert_eq!(
        parse_response(HookEvent::PreLlmCall, r#"{"context": "Today is Friday"}"#),
        Ok(HookResponse::Context("Today is Friday".into()))
    );
    for text in [
        r#"{"context": ""}"#,
        r#"{"context": 3}"#,
        r#"{"action":"block","message":"x"}"#,
    ] {
        assert_eq!(
            parse_response(HookEvent::PreLlmCall, text),
            Ok(HookResponse::Nothing),
            "{text}"
        );
    }
    assert_eq!(
        parse_response(HookEvent::PostLlmCall, r#"{"context": "x"}"#),
        Ok(HookResponse::Nothing)
    );
}

#[test]
fn garbage_is_an_error_quoting_the_output() {
    let err = parse_response(HookEvent::PreLlmCall, "plain text context")
        .unwrap_err()
        .to_string();
    assert!(err.contains("plain text context"), "{err}");
    let long = "x".repeat(1000);
    let err = parse_response(HookEvent::PreToolCall, &long)
        .unwrap_err()
        .to_string();
    assert!(err.len() < 300, "{}", err.len());
}

#[tokio::test]
async fn the_hook_gets_the_payload_on_stdin_and_runs_in_cwd() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("stdin.json");
    let wd = dir.path().join("wd");
    std::fs::create_dir(&wd).unwrap();
    let hook = script(
        dir.path(),
        "record.sh",
        &format!("cat > '{}'\npwd > '{}.cwd'", out.display(), out.display()),
    );
    let spec = one("pre_tool_call", &hook, 10).remove(0);
    let args = json!({"command": "ls"});
    let c = PayloadContext {
        tool_name: Some("terminal"),
        tool_input: Some(&args),
        session_id: "s1",
        cwd: &wd,
    };
    let sent = payload(
        HookEvent::PreToolCall,
        &c,
        extra_object(json!({"task_id": "t"})),
    );
    let outcome = run(&spec, &sent, &wd).await;
    assert_eq!(outcome.status, RunStatus::Exited(Some(0)));
    let received: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(received, sent);
    let cwd = std::fs::read_to_string(dir.path().join("stdin.json.cwd")).unwrap();
    assert_eq!(Path::new(cwd.trim()), wd.canonicalize().unwrap());
}

#[tokio::test]
async fn a_blocking_script_blocks() {
    let (spec, outcome) = run_script(
        "pre_tool_call",
        r#"cat > /dev/null; echo '{"decision": "block", "reason": "Forbidden: rm -rf"}'"#,
        10,
    )
    .await;
    assert_eq!(
        evaluate(&spec, &outcome),
        HookResponse::Block("Forbidden: rm -rf".into())
    );
}

#[tokio::test]
async fn a_context_script_injects_context() {
    let (spec, outcome) = run_script(
        "pre_llm_call",
        r#"echo '{"context": "Today is Friday, 2026-04-17"}'"#,
        10,
    )
    .await;
    assert_eq!(
        evaluate(&spec, &outcome),
        HookResponse::Context("Today is Friday, 2026-04-17".into())
    );
}

#[tokio::test]
async fn a_slow_script_is_killed_at_its_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("child.pid");
    let hook = script(
        dir.path(),
        "slow.sh",
        &format!(
            "sleep 5 &\necho $! > '{}'\nwait\necho '{{\"action\":\"block\",\"message\":\"late\"}}'",
            pid_file.display()
        ),
    );
    let spec = one("pre_tool_call", &hook, 1).remove(0);
    let started = Instant::now();
    let outcome = run(&spec, &json!({}), dir.path()).await;
    assert_eq!(outcome.status, RunStatus::TimedOut);
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "{:?}",
        started.elapsed()
    );
    assert!(outcome.elapsed >= Duration::from_millis(900));
    assert_eq!(evaluate(&spec, &outcome), HookResponse::Nothing);
    // The whole process group died with it: the backgrounded sleep is gone too.
    assert_dies(&pid_file).await;
}

/// Waits (up to 3 s) until the `sleep` whose pid is in `pid_file` is gone or a zombie.
async fn assert_dies(pid_file: &Path) {
    let pid = std::fs::read_to_string(pid_file).unwrap().trim().to_owned();
    let proc_dir = Path::new("/proc").join(&pid);
    let deadline = Instant::now() + Duration::from_secs(3);
    loop {
        let state = std::fs::read_to_string(proc_dir.join("stat")).unwrap_or_default();
        let alive = state.contains("(sleep)") && !state.contains(") Z");
        if !alive {
            return;
        }
        assert!(Instant::now() < deadline, "sleep {pid} survived");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn dropping_a_running_hook_kills_its_process_group() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("child.pid");
    let hook = script(
        dir.path(),
        "long.sh",
        &format!("sleep 30 &\necho $! > '{}'\nwait", pid_file.display()),
    );
    let spec = one("post_tool_call", &hook, 60).remove(0);
    let cancelled = tokio::time::timeout(
        Duration::from_millis(500),
        run(&spec, &json!({}), dir.path()),
    )
    .await;
    assert!(
        cancelled.is_err(),
        "the hook should still have been running"
    );
    assert_dies(&pid_file).await;
}

#[tokio::test]
async fn garbage_output_contributes_nothing() {
    let (spec, outcome) = run_script("pre_tool_call", "echo 'this is not json {'", 10).await;
    assert_eq!(outcome.status, RunStatus::Exited(Some(0)));
    assert_eq!(evaluate(&spec, &outcome), HookResponse::Nothing);
}

#[tokio::test]
async fn a_non_zero_exit_warns_but_its_stdout_still_counts() {
    let (spec, outcome) = run_script("pre_tool_call", "echo oops >&2\nexit 3", 10).await;
    assert_eq!(outcome.status, RunStatus::Exited(Some(3)));
    assert_eq!(outcome.stderr.trim(), "oops");
    assert_eq!(evaluate(&spec, &outcome), HookResponse::Nothing);

    let (spec, outcome) = run_script(
        "pre_tool_call",
        r#"echo '{"action": "block", "message": "policy"}'; exit 1"#,
        10,
    )
    .await;
    assert_eq!(outcome.status, RunStatus::Exited(Some(1)));
    assert_eq!(
        evaluate(&spec, &outcome),
        HookResponse::Block("policy".into())
    );
}

#[tokio::test]
async fn a_missing_program_is_a_spawn_failure() {
    let dir = tempfile::tempdir().unwrap();
    let spec = one("post_llm_call", &dir.path().join("missing.sh"), 5).remove(0);
    let outcome = run(&spec, &json!({}), dir.path()).await;
    assert!(
        matches!(&outcome.status, RunStatus::SpawnFailed(c) if c.contains("not found")),
        "{:?}",
        outcome.status
    );
    assert_eq!(evaluate(&spec, &outcome), HookResponse::Nothing);
}

#[tokio::test]
async fn a_script_without_the_execute_bit_is_a_spawn_failure() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let hook = script(dir.path(), "noexec.sh", "echo '{}'");
    std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o644)).unwrap();
    let spec = one("post_llm_call", &hook, 5).remove(0);
    let outcome = run(&spec, &json!({}), dir.path()).await;
    assert!(
        matches!(&outcome.status, RunStatus::SpawnFailed(c) if c.contains("not executable")),
        "{:?}",
        outcome.status
    );
}

#[tokio::test]
async fn an_unparseable_command_is_a_spawn_failure() {
    let spec =
        super::super::test_support::specs("post_llm_call:\n  - command: \"echo 'x\"\n").remove(0);
    let outcome = run(&spec, &json!({}), Path::new("/")).await;
    assert!(
        matches!(&outcome.status, RunStatus::SpawnFailed(c) if c.contains("unbalanced")),
        "{:?}",
        outcome.status
    );
}

#[tokio::test]
async fn huge_output_is_capped_without_stalling_the_hook() {
    let (_, outcome) = run_script(
        "post_llm_call",
        "head -c 3000000 /dev/zero | tr '\\0' a\nhead -c 200000 /dev/zero >&2",
        20,
    )
    .await;
    assert_eq!(outcome.status, RunStatus::Exited(Some(0)));
    assert_eq!(outcome.stdout.len(), STDOUT_CAP);
    assert_eq!(outcome.stderr.len(), STDERR_CAP);
}

#[tokio::test]
async fn a_hook_that_ignores_a_large_stdin_still_runs() {
    let dir = tempfile::tempdir().unwrap();
    let hook = script(dir.path(), "quick.sh", "echo '{\"context\": \"ok\"}'");
    let spec = one("pre_llm_call", &hook, 10).remove(0);
    let big = json!({"blob": "y".repeat(2_000_000)});
    let outcome = run(&spec, &big, dir.path()).await;
    assert_eq!(outcome.status, RunStatus::Exited(Some(0)));
    assert_eq!(
        evaluate(&spec, &outcome),
        HookResponse::Context("ok".into())
    );
}

#[tokio::test]
async fn arguments_are_passed_without_a_shell() {
    let dir = tempfile::tempdir().unwrap();
    let hook = script(
        dir.path(),
        "args.sh",
        "printf '{\"context\": \"%s|%s|%s\"}' \"$1\" \"$2\" \"$#\"",
    );
    let spec = super::super::test_support::specs(&format!(
        "pre_llm_call:\n  - command: \"{} 'a b' $HOME\"\n",
        hook.display()
    ))
    .remove(0);
    let outcome = run(&spec, &json!({}), dir.path()).await;
    assert_eq!(
        evaluate(&spec, &outcome),
        HookResponse::Context("a b|$HOME|2".into())
    );
}
