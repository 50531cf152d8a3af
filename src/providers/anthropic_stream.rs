//! Decoding the Anthropic Messages event stream: `message_start` (input usage incl. cache
//! reads/writes), `content_block_start` (text / thinking / tool_use), `content_block_delta`
//! (`text_delta`, `thinking_delta`, `input_json_delta`), `message_delta` (stop reason, output
//! usage), `message_stop`, `ping`, and `error` events (mapped to typed errors; an
//! `overloaded_error` is a retryable `Transport`).
//!
//! `Usage.input_tokens` is the whole prompt (uncached + cache read + cache write), the same
//! meaning as OpenAI's `prompt_tokens`. It does not send requests or retry.

use std::collections::HashMap;
use std::time::Duration;

use futures::Stream;
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use super::Completion;
use super::DeltaSink;
use super::ProviderError;
use super::output::Output;
use super::retry::classify_status;
use super::sse::SseEvents;
use super::sse::excerpt;
use crate::model::ToolCall;

/// Reads a streaming Messages response to `message_stop`. A body that ends with neither
/// `message_stop` nor a `stop_reason` was cut off, and is an error rather than an answer.
pub async fn read_messages_stream<'a, S, B>(
    bytes: S,
    idle: Duration,
    cancel: &CancellationToken,
    sink: DeltaSink<'_>,
) -> Result<Completion, ProviderError>
where
    S: Stream<Item = Result<B, ProviderError>> + Send + 'a,
    B: AsRef<[u8]> + Send + 'a,
{
    let mut events = SseEvents::new(bytes, idle, cancel);
    let mut out = Output::new(sink);
    let mut calls: Vec<ToolCall> = Vec::new();
    // Content-block index → position in `calls`, for tool_use blocks.
    let mut tool_blocks: HashMap<u64, usize> = HashMap::new();
    // Inputs given whole in content_block_start, used when no input_json_delta follows.
    let mut start_inputs: HashMap<usize, String> = HashMap::new();
    let (mut uncached, mut cache_read, mut cache_write) = (0u64, 0u64, 0u64);
    let mut stopped = false;

    while let Some(event) = events.next().await? {
        let data = event.data.trim();
        if data.is_empty() {
            continue;
        }
        let v: Value =
            super::lossy_json::from_str(data).map_err(|e| ProviderError::BadResponse {
                message: format!(
                    "malformed Anthropic event `{}` ({e}): {}",
                    event.event,
                    excerpt(data, 120)
                ),
            })?;
        let kind = v["type"].as_str().unwrap_or(event.event.as_str());
        match kind {
            "message_start" => {
                let usage = &v["message"]["usage"];
                uncached = u(&usage["input_tokens"]);
                cache_read = u(&usage["cache_read_input_tokens"]);
                cache_write = u(&usage["cache_creation_input_tokens"]);
                out.usage.output_tokens = u(&usage["output_tokens"]);
            }
            "content_block_start" => {
                let block = &v["content_block"];
                match block["type"].as_str() {
                    Some("tool_use") => {
                        let name = block["name"].as_str().unwrap_or_default().to_string();
                        calls.push(ToolCall {
                            id: block["id"].as_str().unwrap_or_default().to_string(),
                            name: name.clone(),
                            arguments: String::new(),
                        });
                        let pos = calls.len() - 1;
                        tool_blocks.insert(u(&v["index"]), pos);
                        if block["input"].as_object().is_some_and(|o| !o.is_empty()) {
                            start_inputs.insert(pos, block["input"].to_string());
                        }
                        if !name.is_empty() {
                            out.tool_call_started(&name);
                        }
                    }
                    Some("text") => out.text(block["text"].as_str().unwrap_or_default()),
                    Some("thinking") => {
                        out.reasoning(block["thinking"].as_str().unwrap_or_default())
                    }
                    _ => {}
                }
            }
            "content_block_delta" => {
                let delta = &v["delta"];
                match delta["type"].as_str() {
                    Some("text_delta") => out.text(delta["text"].as_str().unwrap_or_default()),
                    Some("thinking_delta") => {
                        out.reasoning(delta["thinking"].as_str().unwrap_or_default())
                    }
                    Some("input_json_delta") => {
                        let Some(&pos) = tool_blocks.get(&u(&v["index"])) else {
                            return Err(ProviderError::BadResponse {
                                message: format!(
                                    "input_json_delta for content block {} which is not a tool_use block",
                                    v["index"]
                                ),
                            });
                        };
                        calls[pos]
                            .arguments
                            .push_str(delta["partial_json"].as_str().unwrap_or_default());
                    }
                    // signature_delta and future kinds carry nothing we show.
                    _ => {}
                }
            }
            "message_delta" => {
                if let Some(reason) = v["delta"]["stop_reason"].as_str() {
                    out.finish_reason = Some(reason.to_string());
                }
                let usage = &v["usage"];
                if usage["output_tokens"].is_u64() {
                    out.usage.output_tokens = u(&usage["output_tokens"]);
                }
                // Newer API versions repeat input counts here; prefer them when present.
                if usage["input_tokens"].is_u64() {
                    uncached = u(&usage["input_tokens"]);
                }
                if usage["cache_read_input_tokens"].is_u64() {
                    cache_read = u(&usage["cache_read_input_tokens"]);
                }
                if usage["cache_creation_input_tokens"].is_u64() {
                    cache_write = u(&usage["cache_creation_input_tokens"]);
                }
            }
            "message_stop" => {
                stopped = true;
                break;
            }
            "error" => return Err(stream_error(&v["error"])),
            // ping, content_block_stop and unknown future events.
            _ => {}
        }
    }
    if !stopped && out.finish_reason.is_none() {
        return Err(ProviderError::Transport {
            message: "the provider's stream ended before the answer was complete (no stop_reason and no message_stop)".to_string(),
        });
    }
    for (pos, input) in start_inputs {
        if calls[pos].arguments.is_empty() {
            calls[pos].arguments = input;
        }
    }
    for call in &mut calls {
        if call.arguments.is_empty() {
            call.arguments = "{}".to_string();
        }
    }
    out.usage.input_tokens = uncached + cache_read + cache_write;
    out.usage.cache_read_tokens = cache_read;
    out.usage.cache_write_tokens = cache_write;
    out.finish(calls)
}

fn u(v: &Value) -> u64 {
    v.as_u64().unwrap_or(0)
}

/// Maps an in-stream `error` event to the error its HTTP equivalent would give.
fn stream_error(error: &Value) -> ProviderError {
    let kind = error["type"].as_str().unwrap_or("error");
    let message = error["message"].as_str().unwrap_or(kind);
    let body = serde_json::json!({ "error": { "message": message } }).to_string();
    let status = match kind {
        "overloaded_error" => {
            return ProviderError::Transport {
                message: format!(
                    "the provider is overloaded ({kind}): {}",
                    excerpt(message, 200)
                ),
            };
        }
        "rate_limit_error" => 429,
        "authentication_error" => 401,
        "permission_error" => 403,
        "invalid_request_error" => 400,
        "request_too_large" => 413,
        "not_found_error" => 404,
        _ => 500,
    };
    classify_status(status, None, &body)
}

#[cfg(test)]
#[path = "anthropic_stream_tests.rs"]
mod tests;
