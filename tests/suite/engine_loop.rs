//! End-to-end tests of the engine's session actor, in process, against the scripted provider
//! server: interrupts, clarify round-trips, steering, busy input, the iteration budget,
//! malformed tool calls and the byte-stable system prompt.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use std::sync::Arc;
use std::time::Duration;

use hermes::engine::BusyInputMode;
use hermes::protocol::ClarifyAnswer;
use hermes::protocol::Event;
use hermes::protocol::MessageDelta;
use hermes::protocol::Notice;
use hermes::protocol::Op;
use hermes::protocol::ToolComplete;
use hermes::protocol::ToolStatus;
use hermes::protocol::TurnOutcome;
use hermes::protocol::Yolo;
use serde_json::Value;
use support::Response;
use support::ScriptedCall;
use support::ScriptedServer;

use support::engine::SYSTEM;
use support::engine::endpoint;
use support::engine::test_session;

fn messages(body: &Value) -> &Vec<Value> {
    body["messages"].as_array().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn interrupt_mid_stream_keeps_the_partial_reply() {
    let words: Vec<String> = (0..100).map(|i| format!("w{i} ")).collect();
    let server = ScriptedServer::start([
        Response::text(words).with_delay_ms(30),
        Response::text(["ok"]),
    ])
    .await;
    let mut s = test_session().build(&server);
    s.send(Op::user("talk"));
    s.until(
        |e| matches!(e, Event::MessageDelta(MessageDelta { text, .. }) if text.starts_with("w3")),
    )
    .await;
    s.send(Op::Interrupt);
    let outcome = s.turn_outcome().await;
    let TurnOutcome::Interrupted { done } = outcome else {
        panic!("expected an interrupted turn, got {outcome:?}");
    };
    assert!(done.contains("the reply was cut after"), "{done}");
    // The next request carries the partial reply, marked as interrupted.
    s.send(Op::user("again"));
    assert_eq!(s.turn_outcome().await, TurnOutcome::Completed);
    let requests = server.completion_requests();
    let history = messages(&requests[1].body);
    let partial = &history[history.len() - 2];
    assert_eq!(partial["role"], "assistant");
    let content = partial["content"].as_str().unwrap();
    assert!(content.starts_with("w0 w1 w2 w3"), "{content}");
    assert!(content.ends_with("[interrupted by the user]"), "{content}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn interrupt_stops_a_running_command_promptly() {
    let server = ScriptedServer::start([
        Response::tool_calls([ScriptedCall::terminal("call_1", "sleep 30")]),
        Response::text(["next"]),
    ])
    .await;
    let mut s = test_session().build(&server);
    s.send(Op::user("sleep"));
    s.until(|e| matches!(e, Event::ToolStart { .. })).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let started = std::time::Instant::now();
    s.send(Op::Interrupt);
    let complete = s.until(|e| matches!(e, Event::ToolComplete { .. })).await;
    let Event::ToolComplete(ToolComplete { status, .. }) = complete else {
        unreachable!()
    };
    assert_eq!(status, ToolStatus::Cancelled);
    assert!(matches!(
        s.turn_outcome().await,
        TurnOutcome::Interrupted { .. }
    ));
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "took {:?}",
        started.elapsed()
    );
    // The cancelled call still has a result in the history.
    s.send(Op::user("go on"));
    assert_eq!(s.turn_outcome().await, TurnOutcome::Completed);
    let history = messages(&server.completion_requests()[1].body).clone();
    assert!(
        history
            .iter()
            .any(|m| m["role"] == "tool" && m["tool_call_id"] == "call_1")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clarify_round_trip_reaches_the_model() {
    let server = ScriptedServer::start([
        Response::tool_calls([ScriptedCall::new(
            "call_q",
            "clarify",
            r#"{"question":"Which colour?","choices":["red","blue"]}"#,
        )]),
        Response::text(["Blue it is."]),
    ])
    .await;
    let mut s = test_session().build(&server);
    s.send(Op::user("paint"));
    let request = s.until(|e| matches!(e, Event::ClarifyRequest(_))).await;
    let Event::ClarifyRequest(request) = request else {
        unreachable!()
    };
    assert_eq!(request.question, "Which colour?");
    assert_eq!(request.choices, vec!["red", "blue"]);
    s.send(Op::ClarifyReply {
        id: request.id,
        answer: ClarifyAnswer::Text("blue".into()),
    });
    assert_eq!(s.turn_outcome().await, TurnOutcome::Completed);
    let history = messages(&server.completion_requests()[1].body).clone();
    let result = history.iter().find(|m| m["role"] == "tool").unwrap();
    assert!(
        result["content"].as_str().unwrap().contains("blue"),
        "{result}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn steer_rides_on_the_next_tool_result() {
    let server = ScriptedServer::start([
        Response::tool_calls([ScriptedCall::terminal("call_1", "sleep 1; echo done")]),
        Response::text(["ok"]),
    ])
    .await;
    let mut s = test_session().build(&server);
    s.send(Op::user("work"));
    s.until(|e| matches!(e, Event::ToolStart { .. })).await;
    s.send(Op::Steer {
        text: "use tabs".into(),
    });
    assert_eq!(s.turn_outcome().await, TurnOutcome::Completed);
    let history = messages(&server.completion_requests()[1].body).clone();
    let result = history.iter().find(|m| m["role"] == "tool").unwrap();
    let content = result["content"].as_str().unwrap();
    assert!(
        content.contains("[The user added while you were working: use tabs]"),
        "{content}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn busy_input_in_interrupt_mode_replaces_the_running_turn() {
    let words: Vec<String> = (0..100).map(|i| format!("w{i} ")).collect();
    let server = ScriptedServer::start([
        Response::text(words).with_delay_ms(30),
        Response::text(["second answer"]),
    ])
    .await;
    let mut s = test_session().busy(BusyInputMode::Interrupt).build(&server);
    s.send(Op::user("first"));
    s.until(|e| matches!(e, Event::MessageDelta { .. })).await;
    s.send(Op::user("second"));
    assert!(matches!(
        s.turn_outcome().await,
        TurnOutcome::Interrupted { .. }
    ));
    assert_eq!(s.turn_outcome().await, TurnOutcome::Completed);
    let requests = server.completion_requests();
    let last_user = messages(&requests[1].body).last().unwrap().clone();
    assert_eq!(last_user["content"], "second");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn iteration_budget_ends_the_turn() {
    let server = ScriptedServer::start([
        Response::tool_calls([ScriptedCall::new("c1", "todo", "{}")]),
        Response::tool_calls([ScriptedCall::new("c2", "todo", "{}")]),
        Response::tool_calls([ScriptedCall::new("c3", "todo", "{}")]),
    ])
    .await;
    let mut s = test_session().max_iterations(2).build(&server);
    s.send(Op::user("loop"));
    assert_eq!(
        s.turn_outcome().await,
        TurnOutcome::IterationLimit { limit: 2 }
    );
    assert_eq!(server.completion_requests().len(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_and_unknown_tool_calls_are_reported_to_the_model() {
    let server = ScriptedServer::start([
        Response::tool_calls([
            ScriptedCall::new("c1", "read_file", r#"{"path": "#),
            ScriptedCall::new("c2", "teleport", "{}"),
        ]),
        Response::text(["sorry"]),
    ])
    .await;
    let mut s = test_session().build(&server);
    s.send(Op::user("go"));
    assert_eq!(s.turn_outcome().await, TurnOutcome::Completed);
    let history = messages(&server.completion_requests()[1].body).clone();
    let results: Vec<&str> = history
        .iter()
        .filter(|m| m["role"] == "tool")
        .map(|m| m["content"].as_str().unwrap())
        .collect();
    assert!(
        results[0].contains("invalid JSON arguments for tool 'read_file'"),
        "{}",
        results[0]
    );
    // Arguments that stop mid-value: the model is told why and what to do.
    assert!(
        results[0].contains("hit the output token limit (model.max_tokens)"),
        "{}",
        results[0]
    );
    assert!(
        results[1].contains("unknown tool 'teleport'"),
        "{}",
        results[1]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn system_prompt_is_identical_across_turns_and_shutdown_is_confirmed() {
    let server = ScriptedServer::start([Response::text(["one"]), Response::text(["two"])]).await;
    let mut s = test_session().build(&server);
    s.send(Op::user("a"));
    s.turn_outcome().await;
    s.send(Op::user("b"));
    s.turn_outcome().await;
    let requests = server.completion_requests();
    assert_eq!(
        messages(&requests[0].body)[0],
        messages(&requests[1].body)[0]
    );
    assert_eq!(messages(&requests[0].body)[0]["content"], SYSTEM);
    // Second request: system, user a, assistant one, user b.
    assert_eq!(messages(&requests[1].body).len(), 4);
    s.send(Op::Shutdown);
    s.until(|e| matches!(e, Event::ShutdownComplete)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn retry_reruns_the_last_message_without_its_old_reply() {
    let server =
        ScriptedServer::start([Response::text(["first"]), Response::text(["second"])]).await;
    let mut s = test_session().build(&server);
    s.send(Op::user("question"));
    s.turn_outcome().await;
    s.send(Op::Retry);
    assert_eq!(s.turn_outcome().await, TurnOutcome::Completed);
    let requests = server.completion_requests();
    assert_eq!(messages(&requests[0].body), messages(&requests[1].body));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn new_session_forgets_the_conversation() {
    let server = ScriptedServer::start([Response::text(["one"]), Response::text(["two"])]).await;
    let mut s = test_session().build(&server);
    s.send(Op::user("remember 42"));
    s.turn_outcome().await;
    s.send(Op::NewSession);
    let info = s.until(|e| matches!(e, Event::SessionInfo(_))).await;
    let Event::SessionInfo(info) = info else {
        unreachable!()
    };
    assert_ne!(info.session_id, "test");
    s.send(Op::user("what number?"));
    s.turn_outcome().await;
    let requests = server.completion_requests();
    assert_eq!(
        messages(&requests[1].body).len(),
        2,
        "system + the new question only"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shell_commands_run_outside_the_conversation_and_yolo_toggles() {
    let server = ScriptedServer::start([
        Response::tool_calls([ScriptedCall::terminal("c1", "rm -rf from-model")]),
        Response::text(["done"]),
    ])
    .await;
    let mut s = test_session().build(&server);
    // The user's own command runs without asking, even a dangerous one.
    s.send(Op::RunShell {
        command: "mkdir -p from-model/x && rm -rf from-model/x && echo typed-by-user".into(),
    });
    let done = s.until(|e| matches!(e, Event::ToolComplete { .. })).await;
    let Event::ToolComplete(ToolComplete { output, status, .. }) = done else {
        unreachable!()
    };
    assert_eq!(status, ToolStatus::Ok);
    assert!(output.contains("typed-by-user"), "{output}");
    // With YOLO off the model's dangerous command asks; denied, the model is told why.
    s.send(Op::SetYolo(Yolo::Off));
    let info = s.until(|e| matches!(e, Event::SessionInfo(_))).await;
    assert!(matches!(info, Event::SessionInfo(ref i) if i.yolo == Yolo::Off));
    s.send(Op::user("run it"));
    let Event::ApprovalRequest(request) = s.until(|e| matches!(e, Event::ApprovalRequest(_))).await
    else {
        unreachable!()
    };
    s.send(Op::ApprovalReply {
        id: request.id,
        decision: hermes::protocol::ApprovalDecision::Deny,
    });
    let done = s.until(|e| matches!(e, Event::ToolComplete { .. })).await;
    assert!(matches!(
        done,
        Event::ToolComplete(ToolComplete {
            status: ToolStatus::Denied,
            ..
        })
    ));
    s.turn_outcome().await;
    // The shell command never reached the model's history.
    let history = messages(&server.completion_requests()[0].body).clone();
    assert!(
        !serde_json::to_string(&history)
            .unwrap()
            .contains("typed-by-user")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn compression_summarises_the_middle_and_keeps_the_system_prompt() {
    use hermes::engine::compress::CompressionSettings;
    use hermes::engine::compress::Enabled;
    let server = ScriptedServer::start([
        Response::text(["one"]),
        Response::text(["two"]),
        Response::text(["three"]),
        Response::text(["## Task so far\nThe user counted."]),
        Response::text(["four"]),
    ])
    .await;
    let settings = CompressionSettings {
        enabled: Enabled::Yes,
        threshold: 0.2,
        protect_first_n: 1,
        protect_last_n: 2,
    };
    let mut s = test_session()
        .with_spec(|spec| spec.compression = settings)
        .build(&server);
    for text in ["a", "b", "c"] {
        s.send(Op::user(text));
        assert_eq!(s.turn_outcome().await, TurnOutcome::Completed);
    }
    // Pretend the context is nearly full: a 32k window triggers at 85% of it (Hermes's
    // small-window rule overrides the configured 20%), so send ~30k tokens of text.
    s.send(Op::user("x".repeat(120_000)));
    let status = s
        .until(|e| matches!(e, Event::StatusUpdate(u) if u.compressions == 1))
        .await;
    assert!(matches!(status, Event::StatusUpdate(_)));
    assert_eq!(s.turn_outcome().await, TurnOutcome::Completed);
    let requests = server.completion_requests();
    assert_eq!(requests.len(), 5);
    let summariser = messages(&requests[3].body);
    assert!(
        summariser[0]["content"]
            .as_str()
            .unwrap()
            .contains("Task so far"),
        "the summariser gets its own instructions"
    );
    let after = messages(&requests[4].body);
    assert_eq!(after[0]["content"], SYSTEM, "system prompt unchanged");
    assert_eq!(after[1]["content"], "a", "first message kept");
    let summary = after[2]["content"].as_str().unwrap();
    assert!(summary.contains("The user counted."), "{summary}");
    assert_eq!(
        after.last().unwrap()["content"].as_str().unwrap().len(),
        120_000
    );
    assert!(after.len() < messages(&requests[2].body).len() + 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_skill_slash_command_becomes_a_user_message() {
    let server = ScriptedServer::start([Response::text(["Following the skill."])]).await;
    let skills_dir = tempfile::tempdir().unwrap();
    let skill = skills_dir.path().join("release-notes");
    std::fs::create_dir_all(&skill).unwrap();
    std::fs::write(
        skill.join("SKILL.md"),
        "---\nname: release-notes\ndescription: Write release notes.\n---\n# Release notes\nList user-visible changes first.\n",
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut s = test_session()
        .in_dir(dir)
        .with_spec(|spec| {
            spec.skills = Some(Arc::new(hermes::skills::catalog::SkillLoader::new(
                skills_dir.path(),
            )));
        })
        .build(&server);
    s.send(Op::SlashCommand {
        name: "release-notes".into(),
        args: "for v2".into(),
    });
    assert_eq!(s.turn_outcome().await, TurnOutcome::Completed);
    let history = messages(&server.completion_requests()[0].body).clone();
    assert_eq!(
        history[0]["content"], SYSTEM,
        "the system prompt is unchanged"
    );
    let user = history[1]["content"].as_str().unwrap();
    assert!(user.contains("List user-visible changes first."), "{user}");
    assert!(user.contains("for v2"), "{user}");
    // An unknown command is a notice, not a turn.
    s.send(Op::SlashCommand {
        name: "nope".into(),
        args: String::new(),
    });
    let notice = s.until(|e| matches!(e, Event::Notice { .. })).await;
    assert!(
        matches!(notice, Event::Notice(Notice { text, .. }) if text.contains("unknown command /nope"))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_skill_asks_for_its_missing_secret_saves_it_and_commands_see_it() {
    let server = ScriptedServer::start([
        Response::tool_calls([ScriptedCall::terminal(
            "c1",
            "printf %s \"$DEMO_TOKEN\" > seen.txt",
        )]),
        Response::text(["done"]),
    ])
    .await;
    let skills_dir = tempfile::tempdir().unwrap();
    let skill = skills_dir.path().join("demo");
    std::fs::create_dir_all(&skill).unwrap();
    std::fs::write(
        skill.join("SKILL.md"),
        "---\nname: demo\ndescription: Needs a token.\nrequired_environment_variables:\n  - name: DEMO_TOKEN\n    prompt: Demo token\n---\nUse the token.\n",
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let env_file = dir.path().join("dot.env");
    let mut s = test_session()
        .in_dir(dir)
        .with_spec(|spec| {
            spec.skills = Some(Arc::new(hermes::skills::catalog::SkillLoader::new(
                skills_dir.path(),
            )));
            spec.env_file = Some(env_file.clone());
        })
        .build(&server);
    s.send(Op::SlashCommand {
        name: "demo".into(),
        args: String::new(),
    });
    let request = s.until(|e| matches!(e, Event::SecretRequest(_))).await;
    let Event::SecretRequest(request) = request else {
        unreachable!()
    };
    assert_eq!(request.name, "DEMO_TOKEN");
    assert_eq!(request.prompt, "Demo token");
    assert!(
        server.completion_requests().is_empty(),
        "the skill waits for the secret"
    );
    s.send(Op::SecretReply {
        id: request.id,
        value: Some("s3cret-value".into()),
    });
    assert_eq!(s.turn_outcome().await, TurnOutcome::Completed);
    assert_eq!(
        std::fs::read_to_string(s.dir.path().join("seen.txt")).unwrap(),
        "s3cret-value",
        "the session's commands see the secret"
    );
    let saved = std::fs::read_to_string(&env_file).unwrap();
    assert!(saved.contains("DEMO_TOKEN=s3cret-value"), "{saved}");
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(
        std::fs::metadata(&env_file).unwrap().permissions().mode() & 0o777,
        0o600
    );
    // The secret never reaches the model.
    let bodies = serde_json::to_string(&server.completion_requests()[0].body).unwrap();
    assert!(!bodies.contains("s3cret-value"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_auxiliary_model_writes_the_compression_summary() {
    use hermes::engine::compress::CompressionSettings;
    use hermes::engine::compress::Enabled;
    let main = ScriptedServer::start([
        Response::text(["one"]),
        Response::text(["two"]),
        Response::text(["three"]),
        Response::text(["four"]),
    ])
    .await;
    let aux = ScriptedServer::start([Response::text(["## Task so far\nsummarised by aux"])]).await;
    let dir = tempfile::tempdir().unwrap();
    let mut s = test_session()
        .in_dir(dir)
        .with_spec(|spec| {
            spec.summariser = Some(endpoint(&aux));
            spec.compression = CompressionSettings {
                enabled: Enabled::Yes,
                threshold: 0.2,
                protect_first_n: 1,
                protect_last_n: 2,
            };
        })
        .build(&main);
    for text in ["a", "b", "c"] {
        s.send(Op::user(text));
        assert_eq!(s.turn_outcome().await, TurnOutcome::Completed);
    }
    s.send(Op::user("x".repeat(120_000)));
    assert_eq!(s.turn_outcome().await, TurnOutcome::Completed);
    assert_eq!(
        aux.completion_requests().len(),
        1,
        "the summary came from the aux model"
    );
    assert_eq!(
        main.completion_requests().len(),
        4,
        "the main model was not asked to summarise"
    );
    let last = messages(&main.completion_requests()[3].body).clone();
    assert!(
        last[2]["content"]
            .as_str()
            .unwrap()
            .contains("summarised by aux")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_cut_off_mid_stream_is_kept_marked_and_sent_next_turn() {
    let server = ScriptedServer::start([
        Response::raw_sse(&format!(
            "data: {}\n\n",
            serde_json::json!({"choices":[{"delta":{"content":"The first half"}}]})
        )),
        Response::text(["again"]),
    ])
    .await;
    let mut s = test_session().build(&server);
    s.send(Op::user("go"));
    let outcome = s.turn_outcome().await;
    assert!(matches!(outcome, TurnOutcome::Failed { .. }), "{outcome:?}");
    s.send(Op::user("continue"));
    s.turn_outcome().await;
    let history = messages(&server.completion_requests()[1].body).clone();
    let kept = history
        .iter()
        .find(|m| m["role"] == "assistant")
        .and_then(|m| m["content"].as_str())
        .unwrap_or_default()
        .to_string();
    assert!(
        kept.starts_with("The first half") && kept.contains("[the answer was cut off: the provider's stream ended before the answer was complete"),
        "{history:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn compression_that_cannot_shrink_the_prompt_is_not_repeated() {
    use hermes::engine::compress::CompressionSettings;
    use hermes::engine::compress::Enabled;
    // The provider reports a prompt over the 32k window's 27,200-token trigger on every
    // reply, as when the system prompt and tool schemas alone are that big.
    let over = 30_000;
    let server = ScriptedServer::start([
        Response::text(["one"]).with_usage(over, 5),
        Response::text(["two"]).with_usage(over, 5),
        // The third message's turn: first the summary, then its reply.
        Response::text(["## Task so far\nsummary"]),
        Response::text(["three"]).with_usage(over, 5),
        Response::text(["four"]).with_usage(over, 5),
        Response::text(["five"]).with_usage(over, 5),
        Response::text(["six"]).with_usage(over, 5),
    ])
    .await;
    let settings = CompressionSettings {
        enabled: Enabled::Yes,
        threshold: 0.5,
        protect_first_n: 1,
        protect_last_n: 2,
    };
    let mut s = test_session()
        .with_spec(|spec| spec.compression = settings)
        .build(&server);
    s.send(Op::user("a"));
    assert_eq!(s.turn_outcome().await, TurnOutcome::Completed);
    s.send(Op::user("b"));
    assert_eq!(s.turn_outcome().await, TurnOutcome::Completed);
    // The second turn had nothing to compress yet (too short). The third compresses (one
    // summary call), its reply shows the prompt is still over, and automatic compression
    // stops, said once.
    s.send(Op::user("c"));
    let notice = s
        .until(|e| matches!(e, Event::Notice(Notice { text, .. }) if text.contains("automatic compression is paused")))
        .await;
    assert!(matches!(notice, Event::Notice(_)));
    assert_eq!(s.turn_outcome().await, TurnOutcome::Completed);
    for text in ["d", "e"] {
        s.send(Op::user(text));
        assert_eq!(s.turn_outcome().await, TurnOutcome::Completed);
    }
    let requests = server.completion_requests();
    let summaries = requests
        .iter()
        .filter(|r| {
            messages(&r.body)[0]["content"]
                .as_str()
                .is_some_and(|c| c.contains("Task so far"))
        })
        .count();
    assert_eq!(summaries, 1, "one summary call, not one per request");
    assert_eq!(requests.len(), 6, "a, b, summary, c, d, e");
}
