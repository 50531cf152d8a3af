//! AWS Bedrock ConverseStream rendering: `application/vnd.amazon.eventstream` frames
//! (prelude, headers, JSON payload, CRC32s, written by `aws-smithy-eventstream`) carrying
//! `messageStart`, `contentBlockStart`/`Delta`/`Stop`, `messageStop`, `metadata`, and exception
//! frames (`:message-type: exception`) for in-stream errors; plus the exception names Bedrock
//! puts in `x-amzn-ErrorType` for HTTP errors.
//!
//! Handles content kinds only; HTTP errors and resets are `reply`'s job. Bedrock has no
//! non-streamed mode here (the server routes only `converse-stream`). Invariants: content block
//! indexes are 0,1,2… in order (reasoning, text, toolUse blocks); every frame is valid except
//! the deliberately corrupted one of `malformed_chunk` (its message CRC is wrong).

use std::time::Duration;

use aws_smithy_eventstream::frame::write_message_to;
use aws_smithy_types::event_stream::Header;
use aws_smithy_types::event_stream::HeaderValue;
use aws_smithy_types::event_stream::Message;
use serde_json::Value;
use serde_json::json;

use super::reply::Reply;
use super::reply::RequestCtx;
use super::reply::StreamEnd;
use super::reply::split_fragments;
use super::script::Response;
use super::script::ResponseKind;
use super::script::ScriptedUsage;

pub const EVENT_STREAM: &str = "application/vnd.amazon.eventstream";
const ARG_FRAGMENTS: usize = 3;
const SIGNATURE: &str = "scripted-signature";

fn string(value: &str) -> HeaderValue {
    HeaderValue::String(value.to_string().into())
}

fn encode(message: &Message) -> Vec<u8> {
    let mut out = Vec::new();
    // Writing to a Vec only fails for oversized frames, which the script never makes.
    if let Err(e) = write_message_to(message, &mut out) {
        panic!("scripted provider: cannot encode an event-stream frame: {e}");
    }
    out
}

/// One `:message-type: event` frame.
pub fn event_frame(event_type: &str, payload: &Value) -> Vec<u8> {
    let message = Message::new(payload.to_string().into_bytes())
        .add_header(Header::new(":event-type", string(event_type)))
        .add_header(Header::new(":content-type", string("application/json")))
        .add_header(Header::new(":message-type", string("event")));
    encode(&message)
}

/// One `:message-type: exception` frame.
pub fn exception_frame(exception_type: &str, message: &str) -> Vec<u8> {
    let payload = json!({ "message": message }).to_string().into_bytes();
    let frame = Message::new(payload)
        .add_header(Header::new(":exception-type", string(exception_type)))
        .add_header(Header::new(":content-type", string("application/json")))
        .add_header(Header::new(":message-type", string("exception")));
    encode(&frame)
}

/// The exception Bedrock answers an HTTP `status` with (UpperCamel, as in `x-amzn-ErrorType`).
pub fn exception_name(status: u16) -> &'static str {
    match status {
        400 | 422 => "ValidationException",
        401 => "UnrecognizedClientException",
        403 => "AccessDeniedException",
        404 => "ResourceNotFoundException",
        408 => "ModelTimeoutException",
        424 => "ModelErrorException",
        429 => "ThrottlingException",
        503 => "ServiceUnavailableException",
        _ => "InternalServerException",
    }
}

/// The in-stream name (lowerCamel) of the exception for `status`.
fn stream_exception_name(status: u16) -> String {
    let name = match status {
        500 => "ModelStreamErrorException",
        _ => exception_name(status),
    };
    let mut chars = name.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_ascii_lowercase().to_string() + chars.as_str()
    })
}

struct Frames {
    frames: Vec<Vec<u8>>,
    next_index: usize,
}

impl Frames {
    fn push(&mut self, event_type: &str, payload: Value) {
        self.frames.push(event_frame(event_type, &payload));
    }

    fn delta(&mut self, index: usize, delta: Value) {
        self.push(
            "contentBlockDelta",
            json!({"contentBlockIndex": index, "delta": delta, "p": "abcd"}),
        );
    }

    fn stop(&mut self, index: usize) {
        self.push("contentBlockStop", json!({"contentBlockIndex": index}));
    }

    fn index(&mut self) -> usize {
        self.next_index += 1;
        self.next_index - 1
    }

    /// A text block: deltas only, as Bedrock sends it (no contentBlockStart for text).
    fn text(&mut self, chunks: &[String], close: bool) {
        let i = self.index();
        for t in chunks {
            self.delta(i, json!({"text": t}));
        }
        if close {
            self.stop(i);
        }
    }

    fn finish(&mut self, stop_reason: &str, usage: &ScriptedUsage) {
        self.push("messageStop", json!({"stopReason": stop_reason}));
        self.push(
            "metadata",
            json!({
                "usage": {
                    "inputTokens": usage.prompt_tokens,
                    "outputTokens": usage.completion_tokens,
                    "totalTokens": usage.prompt_tokens + usage.completion_tokens,
                    "cacheReadInputTokens": usage.cached_tokens,
                    "cacheWriteInputTokens": 0,
                },
                "metrics": {"latencyMs": 42},
            }),
        );
    }
}

/// A streamed answer.
pub fn stream(resp: &Response, _ctx: &RequestCtx) -> Reply {
    let mut f = Frames {
        frames: Vec::new(),
        next_index: 0,
    };
    f.push("messageStart", json!({"role": "assistant"}));
    let mut end = StreamEnd::Complete;
    match &resp.kind {
        ResponseKind::Text { chunks, reasoning } => {
            if !reasoning.is_empty() {
                let i = f.index();
                for r in reasoning {
                    f.delta(i, json!({"reasoningContent": {"text": r}}));
                }
                f.delta(i, json!({"reasoningContent": {"signature": SIGNATURE}}));
                f.stop(i);
            }
            f.text(chunks, true);
            f.finish("end_turn", &resp.usage);
        }
        ResponseKind::ToolCalls {
            text_before, calls, ..
        } => {
            if let Some(text) = text_before {
                f.text(std::slice::from_ref(text), true);
            }
            for call in calls {
                let i = f.index();
                f.push(
                    "contentBlockStart",
                    json!({"contentBlockIndex": i,
                        "start": {"toolUse": {"toolUseId": call.id, "name": call.name}}}),
                );
                for frag in split_fragments(&call.arguments, ARG_FRAGMENTS) {
                    f.delta(i, json!({"toolUse": {"input": frag}}));
                }
                f.stop(i);
            }
            f.finish("tool_use", &resp.usage);
        }
        ResponseKind::StallAfter { chunks, stall_secs } => {
            f.text(chunks, false);
            end = StreamEnd::StallThenDrop(Duration::from_secs(*stall_secs));
        }
        ResponseKind::ResetAfter { chunks } => {
            f.text(chunks, false);
            end = StreamEnd::Reset;
        }
        ResponseKind::MalformedChunk => {
            f.text(&["partial".to_string()], false);
            let mut bad = event_frame("contentBlockDelta", &json!({"delta": {"text": "x"}}));
            if let Some(last) = bad.last_mut() {
                *last ^= 0xff;
            }
            f.frames.push(bad);
        }
        ResponseKind::StreamError {
            code,
            message,
            chunks,
        } => {
            if !chunks.is_empty() {
                f.text(chunks, false);
            }
            let text = message
                .clone()
                .unwrap_or_else(|| format!("scripted {code} error"));
            f.frames
                .push(exception_frame(&stream_exception_name(*code), &text));
        }
        // Empty, plus kinds `reply::render` never hands us: no content blocks at all.
        _ => f.finish("end_turn", &resp.usage),
    }
    Reply::Frames {
        content_type: EVENT_STREAM,
        frames: f.frames,
        delay: Duration::from_millis(resp.delay_ms_between_chunks),
        end,
    }
}

#[cfg(test)]
mod tests {
    use aws_smithy_eventstream::frame::read_message_from;

    use super::super::reply::Dialect;
    use super::super::script::ScriptedCall;
    use super::*;

    fn decoded(resp: &Response) -> Vec<(String, Value)> {
        let ctx = RequestCtx::from_body(Dialect::Bedrock, &json!({}), 1);
        let Reply::Frames { frames, .. } = stream(resp, &ctx) else {
            panic!("not frames");
        };
        frames
            .iter()
            .map(|bytes| {
                let message = read_message_from(&mut bytes.as_slice()).unwrap();
                let kind = message
                    .headers()
                    .iter()
                    .find(|h| {
                        h.name().as_str() == ":event-type" || h.name().as_str() == ":exception-type"
                    })
                    .and_then(|h| h.value().as_string().ok())
                    .map(|s| s.as_str().to_string())
                    .unwrap();
                (kind, serde_json::from_slice(message.payload()).unwrap())
            })
            .collect()
    }

    #[test]
    fn tool_use_frames_decode_and_reassemble() {
        let call = ScriptedCall::terminal("tooluse_1", "echo hi");
        let frames = decoded(&Response::tool_calls([call.clone()]));
        let kinds: Vec<&str> = frames.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(kinds[0], "messageStart");
        assert_eq!(kinds[1], "contentBlockStart");
        assert_eq!(frames[1].1["start"]["toolUse"]["toolUseId"], "tooluse_1");
        let input: String = frames
            .iter()
            .filter_map(|(_, v)| v["delta"]["toolUse"]["input"].as_str().map(str::to_owned))
            .collect();
        assert_eq!(input, call.arguments);
        assert_eq!(kinds[kinds.len() - 2], "messageStop");
        assert_eq!(frames[frames.len() - 2].1["stopReason"], "tool_use");
        assert_eq!(kinds[kinds.len() - 1], "metadata");
    }

    #[test]
    fn stream_errors_are_exception_frames_and_malformed_frames_fail_the_crc() {
        let frames = decoded(&Response::stream_error(429, Vec::<String>::new()));
        assert_eq!(frames.last().unwrap().0, "throttlingException");
        let ctx = RequestCtx::from_body(Dialect::Bedrock, &json!({}), 1);
        let Reply::Frames { frames, .. } = stream(&Response::malformed_chunk(), &ctx) else {
            panic!("not frames");
        };
        assert!(read_message_from(&mut frames.last().unwrap().as_slice()).is_err());
    }
}
