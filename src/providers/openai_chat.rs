//! OpenAI-compatible chat completions (`POST {base}/chat/completions`): OpenAI, OpenRouter,
//! Nous Portal, llama-server, Ollama, vLLM, LM Studio.
//!
//! Requests stream (`stream: true` with usage in the last chunk). When a server answers a
//! streaming request with 400/422 saying streaming is not supported, the call is repeated once
//! without `stream` and this provider instance stays non-streaming from then on. A 2xx answer
//! that is plain JSON instead of SSE is accepted as a non-streaming completion too.
//! Decoding lives in `openai_stream`; retries in `retry`. The key is sent only as the
//! `Authorization` header and never logged; request bodies (which carry base64 images) are
//! never logged either.
//!
//! Images: a user message with images gets array content (its text part first, then one
//! `image_url` part per image); messages without images keep plain-string content. Tool
//! messages can only carry text here, so images returned by tools go in one extra `user`
//! message after the last tool message of a consecutive run (tool messages must directly
//! follow the assistant message that called them).
//!
//! Prompt caching: Claude (and Kimi) models through OpenRouter or Nous Portal, and the other
//! routes Hermes caches, get Hermes's envelope-layout `cache_control` breakpoints (system + the
//! last 3 messages, see `prompt_cache`); every other route's body has none.

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
use super::http;
use super::http::ErrorResponse;
use super::image_blocks;
use super::openai_stream::parse_chat_completion;
use super::openai_stream::read_chat_stream;
use super::prompt_cache;
use super::prompt_cache::CacheTtl;
use super::prompt_cache::Layout;
use super::registry::ResolvedProvider;
use super::registry::Secret;
use super::retry;
use super::retry::Failure;
use super::retry::RetryPolicy;
use crate::model::Message;
use crate::model::Role;

/// Non-streaming bodies are read up to this size.
const MAX_BODY: usize = 32 * 1024 * 1024;
/// A non-streaming request waits for its response head `idle * factor`, at least the minimum.
const NON_STREAMING_WAIT_FACTOR: u32 = 5;
const NON_STREAMING_MIN_WAIT: Duration = Duration::from_secs(300);

/// Whether the request asks for a streamed answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Streaming {
    On,
    Off,
}

pub struct OpenAiChat {
    name: String,
    client: reqwest::Client,
    endpoint: String,
    base_url: String,
    target: String,
    api_key: Option<Secret>,
    cache_ttl: CacheTtl,
    /// The profile's and the user's extra headers (see `ResolvedProvider::headers`).
    extra_headers: Vec<(String, Secret)>,
    idle: Duration,
    retry: RetryPolicy,
    /// Set once the server rejected streaming; later calls go non-streaming directly.
    non_streaming: AtomicBool,
}

impl OpenAiChat {
    pub fn new(resolved: &ResolvedProvider, client: reqwest::Client) -> Self {
        Self {
            name: resolved.name.clone(),
            client,
            endpoint: resolved.endpoint.clone(),
            base_url: resolved.base_url.clone(),
            target: http::target_of(&resolved.endpoint),
            api_key: resolved.api_key.clone(),
            cache_ttl: resolved.prompt_cache_ttl,
            extra_headers: resolved.headers.clone(),
            idle: resolved.stream_idle_timeout,
            retry: resolved.retry,
            non_streaming: AtomicBool::new(false),
        }
    }

    fn post(&self, body: &Value) -> reqwest::RequestBuilder {
        let mut req = self.client.post(&self.endpoint).json(body);
        if let Some(key) = &self.api_key {
            req = req.bearer_auth(key.expose());
        }
        for (name, value) in &self.extra_headers {
            req = req.header(name.as_str(), value.expose());
        }
        req
    }

    /// The TTL of the breakpoints a request to `model` gets, `None` when this route is not
    /// cached.
    fn cache_for(&self, model: &str) -> Option<CacheTtl> {
        let layout =
            prompt_cache::policy(&self.name, &self.base_url, ApiMode::ChatCompletions, model);
        (layout == Some(Layout::Envelope)).then_some(self.cache_ttl)
    }

    async fn attempt(
        &self,
        request: &ChatRequest,
        sink: DeltaSink<'_>,
        cancel: &CancellationToken,
    ) -> Result<Completion, Failure> {
        let cache = self.cache_for(&request.model);
        if !self.non_streaming.load(Ordering::Relaxed) {
            let body = build_body(request, Streaming::On, cache);
            let resp = http::send_raw(self.post(&body), &self.target, self.idle, cancel).await?;
            if resp.status().is_success() {
                return Ok(self.read_success(resp, self.idle, sink, cancel).await?);
            }
            let error = ErrorResponse::read(resp, &self.target, self.idle, cancel).await?;
            if !rejects_streaming(&error) {
                return Err(error.into_failure());
            }
            tracing::warn!(
                provider = %self.name,
                "server does not support streaming; using non-streaming requests"
            );
            self.non_streaming.store(true, Ordering::Relaxed);
        }
        let body = build_body(request, Streaming::Off, cache);
        // Nothing arrives until the whole answer is generated, so the idle limit would cut
        // long answers off; wait longer for the response head.
        let head_wait = (self.idle * NON_STREAMING_WAIT_FACTOR).max(NON_STREAMING_MIN_WAIT);
        let resp = http::send(self.post(&body), &self.target, head_wait, cancel).await?;
        Ok(self.read_success(resp, head_wait, sink, cancel).await?)
    }

    /// A 2xx body: SSE when the server streamed, JSON otherwise.
    /// `json_idle` bounds silence while reading a plain JSON body.
    async fn read_success(
        &self,
        resp: reqwest::Response,
        json_idle: Duration,
        sink: DeltaSink<'_>,
        cancel: &CancellationToken,
    ) -> Result<Completion, ProviderError> {
        let is_json = resp
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|ct| ct.starts_with("application/json"));
        if is_json {
            let body = http::read_body(resp, &self.target, json_idle, cancel, MAX_BODY).await?;
            if let Some(error) = http::html_page_error(&self.target, &body) {
                return Err(error);
            }
            return parse_chat_completion(&body, sink);
        }
        let bytes = http::api_body_stream(resp, &self.target, self.idle, cancel).await?;
        read_chat_stream(bytes, self.idle, cancel, sink).await
    }
}

#[async_trait]
impl Provider for OpenAiChat {
    fn name(&self) -> &str {
        &self.name
    }

    async fn complete(
        &self,
        request: &ChatRequest,
        on_delta: DeltaSink<'_>,
        cancel: &CancellationToken,
    ) -> Result<Completion, ProviderError> {
        tracing::debug!(provider = %self.name, model = %request.model, messages = request.messages.len(), "chat completion request");
        let emitted = AtomicBool::new(false);
        let sink = |delta: StreamDelta| {
            emitted.store(true, Ordering::SeqCst);
            on_delta(delta);
        };
        let result = retry::run(&self.name, &self.retry, cancel, &emitted, |_| {
            self.attempt(request, &sink, cancel)
        })
        .await;
        retry::log_outcome(&self.name, "chat completion", &result);
        result
    }
}

/// True when a 400/422 says the server cannot stream.
fn rejects_streaming(error: &ErrorResponse) -> bool {
    if !matches!(error.status, 400 | 422) {
        return false;
    }
    let body = error.body.to_lowercase();
    body.contains("stream")
        && [
            "not supported",
            "unsupported",
            "not support",
            "does not support",
            "not allowed",
        ]
        .iter()
        .any(|m| body.contains(m))
}

/// The JSON request body, with envelope cache breakpoints of `cache`'s TTL when given.
pub fn build_body(request: &ChatRequest, streaming: Streaming, cache: Option<CacheTtl>) -> Value {
    let mut messages = Vec::with_capacity(request.messages.len() + 1);
    if !request.system.is_empty() {
        messages.push(json!({ "role": "system", "content": request.system }));
    }
    messages.extend(wire_messages(&request.messages));
    if let Some(ttl) = cache {
        prompt_cache::apply_envelope(&mut messages, ttl);
    }
    let mut body = json!({ "model": request.model, "messages": messages });
    if !request.tools.is_empty() {
        let tools: Vec<Value> = request
            .tools
            .iter()
            .map(|t| {
                json!({
                    "type": "function",
                    "function": { "name": t.name, "description": t.description, "parameters": t.parameters },
                })
            })
            .collect();
        body["tools"] = Value::Array(tools);
    }
    if streaming == Streaming::On {
        body["stream"] = json!(true);
        body["stream_options"] = json!({ "include_usage": true });
    }
    if let Some(max) = request.max_tokens {
        body["max_tokens"] = json!(max);
    }
    body
}

/// The history in wire form, with the extra `user` message after each run of tool messages
/// that returned images.
fn wire_messages(history: &[Message]) -> Vec<Value> {
    let mut out = Vec::with_capacity(history.len());
    let mut tool_images: Vec<Value> = Vec::new();
    for (i, m) in history.iter().enumerate() {
        out.push(wire_message(m));
        if m.role != Role::Tool {
            continue;
        }
        tool_images.extend(m.images.iter().map(image_blocks::openai_part));
        let run_ends = history
            .get(i + 1)
            .is_none_or(|next| next.role != Role::Tool);
        if run_ends && !tool_images.is_empty() {
            let mut parts = vec![json!({ "type": "text", "text": image_blocks::TOOL_IMAGES_NOTE })];
            parts.append(&mut tool_images);
            out.push(json!({ "role": "user", "content": parts }));
        }
    }
    out
}

/// Text part first (omitted when blank), then the images in order.
fn user_parts(m: &Message) -> Vec<Value> {
    let mut parts = Vec::with_capacity(m.images.len() + 1);
    if !m.content.trim().is_empty() {
        parts.push(json!({ "type": "text", "text": m.content }));
    }
    parts.extend(m.images.iter().map(image_blocks::openai_part));
    parts
}

/// One message; images on tool messages are sent separately (see `wire_messages`).
fn wire_message(m: &Message) -> Value {
    match m.role {
        Role::System => json!({ "role": "system", "content": m.content }),
        Role::User if m.images.is_empty() => json!({ "role": "user", "content": m.content }),
        Role::User => json!({ "role": "user", "content": user_parts(m) }),
        Role::Tool => json!({
            "role": "tool",
            "tool_call_id": m.tool_call_id.clone().unwrap_or_default(),
            "content": m.content,
        }),
        Role::Assistant if m.tool_calls.is_empty() => {
            json!({ "role": "assistant", "content": m.content })
        }
        Role::Assistant => {
            let calls: Vec<Value> = m
                .tool_calls
                .iter()
                .map(|c| {
                    // Servers reject an empty arguments string; "{}" means "no arguments".
                    let args = if c.arguments.trim().is_empty() { "{}" } else { c.arguments.as_str() };
                    json!({ "id": c.id, "type": "function", "function": { "name": c.name, "arguments": args } })
                })
                .collect();
            // OpenAI wants null content next to tool calls when there is no text.
            let content = if m.content.is_empty() {
                Value::Null
            } else {
                json!(m.content)
            };
            json!({ "role": "assistant", "content": content, "tool_calls": calls })
        }
    }
}

#[cfg(test)]
#[path = "openai_chat_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "openai_chat_faults_tests.rs"]
mod fault_tests;
