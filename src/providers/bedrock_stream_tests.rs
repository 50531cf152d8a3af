use std::sync::Mutex;
use std::time::Duration;

use aws_smithy_eventstream::frame::write_message_to;
use aws_smithy_types::event_stream::Header;
use pretty_assertions::assert_eq;
use serde_json::json;
use tokio_util::sync::CancellationToken;

use super::*;
use crate::model::Usage;
use crate::providers::StreamDelta;

fn frame(headers: &[(&str, &str)], payload: &[u8]) -> Vec<u8> {
    let mut message = Frame::new(payload.to_vec());
    for (name, value) in headers {
        message = message.add_header(Header::new(
            name.to_string(),
            HeaderValue::String(value.to_string().into()),
        ));
    }
    let mut out = Vec::new();
    write_message_to(&message, &mut out).unwrap();
    out
}

fn event(kind: &str, payload: Value) -> Vec<u8> {
    frame(
        &[
            (":event-type", kind),
            (":content-type", "application/json"),
            (":message-type", "event"),
        ],
        payload.to_string().as_bytes(),
    )
}

fn exception(kind: &str, message: &str) -> Vec<u8> {
    frame(
        &[(":exception-type", kind), (":message-type", "exception")],
        json!({ "message": message }).to_string().as_bytes(),
    )
}

/// The frames concatenated and cut into `piece`-byte chunks, so frames straddle chunks.
async fn run_frames(
    frames: &[Vec<u8>],
    piece: usize,
) -> (Result<Completion, ProviderError>, Vec<StreamDelta>) {
    let bytes: Vec<u8> = frames.concat();
    let parts: Vec<Result<Vec<u8>, ProviderError>> =
        bytes.chunks(piece).map(|c| Ok(c.to_vec())).collect();
    let deltas = Mutex::new(Vec::new());
    let sink = |d: StreamDelta| deltas.lock().unwrap().push(d);
    let cancel = CancellationToken::new();
    let result = read_converse_stream(
        futures::stream::iter(parts),
        Duration::from_secs(5),
        &cancel,
        &sink,
    )
    .await;
    (result, deltas.into_inner().unwrap())
}

fn delta(index: u64, delta: Value) -> Vec<u8> {
    event(
        "contentBlockDelta",
        json!({"contentBlockIndex": index, "delta": delta}),
    )
}

fn stop(reason: &str) -> Vec<u8> {
    event("messageStop", json!({ "stopReason": reason }))
}

fn metadata() -> Vec<u8> {
    event(
        "metadata",
        json!({"usage":{"inputTokens":10,"outputTokens":6,"cacheReadInputTokens":90,"cacheWriteInputTokens":4}}),
    )
}

#[tokio::test]
async fn reasoning_text_parallel_tools_and_usage() {
    let frames = vec![
        event("messageStart", json!({"role":"assistant"})),
        delta(0, json!({"reasoningContent":{"text":"hm"}})),
        delta(0, json!({"reasoningContent":{"signature":"sig"}})),
        event("contentBlockStop", json!({"contentBlockIndex":0})),
        delta(1, json!({"text":"Let me "})),
        delta(1, json!({"text":"look."})),
        event(
            "contentBlockStart",
            json!({"contentBlockIndex":2,"start":{"toolUse":{"toolUseId":"tu_a","name":"read_file"}}}),
        ),
        delta(2, json!({"toolUse":{"input":"{\"path\""}})),
        delta(2, json!({"toolUse":{"input":":\"a\"}"}})),
        event(
            "contentBlockStart",
            json!({"contentBlockIndex":3,"start":{"toolUse":{"toolUseId":"tu_b","name":"list"}}}),
        ),
        stop("tool_use"),
        metadata(),
    ];
    for piece in [1, 7, 4096] {
        let (r, deltas) = run_frames(&frames, piece).await;
        let c = r.unwrap();
        assert_eq!(c.text, "Let me look.");
        assert_eq!(c.reasoning.as_deref(), Some("hm"));
        let calls: Vec<(&str, &str, &str)> = c
            .tool_calls
            .iter()
            .map(|t| (t.id.as_str(), t.name.as_str(), t.arguments.as_str()))
            .collect();
        assert_eq!(
            calls,
            [
                ("tu_a", "read_file", "{\"path\":\"a\"}"),
                ("tu_b", "list", "{}")
            ]
        );
        assert_eq!(c.finish_reason.as_deref(), Some("tool_use"));
        assert_eq!(
            c.usage,
            Usage {
                input_tokens: 104,
                output_tokens: 6,
                cache_read_tokens: 90,
                cache_write_tokens: 4,
                reasoning_tokens: 0,
            }
        );
        assert_eq!(deltas[0], StreamDelta::Reasoning("hm".into()));
        assert!(deltas.contains(&StreamDelta::ToolCallStarted {
            name: "list".into()
        }));
    }
}

#[tokio::test]
async fn exceptions_map_to_typed_errors() {
    let cases = [
        ("throttlingException", "Too many requests", "rate"),
        (
            "validationException",
            "Input is too long for requested model.",
            "context",
        ),
        ("modelStreamErrorException", "The model failed", "transport"),
        ("validationException", "Malformed input request", "bad"),
        ("accessDeniedException", "no access to the model", "auth"),
    ];
    for (kind, message, expected) in cases {
        let frames = vec![delta(0, json!({"text":"par"})), exception(kind, message)];
        let err = run_frames(&frames, 5).await.0.unwrap_err();
        let ok = match expected {
            "rate" => matches!(err, ProviderError::RateLimited { .. }),
            "context" => matches!(err, ProviderError::ContextTooLong { .. }),
            "transport" => matches!(err, ProviderError::Transport { .. }),
            "auth" => matches!(err, ProviderError::Auth { status: 403, .. }),
            _ => matches!(err, ProviderError::BadResponse { .. }),
        };
        assert!(ok, "{kind}: {err:?}");
    }
}

#[tokio::test]
async fn truncation_and_corruption_are_reported() {
    // The body ends in the middle of a frame.
    let whole = delta(0, json!({"text":"par"}));
    let cut = whole[..whole.len() - 3].to_vec();
    let err = run_frames(&[cut], 4).await.0.unwrap_err();
    assert!(matches!(err, ProviderError::Transport { .. }), "{err:?}");
    // The body ends without messageStop.
    let err = run_frames(&[delta(0, json!({"text":"par"}))], 4)
        .await
        .0
        .unwrap_err();
    assert!(
        matches!(err, ProviderError::Transport { ref message } if message.contains("messageStop")),
        "{err:?}"
    );
    // A frame whose CRC does not match.
    let mut bad = delta(0, json!({"text":"x"}));
    if let Some(last) = bad.last_mut() {
        *last ^= 0xff;
    }
    let err = run_frames(&[bad], 64).await.0.unwrap_err();
    assert!(
        matches!(err, ProviderError::BadResponse { ref message } if message.contains("frame")),
        "{err:?}"
    );
    // A valid frame whose payload is not JSON.
    let garbage = frame(
        &[
            (":event-type", "contentBlockDelta"),
            (":message-type", "event"),
        ],
        b"{not json",
    );
    let err = run_frames(&[garbage], 64).await.0.unwrap_err();
    assert!(
        matches!(err, ProviderError::BadResponse { ref message } if message.contains("contentBlockDelta")),
        "{err:?}"
    );
}

#[tokio::test]
async fn empty_and_blocked_answers() {
    let err = run_frames(&[stop("end_turn"), metadata()], 64)
        .await
        .0
        .unwrap_err();
    assert_eq!(err, ProviderError::EmptyResponse);
    let err = run_frames(&[stop("guardrail_intervened")], 64)
        .await
        .0
        .unwrap_err();
    assert!(
        matches!(err, ProviderError::BadResponse { ref message } if message.contains("guardrail_intervened")),
        "{err:?}"
    );
}

#[test]
fn http_errors_use_the_error_type_header() {
    let response = |status, body: &str| ErrorResponse {
        status,
        retry_after: None,
        body: body.into(),
        redirect: None,
    };
    let f = classify_http_error(
        &response(429, r#"{"message":"Too many tokens, please wait"}"#),
        Some("ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/"),
    );
    assert!(
        matches!(f.error, ProviderError::RateLimited { .. }),
        "{f:?}"
    );
    let f = classify_http_error(
        &response(
            400,
            r#"{"message":"The model returned the following errors: Input is too long for requested model."}"#,
        ),
        Some("ValidationException"),
    );
    assert!(
        matches!(f.error, ProviderError::ContextTooLong { .. }),
        "{f:?}"
    );
    let f = classify_http_error(
        &response(
            403,
            r#"{"message":"The security token included in the request is invalid."}"#,
        ),
        Some("UnrecognizedClientException"),
    );
    assert!(
        matches!(f.error, ProviderError::Auth { status: 403, ref message } if message.starts_with("UnrecognizedClientException")),
        "{f:?}"
    );
    let f = classify_http_error(
        &response(
            400,
            r#"{"__type":"com.amazon.coral.validate#ValidationException","message":"bad"}"#,
        ),
        None,
    );
    assert!(
        matches!(f.error, ProviderError::BadResponse { .. }),
        "{f:?}"
    );
    let f = classify_http_error(&response(503, "upstream down"), None);
    assert!(matches!(f.error, ProviderError::Transport { .. }), "{f:?}");
}
