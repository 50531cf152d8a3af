//! Decoding a Bedrock `ConverseStream` response: AWS event-stream frames (prelude, headers,
//! payload, CRC32s — framing and CRC checks by `aws-smithy-eventstream`), each an event
//! (`:message-type: event`, `:event-type` = `messageStart`, `contentBlockStart` (toolUse id and
//! name), `contentBlockDelta` (text, toolUse input, reasoningContent), `contentBlockStop`,
//! `messageStop` (stopReason), `metadata` (usage)) or an exception (`:message-type:
//! exception`, `:exception-type: throttlingException`, …). Also maps Bedrock's HTTP error
//! responses (`x-amzn-ErrorType`) to typed errors the same way.
//!
//! The idle watchdog covers the body as for SSE. A body that ends before `messageStop`, or in
//! the middle of a frame, is a `Transport` error (retried while nothing was shown). It does not
//! send requests or retry.

use std::collections::HashMap;
use std::time::Duration;

use aws_smithy_eventstream::frame::DecodedFrame;
use aws_smithy_eventstream::frame::MessageFrameDecoder;
use aws_smithy_types::event_stream::HeaderValue;
use aws_smithy_types::event_stream::Message as Frame;
use bytes::BytesMut;
use futures::Stream;
use futures::StreamExt;
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use super::Completion;
use super::DeltaSink;
use super::ProviderError;
use super::http::ErrorResponse;
use super::output::Output;
use super::retry::Failure;
use super::retry::classify_status;
use super::retry::mentions_context_length;
use super::retry::redact;
use super::sse::excerpt;
use super::sse::watchdog;
use crate::model::ToolCall;

/// Bedrock's wordings for a prompt over the context window (Hermes's patterns, besides the
/// generic ones `retry` knows).
const BEDROCK_CONTEXT_MARKERS: &[&str] = &[
    "max input token",
    "too many input tokens",
    "input token count exceeds",
    "exceeds the maximum number of input tokens",
    "exceed the maximum number of input tokens",
];

/// Reads a `converse-stream` body to its end.
pub async fn read_converse_stream<'a, S, B>(
    bytes: S,
    idle: Duration,
    cancel: &CancellationToken,
    sink: DeltaSink<'_>,
) -> Result<Completion, ProviderError>
where
    S: Stream<Item = Result<B, ProviderError>> + Send + 'a,
    B: AsRef<[u8]> + Send + 'a,
{
    let mut chunks = Box::pin(watchdog(bytes, idle, cancel.clone()));
    let mut buffer = BytesMut::new();
    let mut decoder = MessageFrameDecoder::new();
    let mut state = Converse::new(sink);
    loop {
        loop {
            match decoder.decode_frame(&mut buffer) {
                Ok(DecodedFrame::Complete(frame)) => state.apply(&frame)?,
                Ok(DecodedFrame::Incomplete) => break,
                Err(e) => {
                    return Err(ProviderError::BadResponse {
                        message: format!("malformed Bedrock event-stream frame ({e})"),
                    });
                }
            }
        }
        match chunks.next().await {
            Some(chunk) => buffer.extend_from_slice(chunk?.as_ref()),
            None => break,
        }
    }
    if !buffer.is_empty() {
        return Err(ProviderError::Transport {
            message: "the Bedrock event stream ended in the middle of a frame".into(),
        });
    }
    state.finish()
}

/// The conversation state while frames arrive.
struct Converse<'s> {
    out: Output<'s>,
    calls: Vec<ToolCall>,
    /// contentBlockIndex → position in `calls`, for toolUse blocks.
    tool_blocks: HashMap<u64, usize>,
    stopped: bool,
}

impl<'s> Converse<'s> {
    fn new(sink: DeltaSink<'s>) -> Self {
        Self {
            out: Output::new(sink),
            calls: Vec::new(),
            tool_blocks: HashMap::new(),
            stopped: false,
        }
    }

    fn apply(&mut self, frame: &Frame) -> Result<(), ProviderError> {
        match header(frame, ":message-type").unwrap_or("event") {
            "exception" => {
                let kind = header(frame, ":exception-type").unwrap_or("exception");
                let message = payload_message(frame);
                Err(classify_exception(kind, None, &message, None).error)
            }
            "error" => {
                let code = header(frame, ":error-code").unwrap_or("error");
                let message = header(frame, ":error-message").unwrap_or_default();
                Err(classify_exception(code, None, message, None).error)
            }
            _ => {
                let kind = header(frame, ":event-type").unwrap_or_default();
                let v: Value = serde_json::from_slice(frame.payload()).map_err(|e| {
                    ProviderError::BadResponse {
                        message: format!(
                            "malformed Bedrock event `{kind}` ({e}): {}",
                            excerpt(&String::from_utf8_lossy(frame.payload()), 120)
                        ),
                    }
                })?;
                self.event(kind, &v)
            }
        }
    }

    fn event(&mut self, kind: &str, v: &Value) -> Result<(), ProviderError> {
        let index = v["contentBlockIndex"].as_u64().unwrap_or(0);
        match kind {
            "contentBlockStart" => {
                let tool = &v["start"]["toolUse"];
                if tool.is_object() {
                    let name = tool["name"].as_str().unwrap_or_default().to_string();
                    self.calls.push(ToolCall {
                        id: tool["toolUseId"].as_str().unwrap_or_default().to_string(),
                        name: name.clone(),
                        arguments: String::new(),
                    });
                    self.tool_blocks.insert(index, self.calls.len() - 1);
                    if !name.is_empty() {
                        self.out.tool_call_started(&name);
                    }
                }
            }
            "contentBlockDelta" => {
                let delta = &v["delta"];
                if let Some(text) = delta["text"].as_str() {
                    self.out.text(text);
                } else if let Some(input) = delta["toolUse"]["input"].as_str() {
                    let Some(&pos) = self.tool_blocks.get(&index) else {
                        return Err(ProviderError::BadResponse {
                            message: format!(
                                "toolUse input for content block {index}, which is not a toolUse block"
                            ),
                        });
                    };
                    self.calls[pos].arguments.push_str(input);
                } else if let Some(text) = delta["reasoningContent"]["text"].as_str() {
                    self.out.reasoning(text);
                }
                // reasoningContent.signature / redactedContent carry nothing to show.
            }
            "messageStop" => {
                self.stopped = true;
                self.out.finish_reason = v["stopReason"].as_str().map(str::to_string);
            }
            "metadata" => {
                let usage = &v["usage"];
                let n = |key: &str| usage[key].as_u64().unwrap_or(0);
                let (cache_read, cache_write) =
                    (n("cacheReadInputTokens"), n("cacheWriteInputTokens"));
                // Like Anthropic, `inputTokens` excludes cached tokens; ours is the whole prompt.
                self.out.usage.input_tokens = n("inputTokens") + cache_read + cache_write;
                self.out.usage.output_tokens = n("outputTokens");
                self.out.usage.cache_read_tokens = cache_read;
                self.out.usage.cache_write_tokens = cache_write;
            }
            // messageStart, contentBlockStop and future events.
            _ => {}
        }
        Ok(())
    }

    fn finish(self) -> Result<Completion, ProviderError> {
        if !self.stopped {
            return Err(ProviderError::Transport {
                message: "the Bedrock event stream ended before messageStop".into(),
            });
        }
        let reason = self.out.finish_reason.clone();
        let mut calls = self.calls;
        for call in &mut calls {
            if call.arguments.trim().is_empty() {
                call.arguments = "{}".into();
            }
        }
        self.out
            .finish(calls)
            .map_err(|e| match (e, reason.as_deref()) {
                (
                    ProviderError::EmptyResponse,
                    Some(r @ ("content_filtered" | "guardrail_intervened")),
                ) => ProviderError::BadResponse {
                    message: format!("Bedrock blocked the response ({r})"),
                },
                (e, _) => e,
            })
    }
}

fn header<'f>(frame: &'f Frame, name: &str) -> Option<&'f str> {
    frame
        .headers()
        .iter()
        .find(|h| h.name().as_str() == name)
        .and_then(|h| match h.value() {
            HeaderValue::String(s) => Some(s.as_str()),
            _ => None,
        })
}

/// `message` of an exception payload (`{"message": "..."}`), else the payload as text.
fn payload_message(frame: &Frame) -> String {
    let text = String::from_utf8_lossy(frame.payload());
    serde_json::from_str::<Value>(&text)
        .ok()
        .and_then(|v| {
            v.get("message")
                .or_else(|| v.get("Message"))
                .and_then(Value::as_str)
                .map(str::to_string)
        })
        .unwrap_or_else(|| text.into_owned())
}

/// A non-2xx response from Bedrock; `error_type` is the `x-amzn-ErrorType` header.
pub fn classify_http_error(error: &ErrorResponse, error_type: Option<&str>) -> Failure {
    let body: Option<Value> = serde_json::from_str(&error.body).ok();
    let kind = error_type
        .map(|t| t.split(':').next().unwrap_or(t).trim().to_string())
        .or_else(|| {
            body.as_ref()
                .and_then(|b| b["__type"].as_str())
                .map(|t| t.rsplit('#').next().unwrap_or(t).to_string())
        });
    let message = body
        .as_ref()
        .and_then(|b| b.get("message").or_else(|| b.get("Message")))
        .and_then(Value::as_str)
        .map_or_else(|| error.body.clone(), str::to_string);
    match kind {
        Some(kind) => classify_exception(&kind, Some(error.status), &message, error.retry_after),
        None => error.clone().into_failure(),
    }
}

/// Maps a Bedrock exception name (`ThrottlingException` over HTTP, `throttlingException` in a
/// stream) to the error its meaning calls for.
pub fn classify_exception(
    kind: &str,
    status: Option<u16>,
    message: &str,
    retry_after: Option<Duration>,
) -> Failure {
    let text = excerpt(&redact(message.trim()), 300);
    let described = format!("{kind}: {text}");
    let lower_kind = kind.to_ascii_lowercase();
    let error = match lower_kind.trim_end_matches("exception") {
        "throttling" | "servicequotaexceeded" | "toomanyrequests" => {
            ProviderError::RateLimited { retry_after }
        }
        "accessdenied"
        | "unrecognizedclient"
        | "invalidsignature"
        | "incompletesignature"
        | "missingauthenticationtoken"
        | "expiredtoken" => ProviderError::Auth {
            status: status.unwrap_or(403),
            message: described,
        },
        _ if is_context_overflow(message) => ProviderError::ContextTooLong { message: described },
        "internalserver" | "serviceunavailable" | "modelnotready" | "modeltimeout"
        | "modelstreamerror" | "modelerror" => ProviderError::Transport {
            message: format!("Bedrock failed ({described})"),
        },
        "validation" | "resourcenotfound" | "modelnotfound" | "conflict" => {
            ProviderError::BadResponse { message: described }
        }
        _ => match status {
            Some(status) => classify_status(status, retry_after, &described),
            None => ProviderError::Transport {
                message: format!("Bedrock failed mid-response ({described})"),
            },
        },
    };
    Failure { error, retry_after }
}

fn is_context_overflow(message: &str) -> bool {
    let lower = message.to_lowercase();
    mentions_context_length(message) || BEDROCK_CONTEXT_MARKERS.iter().any(|m| lower.contains(m))
}

#[cfg(test)]
#[path = "bedrock_stream_tests.rs"]
mod tests;
