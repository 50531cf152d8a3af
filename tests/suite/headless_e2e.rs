//! End-to-end tests of the real `hermes` binary in headless mode against the scripted provider
//! server: tool round-trips, parallel calls, every injected fault with its message and exit
//! code, the Anthropic wire format, configuration errors, and Ctrl+C.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;
use crate::support::env::CleanEnv;

use std::path::Path;
use std::process::Output;
use std::time::Duration;

use serde_json::Value;
use support::Response;
use support::ScriptedCall;
use support::ScriptedServer;

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

impl From<Output> for Run {
    fn from(out: Output) -> Self {
        Self {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }
}

/// A HERMES_HOME and a working directory in one tempdir, configured for `server`.
struct Fixture {
    dir: tempfile::TempDir,
}

impl Fixture {
    fn new(config_yaml: &str) -> Self {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("home")).unwrap();
        std::fs::create_dir_all(dir.path().join("work")).unwrap();
        std::fs::write(dir.path().join("home/config.yaml"), config_yaml).unwrap();
        Self { dir }
    }

    fn openai(server: &ScriptedServer) -> Self {
        Self::new(&format!(
            "model:\n  provider: custom\n  base_url: {}\n  default: scripted-model\nprovider:\n  stream_idle_timeout: 2\n  max_retries: 2\n",
            server.base_url()
        ))
    }

    fn home(&self) -> std::path::PathBuf {
        self.dir.path().join("home")
    }

    fn work(&self) -> std::path::PathBuf {
        self.dir.path().join("work")
    }

    fn command(&self, args: &[&str]) -> tokio::process::Command {
        let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_hermes"));
        cmd.clean_env()
            .args(args)
            .current_dir(self.work())
            .env("HERMES_HOME", self.home())
            .stdin(std::process::Stdio::null())
            .kill_on_drop(true);
        cmd
    }

    async fn run(&self, args: &[&str]) -> Run {
        let out = tokio::time::timeout(Duration::from_secs(60), self.command(args).output())
            .await
            .expect("hermes did not finish within 60 s")
            .unwrap();
        out.into()
    }
}

fn tool_messages(body: &Value) -> Vec<&Value> {
    body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "tool")
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_sequential_tool_calls_complete_a_turn() {
    let script =
        support::load_script(Path::new("tests/fixtures/scripts/three_tools.json")).unwrap();
    let server = ScriptedServer::start(script).await;
    let fx = Fixture::openai(&server);
    let run = fx.run(&["--yolo", "-z", "write three notes"]).await;
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    assert_eq!(
        run.stdout,
        "Done: I wrote note_1.txt, note_2.txt and note_3.txt.\n"
    );
    for n in 1..=3 {
        let note = std::fs::read_to_string(fx.work().join(format!("note_{n}.txt"))).unwrap();
        assert_eq!(note.trim(), n.to_string());
        assert!(
            run.stderr.contains(&format!("💻 echo {n} > note_{n}.txt")),
            "{}",
            run.stderr
        );
    }
    assert!(
        run.stderr.contains("💬 I'll write the first note."),
        "{}",
        run.stderr
    );
    let requests = server.completion_requests();
    assert_eq!(requests.len(), 4);
    // Every request is streamed, asks for usage, offers the tools, and keeps one system prompt.
    let system = requests[0].body["messages"][0].clone();
    assert_eq!(system["role"], "system");
    for (i, request) in requests.iter().enumerate() {
        assert_eq!(request.body["stream"], true);
        assert_eq!(request.body["stream_options"]["include_usage"], true);
        assert_eq!(request.body["model"], "scripted-model");
        assert_eq!(
            request.body["messages"][0], system,
            "system prompt changed at request {i}"
        );
        assert_eq!(tool_messages(&request.body).len(), i);
        let tools: Vec<&str> = request.body["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["function"]["name"].as_str().unwrap())
            .collect();
        assert!(
            tools.contains(&"terminal") && tools.contains(&"read_file"),
            "{tools:?}"
        );
    }
    let last = &requests[3].body;
    let results = tool_messages(last);
    assert_eq!(results[0]["tool_call_id"], "call_1");
    assert_eq!(results[2]["tool_call_id"], "call_3");
    assert!(
        results[0]["content"]
            .as_str()
            .unwrap()
            .contains("exit code 0"),
        "{}",
        results[0]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_parallel_calls_both_answered_in_order() {
    let server = ScriptedServer::start([
        Response::tool_calls([
            ScriptedCall::new("call_a", "read_file", r#"{"path": "a.txt"}"#),
            ScriptedCall::new("call_b", "read_file", r#"{"path": "b.txt"}"#),
        ]),
        Response::text(["Both read."]),
    ])
    .await;
    let fx = Fixture::openai(&server);
    std::fs::write(fx.work().join("a.txt"), "alpha\n").unwrap();
    std::fs::write(fx.work().join("b.txt"), "bravo\n").unwrap();
    let run = fx.run(&["-z", "read both"]).await;
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    assert_eq!(run.stdout, "Both read.\n");
    let requests = server.completion_requests();
    let results = tool_messages(&requests[1].body);
    assert_eq!(results.len(), 2);
    assert_eq!(results[0]["tool_call_id"], "call_a");
    assert!(results[0]["content"].as_str().unwrap().contains("alpha"));
    assert_eq!(results[1]["tool_call_id"], "call_b");
    assert!(results[1]["content"].as_str().unwrap().contains("bravo"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn benign_commands_run_dangerous_ones_are_denied_without_a_terminal_hardline_always() {
    let server = ScriptedServer::start([
        Response::tool_calls([
            ScriptedCall::terminal("call_1", "echo hi > x.txt"),
            ScriptedCall::terminal("call_2", "rm -rf keep"),
        ]),
        Response::text(["One ran, one was refused."]),
        Response::tool_calls([ScriptedCall::terminal("call_3", "/usr/bin/sudo rm -rf /")]),
        Response::text(["Refused, good."]),
    ])
    .await;
    let fx = Fixture::openai(&server);
    std::fs::create_dir_all(fx.work().join("keep")).unwrap();
    let run = fx.run(&["-z", "write x"]).await;
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    assert!(
        fx.work().join("x.txt").exists(),
        "a benign command runs without asking"
    );
    assert!(
        fx.work().join("keep").exists(),
        "the recursive delete must not run"
    );
    assert!(run.stderr.contains("$ rm -rf keep"), "{}", run.stderr);
    assert!(
        run.stderr.contains("stdin is not a terminal"),
        "{}",
        run.stderr
    );
    let requests = server.completion_requests();
    let results = tool_messages(&requests[1].body);
    let denial = results[1]["content"].as_str().unwrap();
    assert!(denial.contains("denied"), "{denial}");

    let run = fx.run(&["--yolo", "-z", "wipe"]).await;
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    let refusal = tool_messages(&server.completion_requests()[3].body)[0]["content"].clone();
    assert!(refusal.as_str().unwrap().contains("blocked"), "{refusal}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_mode_prints_protocol_events() {
    let server = ScriptedServer::start([Response::text(["Hel", "lo"])]).await;
    let fx = Fixture::openai(&server);
    let run = fx.run(&["--json", "-z", "hi"]).await;
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    let events: Vec<Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let types: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(types.first(), Some(&"session_info"));
    assert_eq!(types.last(), Some(&"shutdown_complete"));
    let deltas: String = events
        .iter()
        .filter(|e| e["type"] == "message_delta")
        .map(|e| e["text"].as_str().unwrap())
        .collect();
    assert_eq!(deltas, "Hello");
    assert!(types.contains(&"status_update"));
    let done = events
        .iter()
        .find(|e| e["type"] == "turn_complete")
        .unwrap();
    assert_eq!(done["outcome"]["outcome"], "completed");
}

/// (script, expected exit code, a phrase the one-line error must contain)
async fn assert_fault(script: Vec<Response>, code: i32, phrase: &str) -> ScriptedServer {
    let server = ScriptedServer::start(script).await;
    let fx = Fixture::openai(&server);
    let run = fx.run(&["-z", "hi"]).await;
    assert_eq!(run.code, code, "stderr: {}", run.stderr);
    assert!(
        run.stderr.to_lowercase().contains(phrase),
        "expected {phrase:?} in stderr: {}",
        run.stderr
    );
    assert_eq!(run.stdout, "", "no answer on a failed turn");
    server
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rate_limit_is_retried_after_retry_after() {
    let server = ScriptedServer::start([
        Response::rate_limited(Some(1)),
        Response::text(["after the wait"]),
    ])
    .await;
    let fx = Fixture::openai(&server);
    let started = std::time::Instant::now();
    let run = fx.run(&["-z", "hi"]).await;
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    assert_eq!(run.stdout, "after the wait\n");
    assert!(
        started.elapsed() >= Duration::from_millis(950),
        "Retry-After was not honoured"
    );
    assert_eq!(server.completion_requests().len(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn persistent_rate_limit_fails_with_exit_4() {
    assert_fault(vec![Response::rate_limited(Some(0)); 3], 4, "rate limited").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_error_then_success_recovers() {
    let server =
        ScriptedServer::start([Response::status(500), Response::text(["recovered"])]).await;
    let fx = Fixture::openai(&server);
    let run = fx.run(&["-z", "hi"]).await;
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    assert_eq!(run.stdout, "recovered\n");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn persistent_server_errors_fail_with_exit_5() {
    let server = assert_fault(vec![Response::status(500); 3], 5, "500").await;
    assert_eq!(
        server.completion_requests().len(),
        3,
        "1 try + max_retries (2)"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connection_reset_is_retried() {
    let server = ScriptedServer::start([Response::reset(), Response::text(["fine"])]).await;
    let fx = Fixture::openai(&server);
    let run = fx.run(&["-z", "hi"]).await;
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    assert_eq!(run.stdout, "fine\n");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unreachable_server_fails_with_exit_5_naming_the_host() {
    // Bind and drop to get a port nobody listens on.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let fx = Fixture::new(&format!(
        "model:\n  provider: custom\n  base_url: http://127.0.0.1:{port}/v1\n  default: m\nprovider:\n  max_retries: 1\n"
    ));
    let run = fx.run(&["-z", "hi"]).await;
    assert_eq!(run.code, 5, "stderr: {}", run.stderr);
    assert!(
        run.stderr.contains(&format!("127.0.0.1:{port}")),
        "{}",
        run.stderr
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn silent_stream_is_retried_once_then_reported_as_hang() {
    let server = assert_fault(
        vec![
            Response::stall_after(Vec::<String>::new(), 10),
            Response::stall_after(Vec::<String>::new(), 10),
        ],
        6,
        "stopped sending data",
    )
    .await;
    assert_eq!(server.completion_requests().len(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stream_that_stalls_after_text_is_not_retried() {
    // Retrying would show the text twice; the partial reply is kept as progress instead.
    let server = ScriptedServer::start([Response::stall_after(["partial "], 10)]).await;
    let fx = Fixture::openai(&server);
    let run = fx.run(&["-z", "hi"]).await;
    assert_eq!(run.code, 6, "stderr: {}", run.stderr);
    assert_eq!(run.stdout, "");
    assert!(run.stderr.contains("💬 partial"), "{}", run.stderr);
    assert_eq!(server.completion_requests().len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_chunk_is_a_bad_response() {
    assert_fault(vec![Response::malformed_chunk()], 7, "could not understand").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn empty_reply_is_reported_not_printed() {
    assert_fault(vec![Response::empty(); 3], 7, "empty response").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_key_fails_with_exit_3() {
    assert_fault(
        vec![Response::status(401).with_message("invalid api key")],
        3,
        "authentication failed",
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn context_overflow_fails_with_exit_8() {
    assert_fault(vec![Response::context_too_long()], 8, "context").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_that_rejects_streaming_gets_a_plain_request() {
    let server = ScriptedServer::start([Response::reject_streaming(Response::text([
        "non-streamed answer",
    ]))])
    .await;
    let fx = Fixture::openai(&server);
    let run = fx.run(&["-z", "hi"]).await;
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    assert_eq!(run.stdout, "non-streamed answer\n");
    let requests = server.completion_requests();
    assert_eq!(requests.len(), 2);
    assert!(requests[0].is_streaming());
    assert!(!requests[1].is_streaming());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn anthropic_wire_format_with_a_tool_round_trip() {
    let server = ScriptedServer::start([
        Response::tool_calls([ScriptedCall::new(
            "toolu_1",
            "read_file",
            r#"{"path":"a.txt"}"#,
        )]),
        Response::text(["It says alpha."]),
    ])
    .await;
    let fx = Fixture::new(&format!(
        "model:\n  provider: anthropic\n  base_url: {}\n  default: claude-test\n",
        server.root_url()
    ));
    std::fs::write(
        fx.home().join(".env"),
        "ANTHROPIC_API_KEY=sk-ant-test-key\n",
    )
    .unwrap();
    std::fs::write(fx.work().join("a.txt"), "alpha\n").unwrap();
    let run = fx.run(&["-z", "what does a.txt say"]).await;
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    assert_eq!(run.stdout, "It says alpha.\n");
    let requests = server.completion_requests();
    assert_eq!(requests.len(), 2);
    assert_eq!(requests[0].path, "/v1/messages");
    assert_eq!(requests[0].header("x-api-key"), Some("sk-ant-test-key"));
    assert!(requests[0].header("anthropic-version").is_some());
    let body = &requests[1].body;
    assert_eq!(body["system"][0]["cache_control"]["type"], "ephemeral");
    let messages = body["messages"].as_array().unwrap();
    let last = messages.last().unwrap();
    assert_eq!(last["role"], "user");
    let block = &last["content"][0];
    assert_eq!(block["type"], "tool_result");
    assert_eq!(block["tool_use_id"], "toolu_1");
    assert_eq!(
        last["content"].as_array().unwrap().last().unwrap()["cache_control"]["type"],
        "ephemeral"
    );
    // The key never reaches the log.
    let log = std::fs::read_to_string(fx.home().join("logs/hermes.log")).unwrap_or_default();
    assert!(!log.contains("sk-ant-test-key"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_config_names_file_line_and_column_and_continues() {
    let server = ScriptedServer::start([Response::text(["still works"])]).await;
    let fx = Fixture::openai(&server);
    let broken = format!(
        "model:\n  provider: custom\n  base_url: {}\n  default: scripted-model\nterminal:\n  timeout: [unclosed\n",
        server.base_url()
    );
    std::fs::write(fx.home().join("config.yaml"), broken).unwrap();
    let run = fx
        .run(&[
            "--provider",
            "custom",
            "--base-url",
            &server.base_url(),
            "--model",
            "m",
            "-z",
            "hi",
        ])
        .await;
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    assert_eq!(run.stdout, "still works\n");
    assert!(run.stderr.contains("config.yaml:"), "{}", run.stderr);
    let warning = run
        .stderr
        .lines()
        .find(|l| l.contains("config.yaml:"))
        .unwrap();
    assert!(
        warning.chars().filter(|c| *c == ':').count() >= 3,
        "file:line:col expected: {warning}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_provider_configured_explains_what_to_set() {
    let fx = Fixture::new("");
    let run = fx.run(&["-z", "hi"]).await;
    assert_eq!(run.code, 2, "stderr: {}", run.stderr);
    assert!(run.stderr.contains("OPENROUTER_API_KEY"), "{}", run.stderr);
    assert_eq!(
        run.stderr.lines().count(),
        1,
        "one-line reason: {}",
        run.stderr
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ctrl_c_interrupts_a_slow_stream() {
    let words: Vec<String> = (0..200).map(|i| format!("word{i} ")).collect();
    let server = ScriptedServer::start([Response::text(words).with_delay_ms(50)]).await;
    let fx = Fixture::openai(&server);
    let child = fx
        .command(&["-z", "talk"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    server.wait_for_requests(1, Duration::from_secs(10)).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let pid = child.id().unwrap();
    // SAFETY: kill(2) on a child we own, with a valid signal; no memory is touched.
    assert_eq!(unsafe { libc::kill(pid as i32, libc::SIGINT) }, 0);
    let out = tokio::time::timeout(Duration::from_secs(10), child.wait_with_output())
        .await
        .expect("hermes did not stop after Ctrl+C")
        .unwrap();
    let run = Run::from(out);
    assert_eq!(run.code, 130, "stderr: {}", run.stderr);
    assert!(
        run.stderr.contains("interrupted: the reply was cut after"),
        "{}",
        run.stderr
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn config_set_and_get_round_trip_keeping_comments() {
    let fx = Fixture::new("# my settings\nmodel:\n  default: a   # the usual\ncustom_key: kept\n");
    let run = fx.run(&["config", "set", "model.default", "b"]).await;
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    let text = std::fs::read_to_string(fx.home().join("config.yaml")).unwrap();
    assert_eq!(
        text,
        "# my settings\nmodel:\n  default: b   # the usual\ncustom_key: kept\n"
    );
    let run = fx.run(&["config", "get", "model.default"]).await;
    assert_eq!(run.stdout, "b\n");
    let run = fx.run(&["config", "set", "terminal.timeout", "abc"]).await;
    assert_ne!(run.code, 0);
    assert!(run.stderr.contains("terminal.timeout"), "{}", run.stderr);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_shot_waits_for_background_subagents_and_answers_with_their_results() {
    let server = ScriptedServer::start_echo().await;
    let fx = Fixture::openai(&server);
    let run = fx.run(&["-z", "delegate: alpha ;; bravo"]).await;
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    assert!(
        run.stderr.contains("subagent sa1 started: task 1/2: alpha"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("waiting for the subagents"),
        "{}",
        run.stderr
    );
    assert!(
        run.stdout.contains("Results from 2 subagent(s)"),
        "{}",
        run.stdout
    );
    let alpha = run.stdout.find("Goal: alpha").unwrap();
    let bravo = run.stdout.find("Goal: bravo").unwrap();
    assert!(alpha < bravo, "{}", run.stdout);
}

fn goal_verdict(done: bool, reason: &str) -> Response {
    Response::text([serde_json::json!({"done": done, "reason": reason}).to_string()])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_headless_goal_reproduces_the_walkthrough_and_exits_0() {
    let script = support::load_script(Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/scripts/goal_walkthrough.json"
    )))
    .unwrap();
    let server = ScriptedServer::start(script).await;
    let fx = Fixture::openai(&server);
    let goal =
        "Create four files note_{1..4}.txt, one per turn, each containing its number as text";
    let run = fx.run(&["-z", &format!("/goal {goal}")]).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        format!(
            "⊙ Goal set (20-turn budget): {goal}\n\
             I've created note_1.txt with the content \"1\". I'll continue with the remaining files on the next turn as you specified.\n\
             ↻ Continuing toward goal (1/20): Only 1 of 4 files has been created; 3 files remain.\n\
             [Continuing toward your standing goal]\n\
             Created note_2.txt. Two more to go.\n\
             ↻ Continuing toward goal (2/20): 2 of 4 files created; 2 remain.\n\
             [Continuing toward your standing goal]\n\
             Created note_3.txt.\n\
             ↻ Continuing toward goal (3/20): 3 of 4 files created; 1 remains.\n\
             [Continuing toward your standing goal]\n\
             All four files have been created: note_1.txt through note_4.txt, each containing its number.\n\
             ✓ Goal achieved: All four files were created with the specified content, completing the goal.\n"
        )
    );
    for n in 1..=4 {
        let text = std::fs::read_to_string(fx.work().join(format!("note_{n}.txt"))).unwrap();
        assert_eq!(text.trim(), n.to_string());
    }
    assert_eq!(server.completion_requests().len(), 12);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_headless_goal_pauses_with_exit_3_and_continues_after_a_restart() {
    let server = ScriptedServer::start([
        Response::text(["first step"]),
        goal_verdict(false, "one more step"),
        Response::text(["second step"]),
        goal_verdict(false, "still one more"),
        // `--continue -z "/goal resume"`:
        Response::text(["third step, finished"]),
        goal_verdict(true, "the last step is done"),
    ])
    .await;
    let fx = Fixture::new(&format!(
        "model:\n  provider: custom\n  base_url: {}\n  default: scripted-model\ngoals:\n  max_turns: 1\n",
        server.base_url()
    ));
    let run = fx.run(&["-z", "/goal three steps"]).await;
    assert_eq!(run.code, 3, "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stdout.ends_with(
            "⏸ Goal paused — 1/1 turns used. Use /goal resume to keep going, or /goal clear to stop.\n"
        ),
        "{}",
        run.stdout
    );
    assert!(
        run.stderr
            .contains("note: the turn budget (goals.max_turns) is used up"),
        "{}",
        run.stderr
    );
    // A new process picks the stored goal up where it stood.
    let run = fx.run(&["--continue", "-z", "/goal status"]).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("Goal (paused, 1/1 turns used): three steps"),
        "{}",
        run.stderr
    );
    let run = fx.run(&["--continue", "-z", "/goal resume"]).await;
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .ends_with("✓ Goal achieved: the last step is done\n"),
        "{}",
        run.stdout
    );
    let last = server.completion_requests()[4].body.clone();
    assert!(
        last["messages"].as_array().unwrap().len() >= 5,
        "the resumed turn carries the stored conversation"
    );
    // A goal command that is refused says so and exits 2.
    let run = fx.run(&["-z", "/subgoal remove 1"]).await;
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("no active goal"), "{}", run.stderr);
}
