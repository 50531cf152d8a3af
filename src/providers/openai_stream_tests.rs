use std::sync::Mutex;
use std::time::Duration;

use serde_json::json;
use tokio_util::sync::CancellationToken;

use super::*;
use crate::providers::StreamDelta;

/// SSE bytes for these chunk payloads, followed by `[DONE]`, split into `pieces` byte slices
/// of irregular size so events straddle chunk boundaries.
fn sse(chunks: &[serde_json::Value]) -> Vec<Result<Vec<u8>, ProviderError>> {
    let mut text = String::new();
    for c in chunks {
        text.push_str(&format!("data: {c}\n\n"));
    }
    text.push_str("data: [DONE]\n\n");
    text.as_bytes().chunks(7).map(|c| Ok(c.to_vec())).collect()
}

async fn run(
    chunks: &[serde_json::Value],
) -> (Result<Completion, ProviderError>, Vec<StreamDelta>) {
    run_raw(sse(chunks)).await
}

async fn run_raw(
    parts: Vec<Result<Vec<u8>, ProviderError>>,
) -> (Result<Completion, ProviderError>, Vec<StreamDelta>) {
    let deltas = Mutex::new(Vec::new());
    let sink = |d: StreamDelta| deltas.lock().unwrap().push(d);
    let cancel = CancellationToken::new();
    let result = read_chat_stream(
        futures::stream::iter(parts),
        Duration::from_secs(5),
        &cancel,
        &sink,
    )
    .await;
    (result, deltas.into_inner().unwrap())
}

fn text_chunk(s: &str) -> serde_json::Value {
    json!({"choices":[{"index":0,"delta":{"content":s}}]})
}

fn call_chunk(index: usize, id: Option<&str>, name: Option<&str>, args: &str) -> serde_json::Value {
    let mut tc = json!({"index": index, "function": {"arguments": args}});
    if let Some(id) = id {
        tc["id"] = json!(id);
        tc["type"] = json!("function");
    }
    if let Some(name) = name {
        tc["function"]["name"] = json!(name);
    }
    json!({"choices":[{"index":0,"delta":{"tool_calls":[tc]}}]})
}

#[tokio::test]
async fn text_chunks_and_usage() {
    let (result, deltas) = run(&[
        text_chunk("Hel"),
        text_chunk("lo"),
        json!({"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}),
        json!({"choices":[],"usage":{"prompt_tokens":100,"completion_tokens":7,
            "prompt_tokens_details":{"cached_tokens":64},
            "completion_tokens_details":{"reasoning_tokens":3}}}),
    ])
    .await;
    let c = result.unwrap();
    assert_eq!(c.text, "Hello");
    assert_eq!(c.finish_reason.as_deref(), Some("stop"));
    assert_eq!(
        c.usage,
        Usage {
            input_tokens: 100,
            output_tokens: 7,
            cache_read_tokens: 64,
            cache_write_tokens: 0,
            reasoning_tokens: 3
        }
    );
    assert_eq!(
        deltas,
        vec![
            StreamDelta::Text("Hel".into()),
            StreamDelta::Text("lo".into())
        ]
    );
}

#[tokio::test]
async fn reasoning_fields_and_inline_think_blocks() {
    let (result, deltas) = run(&[
        json!({"choices":[{"delta":{"reasoning_content":"deep "}}]}),
        json!({"choices":[{"delta":{"reasoning":"router"}}]}),
        // Both fields: only one is taken.
        json!({"choices":[{"delta":{"reasoning_content":"X","reasoning":"X"}}]}),
        text_chunk("<thi"),
        text_chunk("nk>inline</think>Answer"),
    ])
    .await;
    let c = result.unwrap();
    assert_eq!(c.text, "Answer");
    assert_eq!(c.reasoning.as_deref(), Some("deep routerXinline"));
    assert!(
        deltas
            .iter()
            .all(|d| !matches!(d, StreamDelta::Text(t) if t.contains("think")))
    );
}

#[tokio::test]
async fn tool_calls_split_across_deltas_and_parallel() {
    let (result, deltas) = run(&[
        call_chunk(0, Some("call_a"), Some("read_file"), ""),
        call_chunk(1, Some("call_b"), Some("terminal"), "{\"comm"),
        call_chunk(0, None, None, "{\"path\":"),
        call_chunk(0, None, None, "\"a.txt\"}"),
        call_chunk(1, None, None, "and\":\"ls\"}"),
        json!({"choices":[{"delta":{},"finish_reason":"tool_calls"}]}),
    ])
    .await;
    let c = result.unwrap();
    assert_eq!(
        c.tool_calls,
        vec![
            ToolCall {
                id: "call_a".into(),
                name: "read_file".into(),
                arguments: "{\"path\":\"a.txt\"}".into()
            },
            ToolCall {
                id: "call_b".into(),
                name: "terminal".into(),
                arguments: "{\"command\":\"ls\"}".into()
            },
        ]
    );
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
async fn index_zero_reused_with_new_ids_starts_new_calls() {
    // Ollama style: every call complete at index 0, distinguished by id.
    let (result, _) = run(&[
        call_chunk(0, Some("c1"), Some("a"), "{\"x\":1}"),
        call_chunk(0, Some("c2"), Some("b"), "{\"y\":"),
        call_chunk(0, None, None, "2}"),
        // The same id again continues the same call.
        call_chunk(0, Some("c2"), None, ""),
    ])
    .await;
    let calls = result.unwrap().tool_calls;
    assert_eq!(calls.len(), 2);
    assert_eq!(
        (calls[0].id.as_str(), calls[0].arguments.as_str()),
        ("c1", "{\"x\":1}")
    );
    assert_eq!(
        (
            calls[1].id.as_str(),
            calls[1].name.as_str(),
            calls[1].arguments.as_str()
        ),
        ("c2", "b", "{\"y\":2}")
    );
}

#[tokio::test]
async fn missing_ids_are_generated_and_unique() {
    let (result, _) = run(&[
        call_chunk(0, None, Some("a"), "{}"),
        call_chunk(1, None, Some("b"), "{}"),
    ])
    .await;
    let calls = result.unwrap().tool_calls;
    assert!(calls.iter().all(|c| c.id.starts_with("call_")));
    assert_ne!(calls[0].id, calls[1].id);
}

#[tokio::test]
async fn nothing_useful_is_empty_response() {
    let (result, _) = run(&[
        text_chunk(""),
        json!({"choices":[{"delta":{"reasoning":"hmm"}}]}),
    ])
    .await;
    assert_eq!(result.unwrap_err(), ProviderError::EmptyResponse);
    let (result, _) = run(&[text_chunk("<think>only thoughts</think>  ")]).await;
    assert_eq!(result.unwrap_err(), ProviderError::EmptyResponse);
}

#[tokio::test]
async fn malformed_chunk_is_bad_response_with_excerpt() {
    let (result, _) = run_raw(vec![Ok(b"data: {\"choices\": [oops\n\n".to_vec())]).await;
    match result.unwrap_err() {
        ProviderError::BadResponse { message } => {
            assert!(
                message.contains("malformed chat-completions chunk"),
                "{message}"
            );
            assert!(message.contains("[oops"), "{message}");
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn error_object_mid_stream_is_classified() {
    let (result, _) = run(&[
        text_chunk("Hi"),
        json!({"error":{"code":502,"message":"Provider returned error"}}),
    ])
    .await;
    assert!(
        matches!(result.unwrap_err(), ProviderError::Transport { message } if message.contains("502"))
    );
    let (result, _) = run(&[json!({"error":{"code":429,"message":"rate"}})]).await;
    assert!(matches!(
        result.unwrap_err(),
        ProviderError::RateLimited { .. }
    ));
}

#[tokio::test]
async fn stream_with_a_finish_reason_but_no_done_completes() {
    let parts = vec![Ok(format!(
        "data: {}\n\ndata: {}\n\n",
        text_chunk("whole"),
        json!({"choices":[{"delta":{},"finish_reason":"stop"}]})
    )
    .into_bytes())];
    let (result, _) = run_raw(parts).await;
    assert_eq!(result.unwrap().text, "whole");
}

#[tokio::test]
async fn stream_with_neither_done_nor_finish_reason_was_cut_off() {
    let parts = vec![Ok(
        format!("data: {}\n\n", text_chunk("partial")).into_bytes()
    )];
    let (result, _) = run_raw(parts).await;
    assert!(matches!(
        result.unwrap_err(),
        ProviderError::Transport { message } if message.contains("ended before the answer was complete")
    ));
}

#[test]
fn non_streaming_completion_is_parsed_and_reported() {
    let deltas = Mutex::new(Vec::new());
    let sink = |d: StreamDelta| deltas.lock().unwrap().push(d);
    let body = json!({
        "id": "x", "object": "chat.completion",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
            "role": "assistant", "content": "Let me look.", "reasoning_content": "think",
            "tool_calls": [
                {"id": "t1", "type": "function", "function": {"name": "read_file", "arguments": "{\"path\":\"a\"}"}},
                {"type": "function", "function": {"name": "search", "arguments": {"q": "b"}}}
            ]}}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5}
    })
    .to_string();
    let c = parse_chat_completion(&body, &sink).unwrap();
    assert_eq!(c.text, "Let me look.");
    assert_eq!(c.reasoning.as_deref(), Some("think"));
    assert_eq!(c.tool_calls.len(), 2);
    assert_eq!(c.tool_calls[0].id, "t1");
    assert!(c.tool_calls[1].id.starts_with("call_"));
    assert_eq!(c.tool_calls[1].arguments, "{\"q\":\"b\"}");
    assert_eq!(c.usage.input_tokens, 10);
    assert_eq!(
        deltas.lock().unwrap()[1],
        StreamDelta::Text("Let me look.".into())
    );
}

#[test]
fn non_streaming_garbage_is_bad_response() {
    let sink = |_: StreamDelta| {};
    assert!(matches!(
        parse_chat_completion("<html>", &sink),
        Err(ProviderError::BadResponse { .. })
    ));
    assert_eq!(
        parse_chat_completion(r#"{"choices":[]}"#, &sink),
        Err(ProviderError::EmptyResponse)
    );
}
