//! Decoding Responses API answers: the SSE event stream (`response.created`,
//! `response.output_item.added`/`.done`, `response.output_text.delta`,
//! `response.function_call_arguments.delta`/`.done`, `response.reasoning_summary_text.delta`,
//! `response.completed`/`.incomplete`/`.failed`, `error`) and, for servers that ignore
//! `stream`, a whole `response` object.
//!
//! Items are keyed by their `id` (and their `output_index`, for servers that omit `item_id`
//! on deltas). `output_item.done` is authoritative for a function call's id, name and
//! arguments, and supplies text or a reasoning summary that no delta carried. Message text
//! of the `commentary`/`analysis` phase is progress narration, never the answer: it is
//! reported as reasoning, as Hermes does. Reasoning items with `encrypted_content` are kept
//! for replay, stamped with the issuer; transient `rs_tmp_` items are not.
//!
//! A stream that ends without a terminal event (and without `data: [DONE]`) is a `Transport`
//! error: the answer is incomplete. It does not send requests or retry.

use std::collections::HashMap;
use std::collections::HashSet;
use std::time::Duration;

use futures::Stream;
use serde_json::Value;
use serde_json::json;
use tokio_util::sync::CancellationToken;

use super::Completion;
use super::DeltaSink;
use super::ProviderError;
use super::output::Output;
use super::retry::mentions_context_length;
use super::retry::redact;
use super::sse::SseEvents;
use super::sse::excerpt;
use crate::model::ToolCall;

/// The key Hermes stamps on stored reasoning items: the endpoint that minted them.
pub const ISSUER_KEY: &str = "_issuer_kind";

/// Reads a streaming Responses answer to its terminal event.
pub async fn read_responses_stream<'a, S, B>(
    bytes: S,
    idle: Duration,
    cancel: &CancellationToken,
    issuer: &str,
    sink: DeltaSink<'_>,
) -> Result<Completion, ProviderError>
where
    S: Stream<Item = Result<B, ProviderError>> + Send + 'a,
    B: AsRef<[u8]> + Send + 'a,
{
    let mut events = SseEvents::new(bytes, idle, cancel);
    let mut state = Responses::new(issuer, sink);
    while let Some(event) = events.next().await? {
        let data = event.data.trim();
        if data == "[DONE]" {
            state.terminal = Some(Terminal::Completed);
            break;
        }
        if data.is_empty() {
            continue;
        }
        let v: Value =
            super::lossy_json::from_str(data).map_err(|e| ProviderError::BadResponse {
                message: format!(
                    "malformed Responses event `{}` ({e}): {}",
                    event.event,
                    excerpt(data, 120)
                ),
            })?;
        let kind = v["type"].as_str().unwrap_or(event.event.as_str());
        state.event(kind, &v)?;
        if state.terminal.is_some() {
            break;
        }
    }
    state.finish()
}

/// Parses a non-streamed `response` object, reporting its parts to `sink`.
pub fn parse_response_object(
    body: &str,
    issuer: &str,
    sink: DeltaSink<'_>,
) -> Result<Completion, ProviderError> {
    let v: Value = super::lossy_json::from_str(body).map_err(|e| ProviderError::BadResponse {
        message: format!("malformed Responses object ({e}): {}", excerpt(body, 120)),
    })?;
    if v.get("error").is_some_and(|e| !e.is_null()) && v.get("output").is_none() {
        return Err(error_of(&v["error"]));
    }
    let mut state = Responses::new(issuer, sink);
    let kind = match v["status"].as_str() {
        Some("incomplete") => "response.incomplete",
        Some("failed" | "cancelled") => "response.failed",
        _ => "response.completed",
    };
    state.event(kind, &json!({ "response": v }))?;
    state.finish()
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Terminal {
    Completed,
    Incomplete(String),
}

struct Responses<'s> {
    out: Output<'s>,
    issuer: &'s str,
    calls: Vec<ToolCall>,
    /// Item key (`id` or `#output_index`) → position in `calls`.
    call_slots: HashMap<String, usize>,
    /// Message items of the commentary/analysis phase.
    narration: HashSet<String>,
    /// Items whose text or summary already arrived as deltas.
    streamed: HashSet<String>,
    /// (item, summary index) pairs seen, to separate summary parts.
    summary_parts: HashSet<(String, u64)>,
    reasoning_items: Vec<Value>,
    saw_items: bool,
    terminal: Option<Terminal>,
}

fn keys(v: &Value, id_field: &str) -> Vec<String> {
    let mut keys = Vec::with_capacity(2);
    if let Some(id) = v[id_field].as_str().filter(|id| !id.is_empty()) {
        keys.push(id.to_string());
    }
    if let Some(index) = v["output_index"].as_u64() {
        keys.push(format!("#{index}"));
    }
    keys
}

impl<'s> Responses<'s> {
    fn new(issuer: &'s str, sink: DeltaSink<'s>) -> Self {
        Self {
            out: Output::new(sink),
            issuer,
            calls: Vec::new(),
            call_slots: HashMap::new(),
            narration: HashSet::new(),
            streamed: HashSet::new(),
            summary_parts: HashSet::new(),
            reasoning_items: Vec::new(),
            saw_items: false,
            terminal: None,
        }
    }

    fn event(&mut self, kind: &str, v: &Value) -> Result<(), ProviderError> {
        match kind {
            "response.output_item.added" => self.item_added(v),
            "response.output_item.done" => self.item_done(v, &keys(v, "item_id"))?,
            "response.output_text.delta" | "response.refusal.delta" => {
                let text = v["delta"].as_str().unwrap_or_default();
                let keys = keys(v, "item_id");
                keys.iter().for_each(|k| {
                    self.streamed.insert(k.clone());
                });
                if keys.iter().any(|k| self.narration.contains(k)) {
                    self.out.reasoning(text);
                } else {
                    self.out.text(text);
                }
            }
            "response.function_call_arguments.delta" => {
                let pos = self.call_slot(v)?;
                let delta = v["delta"].as_str().unwrap_or_default();
                self.calls[pos].arguments.push_str(delta);
            }
            "response.function_call_arguments.done" => {
                if let Some(args) = v["arguments"].as_str() {
                    let pos = self.call_slot(v)?;
                    self.calls[pos].arguments = args.to_string();
                }
            }
            "response.reasoning_summary_text.delta" | "response.reasoning_text.delta" => {
                let keys = keys(v, "item_id");
                let part = (
                    keys.first().cloned().unwrap_or_default(),
                    v["summary_index"].as_u64().unwrap_or(0),
                );
                // A new summary part (or item) after earlier reasoning starts a paragraph.
                if self.summary_parts.insert(part) && self.summary_parts.len() > 1 {
                    self.out.reasoning("\n\n");
                }
                keys.iter().for_each(|k| {
                    self.streamed.insert(k.clone());
                });
                self.out.reasoning(v["delta"].as_str().unwrap_or_default());
            }
            "response.completed" | "response.incomplete" => {
                let response = &v["response"];
                self.usage(&response["usage"]);
                if !self.saw_items {
                    // Some relays put the items only in the final object.
                    for (i, item) in response["output"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .enumerate()
                    {
                        let key = item["id"]
                            .as_str()
                            .map_or_else(|| format!("#{i}"), str::to_string);
                        self.item_done(&json!({ "item": item }), &[key])?;
                    }
                }
                self.terminal = Some(if kind == "response.incomplete" {
                    let reason = response["incomplete_details"]["reason"].as_str();
                    Terminal::Incomplete(reason.unwrap_or("unknown").to_string())
                } else {
                    Terminal::Completed
                });
            }
            "response.failed" => return Err(error_of(&v["response"]["error"])),
            "error" => {
                let nested = &v["error"];
                return Err(error_of(if nested.is_object() { nested } else { v }));
            }
            // response.created, content_part.*, output_text.done, *.in_progress, …
            _ => {}
        }
        Ok(())
    }

    fn item_added(&mut self, v: &Value) {
        self.saw_items = true;
        let item = &v["item"];
        let mut keys = keys(v, "");
        if let Some(id) = item["id"].as_str().filter(|id| !id.is_empty()) {
            keys.push(id.to_string());
        }
        match item["type"].as_str() {
            Some("function_call" | "custom_tool_call") => {
                let name = item["name"].as_str().unwrap_or_default().to_string();
                self.calls.push(ToolCall {
                    id: item["call_id"].as_str().unwrap_or_default().to_string(),
                    name: name.clone(),
                    arguments: item["arguments"].as_str().unwrap_or_default().to_string(),
                });
                for key in keys {
                    self.call_slots.insert(key, self.calls.len() - 1);
                }
                if !name.is_empty() {
                    self.out.tool_call_started(&name);
                }
            }
            Some("message") if is_narration(item) => self.narration.extend(keys),
            _ => {}
        }
    }

    /// The call a delta belongs to.
    fn call_slot(&self, v: &Value) -> Result<usize, ProviderError> {
        keys(v, "item_id")
            .iter()
            .find_map(|k| self.call_slots.get(k).copied())
            .ok_or_else(|| ProviderError::BadResponse {
                message: format!(
                    "function-call arguments for item {} which is not a function call",
                    v["item_id"]
                ),
            })
    }

    fn item_done(&mut self, v: &Value, keys: &[String]) -> Result<(), ProviderError> {
        self.saw_items = true;
        let item = &v["item"];
        let mut keys = keys.to_vec();
        if let Some(id) = item["id"].as_str().filter(|id| !id.is_empty()) {
            keys.push(id.to_string());
        }
        let streamed = keys.iter().any(|k| self.streamed.contains(k));
        match item["type"].as_str() {
            Some("function_call" | "custom_tool_call") => {
                let slot = keys.iter().find_map(|k| self.call_slots.get(k).copied());
                let pos = match slot {
                    Some(pos) => pos,
                    None => {
                        self.calls.push(ToolCall {
                            id: String::new(),
                            name: String::new(),
                            arguments: String::new(),
                        });
                        self.calls.len() - 1
                    }
                };
                let call = &mut self.calls[pos];
                if let Some(id) = item["call_id"].as_str().filter(|id| !id.is_empty()) {
                    call.id = id.to_string();
                }
                let announce = call.name.is_empty();
                if let Some(name) = item["name"].as_str().filter(|n| !n.is_empty()) {
                    call.name = name.to_string();
                }
                let args = item["arguments"]
                    .as_str()
                    .or_else(|| item["input"].as_str());
                if let Some(args) = args.filter(|a| !a.is_empty()) {
                    call.arguments = args.to_string();
                }
                if announce && !call.name.is_empty() {
                    let name = call.name.clone();
                    self.out.tool_call_started(&name);
                }
            }
            Some("message") if !streamed => {
                let text = message_text(item);
                if is_narration(item) {
                    self.out.reasoning(&text);
                } else {
                    self.out.text(&text);
                }
            }
            Some("reasoning") => {
                if !streamed {
                    let summary = summary_text(item);
                    if !summary.is_empty() {
                        self.out.reasoning(&summary);
                    }
                }
                self.keep_reasoning(item);
            }
            _ => {}
        }
        Ok(())
    }

    /// Keeps a reasoning item for replay (Hermes's stored shape).
    fn keep_reasoning(&mut self, item: &Value) {
        let Some(encrypted) = item["encrypted_content"].as_str().filter(|c| !c.is_empty()) else {
            return;
        };
        let id = item["id"].as_str().unwrap_or_default();
        if id.starts_with("rs_tmp_") {
            return;
        }
        let summary: Vec<Value> = item["summary"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|p| p["text"].as_str())
            .map(|text| json!({ "type": "summary_text", "text": text }))
            .collect();
        let mut kept = json!({
            "type": "reasoning",
            "encrypted_content": encrypted,
            "summary": summary,
            ISSUER_KEY: self.issuer,
        });
        if !id.is_empty() {
            kept["id"] = json!(id);
        }
        self.reasoning_items.push(kept);
    }

    fn usage(&mut self, usage: &Value) {
        if !usage.is_object() {
            return;
        }
        let n = |v: &Value| v.as_u64().unwrap_or(0);
        // `input_tokens` already counts the cached ones, like OpenAI's `prompt_tokens`.
        self.out.usage.input_tokens = n(&usage["input_tokens"]);
        self.out.usage.output_tokens = n(&usage["output_tokens"]);
        self.out.usage.cache_read_tokens = n(&usage["input_tokens_details"]["cached_tokens"]);
        self.out.usage.reasoning_tokens = n(&usage["output_tokens_details"]["reasoning_tokens"]);
    }

    fn finish(mut self) -> Result<Completion, ProviderError> {
        let Some(terminal) = self.terminal.take() else {
            return Err(ProviderError::Transport {
                message: "the Responses stream ended before response.completed".into(),
            });
        };
        self.out.finish_reason = Some(match &terminal {
            Terminal::Completed if !self.calls.is_empty() => "tool_calls".into(),
            Terminal::Completed => "stop".into(),
            Terminal::Incomplete(reason) if reason == "max_output_tokens" => "length".into(),
            Terminal::Incomplete(reason) if reason == "content_filter" => "content_filter".into(),
            Terminal::Incomplete(_) => "incomplete".into(),
        });
        let items = std::mem::take(&mut self.reasoning_items);
        let mut completion = self
            .out
            .finish(self.calls)
            .map_err(|e| match (e, &terminal) {
                (ProviderError::EmptyResponse, Terminal::Incomplete(reason)) => {
                    ProviderError::BadResponse {
                        message: format!(
                            "the response stopped before any answer (incomplete: {reason}){}",
                            if reason == "max_output_tokens" {
                                " — raise model.max_tokens"
                            } else {
                                ""
                            }
                        ),
                    }
                }
                (e, _) => e,
            })?;
        completion.codex_reasoning_items = items;
        Ok(completion)
    }
}

fn is_narration(item: &Value) -> bool {
    matches!(
        item["phase"]
            .as_str()
            .map(str::to_ascii_lowercase)
            .as_deref(),
        Some("commentary" | "analysis")
    )
}

fn message_text(item: &Value) -> String {
    item["content"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|p| matches!(p["type"].as_str(), Some("output_text" | "text" | "refusal")))
        .filter_map(|p| p["text"].as_str().or_else(|| p["refusal"].as_str()))
        .collect()
}

fn summary_text(item: &Value) -> String {
    item["summary"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|p| p["text"].as_str())
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// Codes the Responses API uses for a failed response or an `error` event.
fn error_of(error: &Value) -> ProviderError {
    let code = error["code"]
        .as_str()
        .or_else(|| error["type"].as_str())
        .unwrap_or_default()
        .to_ascii_lowercase();
    let message = error["message"].as_str().unwrap_or_default();
    let described = match (code.is_empty(), message.is_empty()) {
        (false, false) => format!("{code}: {message}"),
        (false, true) => code.clone(),
        (true, false) => message.to_string(),
        (true, true) => "the provider reported a failure without details".to_string(),
    };
    let described = excerpt(&redact(&described), 300);
    match code.as_str() {
        "rate_limit_exceeded" | "rate_limit_error" | "resource_exhausted" | "throttled" => {
            ProviderError::RateLimited { retry_after: None }
        }
        "context_length_exceeded" | "max_tokens_exceeded" => {
            ProviderError::ContextTooLong { message: described }
        }
        _ if mentions_context_length(message) => {
            ProviderError::ContextTooLong { message: described }
        }
        "invalid_api_key" | "authentication_error" | "unauthorized" => ProviderError::Auth {
            status: 401,
            message: described,
        },
        "server_error"
        | "internal_error"
        | "server_is_overloaded"
        | "overloaded"
        | "service_unavailable"
        | "timeout"
        | "api_error" => ProviderError::Transport {
            message: format!("the provider failed mid-response ({described})"),
        },
        _ => ProviderError::BadResponse { message: described },
    }
}

#[cfg(test)]
#[path = "responses_stream_tests.rs"]
mod tests;
