use std::sync::Mutex;
use std::time::Duration;

use pretty_assertions::assert_eq;
use serde_json::Value;
use serde_json::json;
use tokio_util::sync::CancellationToken;

use super::*;
use crate::model::Usage;
use crate::providers::StreamDelta;

const ISSUER: &str = "other:http://127.0.0.1:1/v1";

/// SSE bytes for these events (typed, as OpenAI sends them), in irregular 11-byte pieces.
fn sse(events: &[Value]) -> Vec<Result<Vec<u8>, ProviderError>> {
    let mut text = String::new();
    for e in events {
        text.push_str(&format!(
            "event: {}\ndata: {e}\n\n",
            e["type"].as_str().unwrap()
        ));
    }
    text.as_bytes().chunks(11).map(|c| Ok(c.to_vec())).collect()
}

async fn run_raw(
    parts: Vec<Result<Vec<u8>, ProviderError>>,
) -> (Result<Completion, ProviderError>, Vec<StreamDelta>) {
    let deltas = Mutex::new(Vec::new());
    let sink = |d: StreamDelta| deltas.lock().unwrap().push(d);
    let cancel = CancellationToken::new();
    let result = read_responses_stream(
        futures::stream::iter(parts),
        Duration::from_secs(5),
        &cancel,
        ISSUER,
        &sink,
    )
    .await;
    (result, deltas.into_inner().unwrap())
}

async fn run(events: &[Value]) -> (Result<Completion, ProviderError>, Vec<StreamDelta>) {
    run_raw(sse(events)).await
}

fn completed(usage: Value) -> Value {
    json!({"type":"response.completed","response":{"id":"resp_1","status":"completed","output":[],"usage":usage}})
}

#[tokio::test]
async fn text_reasoning_and_usage_with_cached_and_reasoning_tokens() {
    let (r, deltas) = run(&[
        json!({"type":"response.created","response":{"id":"resp_1","status":"in_progress"}}),
        json!({"type":"response.output_item.added","output_index":0,"item":{"id":"rs_1","type":"reasoning","summary":[]}}),
        json!({"type":"response.reasoning_summary_text.delta","item_id":"rs_1","output_index":0,"summary_index":0,"delta":"Think"}),
        json!({"type":"response.reasoning_summary_text.delta","item_id":"rs_1","output_index":0,"summary_index":1,"delta":"More"}),
        json!({"type":"response.output_item.done","output_index":0,"item":{"id":"rs_1","type":"reasoning",
            "summary":[{"type":"summary_text","text":"Think"},{"type":"summary_text","text":"More"}],
            "encrypted_content":"ENC1"}}),
        json!({"type":"response.output_item.added","output_index":1,"item":{"id":"msg_1","type":"message","role":"assistant","content":[]}}),
        json!({"type":"response.output_text.delta","item_id":"msg_1","output_index":1,"content_index":0,"delta":"Hel"}),
        json!({"type":"response.output_text.delta","item_id":"msg_1","output_index":1,"content_index":0,"delta":"lo"}),
        json!({"type":"response.output_item.done","output_index":1,"item":{"id":"msg_1","type":"message",
            "content":[{"type":"output_text","text":"Hello"}]}}),
        completed(json!({"input_tokens":120,"input_tokens_details":{"cached_tokens":100},
            "output_tokens":30,"output_tokens_details":{"reasoning_tokens":20},"total_tokens":150})),
    ])
    .await;
    let c = r.unwrap();
    assert_eq!(c.text, "Hello", "done does not repeat streamed text");
    assert_eq!(c.reasoning.as_deref(), Some("Think\n\nMore"));
    assert_eq!(
        c.usage,
        Usage {
            input_tokens: 120,
            output_tokens: 30,
            cache_read_tokens: 100,
            cache_write_tokens: 0,
            reasoning_tokens: 20,
        }
    );
    assert_eq!(c.finish_reason.as_deref(), Some("stop"));
    assert_eq!(
        c.codex_reasoning_items,
        vec![
            json!({"type":"reasoning","id":"rs_1","encrypted_content":"ENC1",
            "summary":[{"type":"summary_text","text":"Think"},{"type":"summary_text","text":"More"}],
            "_issuer_kind": ISSUER})
        ]
    );
    assert_eq!(deltas[0], StreamDelta::Reasoning("Think".into()));
    assert!(deltas.contains(&StreamDelta::Text("Hel".into())));
}

fn call_events(index: u64, item: &str, call_id: &str, name: &str, args: &[&str]) -> Vec<Value> {
    let mut events = vec![
        json!({"type":"response.output_item.added","output_index":index,
        "item":{"id":item,"type":"function_call","status":"in_progress","call_id":call_id,"name":name,"arguments":""}}),
    ];
    for a in args {
        events.push(json!({"type":"response.function_call_arguments.delta","item_id":item,"output_index":index,"delta":a}));
    }
    events
}

#[tokio::test]
async fn parallel_function_calls_interleaved_and_finished_by_done() {
    let mut events = call_events(0, "fc_a", "call_a", "read_file", &["{\"pa", "th\":"]);
    events.extend(call_events(
        1,
        "fc_b",
        "call_b",
        "terminal",
        &["{\"command\":\"ls\"}"],
    ));
    // The first call's remaining arguments arrive after the second started.
    events.push(json!({"type":"response.function_call_arguments.delta","item_id":"fc_a","output_index":0,"delta":"\"a\"}"}));
    events.push(json!({"type":"response.function_call_arguments.done","item_id":"fc_a","output_index":0,"arguments":"{\"path\":\"a\"}"}));
    events.push(json!({"type":"response.output_item.done","output_index":1,"item":{"id":"fc_b","type":"function_call",
        "call_id":"call_b","name":"terminal","arguments":"{\"command\":\"ls\"}"}}));
    events.push(completed(json!({"input_tokens":5,"output_tokens":2})));
    let (r, deltas) = run(&events).await;
    let c = r.unwrap();
    let calls: Vec<(&str, &str, &str)> = c
        .tool_calls
        .iter()
        .map(|t| (t.id.as_str(), t.name.as_str(), t.arguments.as_str()))
        .collect();
    assert_eq!(
        calls,
        [
            ("call_a", "read_file", "{\"path\":\"a\"}"),
            ("call_b", "terminal", "{\"command\":\"ls\"}")
        ]
    );
    assert_eq!(c.finish_reason.as_deref(), Some("tool_calls"));
    assert_eq!(
        deltas,
        vec![
            StreamDelta::ToolCallStarted {
                name: "read_file".into()
            },
            StreamDelta::ToolCallStarted {
                name: "terminal".into()
            },
        ]
    );
}

#[tokio::test]
async fn deltas_keyed_only_by_output_index_still_find_their_call() {
    let events = vec![
        json!({"type":"response.output_item.added","output_index":0,"item":{"type":"function_call","call_id":"c1","name":"f","arguments":""}}),
        json!({"type":"response.function_call_arguments.delta","output_index":0,"delta":"{}"}),
        completed(json!({})),
    ];
    let c = run(&events).await.0.unwrap();
    assert_eq!(c.tool_calls[0].arguments, "{}");
    assert_eq!(c.tool_calls[0].id, "c1");
}

#[tokio::test]
async fn items_only_in_done_events_or_only_in_completed_are_used() {
    // A relay that sends no deltas: the done items carry everything.
    let (r, deltas) = run(&[
        json!({"type":"response.output_item.done","output_index":0,"item":{"id":"m","type":"message","content":[{"type":"output_text","text":"whole"}]}}),
        completed(json!({})),
    ])
    .await;
    assert_eq!(r.unwrap().text, "whole");
    assert_eq!(deltas, vec![StreamDelta::Text("whole".into())]);
    // A relay that sends only the final object.
    let done = json!({"type":"response.completed","response":{"status":"completed","output":[
        {"type":"function_call","call_id":"c9","name":"terminal","arguments":"{\"command\":\"pwd\"}"}]}});
    let c = run(&[done]).await.0.unwrap();
    assert_eq!(c.tool_calls[0].id, "c9");
    assert_eq!(c.tool_calls[0].arguments, "{\"command\":\"pwd\"}");
}

#[tokio::test]
async fn commentary_is_reasoning_and_transient_reasoning_is_not_kept() {
    let (r, _) = run(&[
        json!({"type":"response.output_item.added","output_index":0,"item":{"id":"m0","type":"message","phase":"commentary"}}),
        json!({"type":"response.output_text.delta","item_id":"m0","output_index":0,"delta":"Looking…"}),
        json!({"type":"response.output_item.done","output_index":1,"item":{"id":"rs_tmp_1","type":"reasoning","summary":[],"encrypted_content":"X"}}),
        json!({"type":"response.output_item.added","output_index":2,"item":{"id":"m1","type":"message","phase":"final_answer"}}),
        json!({"type":"response.output_text.delta","item_id":"m1","output_index":2,"delta":"Answer"}),
        completed(json!({})),
    ])
    .await;
    let c = r.unwrap();
    assert_eq!(c.text, "Answer");
    assert_eq!(c.reasoning.as_deref(), Some("Looking…"));
    assert!(c.codex_reasoning_items.is_empty());
}

#[tokio::test]
async fn failures_map_to_typed_errors() {
    let failed = |code: &str, message: &str| json!({"type":"response.failed","response":{"status":"failed","error":{"code":code,"message":message}}});
    let cases = [
        (failed("rate_limit_exceeded", "slow"), "rate"),
        (failed("context_length_exceeded", "too big"), "context"),
        (failed("server_error", "boom"), "transport"),
        (failed("invalid_prompt", "nope"), "bad"),
    ];
    for (event, kind) in cases {
        let err = run(&[event]).await.0.unwrap_err();
        let ok = match kind {
            "rate" => matches!(err, ProviderError::RateLimited { .. }),
            "context" => matches!(err, ProviderError::ContextTooLong { .. }),
            "transport" => matches!(err, ProviderError::Transport { .. }),
            _ => {
                matches!(err, ProviderError::BadResponse { ref message } if message.contains("invalid_prompt: nope"))
            }
        };
        assert!(ok, "{kind}: {err:?}");
    }
    // `error` events, flat (the spec) and nested (the SDK and some proxies).
    let flat = json!({"type":"error","code":"rate_limit_exceeded","message":"x"});
    assert!(matches!(
        run(&[flat]).await.0,
        Err(ProviderError::RateLimited { .. })
    ));
    let nested = json!({"type":"error","error":{"code":"invalid_api_key","message":"bad key sk-live-abcdefghijklmnop"}});
    let err = run(&[nested]).await.0.unwrap_err();
    assert!(matches!(err, ProviderError::Auth { .. }), "{err:?}");
    assert!(!err.to_string().contains("abcdefghijklmnop"), "{err}");
}

#[tokio::test]
async fn a_stream_without_a_terminal_event_is_a_transport_error() {
    let (r, deltas) = run(&[
        json!({"type":"response.output_text.delta","item_id":"m","output_index":0,"delta":"par"}),
    ])
    .await;
    assert!(matches!(r, Err(ProviderError::Transport { .. })), "{r:?}");
    assert_eq!(deltas, vec![StreamDelta::Text("par".into())]);
    // `[DONE]` counts as the end.
    let mut parts = sse(&[
        json!({"type":"response.output_text.delta","item_id":"m","output_index":0,"delta":"ok"}),
    ]);
    parts.push(Ok(b"data: [DONE]\n\n".to_vec()));
    assert_eq!(run_raw(parts).await.0.unwrap().text, "ok");
}

#[tokio::test]
async fn incomplete_responses_say_why() {
    let incomplete = |reason: &str| json!({"type":"response.incomplete","response":{"status":"incomplete","incomplete_details":{"reason":reason},"output":[]}});
    let err = run(&[incomplete("max_output_tokens")]).await.0.unwrap_err();
    assert!(
        matches!(err, ProviderError::BadResponse { ref message } if message.contains("max_output_tokens") && message.contains("model.max_tokens")),
        "{err:?}"
    );
    let mut events = vec![
        json!({"type":"response.output_text.delta","item_id":"m","output_index":0,"delta":"cut"}),
    ];
    events.push(incomplete("max_output_tokens"));
    let c = run(&events).await.0.unwrap();
    assert_eq!(
        (c.text.as_str(), c.finish_reason.as_deref()),
        ("cut", Some("length"))
    );
}

#[tokio::test]
async fn malformed_event_is_a_bad_response() {
    let mut parts = sse(&[json!({"type":"response.created","response":{}})]);
    parts.push(Ok(
        b"event: response.output_text.delta\ndata: {not json\n\n".to_vec(),
    ));
    let err = run_raw(parts).await.0.unwrap_err();
    assert!(
        matches!(err, ProviderError::BadResponse { ref message } if message.contains("response.output_text.delta")),
        "{err:?}"
    );
}

#[test]
fn a_whole_response_object_is_accepted() {
    let body = json!({"id":"resp_1","status":"completed","output":[
        {"id":"rs_1","type":"reasoning","summary":[{"type":"summary_text","text":"plan"}],"encrypted_content":"E"},
        {"id":"m","type":"message","content":[{"type":"output_text","text":"plain"}]}],
        "usage":{"input_tokens":3,"output_tokens":1}})
    .to_string();
    let sink = |_: StreamDelta| {};
    let c = parse_response_object(&body, ISSUER, &sink).unwrap();
    assert_eq!(c.text, "plain");
    assert_eq!(c.reasoning.as_deref(), Some("plan"));
    assert_eq!(c.codex_reasoning_items.len(), 1);
    assert_eq!(c.usage.input_tokens, 3);
    let err = parse_response_object(
        r#"{"error":{"code":"server_error","message":"x"}}"#,
        ISSUER,
        &sink,
    );
    assert!(
        matches!(err, Err(ProviderError::Transport { .. })),
        "{err:?}"
    );
}
