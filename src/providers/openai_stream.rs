//! Decoding OpenAI chat-completions responses: the streaming chunk format (SSE `data:` lines
//! ending with `[DONE]`) and the plain `chat.completion` JSON used by the non-streaming
//! fallback.
//!
//! Tool calls are accumulated by the wire `index`; a new `id` arriving at an index that already
//! holds a call with a different id starts a new call (Ollama sends every call at index 0).
//! Reasoning comes from `reasoning_content` (DeepSeek, vLLM) or `reasoning` (OpenRouter), one
//! of the two, never both. It does not send requests or retry.

use std::collections::HashMap;
use std::time::Duration;

use futures::Stream;
use serde::Deserialize;
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use super::Completion;
use super::DeltaSink;
use super::ProviderError;
use super::lossy_json;
use super::lossy_json::null_as_default;
use super::output::Output;
use super::retry::classify_status;
use super::sse::SseEvents;
use super::sse::excerpt;
use crate::model::ToolCall;
use crate::model::Usage;

#[derive(Debug, Deserialize)]
struct Chunk {
    // Some gateways send `"choices": null` on usage-only or keep-alive chunks.
    #[serde(default, deserialize_with = "null_as_default")]
    choices: Vec<ChunkChoice>,
    usage: Option<WireUsage>,
    error: Option<Value>,
}

#[derive(Debug, Deserialize)]
struct ChunkChoice {
    delta: Option<WireMessage>,
    finish_reason: Option<String>,
}

/// A streaming `delta` or a non-streaming `message`: same fields.
#[derive(Debug, Default, Deserialize)]
struct WireMessage {
    content: Option<String>,
    reasoning_content: Option<String>,
    reasoning: Option<String>,
    tool_calls: Option<Vec<WireToolCall>>,
}

#[derive(Debug, Deserialize)]
struct WireToolCall {
    index: Option<usize>,
    id: Option<String>,
    function: Option<WireFunction>,
}

#[derive(Debug, Deserialize)]
struct WireFunction {
    name: Option<String>,
    /// A string per the spec; some servers send an object.
    arguments: Option<Value>,
}

#[derive(Debug, Deserialize)]
struct WireUsage {
    prompt_tokens: Option<u64>,
    completion_tokens: Option<u64>,
    prompt_tokens_details: Option<PromptDetails>,
    completion_tokens_details: Option<CompletionDetails>,
}

#[derive(Debug, Deserialize)]
struct PromptDetails {
    cached_tokens: Option<u64>,
}

#[derive(Debug, Deserialize)]
struct CompletionDetails {
    reasoning_tokens: Option<u64>,
}

impl WireUsage {
    fn to_usage(&self) -> Usage {
        Usage {
            input_tokens: self.prompt_tokens.unwrap_or(0),
            output_tokens: self.completion_tokens.unwrap_or(0),
            cache_read_tokens: self
                .prompt_tokens_details
                .as_ref()
                .and_then(|d| d.cached_tokens)
                .unwrap_or(0),
            cache_write_tokens: 0,
            reasoning_tokens: self
                .completion_tokens_details
                .as_ref()
                .and_then(|d| d.reasoning_tokens)
                .unwrap_or(0),
        }
    }
}

/// Tool calls being accumulated from deltas.
#[derive(Debug, Default)]
pub struct ToolCallAccumulator {
    calls: Vec<ToolCall>,
    /// Wire index → position in `calls`.
    slots: HashMap<usize, usize>,
}

impl ToolCallAccumulator {
    fn apply(&mut self, delta: WireToolCall, out: &mut Output<'_>) {
        let id = delta.id.filter(|id| !id.is_empty());
        let pos = match (delta.index, &id) {
            (Some(index), _) => match self.slots.get(&index).copied() {
                // Same index, different id: a new call (Ollama reuses index 0).
                Some(pos)
                    if id.as_ref().is_some_and(|id| {
                        !self.calls[pos].id.is_empty() && self.calls[pos].id != *id
                    }) =>
                {
                    self.new_slot(Some(index))
                }
                Some(pos) => pos,
                None => self.new_slot(Some(index)),
            },
            // No index: an id starts a call unless it is the current one.
            (None, Some(id)) if self.calls.last().is_none_or(|c| c.id != *id) => {
                self.new_slot(None)
            }
            (None, _) => match self.calls.len() {
                0 => self.new_slot(None),
                n => n - 1,
            },
        };
        let call = &mut self.calls[pos];
        if let Some(id) = id {
            call.id = id;
        }
        if let Some(function) = delta.function {
            if let Some(name) = function.name.filter(|n| !n.is_empty()) {
                let first = call.name.is_empty();
                call.name.push_str(&name);
                if first {
                    out.tool_call_started(&call.name);
                }
            }
            match function.arguments {
                Some(Value::String(s)) => call.arguments.push_str(&s),
                Some(Value::Null) | None => {}
                Some(other) => call.arguments.push_str(&other.to_string()),
            }
        }
    }

    fn new_slot(&mut self, index: Option<usize>) -> usize {
        self.calls.push(ToolCall {
            id: String::new(),
            name: String::new(),
            arguments: String::new(),
        });
        let pos = self.calls.len() - 1;
        if let Some(index) = index {
            self.slots.insert(index, pos);
        }
        pos
    }

    pub fn into_calls(self) -> Vec<ToolCall> {
        self.calls
    }
}

fn apply_message(msg: WireMessage, out: &mut Output<'_>, calls: &mut ToolCallAccumulator) {
    let reasoning = msg.reasoning_content.filter(|r| !r.is_empty());
    if let Some(r) = reasoning.or(msg.reasoning) {
        out.reasoning(&r);
    }
    if let Some(text) = msg.content {
        out.text(&text);
    }
    for tc in msg.tool_calls.unwrap_or_default() {
        calls.apply(tc, out);
    }
}

/// An `error` object sent instead of a completion (OpenRouter does this mid-stream).
fn error_object(error: &Value) -> ProviderError {
    let status = error
        .get("code")
        .and_then(|c| {
            c.as_u64()
                .or_else(|| c.as_str().and_then(|s| s.parse().ok()))
        })
        .and_then(|c| u16::try_from(c).ok())
        .filter(|c| (400..600).contains(c))
        .unwrap_or(500);
    classify_status(
        status,
        None,
        &serde_json::json!({ "error": error }).to_string(),
    )
}

/// Reads a streaming response to the end (`[DONE]` or end of body). `data: null` frames are
/// skipped; a body that ends with neither `[DONE]` nor a `finish_reason` was cut off, and is
/// an error rather than a complete answer.
pub async fn read_chat_stream<'a, S, B>(
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
    let mut calls = ToolCallAccumulator::default();
    let mut done = false;
    while let Some(event) = events.next().await? {
        let data = event.data.trim();
        if data == "[DONE]" {
            done = true;
            break;
        }
        if data.is_empty() || data == "null" {
            continue;
        }
        let chunk: Chunk = lossy_json::from_str(data).map_err(|e| ProviderError::BadResponse {
            message: format!(
                "malformed chat-completions chunk ({e}): {}",
                excerpt(data, 120)
            ),
        })?;
        if let Some(error) = &chunk.error {
            return Err(error_object(error));
        }
        if let Some(usage) = &chunk.usage {
            out.usage = usage.to_usage();
        }
        for choice in chunk.choices {
            if let Some(delta) = choice.delta {
                apply_message(delta, &mut out, &mut calls);
            }
            if choice.finish_reason.is_some() {
                out.finish_reason = choice.finish_reason;
            }
        }
    }
    if !done && out.finish_reason.is_none() {
        return Err(ProviderError::Transport {
            message: "the provider's stream ended before the answer was complete (no finish_reason and no [DONE])".to_string(),
        });
    }
    out.finish(calls.into_calls())
}

#[derive(Debug, Deserialize)]
struct FullCompletion {
    #[serde(default, deserialize_with = "null_as_default")]
    choices: Vec<FullChoice>,
    usage: Option<WireUsage>,
    error: Option<Value>,
}

#[derive(Debug, Deserialize)]
struct FullChoice {
    message: Option<WireMessage>,
    finish_reason: Option<String>,
}

/// Parses a non-streaming `chat.completion` body, still reporting its parts to `sink` so the
/// UI shows the answer.
pub fn parse_chat_completion(body: &str, sink: DeltaSink<'_>) -> Result<Completion, ProviderError> {
    let full: FullCompletion =
        lossy_json::from_str(body).map_err(|e| ProviderError::BadResponse {
            message: format!("malformed chat completion ({e}): {}", excerpt(body, 120)),
        })?;
    if let Some(error) = &full.error {
        return Err(error_object(error));
    }
    let mut out = Output::new(sink);
    let mut calls = ToolCallAccumulator::default();
    if let Some(usage) = &full.usage {
        out.usage = usage.to_usage();
    }
    if let Some(choice) = full.choices.into_iter().next() {
        if let Some(mut message) = choice.message {
            // Full messages list calls in order; positions stand in for missing indexes.
            for (i, tc) in message.tool_calls.iter_mut().flatten().enumerate() {
                tc.index.get_or_insert(i);
            }
            apply_message(message, &mut out, &mut calls);
        }
        out.finish_reason = choice.finish_reason;
    }
    out.finish(calls.into_calls())
}

#[cfg(test)]
#[path = "openai_stream_tests.rs"]
mod tests;
