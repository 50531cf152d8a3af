//! Anthropic Messages API (`POST {base}/v1/messages`, `x-api-key` or — for endpoints that
//! want it, e.g. MiniMax — `Authorization: Bearer`, `anthropic-version: 2023-06-01`),
//! streaming.
//!
//! History conversion: the system prompt becomes a top-level `system` text block; assistant
//! tool calls become `tool_use` blocks; tool results become `tool_result` blocks in a `user`
//! message; consecutive messages of the same role are merged (so parallel tool results share
//! one user message, as the API requires). Empty text blocks are dropped (the API rejects
//! them). A tool call whose arguments are not a JSON object is sent as
//! `{"raw_arguments": "<the string>"}` rather than `{}`: `input` must be an object, and
//! keeping the text lets the model see what it actually sent when the tool reports the error.
//!
//! Images: base64 `image` blocks. In a user message they come before the text block (Anthropic
//! recommends image-then-question); in a tool result, `content` becomes an array of the text
//! block followed by the image blocks. Request bodies carry the base64 data and are never
//! logged.
//!
//! Prompt caching (Hermes's `system_and_3` layout, see `prompt_cache`): for the routes Hermes
//! caches, `cache_control` (with the configured TTL) on the system block and on the last block
//! of each of the last 3 history messages (counted before same-role merging, as Hermes counts
//! them) — 4 breakpoints, the API's maximum. Decoding lives in `anthropic_stream`; retries in
//! `retry`.

use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering;
use std::time::Duration;

use async_trait::async_trait;
use serde_json::Value;
use serde_json::json;
use tokio_util::sync::CancellationToken;

use super::ApiMode;
use super::ChatRequest;
use super::Completion;
use super::DeltaSink;
use super::Provider;
use super::ProviderError;
use super::StreamDelta;
use super::anthropic_stream::read_messages_stream;
use super::http;
use super::image_blocks;
use super::prompt_cache;
use super::prompt_cache::CacheTtl;
use super::prompt_cache::Layout;
use super::registry::AuthScheme;
use super::registry::ResolvedProvider;
use super::registry::Secret;
use super::retry;
use super::retry::Failure;
use super::retry::RetryPolicy;
use crate::model::Message;
use crate::model::Role;

pub const ANTHROPIC_VERSION: &str = "2023-06-01";
/// `max_tokens` is mandatory for this API; used when the config sets none.
pub const DEFAULT_MAX_TOKENS: u32 = 8192;

pub struct AnthropicMessages {
    name: String,
    client: reqwest::Client,
    endpoint: String,
    base_url: String,
    target: String,
    api_key: Option<Secret>,
    cache_ttl: CacheTtl,
    auth: AuthScheme,
    extra_headers: Vec<(String, Secret)>,
    idle: Duration,
    retry: RetryPolicy,
}

impl AnthropicMessages {
    pub fn new(resolved: &ResolvedProvider, client: reqwest::Client) -> Self {
        Self {
            name: resolved.name.clone(),
            client,
            endpoint: resolved.endpoint.clone(),
            base_url: resolved.base_url.clone(),
            target: http::target_of(&resolved.endpoint),
            api_key: resolved.api_key.clone(),
            cache_ttl: resolved.prompt_cache_ttl,
            auth: resolved.auth,
            extra_headers: resolved.headers.clone(),
            idle: resolved.stream_idle_timeout,
            retry: resolved.retry,
        }
    }

    async fn attempt(
        &self,
        body: &Value,
        sink: DeltaSink<'_>,
        cancel: &CancellationToken,
    ) -> Result<Completion, Failure> {
        let mut req = self
            .client
            .post(&self.endpoint)
            .header("anthropic-version", ANTHROPIC_VERSION)
            .json(body);
        req = match (&self.api_key, self.auth) {
            (Some(key), AuthScheme::XApiKey) => req.header("x-api-key", key.expose()),
            (Some(key), AuthScheme::Bearer) => req.bearer_auth(key.expose()),
            (None, _) => req,
        };
        for (name, value) in &self.extra_headers {
            req = req.header(name.as_str(), value.expose());
        }
        let resp = http::send(req, &self.target, self.idle, cancel).await?;
        let bytes = http::api_body_stream(resp, &self.target, self.idle, cancel).await?;
        Ok(read_messages_stream(bytes, self.idle, cancel, sink).await?)
    }
}

#[async_trait]
impl Provider for AnthropicMessages {
    fn name(&self) -> &str {
        &self.name
    }

    async fn complete(
        &self,
        request: &ChatRequest,
        on_delta: DeltaSink<'_>,
        cancel: &CancellationToken,
    ) -> Result<Completion, ProviderError> {
        tracing::debug!(provider = %self.name, model = %request.model, messages = request.messages.len(), "messages request");
        let layout = prompt_cache::policy(
            &self.name,
            &self.base_url,
            ApiMode::AnthropicMessages,
            &request.model,
        );
        let cache = (layout == Some(Layout::Native)).then_some(self.cache_ttl);
        let body = build_body(request, cache);
        let emitted = AtomicBool::new(false);
        let sink = |delta: StreamDelta| {
            emitted.store(true, Ordering::SeqCst);
            on_delta(delta);
        };
        let result = retry::run(&self.name, &self.retry, cancel, &emitted, |_| {
            self.attempt(&body, &sink, cancel)
        })
        .await;
        retry::log_outcome(&self.name, "messages request", &result);
        result
    }
}

/// The JSON request body (always streaming), with cache breakpoints of `cache`'s TTL when
/// given (`None`: a route Hermes does not cache).
pub fn build_body(request: &ChatRequest, cache: Option<CacheTtl>) -> Value {
    let (mut messages, last_blocks) = convert(&request.messages);
    let has_system = !request.system.is_empty();
    if let Some(ttl) = cache {
        // Hermes counts history messages (tool results one by one), not merged API messages.
        let candidates: Vec<(usize, usize)> = request
            .messages
            .iter()
            .zip(&last_blocks)
            .filter(|(m, _)| m.role != Role::System)
            .filter_map(|(_, at)| *at)
            .collect();
        let take = prompt_cache::tail_breakpoints(has_system).min(candidates.len());
        for &(message, block) in &candidates[candidates.len() - take..] {
            messages[message]["content"][block]["cache_control"] = ttl.marker();
        }
    }
    let mut body = json!({
        "model": request.model,
        "max_tokens": request.max_tokens.unwrap_or(DEFAULT_MAX_TOKENS),
        "messages": messages,
        "stream": true,
    });
    if has_system {
        let mut block = json!({ "type": "text", "text": request.system });
        if let Some(ttl) = cache {
            block["cache_control"] = ttl.marker();
        }
        body["system"] = json!([block]);
    }
    if !request.tools.is_empty() {
        let tools: Vec<Value> = request
            .tools
            .iter()
            .map(|t| json!({ "name": t.name, "description": t.description, "input_schema": t.parameters }))
            .collect();
        body["tools"] = Value::Array(tools);
    }
    body
}

/// Converts OpenAI-shaped history to Anthropic messages (role + content blocks), merging
/// consecutive same-role messages and dropping messages left without blocks.
pub fn convert_history(history: &[Message]) -> Vec<Value> {
    convert(history).0
}

/// `convert_history`, plus where each history message's last block landed
/// (`(message, block)`, `None` for a message that produced no block).
fn convert(history: &[Message]) -> (Vec<Value>, Vec<Option<(usize, usize)>>) {
    let mut out: Vec<(&'static str, Vec<Value>)> = Vec::new();
    let mut last_blocks = Vec::with_capacity(history.len());
    for m in history {
        let (role, blocks) = match m.role {
            // No mid-conversation system role in this API; the text still reaches the model.
            Role::User | Role::System => ("user", user_blocks(m)),
            Role::Tool => ("user", vec![tool_result_block(m)]),
            Role::Assistant => {
                let mut blocks: Vec<Value> = text_block(&m.content).into_iter().collect();
                blocks.extend(m.tool_calls.iter().map(|c| {
                    json!({ "type": "tool_use", "id": c.id, "name": c.name, "input": tool_input(&c.arguments) })
                }));
                ("assistant", blocks)
            }
        };
        if blocks.is_empty() {
            last_blocks.push(None);
            continue;
        }
        match out.last_mut() {
            Some((last_role, merged)) if *last_role == role => merged.extend(blocks),
            _ => out.push((role, blocks)),
        }
        last_blocks.push(Some((out.len() - 1, out[out.len() - 1].1.len() - 1)));
    }
    let messages = out
        .into_iter()
        .map(|(role, content)| json!({ "role": role, "content": content }))
        .collect();
    (messages, last_blocks)
}

fn text_block(text: &str) -> Option<Value> {
    (!text.trim().is_empty()).then(|| json!({ "type": "text", "text": text }))
}

/// Images first, then the text block.
fn user_blocks(m: &Message) -> Vec<Value> {
    let mut blocks: Vec<Value> = m.images.iter().map(image_blocks::anthropic_block).collect();
    blocks.extend(text_block(&m.content));
    blocks
}

fn tool_result_block(m: &Message) -> Value {
    let mut block = json!({
        "type": "tool_result",
        "tool_use_id": m.tool_call_id.clone().unwrap_or_default(),
    });
    if !m.images.is_empty() {
        let mut content: Vec<Value> = text_block(&m.content).into_iter().collect();
        content.extend(m.images.iter().map(image_blocks::anthropic_block));
        block["content"] = Value::Array(content);
    } else if !m.content.is_empty() {
        // `content` is optional; an empty string would be rejected like an empty text block.
        block["content"] = json!(m.content);
    }
    block
}

/// `tool_use.input` must be an object; see the module doc for the non-object case.
pub fn tool_input(arguments: &str) -> Value {
    if arguments.trim().is_empty() {
        return json!({});
    }
    match serde_json::from_str::<Value>(arguments) {
        Ok(v @ Value::Object(_)) => v,
        _ => json!({ "raw_arguments": arguments }),
    }
}

#[cfg(test)]
#[path = "anthropic_tests.rs"]
mod tests;
