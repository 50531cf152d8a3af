use std::sync::Mutex;
use std::time::Duration;

use serde_json::Value;
use serde_json::json;
use tokio_util::sync::CancellationToken;

use super::*;
use crate::model::Usage;
use crate::providers::StreamDelta;

fn events(list: &[Value]) -> Vec<Result<Vec<u8>, ProviderError>> {
    let mut text = String::new();
    for e in list {
        text.push_str(&format!(
            "event: {}\ndata: {e}\n\n",
            e["type"].as_str().unwrap()
        ));
    }
    text.as_bytes().chunks(11).map(|c| Ok(c.to_vec())).collect()
}

async fn run(list: &[Value]) -> (Result<Completion, ProviderError>, Vec<StreamDelta>) {
    let deltas = Mutex::new(Vec::new());
    let sink = |d: StreamDelta| deltas.lock().unwrap().push(d);
    let cancel = CancellationToken::new();
    let r = read_messages_stream(
        futures::stream::iter(events(list)),
        Duration::from_secs(5),
        &cancel,
        &sink,
    )
    .await;
    (r, deltas.into_inner().unwrap())
}

fn start() -> Value {
    json!({"type":"message_start","message":{"id":"m","role":"assistant","content":[],
        "usage":{"input_tokens":12,"cache_read_input_tokens":1000,"cache_creation_input_tokens":200,"output_tokens":1}}})
}

fn stop(reason: &str, out: u64) -> [Value; 2] {
    [
        json!({"type":"message_delta","delta":{"stop_reason":reason},"usage":{"output_tokens":out}}),
        json!({"type":"message_stop"}),
    ]
}

#[tokio::test]
async fn text_thinking_tool_use_and_usage() {
    let mut list = vec![
        start(),
        json!({"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}}),
        json!({"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Plan: "}}),
        json!({"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"read it."}}),
        json!({"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"abc"}}),
        json!({"type":"content_block_stop","index":0}),
        json!({"type":"ping"}),
        json!({"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}),
        json!({"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Reading "}}),
        json!({"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"now."}}),
        json!({"type":"content_block_stop","index":1}),
        json!({"type":"content_block_start","index":2,"content_block":{"type":"tool_use","id":"toolu_1","name":"read_file","input":{}}}),
        json!({"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":""}}),
        json!({"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"{\"pa"}}),
        json!({"type":"content_block_delta","index":2,"delta":{"type":"input_json_delta","partial_json":"th\": \"a.rs\"}"}}),
        json!({"type":"content_block_stop","index":2}),
        json!({"type":"content_block_start","index":3,"content_block":{"type":"tool_use","id":"toolu_2","name":"todo","input":{}}}),
        json!({"type":"content_block_stop","index":3}),
    ];
    list.extend(stop("tool_use", 42));
    let (result, deltas) = run(&list).await;
    let c = result.unwrap();
    assert_eq!(c.text, "Reading now.");
    assert_eq!(c.reasoning.as_deref(), Some("Plan: read it."));
    assert_eq!(
        c.tool_calls,
        vec![
            ToolCall {
                id: "toolu_1".into(),
                name: "read_file".into(),
                arguments: "{\"path\": \"a.rs\"}".into()
            },
            ToolCall {
                id: "toolu_2".into(),
                name: "todo".into(),
                arguments: "{}".into()
            },
        ]
    );
    assert_eq!(c.finish_reason.as_deref(), Some("tool_use"));
    assert_eq!(
        c.usage,
        Usage {
            input_tokens: 1212,
            output_tokens: 42,
            cache_read_tokens: 1000,
            cache_write_tokens: 200,
            reasoning_tokens: 0
        }
    );
    assert_eq!(
        deltas,
        vec![
            StreamDelta::Reasoning("Plan: ".into()),
            StreamDelta::Reasoning("read it.".into()),
            StreamDelta::Text("Reading ".into()),
            StreamDelta::Text("now.".into()),
            StreamDelta::ToolCallStarted {
                name: "read_file".into()
            },
            StreamDelta::ToolCallStarted {
                name: "todo".into()
            },
        ]
    );
}

#[tokio::test]
async fn empty_message_is_empty_response() {
    let mut list = vec![start()];
    list.extend(stop("end_turn", 0));
    assert_eq!(
        run(&list).await.0.unwrap_err(),
        ProviderError::EmptyResponse
    );
}

#[tokio::test]
async fn error_events_are_typed() {
    let overloaded =
        json!({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}});
    let (r, _) = run(&[start(), overloaded]).await;
    assert!(
        matches!(r.unwrap_err(), ProviderError::Transport { message } if message.contains("overloaded"))
    );
    let limited = json!({"type":"error","error":{"type":"rate_limit_error","message":"slow"}});
    assert!(matches!(
        run(&[limited]).await.0.unwrap_err(),
        ProviderError::RateLimited { .. }
    ));
    let too_long = json!({"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 300000 tokens > 200000 maximum"}});
    assert!(matches!(
        run(&[too_long]).await.0.unwrap_err(),
        ProviderError::ContextTooLong { .. }
    ));
}

#[tokio::test]
async fn malformed_event_and_stray_json_delta_are_bad_responses() {
    let cancel = CancellationToken::new();
    let sink = |_: StreamDelta| {};
    let bad = vec![Ok::<_, ProviderError>(
        b"event: message_start\ndata: {nope\n\n".to_vec(),
    )];
    let r = read_messages_stream(
        futures::stream::iter(bad),
        Duration::from_secs(5),
        &cancel,
        &sink,
    )
    .await;
    assert!(
        matches!(r.unwrap_err(), ProviderError::BadResponse { message } if message.contains("message_start"))
    );
    let stray = json!({"type":"content_block_delta","index":5,"delta":{"type":"input_json_delta","partial_json":"{"}});
    assert!(matches!(
        run(&[start(), stray]).await.0.unwrap_err(),
        ProviderError::BadResponse { .. }
    ));
}
