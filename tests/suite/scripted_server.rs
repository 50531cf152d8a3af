//! Tests of the scripted provider server itself (tests/support), over real loopback HTTP with
//! reqwest (and one raw TCP client to check the exact chunked framing).

// Helpers outside #[test] fns unwrap too; a panic is the right failure in test code.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use std::io::Read;
use std::io::Write;
use std::path::Path;
use std::time::Duration;
use std::time::Instant;

use futures::StreamExt;
use serde_json::Value;
use serde_json::json;
use support::Endpoint;
use support::Response;
use support::ResponseKind;
use support::ScriptedCall;
use support::ScriptedServer;

fn client() -> reqwest::Client {
    // reqwest is built without a default TLS provider; plain http needs none, but building
    // the client may still ask for one. Err just means another test installed it first.
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .build()
        .unwrap()
}

async fn post(server: &ScriptedServer, path: &str, body: Value) -> reqwest::Response {
    client()
        .post(format!("{}{path}", server.base_url()))
        .json(&body)
        .send()
        .await
        .unwrap()
}

fn streaming_chat() -> Value {
    json!({"model": "test-model", "stream": true, "stream_options": {"include_usage": true},
           "messages": [{"role": "user", "content": "hi"}]})
}

/// The `data:` payloads of an OpenAI SSE body, in order.
fn openai_data(body: &str) -> Vec<String> {
    body.split("\n\n")
        .filter(|e| !e.is_empty())
        .map(|e| e.strip_prefix("data: ").unwrap().to_owned())
        .collect()
}

/// `(event, data)` pairs of an Anthropic SSE body, in order.
fn anthropic_events(body: &str) -> Vec<(String, Value)> {
    body.split("\n\n")
        .filter(|e| !e.is_empty())
        .map(|e| {
            let (name, data) = e.split_once('\n').unwrap();
            let name = name.strip_prefix("event: ").unwrap().to_owned();
            (
                name,
                serde_json::from_str(data.strip_prefix("data: ").unwrap()).unwrap(),
            )
        })
        .collect()
}

#[tokio::test]
async fn text_stream_uses_openai_chunk_format() {
    let server = ScriptedServer::start([Response::text(["Hel", "lo"]).with_usage(12, 3)]).await;
    let resp = post(&server, "/chat/completions", streaming_chat()).await;
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.headers()["content-type"], "text/event-stream");
    let data = openai_data(&resp.text().await.unwrap());
    assert_eq!(data.last().unwrap(), "[DONE]");
    let chunks: Vec<Value> = data[..data.len() - 1]
        .iter()
        .map(|d| serde_json::from_str(d).unwrap())
        .collect();
    for c in &chunks {
        assert_eq!(c["object"], "chat.completion.chunk");
        assert_eq!(c["model"], "test-model");
    }
    assert_eq!(chunks[0]["choices"][0]["delta"]["role"], "assistant");
    let text: String = chunks
        .iter()
        .filter_map(|c| c["choices"][0]["delta"]["content"].as_str())
        .collect();
    assert_eq!(text, "Hello");
    let finish = &chunks[chunks.len() - 2];
    assert_eq!(finish["choices"][0]["finish_reason"], "stop");
    let usage = &chunks[chunks.len() - 1];
    assert_eq!(usage["choices"], json!([]));
    assert_eq!(
        usage["usage"],
        json!({"prompt_tokens": 12, "completion_tokens": 3, "total_tokens": 15,
               "prompt_tokens_details": {"cached_tokens": 0},
               "completion_tokens_details": {"reasoning_tokens": 0}})
    );
}

#[tokio::test]
async fn tool_call_arguments_arrive_in_fragments_with_parallel_indexes() {
    let calls = [
        ScriptedCall::terminal("call_a", "echo 1 > note_1.txt"),
        ScriptedCall::new("call_b", "read_file", r#"{"path":"note_1.txt"}"#),
    ];
    let server = ScriptedServer::start([Response::tool_calls(calls.clone())]).await;
    let body = post(&server, "/chat/completions", streaming_chat())
        .await
        .text()
        .await
        .unwrap();
    let deltas: Vec<Value> = openai_data(&body)
        .iter()
        .filter(|d| *d != "[DONE]")
        .map(|d| serde_json::from_str::<Value>(d).unwrap())
        .filter_map(|c| c["choices"][0]["delta"]["tool_calls"].get(0).cloned())
        .collect();
    for (index, call) in calls.iter().enumerate() {
        let mine: Vec<&Value> = deltas.iter().filter(|d| d["index"] == index).collect();
        assert!(mine.len() >= 3, "arguments should span several deltas");
        assert_eq!(mine[0]["id"], call.id.as_str());
        assert_eq!(mine[0]["type"], "function");
        assert_eq!(mine[0]["function"]["name"], call.name.as_str());
        assert!(mine[1..].iter().all(|d| d.get("id").is_none()));
        let args: String = mine
            .iter()
            .filter_map(|d| d["function"]["arguments"].as_str())
            .collect();
        assert_eq!(args, call.arguments);
    }
    assert!(body.contains(r#""finish_reason":"tool_calls""#));
}

#[tokio::test]
async fn rate_limit_sends_retry_after_then_script_continues() {
    let server =
        ScriptedServer::start([Response::rate_limited(Some(2)), Response::text(["ok"])]).await;
    let resp = post(&server, "/chat/completions", streaming_chat()).await;
    assert_eq!(resp.status(), 429);
    assert_eq!(resp.headers()["retry-after"], "2");
    let err: Value = resp.json().await.unwrap();
    assert_eq!(err["error"]["type"], "rate_limit_error");
    let resp = post(&server, "/chat/completions", streaming_chat()).await;
    assert_eq!(resp.status(), 200);
    assert_eq!(server.remaining(), 0);
}

#[tokio::test]
async fn reset_fails_the_request_and_consumes_one_entry() {
    let server = ScriptedServer::start([Response::reset(), Response::text(["after"])]).await;
    let result = client()
        .post(format!("{}/chat/completions", server.base_url()))
        .json(&streaming_chat())
        .send()
        .await;
    let err = result.expect_err("a reset must fail the request");
    assert!(
        is_connection_reset(&err),
        "expected a TCP reset, got {err:?}"
    );
    let body = post(&server, "/chat/completions", streaming_chat())
        .await
        .text()
        .await
        .unwrap();
    assert!(body.contains("after"));
}

fn is_connection_reset(err: &(dyn std::error::Error + 'static)) -> bool {
    let mut cause = Some(err);
    while let Some(e) = cause {
        if let Some(io) = e.downcast_ref::<std::io::Error>() {
            return io.kind() == std::io::ErrorKind::ConnectionReset;
        }
        cause = e.source();
    }
    false
}

#[tokio::test]
async fn exhausted_script_answers_500_saying_so() {
    let server = ScriptedServer::start([]).await;
    let resp = post(&server, "/messages", json!({"stream": true})).await;
    assert_eq!(resp.status(), 500);
    let body: Value = resp.json().await.unwrap();
    let message = body["error"]["message"].as_str().unwrap();
    assert!(message.contains("script exhausted"), "{message}");
}

#[tokio::test]
async fn records_method_path_lowercased_headers_and_json_body() {
    let server = ScriptedServer::start([Response::text(["x"])]).await;
    let models = client()
        .get(format!("{}/models", server.base_url()))
        .header("Authorization", "Bearer sk-test")
        .send()
        .await
        .unwrap();
    let models: Value = models.json().await.unwrap();
    assert_eq!(models["data"][0]["id"], "scripted-model");
    client()
        .post(format!("{}/chat/completions", server.base_url()))
        .header("X-Custom-Header", "Value")
        .json(&streaming_chat())
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let requests = server.requests();
    assert_eq!(requests.len(), 2);
    assert_eq!(requests[0].method, "GET");
    assert_eq!(requests[0].endpoint(), Endpoint::Models);
    assert_eq!(requests[0].header("authorization"), Some("Bearer sk-test"));
    assert_eq!(requests[1].path, "/v1/chat/completions");
    assert_eq!(requests[1].headers["x-custom-header"], "Value");
    assert!(requests[1].is_streaming());
    assert_eq!(requests[1].messages()[0]["content"], "hi");
    assert_eq!(server.completion_requests().len(), 1);
}

#[tokio::test]
async fn anthropic_stream_has_thinking_text_and_tool_use_blocks() {
    let server = ScriptedServer::start([
        Response::text(["Hi", " there"]).with_reasoning(["let me think"]),
        Response::tool_calls([ScriptedCall::terminal("toolu_1", "ls")]).with_text_before("Ok."),
    ])
    .await;
    let root = server.root_url();
    let first = client()
        .post(format!("{root}/v1/messages"))
        .json(&json!({"model": "claude", "stream": true, "messages": []}))
        .send()
        .await
        .unwrap();
    assert_eq!(first.headers()["content-type"], "text/event-stream");
    let events = anthropic_events(&first.text().await.unwrap());
    assert_eq!(events[0].0, "message_start");
    assert_eq!(events[0].1["message"]["model"], "claude");
    assert_eq!(events.last().unwrap().0, "message_stop");
    let thinking: Vec<&Value> = events
        .iter()
        .filter(|(_, d)| d["delta"]["type"] == "thinking_delta")
        .map(|(_, d)| d)
        .collect();
    assert_eq!(thinking[0]["delta"]["thinking"], "let me think");
    let text: String = events
        .iter()
        .filter_map(|(_, d)| d["delta"]["text"].as_str())
        .collect();
    assert_eq!(text, "Hi there");

    // Anthropic-style clients may post to {base}/messages as well.
    let second = post(&server, "/messages", json!({"stream": true})).await;
    let events = anthropic_events(&second.text().await.unwrap());
    let start = events
        .iter()
        .find(|(_, d)| d["content_block"]["type"] == "tool_use")
        .unwrap();
    assert_eq!(start.1["content_block"]["name"], "terminal");
    assert_eq!(start.1["index"], 1, "text block comes first");
    let json: String = events
        .iter()
        .filter_map(|(_, d)| d["delta"]["partial_json"].as_str())
        .collect();
    assert_eq!(json, r#"{"command":"ls"}"#);
    let delta = events.iter().find(|(n, _)| n == "message_delta").unwrap();
    assert_eq!(delta.1["delta"]["stop_reason"], "tool_use");
    assert_eq!(delta.1["usage"]["output_tokens"], 5);
}

#[tokio::test]
async fn non_streaming_requests_get_json_objects() {
    let server = ScriptedServer::start([
        Response::text(["He", "llo"]),
        Response::tool_call("toolu_9", "terminal", r#"{"command":"pwd"}"#),
    ])
    .await;
    let openai: Value = post(&server, "/chat/completions", json!({"model": "m"}))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(openai["object"], "chat.completion");
    assert_eq!(openai["choices"][0]["message"]["content"], "Hello");
    assert_eq!(openai["usage"]["total_tokens"], 15);
    let anthropic: Value = post(&server, "/messages", json!({"model": "m"}))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(anthropic["type"], "message");
    assert_eq!(anthropic["content"][0]["type"], "tool_use");
    assert_eq!(anthropic["content"][0]["input"], json!({"command": "pwd"}));
    assert_eq!(anthropic["stop_reason"], "tool_use");
}

#[tokio::test]
async fn reject_streaming_keeps_entry_for_the_non_streaming_retry() {
    let server =
        ScriptedServer::start([Response::reject_streaming(Response::text(["plain"]))]).await;
    let rejected = post(&server, "/chat/completions", streaming_chat()).await;
    assert_eq!(rejected.status(), 400);
    let err: Value = rejected.json().await.unwrap();
    assert_eq!(err["error"]["message"], "streaming is not supported");
    assert_eq!(server.remaining(), 1);
    let ok: Value = post(&server, "/chat/completions", json!({"stream": false}))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(ok["choices"][0]["message"]["content"], "plain");
    assert_eq!(server.remaining(), 0);
}

#[tokio::test]
async fn stall_sends_chunks_then_goes_silent() {
    let server = ScriptedServer::start([Response::stall_after(["partial"], 30)]).await;
    let resp = post(&server, "/chat/completions", streaming_chat()).await;
    let mut stream = resp.bytes_stream();
    let mut seen = String::new();
    while !seen.contains("partial") {
        let bytes = tokio::time::timeout(Duration::from_secs(5), stream.next())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        seen.push_str(std::str::from_utf8(&bytes).unwrap());
    }
    let silence = tokio::time::timeout(Duration::from_millis(400), stream.next()).await;
    assert!(silence.is_err(), "expected no bytes during the stall");
    assert!(!seen.contains("[DONE]"));
}

#[tokio::test]
async fn malformed_chunk_follows_a_valid_one() {
    let server = ScriptedServer::start([Response::malformed_chunk()]).await;
    let body = post(&server, "/chat/completions", streaming_chat())
        .await
        .text()
        .await
        .unwrap();
    let data = openai_data(&body);
    assert_eq!(data.len(), 3, "{data:?}");
    assert!(serde_json::from_str::<Value>(&data[1]).is_ok());
    assert_eq!(data[2], "{not json");
}

#[tokio::test]
async fn empty_stream_has_no_content() {
    let server = ScriptedServer::start([Response::empty()]).await;
    let body = post(&server, "/chat/completions", streaming_chat())
        .await
        .text()
        .await
        .unwrap();
    let data = openai_data(&body);
    assert_eq!(data.last().unwrap(), "[DONE]");
    assert!(!body.contains(r#""content":"x"#));
    assert!(body.contains(r#""finish_reason":"stop""#));
    assert!(!body.contains("tool_calls"));
}

#[tokio::test]
async fn delay_between_chunks_slows_the_stream() {
    let slow = Response::text(["a", "b", "c"]).with_delay_ms(80);
    let server = ScriptedServer::start([slow]).await;
    let started = Instant::now();
    post(&server, "/chat/completions", streaming_chat())
        .await
        .text()
        .await
        .unwrap();
    // 7 events (role, 3 texts, finish, usage, DONE) → 6 pauses of 80 ms.
    assert!(started.elapsed() >= Duration::from_millis(480));
}

#[tokio::test]
async fn push_extends_the_script_and_wait_sees_requests() {
    let server = ScriptedServer::start([]).await;
    server.push(Response::text(["late"]));
    assert_eq!(server.remaining(), 1);
    let body = post(&server, "/chat/completions", streaming_chat())
        .await
        .text()
        .await
        .unwrap();
    assert!(body.contains("late"));
    let seen = server.wait_for_requests(1, Duration::from_secs(1)).await;
    assert_eq!(seen.len(), 1);
}

#[tokio::test]
async fn echo_mode_turns_run_prefix_into_a_terminal_call() {
    let server = ScriptedServer::start_echo().await;
    let body = post(
        &server,
        "/chat/completions",
        json!({"stream": true, "messages": [{"role": "user", "content": "run: ls"}]}),
    )
    .await
    .text()
    .await
    .unwrap();
    assert!(body.contains(r#""name":"terminal""#), "{body}");
}

/// Raw socket against the own-thread server: exact status line and chunked framing.
#[test]
fn own_thread_server_frames_sse_as_chunks() {
    let server = ScriptedServer::start_on_own_thread([Response::text(["Hi"])]);
    let mut tcp = std::net::TcpStream::connect(server.addr()).unwrap();
    let body = r#"{"stream":true}"#;
    write!(
        tcp,
        "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut raw = String::new();
    tcp.read_to_string(&mut raw).unwrap();
    assert!(raw.starts_with("HTTP/1.1 200 OK\r\n"), "{raw}");
    assert!(raw.contains("Transfer-Encoding: chunked\r\n"));
    assert!(raw.ends_with("\r\n0\r\n\r\n"), "{raw}");
    let done = "data: [DONE]\n\n";
    assert!(raw.contains(&format!("{:x}\r\n{done}\r\n", done.len())));
}

#[test]
fn example_script_fixture_loads() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/scripts/three_tools.json");
    let script = support::load_script(&path).unwrap();
    assert_eq!(script.len(), 4);
    let commands: Vec<String> = script[..3]
        .iter()
        .map(|r| match &r.kind {
            ResponseKind::ToolCalls { calls, .. } => calls[0].arguments.clone(),
            other => panic!("expected a tool call, got {other:?}"),
        })
        .collect();
    assert_eq!(commands[2], r#"{"command":"echo 3 > note_3.txt"}"#);
    assert!(matches!(script[3].kind, ResponseKind::Text { .. }));
}
