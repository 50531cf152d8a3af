//! The OpenAI Responses and AWS Bedrock Converse wire formats against the scripted server:
//! the real providers (resolution + `providers::build`) streaming text, reasoning, parallel
//! tool calls, usage with cached tokens, tool results round-tripping, every fault the other
//! two formats are tested with, SigV4 signing, then one engine turn with a tool call per
//! format and a `-z` run of the real binary per format.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;
use crate::support::env::CleanEnv;

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::Mutex;
use std::time::Duration;
use std::time::Instant;

use hermes::config::ModelConfig;
use hermes::config::ProviderConfig;
use hermes::model::Message;
use hermes::model::ToolSchema;
use hermes::protocol::Event;
use hermes::protocol::Op;
use hermes::protocol::TurnOutcome;
use hermes::providers::ChatRequest;
use hermes::providers::Completion;
use hermes::providers::Provider;
use hermes::providers::ProviderError;
use hermes::providers::ResolvedProvider;
use hermes::providers::StreamDelta;
use hermes::providers::registry;
use serde_json::json;
use support::RecordedRequest;
use support::Response;
use support::ScriptedCall;
use support::ScriptedServer;
use support::sigv4_check;
use tokio_util::sync::CancellationToken;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Responses,
    Bedrock,
}

const FORMATS: [Format; 2] = [Format::Responses, Format::Bedrock];
const RESPONSES_KEY: &str = "sk-wire-responses-key";
const BEDROCK_MODEL: &str = "us.amazon.nova-pro-v1:0";
const AWS_KEY_ID: &str = "AKIDWIRETEST";
const AWS_SECRET: &str = "wire-test-secret-access-key";

impl Format {
    fn model(self) -> &'static str {
        match self {
            Self::Responses => "gpt-wire",
            Self::Bedrock => BEDROCK_MODEL,
        }
    }
}

/// Fake AWS credentials in a region, and a HOME without `~/.aws`.
fn aws_env() -> HashMap<String, String> {
    HashMap::from([
        ("AWS_ACCESS_KEY_ID".into(), AWS_KEY_ID.into()),
        ("AWS_SECRET_ACCESS_KEY".into(), AWS_SECRET.into()),
        ("AWS_REGION".into(), "eu-west-3".into()),
        ("HOME".into(), "/nonexistent-hermes-wire-test".into()),
    ])
}

fn resolved_with(
    server: &ScriptedServer,
    format: Format,
    env: &HashMap<String, String>,
) -> ResolvedProvider {
    let model = match format {
        Format::Responses => ModelConfig {
            provider: "custom".into(),
            base_url: server.base_url(),
            api_mode: "codex_responses".into(),
            api_key: RESPONSES_KEY.into(),
            default: format.model().into(),
            ..ModelConfig::default()
        },
        Format::Bedrock => ModelConfig {
            provider: "custom".into(),
            base_url: server.root_url(),
            api_mode: "bedrock_converse".into(),
            default: format.model().into(),
            ..ModelConfig::default()
        },
    };
    let mut resolved =
        registry::resolve(&model, &ProviderConfig::default(), &|k| env.get(k).cloned()).unwrap();
    resolved.stream_idle_timeout = Duration::from_secs(1);
    resolved.retry.base_delay = Duration::from_millis(10);
    resolved.retry.max_delay = Duration::from_millis(50);
    resolved
}

fn provider_with(
    server: &ScriptedServer,
    format: Format,
    env: &HashMap<String, String>,
) -> Arc<dyn Provider> {
    let client = hermes::util::http::build_client().unwrap();
    hermes::providers::build(&resolved_with(server, format, env), client)
}

fn provider(server: &ScriptedServer, format: Format) -> Arc<dyn Provider> {
    provider_with(server, format, &aws_env())
}

fn request(format: Format, messages: Vec<Message>) -> ChatRequest {
    ChatRequest {
        model: format.model().into(),
        system: "You are a test agent.".into(),
        messages,
        tools: vec![ToolSchema {
            name: "read_file".into(),
            description: "Read a file".into(),
            parameters: json!({"type":"object","properties":{"path":{"type":"string"}}}),
        }],
        max_tokens: None,
    }
}

async fn complete_with(
    p: &Arc<dyn Provider>,
    req: &ChatRequest,
) -> (Result<Completion, ProviderError>, Vec<StreamDelta>) {
    let deltas = Mutex::new(Vec::new());
    let sink = |d: StreamDelta| deltas.lock().unwrap().push(d);
    let result = p.complete(req, &sink, &CancellationToken::new()).await;
    (result, deltas.into_inner().unwrap())
}

async fn complete(
    p: &Arc<dyn Provider>,
    format: Format,
) -> (Result<Completion, ProviderError>, Vec<StreamDelta>) {
    complete_with(p, &request(format, vec![Message::user("hi")])).await
}

/// The request went where the format says, authenticated as it says.
fn assert_wire(format: Format, req: &RecordedRequest) {
    match format {
        Format::Responses => {
            assert_eq!(req.path, "/v1/responses");
            assert_eq!(
                req.header("authorization"),
                Some(format!("Bearer {RESPONSES_KEY}").as_str())
            );
            assert_eq!(req.body["model"], "gpt-wire");
            assert_eq!(req.body["store"], false);
            assert_eq!(req.body["stream"], true);
        }
        Format::Bedrock => {
            assert_eq!(req.path, "/model/us.amazon.nova-pro-v1%3A0/converse-stream");
            assert_eq!(req.converse_model().as_deref(), Some(BEDROCK_MODEL));
            let sig = sigv4_check::parse(req.header("authorization").unwrap()).unwrap();
            assert_eq!(sig.access_key_id, AWS_KEY_ID);
            assert_eq!(
                (sig.region.as_str(), sig.service.as_str()),
                ("eu-west-3", "bedrock")
            );
            for signed in ["host", "x-amz-date", "content-type"] {
                assert!(sig.signed_headers.iter().any(|h| h == signed), "{sig:?}");
            }
            assert!(req.headers.values().all(|v| !v.contains(AWS_SECRET)));
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streams_text_reasoning_and_usage_with_cached_tokens() {
    for format in FORMATS {
        let reply = Response::text(["Hel", "lo"])
            .with_reasoning(["thinking"])
            .with_usage(100, 7)
            .with_cached_tokens(80)
            .with_reasoning_tokens(3);
        let server = ScriptedServer::start([reply]).await;
        let (r, deltas) = complete(&provider(&server, format), format).await;
        let c = r.unwrap();
        assert_eq!(c.text, "Hello", "{format:?}");
        assert_eq!(c.reasoning.as_deref(), Some("thinking"), "{format:?}");
        assert_eq!(deltas[0], StreamDelta::Reasoning("thinking".into()));
        assert!(deltas.contains(&StreamDelta::Text("Hel".into())));
        assert_eq!(c.usage.cache_read_tokens, 80, "{format:?}");
        assert_eq!(c.usage.output_tokens, 7, "{format:?}");
        match format {
            // Responses' input_tokens include the cached ones; Bedrock's do not.
            Format::Responses => {
                assert_eq!((c.usage.input_tokens, c.usage.reasoning_tokens), (100, 3));
                assert_eq!(
                    c.codex_reasoning_items[0]["encrypted_content"],
                    "enc-scripted-1-0"
                );
            }
            Format::Bedrock => assert_eq!(c.usage.input_tokens, 180),
        }
        assert_wire(format, &server.completion_requests()[0]);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn parallel_tool_calls_and_their_results_round_trip() {
    for format in FORMATS {
        let server = ScriptedServer::start([
            Response::tool_calls([
                ScriptedCall::new("call_a", "read_file", r#"{"path":"a.txt"}"#),
                ScriptedCall::new("call_b", "read_file", r#"{"path":"b.txt"}"#),
            ])
            .with_text_before("Reading both."),
            Response::text(["a and b"]),
        ])
        .await;
        let p = provider(&server, format);
        let (r, deltas) = complete(&p, format).await;
        let c = r.unwrap();
        assert_eq!(c.text, "Reading both.");
        let calls: Vec<(&str, &str)> = c
            .tool_calls
            .iter()
            .map(|t| (t.id.as_str(), t.arguments.as_str()))
            .collect();
        assert_eq!(
            calls,
            [
                ("call_a", r#"{"path":"a.txt"}"#),
                ("call_b", r#"{"path":"b.txt"}"#)
            ],
            "{format:?}"
        );
        let started = deltas
            .iter()
            .filter(|d| matches!(d, StreamDelta::ToolCallStarted { .. }))
            .count();
        assert_eq!(started, 2);
        let mut assistant = Message::assistant(c.text.clone(), c.tool_calls.clone());
        assistant.codex_reasoning_items = c.codex_reasoning_items.clone();
        let history = vec![
            Message::user("hi"),
            assistant,
            Message::tool_result(&c.tool_calls[0], "alpha"),
            Message::tool_result(&c.tool_calls[1], "beta"),
        ];
        let (r, _) = complete_with(&p, &request(format, history)).await;
        assert_eq!(r.unwrap().text, "a and b");
        let second = &server.completion_requests()[1];
        match format {
            Format::Responses => assert_eq!(
                second.function_call_outputs(),
                [
                    ("call_a".to_string(), json!("alpha")),
                    ("call_b".to_string(), json!("beta"))
                ]
            ),
            Format::Bedrock => assert_eq!(
                second.converse_tool_results(),
                [
                    ("call_a".to_string(), "alpha".to_string()),
                    ("call_b".to_string(), "beta".to_string())
                ]
            ),
        }
    }
}

/// Runs `script` through a fresh server; returns the result, deltas and the request count.
async fn fault(
    format: Format,
    script: Vec<Response>,
) -> (Result<Completion, ProviderError>, Vec<StreamDelta>, usize) {
    let server = ScriptedServer::start(script).await;
    let (r, deltas) = complete(&provider(&server, format), format).await;
    (r, deltas, server.completion_requests().len())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn auth_failure_is_final() {
    for format in FORMATS {
        let (r, _, n) = fault(format, vec![Response::status(401), Response::text(["x"])]).await;
        assert!(
            matches!(r, Err(ProviderError::Auth { .. })),
            "{format:?}: {r:?}"
        );
        assert_eq!(n, 1);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rate_limit_is_retried_after_retry_after() {
    for format in FORMATS {
        let started = Instant::now();
        let (r, _, n) = fault(
            format,
            vec![Response::rate_limited(Some(1)), Response::text(["after"])],
        )
        .await;
        assert_eq!(r.unwrap().text, "after", "{format:?}");
        assert!(
            started.elapsed() >= Duration::from_millis(950),
            "{format:?}"
        );
        assert_eq!(n, 2);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_errors_resets_and_in_stream_throttling_are_retried() {
    for format in FORMATS {
        for first in [
            Response::status(500),
            Response::reset(),
            Response::stream_error(429, Vec::<String>::new()),
            Response::stream_error(500, Vec::<String>::new()),
        ] {
            let what = format!("{format:?} {:?}", first.kind);
            let (r, _, n) = fault(format, vec![first, Response::text(["fine"])]).await;
            assert_eq!(r.unwrap().text, "fine", "{what}");
            assert_eq!(n, 2, "{what}");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_silent_stream_is_retried_once_as_a_hang() {
    for format in FORMATS {
        let (r, _, n) = fault(
            format,
            vec![
                Response::stall_after(Vec::<String>::new(), 10),
                Response::text(["second"]),
            ],
        )
        .await;
        assert_eq!(r.unwrap().text, "second", "{format:?}");
        assert_eq!(n, 2);
        let (r, _, n) = fault(
            format,
            vec![
                Response::stall_after(Vec::<String>::new(), 10),
                Response::stall_after(Vec::<String>::new(), 10),
            ],
        )
        .await;
        assert!(
            matches!(r, Err(ProviderError::Hang { .. })),
            "{format:?}: {r:?}"
        );
        assert_eq!(n, 2, "a hang is retried once");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_chunks_mid_stream_resets_and_context_overflow_are_reported() {
    for format in FORMATS {
        let (r, deltas, n) = fault(format, vec![Response::malformed_chunk()]).await;
        assert!(
            matches!(r, Err(ProviderError::BadResponse { .. })),
            "{format:?}: {r:?}"
        );
        assert_eq!((deltas, n), (vec![StreamDelta::Text("partial".into())], 1));

        // Text already shown is not shown twice: a reset after it is reported, not retried.
        let (r, deltas, n) = fault(
            format,
            vec![Response::reset_after(["par"]), Response::text(["dup"])],
        )
        .await;
        assert!(
            matches!(r, Err(ProviderError::Transport { .. })),
            "{format:?}: {r:?}"
        );
        assert_eq!((deltas, n), (vec![StreamDelta::Text("par".into())], 1));

        let (r, _, _) = fault(format, vec![Response::context_too_long()]).await;
        assert!(
            matches!(r, Err(ProviderError::ContextTooLong { .. })),
            "{format:?}: {r:?}"
        );
        let (r, _, _) = fault(format, vec![Response::empty()]).await;
        assert_eq!(r, Err(ProviderError::EmptyResponse), "{format:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bedrock_without_credentials_sends_nothing_and_says_what_to_set() {
    let server = ScriptedServer::start([Response::text(["x"])]).await;
    let env = HashMap::from([(
        "HOME".to_string(),
        "/nonexistent-hermes-wire-test".to_string(),
    )]);
    let p = provider_with(&server, Format::Bedrock, &env);
    let (r, _) = complete(&p, Format::Bedrock).await;
    let err = r.unwrap_err();
    assert!(
        matches!(err, ProviderError::Credentials { ref message } if message.contains("AWS_ACCESS_KEY_ID")),
        "{err:?}"
    );
    assert!(server.requests().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bedrock_api_keys_are_bearer_tokens_and_unsigned_requests_are_refused() {
    let server = ScriptedServer::start([Response::text(["keyed"])]).await;
    let env = HashMap::from([
        (
            "AWS_BEARER_TOKEN_BEDROCK".to_string(),
            "bedrock-api-key".to_string(),
        ),
        (
            "HOME".to_string(),
            "/nonexistent-hermes-wire-test".to_string(),
        ),
    ]);
    let p = provider_with(&server, Format::Bedrock, &env);
    assert_eq!(complete(&p, Format::Bedrock).await.0.unwrap().text, "keyed");
    let req = &server.completion_requests()[0];
    assert_eq!(req.header("authorization"), Some("Bearer bedrock-api-key"));

    // The server's check: no Authorization, a 403 in Bedrock's envelope, no entry consumed.
    server.push(Response::text(["unused"]));
    let url = format!("{}/model/m/converse-stream", server.root_url());
    let resp = reqwest::Client::new()
        .post(url)
        .body("{}")
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status().as_u16(), 403);
    let error_type = resp.headers()["x-amzn-errortype"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(
        error_type.starts_with("AccessDeniedException"),
        "{error_type}"
    );
    assert_eq!(server.remaining(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_engine_turn_with_a_tool_call_in_each_format() {
    for format in FORMATS {
        let server = ScriptedServer::start([
            Response::text(["Hello."]).with_reasoning(["plan"]),
            Response::tool_call("call_1", "read_file", r#"{"path":"note.txt"}"#),
            Response::text(["It says hi."]),
        ])
        .await;
        let p = provider(&server, format);
        let mut s = support::engine::start(&server, |spec| {
            spec.endpoint.provider = p;
            spec.endpoint.model = format.model().into();
        });
        std::fs::write(s.dir.path().join("note.txt"), "hi from the note\n").unwrap();
        s.send(Op::user("hello"));
        assert_eq!(s.turn_outcome().await, TurnOutcome::Completed, "{format:?}");
        s.send(Op::user("what does note.txt say?"));
        s.until(|e| matches!(e, Event::ToolStart { .. })).await;
        assert_eq!(s.turn_outcome().await, TurnOutcome::Completed, "{format:?}");
        let requests = server.completion_requests();
        assert_eq!(requests.len(), 3);
        for req in &requests {
            assert_wire(format, req);
        }
        let result = match format {
            Format::Responses => {
                // The reasoning item of turn 1 rides on the assistant message and is replayed.
                let items = requests[1].input_items();
                let pos = items.iter().position(|i| i["type"] == "reasoning").unwrap();
                assert_eq!(items[pos]["encrypted_content"], "enc-scripted-1-0");
                assert!(items[pos].get("id").is_none() && items[pos].get("_issuer_kind").is_none());
                assert_eq!(
                    items[pos + 1],
                    json!({"role":"assistant","content":"Hello."})
                );
                let outputs = requests[2].function_call_outputs();
                assert_eq!(outputs[0].0, "call_1");
                outputs[0].1.as_str().unwrap().to_string()
            }
            Format::Bedrock => {
                let results = requests[2].converse_tool_results();
                assert_eq!(results[0].0, "call_1");
                results[0].1.clone()
            }
        };
        assert!(result.contains("hi from the note"), "{format:?}: {result}");
    }
}

// ---- the real binary, `-z` ----

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

async fn run_hermes(home: &std::path::Path, work: &std::path::Path, prompt: &str) -> Run {
    let mut cmd = tokio::process::Command::new(env!("CARGO_BIN_EXE_hermes"));
    cmd.clean_env()
        .args(["-z", prompt])
        .current_dir(work)
        .env("HERMES_HOME", home)
        .env("HOME", home)
        .stdin(std::process::Stdio::null())
        .kill_on_drop(true);
    let out = tokio::time::timeout(Duration::from_secs(60), cmd.output())
        .await
        .expect("hermes did not finish within 60 s")
        .unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_shot_runs_of_the_binary_in_each_format() {
    for format in FORMATS {
        let server = ScriptedServer::start([
            Response::tool_call("call_z", "read_file", r#"{"path":"a.txt"}"#),
            Response::text(["It says alpha."]),
        ])
        .await;
        let dir = tempfile::tempdir().unwrap();
        let (home, work) = (dir.path().join("home"), dir.path().join("work"));
        std::fs::create_dir_all(&home).unwrap();
        std::fs::create_dir_all(&work).unwrap();
        std::fs::write(work.join("a.txt"), "alpha\n").unwrap();
        let (config, dotenv) = match format {
            Format::Responses => (
                format!(
                    "model:\n  provider: custom\n  base_url: {}\n  api_mode: codex_responses\n  default: gpt-wire\n",
                    server.base_url()
                ),
                // A custom endpoint gets its own key; an OpenAI key never goes to it.
                format!("CUSTOM_API_KEY={RESPONSES_KEY}\n"),
            ),
            Format::Bedrock => (
                format!(
                    "model:\n  provider: custom\n  base_url: {}\n  api_mode: bedrock_converse\n  default: {BEDROCK_MODEL}\n",
                    server.root_url()
                ),
                format!(
                    "AWS_ACCESS_KEY_ID={AWS_KEY_ID}\nAWS_SECRET_ACCESS_KEY={AWS_SECRET}\nAWS_REGION=eu-west-3\n"
                ),
            ),
        };
        std::fs::write(home.join("config.yaml"), config).unwrap();
        std::fs::write(home.join(".env"), dotenv).unwrap();
        let run = run_hermes(&home, &work, "what does a.txt say").await;
        assert_eq!(run.code, 0, "{format:?} stderr: {}", run.stderr);
        assert_eq!(run.stdout, "It says alpha.\n", "{format:?}");
        let requests = server.completion_requests();
        assert_eq!(requests.len(), 2, "{format:?}");
        for req in &requests {
            assert_wire(format, req);
        }
        let log = std::fs::read_to_string(home.join("logs/hermes.log")).unwrap_or_default();
        assert!(!log.contains(AWS_SECRET) && !log.contains(RESPONSES_KEY));
        assert!(!run.stderr.contains(AWS_SECRET));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_shot_bedrock_without_credentials_fails_with_the_auth_exit_code() {
    let server = ScriptedServer::start([Response::text(["never"])]).await;
    let dir = tempfile::tempdir().unwrap();
    let (home, work) = (dir.path().join("home"), dir.path().join("work"));
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(&work).unwrap();
    std::fs::write(
        home.join("config.yaml"),
        format!(
            "model:\n  provider: custom\n  base_url: {}\n  api_mode: bedrock_converse\n  default: {BEDROCK_MODEL}\n",
            server.root_url()
        ),
    )
    .unwrap();
    let run = run_hermes(&home, &work, "hi").await;
    assert_eq!(run.code, 3, "stderr: {}", run.stderr);
    assert!(run.stderr.contains("AWS_ACCESS_KEY_ID"), "{}", run.stderr);
    assert!(server.requests().is_empty());
}
