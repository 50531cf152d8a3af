//! End-to-end safety flows through the engine's session actor and the scripted provider:
//! a denial that the model cannot get around by asking again, "once" approvals, hardline
//! refusals under YOLO, timeouts and interrupts, sensitive file writes, checkpoints restored
//! with `/rollback`'s ops, shell hooks (real scripts that block, add context, time out and
//! print garbage) and secret redaction of tool output.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use std::time::Duration;

use hermes::engine::guard::HookSetup;
use hermes::protocol::ApprovalDecision;
use hermes::protocol::ApprovalKind;
use hermes::protocol::ApprovalRequest;
use hermes::protocol::ApprovalResolved;
use hermes::protocol::CheckpointDiff;
use hermes::protocol::CheckpointList;
use hermes::protocol::DecidedBy;
use hermes::protocol::Event;
use hermes::protocol::Notice;
use hermes::protocol::Op;
use hermes::protocol::ToolComplete;
use hermes::protocol::TurnOutcome;
use hermes::protocol::Yolo;
use hermes::safety::checkpoints::CheckpointSettings;
use hermes::safety::checkpoints::CheckpointStore;
use hermes::safety::hooks::AcceptHooks;
use hermes::safety::hooks::ConsentStore;
use hermes::safety::hooks::HookEvent;
use hermes::safety::hooks::parse_hooks;
use serde_json::Value;
use support::Response;
use support::ScriptedCall;
use support::ScriptedServer;
use support::engine::Session;
use support::engine::start;
use support::engine::test_session;

/// A session with YOLO off, approvals timing out after `timeout`.
fn guarded(server: &ScriptedServer, timeout: Duration) -> Session {
    start(server, |spec| {
        spec.yolo = Yolo::Off;
        spec.safety.approvals.timeout = timeout;
    })
}

async fn next_request(s: &mut Session) -> ApprovalRequest {
    match s.until(|e| matches!(e, Event::ApprovalRequest(_))).await {
        Event::ApprovalRequest(request) => request,
        _ => unreachable!(),
    }
}

/// A server whose model runs `command`, then answers `reply`.
async fn one_command(command: &str, reply: &str) -> ScriptedServer {
    ScriptedServer::start([
        Response::tool_calls([ScriptedCall::terminal("call_1", command)]),
        Response::text([reply]),
    ])
    .await
}

/// Sends `text` and waits for the approval request it leads to.
async fn say_and_wait_for_request(s: &mut Session, text: &str) -> ApprovalRequest {
    s.send(Op::user(text));
    next_request(s).await
}

async fn resolution(s: &mut Session) -> Event {
    s.until(|e| matches!(e, Event::ApprovalResolved { .. }))
        .await
}

fn write_file_call(id: &str, path: &str, content: &str) -> ScriptedCall {
    let arguments = serde_json::json!({ "path": path, "content": content }).to_string();
    ScriptedCall::new(id, "write_file", &arguments)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_denied_command_is_refused_again_without_asking_and_another_is_approved_once() {
    let server = ScriptedServer::start([
        Response::tool_calls([ScriptedCall::terminal("call_1", "rm -rf ~/project-x")]),
        // The model "rephrases": same command after normalisation.
        Response::tool_calls([ScriptedCall::terminal(
            "call_2",
            "/bin/rm  -rf  $HOME/project-x",
        )]),
        Response::tool_calls([ScriptedCall::terminal("call_3", "rm -rf build")]),
        Response::text(["Cleaned the build directory; left project-x alone."]),
    ])
    .await;
    let mut s = guarded(&server, Duration::from_secs(30));
    std::fs::create_dir_all(s.dir.path().join("build/deep")).unwrap();
    s.send(Op::user("clean up"));

    let first = next_request(&mut s).await;
    assert_eq!(first.kind, ApprovalKind::Command);
    assert_eq!(first.subject, "rm -rf ~/project-x");
    assert_eq!(first.agent, "main");
    assert!(!first.reason.is_empty());
    assert_eq!(first.cwd, s.dir.path().display().to_string());
    assert_eq!(
        first.choices,
        vec![
            ApprovalDecision::Once,
            ApprovalDecision::Session,
            ApprovalDecision::Always,
            ApprovalDecision::Deny
        ]
    );
    s.send(Op::ApprovalReply {
        id: first.id.clone(),
        decision: ApprovalDecision::Deny,
    });
    let resolved = resolution(&mut s).await;
    assert_eq!(
        resolved,
        Event::ApprovalResolved(ApprovalResolved {
            id: first.id,
            decision: ApprovalDecision::Deny,
            decided_by: DecidedBy::User,
        })
    );

    // The retry is refused without a request; the next request is for the build directory.
    let second = next_request(&mut s).await;
    assert_eq!(second.subject, "rm -rf build");
    s.send(Op::ApprovalReply {
        id: second.id,
        decision: ApprovalDecision::Once,
    });
    assert_eq!(s.turn_outcome().await, TurnOutcome::Completed);
    assert!(
        !s.dir.path().join("build").exists(),
        "approved once: it ran"
    );

    let requests = server.completion_requests();
    let after_denial = requests[1].tool_results();
    assert!(after_denial[0].contains("denied"), "{after_denial:?}");
    let after_retry = requests[2].tool_results();
    assert!(after_retry[1].contains("already denied"), "{after_retry:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hardline_commands_are_blocked_under_yolo_without_asking() {
    let server = one_command("sudo /bin/rm -rf --no-preserve-root /", "Refused.").await;
    let mut s = start(&server, |_| {});
    s.send(Op::user("wipe"));
    let mut asked = false;
    loop {
        let event = s.until(|_| true).await;
        match event {
            Event::ApprovalRequest(_) => asked = true,
            Event::TurnComplete { .. } => break,
            _ => {}
        }
    }
    assert!(!asked, "a hardline command never gets a request");
    let results = server.completion_requests()[1].tool_results();
    assert!(results[0].contains("blocked"), "{results:?}");
    assert!(results[0].contains("YOLO"), "{results:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unanswered_request_times_out_as_a_denial() {
    let server = one_command("git push --force origin main", "It timed out.").await;
    let mut s = guarded(&server, Duration::from_secs(1));
    let request = say_and_wait_for_request(&mut s, "push").await;
    let resolved = resolution(&mut s).await;
    assert_eq!(
        resolved,
        Event::ApprovalResolved(ApprovalResolved {
            id: request.id.clone(),
            decision: ApprovalDecision::Deny,
            decided_by: DecidedBy::Timeout,
        })
    );
    assert_eq!(s.turn_outcome().await, TurnOutcome::Completed);
    let results = server.completion_requests()[1].tool_results();
    assert!(results[0].contains("approvals.timeout"), "{results:?}");
    // A late answer is reported, not applied.
    s.send(Op::ApprovalReply {
        id: request.id,
        decision: ApprovalDecision::Once,
    });
    s.until(
        |e| matches!(e, Event::Notice(Notice { text, .. }) if text.contains("no open approval request")),
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn interrupting_cancels_an_open_request() {
    let server = one_command("git reset --hard HEAD~3", "unused").await;
    let mut s = guarded(&server, Duration::from_secs(30));
    let request = say_and_wait_for_request(&mut s, "reset").await;
    s.send(Op::Interrupt);
    let resolved = resolution(&mut s).await;
    assert_eq!(
        resolved,
        Event::ApprovalResolved(ApprovalResolved {
            id: request.id,
            decision: ApprovalDecision::Deny,
            decided_by: DecidedBy::Cancelled,
        })
    );
    assert!(matches!(
        s.turn_outcome().await,
        TurnOutcome::Interrupted { .. }
    ));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn session_approval_covers_the_same_kind_for_the_rest_of_the_session() {
    let server = ScriptedServer::start([
        Response::tool_calls([ScriptedCall::terminal("call_1", "rm -rf a")]),
        Response::tool_calls([ScriptedCall::terminal("call_2", "rm -rf b")]),
        Response::text(["Both gone."]),
    ])
    .await;
    let mut s = guarded(&server, Duration::from_secs(30));
    for name in ["a", "b"] {
        std::fs::create_dir_all(s.dir.path().join(name).join("x")).unwrap();
    }
    let request = say_and_wait_for_request(&mut s, "delete a and b").await;
    s.send(Op::ApprovalReply {
        id: request.id,
        decision: ApprovalDecision::Session,
    });
    let mut asked_again = false;
    loop {
        match s.until(|_| true).await {
            Event::ApprovalRequest(_) => asked_again = true,
            Event::TurnComplete { .. } => break,
            _ => {}
        }
    }
    assert!(!asked_again);
    assert!(!s.dir.path().join("a").exists());
    assert!(!s.dir.path().join("b").exists());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn writes_to_sensitive_paths_ask_first() {
    let dir = tempfile::tempdir().unwrap();
    // The test's "home" is the temp dir, so <dir>/.ssh is the user's ssh directory.
    let target = dir.path().join(".ssh/config");
    let server = ScriptedServer::start([
        Response::tool_calls([write_file_call(
            "call_1",
            target.to_str().unwrap(),
            "Host *\n",
        )]),
        Response::tool_calls([write_file_call("call_2", "notes.txt", "plain\n")]),
        Response::text(["done"]),
    ])
    .await;
    let mut s = test_session()
        .in_dir(dir)
        .with_spec(|spec| {
            spec.yolo = Yolo::Off;
        })
        .build(&server);
    let request = say_and_wait_for_request(&mut s, "configure ssh").await;
    assert_eq!(request.kind, ApprovalKind::FileWrite);
    assert_eq!(request.subject, target.display().to_string());
    assert_eq!(
        request.choices,
        vec![ApprovalDecision::Once, ApprovalDecision::Deny]
    );
    s.send(Op::ApprovalReply {
        id: request.id,
        decision: ApprovalDecision::Deny,
    });
    assert_eq!(s.turn_outcome().await, TurnOutcome::Completed);
    assert!(!target.exists());
    assert!(
        s.dir.path().join("notes.txt").exists(),
        "ordinary writes don't ask"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_checkpoint_taken_before_a_write_is_restored() {
    let server = ScriptedServer::start([
        Response::tool_calls([write_file_call("call_1", "a.txt", "v2\n")]),
        Response::tool_calls([write_file_call("call_2", "new.txt", "created\n")]),
        Response::text(["rewrote a.txt"]),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let store_dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "v1\n").unwrap();
    let mut s = test_session()
        .in_dir(dir)
        .with_spec(|spec| {
            spec.safety.checkpoints = Some(std::sync::Arc::new(CheckpointStore::new(
                store_dir.path().join("checkpoints"),
                CheckpointSettings::default(),
            )));
        })
        .build(&server);
    s.send(Op::user("rewrite"));
    assert_eq!(s.turn_outcome().await, TurnOutcome::Completed);
    assert_eq!(
        std::fs::read_to_string(s.dir.path().join("a.txt")).unwrap(),
        "v2\n"
    );

    s.send(Op::ListCheckpoints);
    let Event::CheckpointList(CheckpointList { checkpoints }) =
        s.until(|e| matches!(e, Event::CheckpointList { .. })).await
    else {
        unreachable!()
    };
    assert_eq!(
        checkpoints.len(),
        1,
        "one checkpoint per turn: {checkpoints:?}"
    );
    assert!(
        checkpoints[0].label.contains("before turn 1"),
        "{checkpoints:?}"
    );
    assert!(
        checkpoints[0].changed_files.contains(&"a.txt".to_string()),
        "{checkpoints:?}"
    );

    s.send(Op::CheckpointDiff { id: "1".into() });
    let Event::CheckpointDiff(CheckpointDiff { diff, .. }) =
        s.until(|e| matches!(e, Event::CheckpointDiff { .. })).await
    else {
        unreachable!()
    };
    assert!(diff.contains("v1") && diff.contains("v2"), "{diff}");

    s.send(Op::RestoreCheckpoint { id: "1".into() });
    s.until(
        |e| matches!(e, Event::Notice(Notice { text, .. }) if text.contains("restored checkpoint")),
    )
    .await;
    assert_eq!(
        std::fs::read_to_string(s.dir.path().join("a.txt")).unwrap(),
        "v1\n"
    );
    assert!(
        !s.dir.path().join("new.txt").exists(),
        "files created after it are removed"
    );
}

fn script(dir: &std::path::Path, name: &str, body: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.display().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shell_hooks_block_add_context_time_out_and_survive_garbage() {
    let server = one_command("echo should-not-run > ran.txt", "The hook blocked it.").await;
    let hooks_dir = tempfile::tempdir().unwrap();
    let payload = hooks_dir.path().join("payload.json");
    let block = script(
        hooks_dir.path(),
        "block.sh",
        r#"cat >/dev/null; echo '{"decision": "block", "reason": "no commands today"}'"#,
    );
    let context = script(
        hooks_dir.path(),
        "context.sh",
        &format!(
            r#"cat > {}; echo '{{"context": "Hook says: today is Friday"}}'"#,
            payload.display()
        ),
    );
    let slow = script(
        hooks_dir.path(),
        "slow.sh",
        r#"sleep 5; echo '{"context": "too late"}'"#,
    );
    let garbage = script(hooks_dir.path(), "garbage.sh", "echo 'not json {'; exit 3");
    let yaml = format!(
        "pre_llm_call:\n  - command: {context}\n  - command: {slow}\n    timeout: 1\n\
         pre_tool_call:\n  - matcher: terminal\n    command: {block}\n\
         post_tool_call:\n  - command: {garbage}\n"
    );
    let (specs, warnings) = parse_hooks(&serde_norway::from_str(&yaml).unwrap());
    assert!(warnings.is_empty(), "{warnings:?}");
    let mut s = start(&server, |spec| {
        spec.safety.hooks = Some(HookSetup {
            specs,
            consent: ConsentStore::load(&hooks_dir.path().join("allowlist.json")),
            accept: AcceptHooks::AcceptAll,
        });
    });
    s.send(Op::user("do it"));
    assert_eq!(s.turn_outcome().await, TurnOutcome::Completed);
    assert!(
        !s.dir.path().join("ran.txt").exists(),
        "the hook blocked the command"
    );

    let requests = server.completion_requests();
    let body = &requests[0].body;
    let messages = body["messages"].as_array().unwrap();
    let user = messages.iter().rev().find(|m| m["role"] == "user").unwrap();
    let text = user["content"].as_str().unwrap();
    assert!(text.starts_with("do it"), "{text}");
    assert!(text.ends_with("Hook says: today is Friday"), "{text}");
    assert!(
        !text.contains("too late"),
        "the slow hook timed out: {text}"
    );
    assert!(
        !body.to_string().contains("Friday\\n\\nYou are"),
        "never in the system prompt"
    );
    let results = requests[1].tool_results();
    assert!(
        results[0].contains("blocked by a pre_tool_call hook: no commands today"),
        "{results:?}"
    );
    let sent: Value = serde_json::from_str(&std::fs::read_to_string(&payload).unwrap()).unwrap();
    assert_eq!(sent["hook_event_name"], "pre_llm_call");
    assert_eq!(sent["extra"]["user_message"], "do it");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_hook_asks_for_consent_and_always_is_remembered() {
    let server = ScriptedServer::start([Response::text(["hi"])]).await;
    let hooks_dir = tempfile::tempdir().unwrap();
    let context = script(
        hooks_dir.path(),
        "context.sh",
        r#"cat >/dev/null; echo '{"context": "consented"}'"#,
    );
    let yaml = format!("pre_llm_call:\n  - command: {context}\n");
    let (specs, _) = parse_hooks(&serde_norway::from_str(&yaml).unwrap());
    let allowlist = hooks_dir.path().join("allowlist.json");
    let mut s = start(&server, |spec| {
        spec.safety.hooks = Some(HookSetup {
            specs,
            consent: ConsentStore::load(&allowlist),
            accept: AcceptHooks::Ask,
        });
    });
    let request = say_and_wait_for_request(&mut s, "hello").await;
    assert_eq!(request.kind, ApprovalKind::HookConsent);
    assert_eq!(request.subject, context);
    assert!(
        request.reason.contains("pre_llm_call"),
        "{}",
        request.reason
    );
    s.send(Op::ApprovalReply {
        id: request.id,
        decision: ApprovalDecision::Always,
    });
    assert_eq!(s.turn_outcome().await, TurnOutcome::Completed);
    let user = server.completion_requests()[0].body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .rev()
        .find(|m| m["role"] == "user")
        .unwrap()["content"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(user.ends_with("consented"), "{user}");
    assert!(ConsentStore::load(&allowlist).is_allowed(HookEvent::PreLlmCall, &context));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn secrets_in_tool_output_are_masked_before_the_model_sees_them() {
    let key = "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789";
    let server = ScriptedServer::start([
        Response::tool_calls([ScriptedCall::terminal(
            "call_1",
            &format!("echo ANTHROPIC_API_KEY={key}; echo visible-line"),
        )]),
        Response::text(["ok"]),
    ])
    .await;
    let mut s = start(&server, |_| {});
    s.send(Op::user("show env"));
    let done = s.until(|e| matches!(e, Event::ToolComplete { .. })).await;
    let Event::ToolComplete(ToolComplete { output, .. }) = done else {
        unreachable!()
    };
    assert!(!output.contains(key), "{output}");
    assert_eq!(s.turn_outcome().await, TurnOutcome::Completed);
    let results = server.completion_requests()[1].tool_results();
    assert!(!results[0].contains(key), "{results:?}");
    assert!(results[0].contains("ANTHROPIC_API_KEY=***"), "{results:?}");
    assert!(results[0].contains("visible-line"), "{results:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn always_is_saved_to_command_allowlist_keeping_the_file() {
    let server = one_command("git push --force origin topic", "pushed").await;
    let home_dir = tempfile::tempdir().unwrap();
    let home = hermes::config::HermesHome::from_base(home_dir.path(), None).unwrap();
    std::fs::create_dir_all(home.root()).unwrap();
    std::fs::write(
        home.config_path(),
        "# my settings\nmodel:\n  default: m   # keep this comment\n",
    )
    .unwrap();
    let mut s = start(&server, |spec| {
        spec.yolo = Yolo::Off;
        spec.safety.home = Some(home.clone());
    });
    let request = say_and_wait_for_request(&mut s, "push").await;
    s.send(Op::ApprovalReply {
        id: request.id,
        decision: ApprovalDecision::Always,
    });
    assert_eq!(s.turn_outcome().await, TurnOutcome::Completed);
    let text = std::fs::read_to_string(home.config_path()).unwrap();
    assert!(text.contains("# keep this comment"), "{text}");
    let loaded = hermes::config::load(&home);
    assert_eq!(
        loaded.config.command_allowlist,
        vec!["git_force_push".to_string()]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn smart_mode_approves_denies_or_escalates_through_the_reviewer_model() {
    // The scripted server plays both the agent and the reviewer, in order.
    let server = ScriptedServer::start([
        Response::tool_calls([ScriptedCall::terminal("call_1", "rm -rf build")]),
        Response::text(["APPROVE"]),
        Response::tool_calls([ScriptedCall::terminal("call_2", "git reset --hard HEAD~5")]),
        Response::text(["DENY"]),
        Response::tool_calls([ScriptedCall::terminal("call_3", "git clean -fdx")]),
        Response::text(["ESCALATE"]),
        Response::text(["done"]),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("build/x")).unwrap();
    let mut s = test_session()
        .in_dir(dir)
        .with_spec(|spec| {
            spec.yolo = Yolo::Off;
            spec.safety.approvals.mode = hermes::config::ApprovalMode::Smart;
            spec.safety.smart = Some(hermes::engine::guard::SmartApprover {
                provider: std::sync::Arc::clone(&spec.endpoint.provider),
                model: "reviewer".into(),
            });
        })
        .build(&server);
    s.send(Op::user("tidy"));
    // Only the escalated command reaches the user.
    let request = next_request(&mut s).await;
    assert_eq!(request.subject, "git clean -fdx");
    s.send(Op::ApprovalReply {
        id: request.id,
        decision: ApprovalDecision::Deny,
    });
    assert_eq!(s.turn_outcome().await, TurnOutcome::Completed);
    assert!(
        !s.dir.path().join("build").exists(),
        "approved by the reviewer"
    );
    let requests = server.completion_requests();
    let review = &requests[1].body;
    assert_eq!(review["model"], "reviewer");
    assert!(review.to_string().contains("rm -rf build"), "{review}");
    assert!(
        !review.to_string().contains("tidy"),
        "the reviewer never sees the conversation"
    );
    let after_deny = requests[4].tool_results();
    assert!(after_deny[1].contains("smart"), "{after_deny:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_agent_cannot_get_a_standing_approval_to_change_hermes_settings() {
    let server = one_command("hermes config set approvals.mode off", "ok").await;
    let mut s = guarded(&server, Duration::from_secs(30));
    let request = say_and_wait_for_request(&mut s, "relax").await;
    assert_eq!(
        request.choices,
        vec![ApprovalDecision::Once, ApprovalDecision::Deny],
        "no session/always for hermes's own settings"
    );
    // A frontend that sends a choice it was not offered gets a denial.
    s.send(Op::ApprovalReply {
        id: request.id.clone(),
        decision: ApprovalDecision::Always,
    });
    let resolved = resolution(&mut s).await;
    assert_eq!(
        resolved,
        Event::ApprovalResolved(ApprovalResolved {
            id: request.id,
            decision: ApprovalDecision::Deny,
            decided_by: DecidedBy::User,
        })
    );
    assert_eq!(s.turn_outcome().await, TurnOutcome::Completed);
    let results = server.completion_requests()[1].tool_results();
    assert!(results[0].contains("denied"), "{results:?}");
}
