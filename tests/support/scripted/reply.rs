//! Turns a scripted [`Response`] into a [`Reply`]: the exact bytes-level plan (status, headers,
//! SSE events, how the stream ends) the server writes for one request.
//!
//! Dialect-specific bodies live in `sse_openai`, `sse_anthropic`, `sse_responses` and
//! `eventstream_bedrock`; this module holds the shared parts (error envelopes, faults that
//! look the same in every dialect). It does no I/O, so every plan is unit-testable.

use std::time::Duration;

use serde_json::Value;
use serde_json::json;

use super::eventstream_bedrock;
use super::script::Response;
use super::script::ResponseKind;
use super::sse_anthropic;
use super::sse_openai;
use super::sse_responses;

/// Which wire protocol the request used (decided by its path).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    OpenAi,
    Anthropic,
    /// OpenAI Responses (`/v1/responses`).
    Responses,
    /// AWS Bedrock ConverseStream (`/model/{id}/converse-stream`): always streamed.
    Bedrock,
}

/// What the server needs to know about a completion request to answer it.
#[derive(Debug, Clone)]
pub struct RequestCtx {
    pub dialect: Dialect,
    /// The body had `"stream": true`.
    pub stream: bool,
    /// OpenAI `stream_options.include_usage` was true.
    pub include_usage: bool,
    /// The requested model, echoed back in responses.
    pub model: String,
    /// 1-based number of this request on the server, used to make ids unique.
    pub seq: u64,
}

impl RequestCtx {
    pub fn from_body(dialect: Dialect, body: &Value, seq: u64) -> Self {
        Self {
            dialect,
            stream: dialect == Dialect::Bedrock
                || body.get("stream").and_then(Value::as_bool) == Some(true),
            include_usage: body
                .pointer("/stream_options/include_usage")
                .and_then(Value::as_bool)
                == Some(true),
            model: body
                .get("model")
                .and_then(Value::as_str)
                .unwrap_or("scripted-model")
                .to_owned(),
            seq,
        }
    }
}

/// The plan for one HTTP answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    Fixed {
        status: u16,
        headers: Vec<(String, String)>,
        content_type: &'static str,
        body: String,
    },
    /// HTTP 200 with a chunked body: each event is one chunk.
    Stream {
        content_type: &'static str,
        events: Vec<String>,
        delay: Duration,
        end: StreamEnd,
    },
    /// Like `Stream`, with binary chunks (Bedrock's event-stream frames).
    Frames {
        content_type: &'static str,
        frames: Vec<Vec<u8>>,
        delay: Duration,
        end: StreamEnd,
    },
    /// Close with a TCP reset, no bytes sent.
    Reset,
    /// These bytes verbatim, then close, or stay silent for `stall` first.
    Raw { bytes: Vec<u8>, stall: Duration },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StreamEnd {
    /// Send the terminating zero-length chunk and close.
    Complete,
    /// Keep the connection open and silent for this long, then drop it mid-body.
    StallThenDrop(Duration),
    /// Close with a TCP reset right after the last event.
    Reset,
}

pub const SSE: &str = "text/event-stream";
pub const JSON: &str = "application/json";

/// Render `resp` for `ctx`. A `RejectStreaming` entry renders its `then` (the server handles
/// the streaming-rejection case before calling this).
pub fn render(resp: &Response, ctx: &RequestCtx) -> Reply {
    match &resp.kind {
        ResponseKind::Status {
            code,
            retry_after,
            message,
            body,
        } => {
            let mut reply = match body {
                Some(b) => Reply::Fixed {
                    status: *code,
                    headers: Vec::new(),
                    content_type: if serde_json::from_str::<Value>(b).is_ok() {
                        JSON
                    } else {
                        "text/plain"
                    },
                    body: b.clone(),
                },
                None => {
                    let text = message
                        .clone()
                        .unwrap_or_else(|| format!("scripted HTTP {code} error"));
                    error(ctx.dialect, *code, &text)
                }
            };
            if let (Reply::Fixed { headers, .. }, Some(secs)) = (&mut reply, retry_after) {
                headers.push(("Retry-After".into(), secs.to_string()));
            }
            reply
        }
        ResponseKind::Reset => Reply::Reset,
        ResponseKind::Raw { bytes, stall_secs } => Reply::Raw {
            bytes: bytes.clone(),
            stall: Duration::from_secs(*stall_secs),
        },
        ResponseKind::ResetAfter { .. } if !ctx.stream => Reply::Reset,
        ResponseKind::StreamError { code, message, .. } if !ctx.stream => {
            let text = message
                .clone()
                .unwrap_or_else(|| format!("scripted HTTP {code} error"));
            error(ctx.dialect, *code, &text)
        }
        ResponseKind::RejectStreaming { then } => render(then, ctx),
        ResponseKind::StallAfter { stall_secs, .. } if !ctx.stream => Reply::Stream {
            content_type: JSON,
            events: Vec::new(),
            delay: Duration::ZERO,
            end: StreamEnd::StallThenDrop(Duration::from_secs(*stall_secs)),
        },
        ResponseKind::MalformedChunk if !ctx.stream => Reply::Fixed {
            status: 200,
            headers: Vec::new(),
            content_type: JSON,
            body: "{not json".into(),
        },
        _ => match (ctx.dialect, ctx.stream) {
            (Dialect::OpenAi, true) => sse_openai::stream(resp, ctx),
            (Dialect::OpenAi, false) => sse_openai::json(resp, ctx),
            (Dialect::Anthropic, true) => sse_anthropic::stream(resp, ctx),
            (Dialect::Anthropic, false) => sse_anthropic::json(resp, ctx),
            (Dialect::Responses, true) => sse_responses::stream(resp, ctx),
            (Dialect::Responses, false) => sse_responses::json(resp, ctx),
            (Dialect::Bedrock, _) => eventstream_bedrock::stream(resp, ctx),
        },
    }
}

/// An error response in the dialect's envelope.
pub fn error(dialect: Dialect, status: u16, message: &str) -> Reply {
    let kind = error_type(status, message);
    let body = match dialect {
        Dialect::Bedrock => {
            let exception = eventstream_bedrock::exception_name(status);
            return Reply::Fixed {
                status,
                headers: vec![(
                    "x-amzn-ErrorType".into(),
                    format!("{exception}:http://internal.amazon.com/coral/com.amazon.bedrock/"),
                )],
                content_type: JSON,
                body: json!({ "message": message }).to_string(),
            };
        }
        Dialect::OpenAi | Dialect::Responses => {
            let code = (kind == "context_length_exceeded").then_some(kind);
            let kind = if code.is_some() {
                "invalid_request_error"
            } else {
                kind
            };
            json!({"error": {"message": message, "type": kind, "param": null, "code": code}})
        }
        Dialect::Anthropic => {
            let kind = if kind == "context_length_exceeded" {
                "invalid_request_error"
            } else {
                kind
            };
            json!({"type": "error", "error": {"type": kind, "message": message}})
        }
    };
    Reply::Fixed {
        status,
        headers: Vec::new(),
        content_type: JSON,
        body: body.to_string(),
    }
}

/// The answer when no script entry is left: HTTP 500 saying so, in the dialect's envelope.
pub fn exhausted(dialect: Dialect, seq: u64, method: &str, path: &str) -> Reply {
    let message = format!(
        "script exhausted: the scripted provider has no response left for request #{seq} ({method} {path})"
    );
    error(dialect, 500, &message)
}

pub fn error_type(status: u16, message: &str) -> &'static str {
    match status {
        400 if message.contains("context length") => "context_length_exceeded",
        400 | 413 | 422 => "invalid_request_error",
        401 => "authentication_error",
        403 => "permission_error",
        404 => "not_found_error",
        429 => "rate_limit_error",
        529 => "overloaded_error",
        _ => "api_error",
    }
}

/// Split `text` into at most `parts` non-empty pieces on char boundaries (one piece if short).
pub fn split_fragments(text: &str, parts: usize) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    if chars.is_empty() {
        return Vec::new();
    }
    let size = chars.len().div_ceil(parts.max(1));
    chars.chunks(size).map(|c| c.iter().collect()).collect()
}

/// Concatenated text chunks; `None` when there are none.
pub fn joined(chunks: &[String]) -> Option<String> {
    (!chunks.is_empty()).then(|| chunks.concat())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ctx(dialect: Dialect) -> RequestCtx {
        RequestCtx::from_body(dialect, &json!({"model": "m", "stream": true}), 1)
    }

    #[test]
    fn fragments_cover_the_text_on_char_boundaries() {
        let parts = split_fragments("{\"a\":\"é✓x\"}", 3);
        assert_eq!(parts.len(), 3);
        assert_eq!(parts.concat(), "{\"a\":\"é✓x\"}");
        assert!(split_fragments("", 3).is_empty());
        assert_eq!(split_fragments("ab", 3), vec!["a", "b"]);
    }

    #[test]
    fn status_carries_retry_after_and_envelope() {
        let reply = render(&Response::rate_limited(Some(7)), &ctx(Dialect::Anthropic));
        let Reply::Fixed {
            status,
            headers,
            body,
            ..
        } = reply
        else {
            panic!("not fixed: {reply:?}");
        };
        assert_eq!(status, 429);
        assert_eq!(headers, vec![("Retry-After".to_owned(), "7".to_owned())]);
        let v: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(v["error"]["type"], "rate_limit_error");
    }

    #[test]
    fn context_too_long_has_openai_code() {
        let Reply::Fixed { body, .. } =
            render(&Response::context_too_long(), &ctx(Dialect::OpenAi))
        else {
            panic!("not fixed");
        };
        let v: Value = serde_json::from_str(&body).unwrap();
        assert_eq!(v["error"]["code"], "context_length_exceeded");
    }
}
