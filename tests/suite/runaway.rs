//! The one-shot runaway loop (issue 18, item 9): a model that delegates from every message.
//! The subagents' results arrive as a new message and start a new turn, which delegates
//! again; nothing used to bound how many such turns a run made. Now the user's message and
//! the turns its results start share `agent.max_turns` API calls, at most
//! `delegation.max_concurrent_children` background batches run at once, and the run ends
//! with exit code 9 and a one-line reason. Tested with the real binary (`-z`, text and
//! `--json`) and through the engine as the TUI drives it (the budget is per user message).
//!
//! The model is a small server of this file: it answers a request whose last message is a
//! tool result with a short text, and any other request with a `delegate_task` call (in
//! "relentless" mode it delegates after tool results too).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;
use crate::support::env::CleanEnv;

use std::sync::Arc;
use std::sync::Mutex;
use std::time::Duration;

use serde_json::Value;
use serde_json::json;
use tokio::io::AsyncReadExt;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpListener;
use tokio::net::TcpStream;

/// How the always-delegating model behaves.
#[derive(Clone, Copy)]
struct Behaviour {
    /// Delegate even when the last message is a tool result (never answer).
    relentless: bool,
    /// Extra delay before answering a subagent's request (no `delegate_task` tool).
    child_delay: Duration,
}

/// One request the model got: was it the main agent's (it has `delegate_task`)?
#[derive(Clone, Debug)]
struct Seen {
    main_agent: bool,
    last_tool_result: Option<String>,
}

struct DelegatingModel {
    url: String,
    seen: Arc<Mutex<Vec<Seen>>>,
    _task: tokio::task::JoinHandle<()>,
}

impl DelegatingModel {
    async fn start(behaviour: Behaviour) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/v1", listener.local_addr().unwrap());
        let seen = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&seen);
        let task = tokio::spawn(async move {
            let mut n = 0u64;
            while let Ok((stream, _)) = listener.accept().await {
                n += 1;
                tokio::spawn(answer(stream, n, behaviour, Arc::clone(&log)));
            }
        });
        Self {
            url,
            seen,
            _task: task,
        }
    }

    fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }

    fn main_agent_requests(&self) -> usize {
        self.seen().iter().filter(|s| s.main_agent).count()
    }
}

async fn answer(mut stream: TcpStream, n: u64, behaviour: Behaviour, log: Arc<Mutex<Vec<Seen>>>) {
    let Some(body) = read_request(&mut stream).await else {
        return;
    };
    let main_agent = body["tools"].as_array().is_some_and(|tools| {
        tools
            .iter()
            .any(|t| t["function"]["name"] == "delegate_task")
    });
    let last = body["messages"]
        .as_array()
        .and_then(|m| m.last())
        .cloned()
        .unwrap_or(Value::Null);
    let last_tool_result = (last["role"] == "tool").then(|| last["content"].to_string());
    log.lock().unwrap().push(Seen {
        main_agent,
        last_tool_result: last_tool_result.clone(),
    });
    if !main_agent {
        tokio::time::sleep(behaviour.child_delay).await;
    }
    let delta = if last_tool_result.is_some() && !behaviour.relentless {
        json!({"role": "assistant", "content": "Waiting for the subagents."})
    } else {
        let arguments = json!({"tasks": [{"goal": format!("more work {n}")}]}).to_string();
        json!({"role": "assistant", "tool_calls": [{"index": 0, "id": format!("call_{n}"),
            "type": "function", "function": {"name": "delegate_task", "arguments": arguments}}]})
    };
    let finish = if delta.get("tool_calls").is_some() {
        "tool_calls"
    } else {
        "stop"
    };
    let chunk = |delta: Value, finish: Value| {
        json!({"id": format!("c{n}"), "object": "chat.completion.chunk", "created": 1,
            "model": "loop-model", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
    };
    let body = format!(
        "data: {}\n\ndata: {}\n\ndata: [DONE]\n\n",
        chunk(delta, Value::Null),
        chunk(json!({}), json!(finish))
    );
    let head = format!(
        "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
        body.len()
    );
    let _ = stream.write_all(head.as_bytes()).await;
    let _ = stream.write_all(body.as_bytes()).await;
    let _ = stream.shutdown().await;
}

/// The JSON body of one HTTP/1.1 request (headers up to the blank line, then Content-Length).
async fn read_request(stream: &mut TcpStream) -> Option<Value> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 8192];
    let header_end = loop {
        let n = stream.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
    };
    let head = String::from_utf8_lossy(&buf[..header_end]).to_ascii_lowercase();
    let length: usize = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0);
    while buf.len() < header_end + length {
        let n = stream.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    serde_json::from_slice(&buf[header_end..header_end + length]).ok()
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// `hermes -z` with `args` in a fresh HERMES_HOME whose config points at `model`.
async fn run_hermes(model: &DelegatingModel, extra_config: &str, args: &[&str]) -> Run {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let work = dir.path().join("work");
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(&work).unwrap();
    std::fs::write(
        home.join("config.yaml"),
        format!(
            "model:\n  provider: custom\n  base_url: {}\n  default: loop-model\nprovider:\n  \
             stream_idle_timeout: 5\n  max_retries: 0\n{extra_config}",
            model.url
        ),
    )
    .unwrap();
    let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_hermes"));
    cmd.clean_env()
        .args(args)
        .current_dir(&work)
        .env("HERMES_HOME", &home)
        .stdin(std::process::Stdio::null())
        .kill_on_drop(true);
    // Without the bound the run never ends: the timeout is the old behaviour's failure.
    let out = tokio::time::timeout(Duration::from_secs(90), cmd.output())
        .await
        .expect("hermes -z did not stop: the result-driven turns are not bounded")
        .unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

const BUDGET: &str = "agent:\n  max_turns: 5\ndelegation:\n  max_iterations: 3\n  \
                      max_concurrent_children: 1\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_model_that_always_delegates_stops_at_agent_max_turns_with_exit_9() {
    let model = DelegatingModel::start(Behaviour {
        relentless: false,
        child_delay: Duration::ZERO,
    })
    .await;
    let run = run_hermes(&model, BUDGET, &["-z", "go"]).await;
    assert_eq!(
        run.code, 9,
        "stdout:\n{}\nstderr:\n{}",
        run.stdout, run.stderr
    );
    assert!(
        run.stderr.contains(
            "stopped: reached agent.max_turns (5 API calls for this message, counting the turns \
             its subagents' results started)"
        ),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.lines().any(|l| l.starts_with(
            "warning: stopped: this message and the turns its subagents' \
                                   results started used all 5 API calls of agent.max_turns"
        )),
        "{}",
        run.stderr
    );
    // Turns 1 and 2 make two calls each (delegate, then answer); turn 3 has one left.
    assert_eq!(model.main_agent_requests(), 5, "{:?}", model.seen());
    // Three children at most, each bounded by delegation.max_iterations.
    let total = model.seen().len();
    assert!(total <= 5 + 3 * 3, "{total} requests: {:?}", model.seen());
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(model.seen().len(), total, "nothing runs on after the exit");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_mode_ends_with_a_notice_and_an_iteration_limit_turn() {
    let model = DelegatingModel::start(Behaviour {
        relentless: false,
        child_delay: Duration::ZERO,
    })
    .await;
    let run = run_hermes(&model, BUDGET, &["--json", "-z", "go"]).await;
    assert_eq!(run.code, 9, "{}", run.stderr);
    let events: Vec<Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(
        events.iter().any(|e| e["type"] == "notice"
            && e["text"]
                .as_str()
                .is_some_and(|t| t.contains("agent.max_turns"))),
        "{}",
        run.stdout
    );
    let last_turn = events
        .iter()
        .rev()
        .find(|e| e["type"] == "turn_complete")
        .unwrap();
    assert_eq!(
        last_turn["outcome"]["outcome"], "iteration_limit",
        "{last_turn}"
    );
    assert_eq!(last_turn["outcome"]["limit"], 5);
    assert_eq!(model.main_agent_requests(), 5);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn delegating_again_while_a_background_batch_runs_is_refused() {
    // Children take a while; the main agent delegates on every call, results or not.
    let model = DelegatingModel::start(Behaviour {
        relentless: true,
        child_delay: Duration::from_millis(400),
    })
    .await;
    let run = run_hermes(
        &model,
        "agent:\n  max_turns: 4\ndelegation:\n  max_iterations: 2\n  max_concurrent_children: 1\n",
        &["-z", "go"],
    )
    .await;
    assert_eq!(run.code, 9, "{}", run.stderr);
    let seen = model.seen();
    let main: Vec<&Seen> = seen.iter().filter(|s| s.main_agent).collect();
    assert_eq!(main.len(), 4, "{seen:?}");
    // Call 2 sees that call 1 started a child; calls 3 and 4 see calls 2 and 3 refused.
    let second = main[1].last_tool_result.as_deref().unwrap_or_default();
    assert!(second.contains("Started 1 subagent(s)"), "{second}");
    for s in &main[2..] {
        let result = s.last_tool_result.as_deref().unwrap_or_default();
        assert!(
            result.contains("still running, the most delegation.max_concurrent_children (1)"),
            "{result}"
        );
    }
    let children = seen.iter().filter(|s| !s.main_agent).count();
    assert!(children <= 2, "one child, at most 2 calls: {seen:?}");
}

mod engine {
    //! The same loop driven through the engine, as the TUI drives it.

    use super::*;
    use hermes::config::ModelConfig;
    use hermes::config::ProviderConfig;
    use hermes::engine::ModelEndpoint;
    use hermes::protocol::Event;
    use hermes::protocol::Op;
    use hermes::protocol::TurnComplete;
    use hermes::protocol::TurnOutcome;
    use hermes::providers::registry;
    use hermes::tools::delegate::DelegateTaskTool;
    use hermes::tools::registry::ToolRegistry;
    use support::ScriptedServer;

    fn endpoint(url: &str) -> ModelEndpoint {
        let model = ModelConfig {
            provider: "custom".into(),
            base_url: url.into(),
            default: "loop-model".into(),
            ..ModelConfig::default()
        };
        let resolved = registry::resolve(&model, &ProviderConfig::default(), &|_| None).unwrap();
        let client = hermes::util::http::build_client().unwrap();
        ModelEndpoint {
            provider: hermes::providers::build(&resolved, client),
            provider_name: resolved.name.clone(),
            base_url: resolved.base_url.clone(),
            model: resolved.model.clone(),
            context_window: resolved.context_window,
            supports_vision: false,
        }
    }

    async fn next_outcome(s: &mut support::engine::Session) -> TurnOutcome {
        match s.until(|e| matches!(e, Event::TurnComplete { .. })).await {
            Event::TurnComplete(TurnComplete { outcome, .. }) => outcome,
            _ => unreachable!(),
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn each_user_message_gets_its_own_budget_and_result_turns_share_it() {
        let model = DelegatingModel::start(Behaviour {
            relentless: false,
            child_delay: Duration::ZERO,
        })
        .await;
        // The scripted server is only needed to build the spec; the model is ours.
        let unused = ScriptedServer::start(Vec::<support::Response>::new()).await;
        let mut s = support::engine::start(&unused, |spec| {
            let mut tools = ToolRegistry::core();
            tools.register(Arc::new(DelegateTaskTool)).unwrap();
            spec.tools = Arc::new(tools);
            spec.endpoint = endpoint(&model.url);
            spec.max_iterations = 3;
            spec.delegation.settings.max_concurrent = 1;
            spec.delegation.settings.max_iterations = 2;
        });
        s.send(Op::user("go"));
        // Turn 1: delegate + answer (2 calls). Turn 2 (results): 1 call left, delegates.
        // Turn 3 (those results): nothing left, stops without calling the model.
        assert_eq!(next_outcome(&mut s).await, TurnOutcome::Completed);
        assert_eq!(
            next_outcome(&mut s).await,
            TurnOutcome::IterationLimit { limit: 3 }
        );
        assert_eq!(
            next_outcome(&mut s).await,
            TurnOutcome::IterationLimit { limit: 3 }
        );
        assert_eq!(model.main_agent_requests(), 3);
        // A new message starts with the whole budget again.
        s.send(Op::user("again"));
        assert_eq!(next_outcome(&mut s).await, TurnOutcome::Completed);
        assert_eq!(model.main_agent_requests(), 5);
        assert!(unused.requests().is_empty());
    }
}
