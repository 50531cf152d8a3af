//! OpenAI's Responses API (`POST {base}/responses`, Hermes's `codex_responses`): OpenAI, xAI,
//! GitHub Models and Responses-compatible relays. Stateless: `store: false`, the full history
//! every call, never `previous_response_id`. Decoding lives in `responses_stream`; retries in
//! `retry`; the key is sent only as `Authorization: Bearer` and bodies are never logged.
//!
//! The request, as Hermes builds it: the system prompt as `instructions`; the history as
//! `input` items (`user`/`assistant`/`system` messages, `function_call` and
//! `function_call_output` items, images as `input_image` data URLs — in user messages and in
//! tool outputs); flattened function tools (`strict: false`) with `parallel_tool_calls`;
//! `reasoning: {effort: medium, summary: auto}` with `include: ["reasoning.encrypted_content"]`;
//! a `prompt_cache_key` hashed from the instructions and tools; `max_output_tokens`. xAI gets
//! `reasoning.effort` only for the Grok models that take it and no summary; GitHub gets no
//! reasoning and no cache key; the ChatGPT Codex backend no `max_output_tokens`.
//!
//! Reasoning items come back with `encrypted_content`; they ride on the assistant message
//! (`Message::codex_reasoning_items`, stamped with the issuing endpoint as Hermes does) and are
//! replayed before that message's output on later calls. Items another endpoint minted are not
//! replayed (it could not decrypt them). Two server refusals are remembered for the life of the
//! provider and the call is repeated at once without the offending part: HTTP 400
//! `invalid_encrypted_content` (stop replaying) and a 400/422 saying `reasoning` is not
//! supported (stop asking for reasoning).

use std::collections::HashSet;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering;
use std::time::Duration;

use async_trait::async_trait;
use serde_json::Value;
use serde_json::json;
use sha2::Digest;
use tokio_util::sync::CancellationToken;

use super::ChatRequest;
use super::Completion;
use super::DeltaSink;
use super::Provider;
use super::ProviderError;
use super::StreamDelta;
use super::http;
use super::http::ErrorResponse;
use super::image_blocks::unavailable_note;
use super::registry::ResolvedProvider;
use super::registry::Secret;
use super::responses_stream::ISSUER_KEY;
use super::responses_stream::parse_response_object;
use super::responses_stream::read_responses_stream;
use super::retry;
use super::retry::Failure;
use super::retry::RetryPolicy;
use crate::model::ImagePart;
use crate::model::Message;
use crate::model::Role;

/// Non-streamed (plain JSON) answers are read up to this size.
const MAX_BODY: usize = 32 * 1024 * 1024;
/// Hermes's default reasoning effort.
const REASONING_EFFORT: &str = "medium";
/// Grok models that accept `reasoning.effort` (Hermes's allowlist; others reject it).
const GROK_EFFORT_MODELS: &[&str] = &[
    "grok-3-mini",
    "grok-4.20-multi-agent",
    "grok-4.3",
    "grok-4.5",
];

/// Which Responses implementation the base URL points at (Hermes's issuer kinds).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Generic,
    Xai,
    Github,
    Codex,
}

impl Backend {
    pub fn of(base_url: &str) -> Self {
        let host = reqwest::Url::parse(base_url)
            .ok()
            .and_then(|u| u.host_str().map(str::to_ascii_lowercase))
            .unwrap_or_default();
        if host == "api.x.ai" {
            Self::Xai
        } else if host == "models.github.ai" || host.ends_with("githubcopilot.com") {
            Self::Github
        } else if base_url.contains("chatgpt.com/backend-api/codex") {
            Self::Codex
        } else {
            Self::Generic
        }
    }

    /// Hermes's `_issuer_kind` stamp for reasoning items minted here.
    pub fn issuer(self, base_url: &str) -> String {
        match self {
            Self::Xai => "xai_responses".into(),
            Self::Github => "github_responses".into(),
            Self::Codex => "codex_backend".into(),
            Self::Generic => format!("other:{base_url}"),
        }
    }
}

/// What one request asks for (fixed per provider, except the two remembered refusals).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shape {
    pub backend: Backend,
    pub issuer: String,
    pub reasoning: bool,
    pub replay: bool,
}

pub struct OpenAiResponses {
    name: String,
    client: reqwest::Client,
    endpoint: String,
    target: String,
    api_key: Option<Secret>,
    /// The profile's and the user's extra headers (see `ResolvedProvider::headers`).
    extra_headers: Vec<(String, Secret)>,
    backend: Backend,
    issuer: String,
    idle: Duration,
    retry: RetryPolicy,
    /// Set when the server rejected `reasoning` for this model.
    reasoning_off: AtomicBool,
    /// Set when the server could not decrypt replayed reasoning items.
    replay_off: AtomicBool,
}

impl OpenAiResponses {
    pub fn new(resolved: &ResolvedProvider, client: reqwest::Client) -> Self {
        let backend = Backend::of(&resolved.base_url);
        Self {
            name: resolved.name.clone(),
            client,
            endpoint: resolved.endpoint.clone(),
            target: http::target_of(&resolved.endpoint),
            api_key: resolved.api_key.clone(),
            extra_headers: resolved.headers.clone(),
            backend,
            issuer: backend.issuer(&resolved.base_url),
            idle: resolved.stream_idle_timeout,
            retry: resolved.retry,
            reasoning_off: AtomicBool::new(false),
            replay_off: AtomicBool::new(false),
        }
    }

    fn shape(&self) -> Shape {
        Shape {
            backend: self.backend,
            issuer: self.issuer.clone(),
            reasoning: !self.reasoning_off.load(Ordering::Relaxed),
            replay: !self.replay_off.load(Ordering::Relaxed),
        }
    }

    async fn attempt(
        &self,
        request: &ChatRequest,
        sink: DeltaSink<'_>,
        cancel: &CancellationToken,
    ) -> Result<Completion, Failure> {
        loop {
            let shape = self.shape();
            let body = build_body(request, &shape);
            let mut req = self.client.post(&self.endpoint).json(&body);
            if let Some(key) = &self.api_key {
                req = req.bearer_auth(key.expose());
            }
            for (name, value) in &self.extra_headers {
                req = req.header(name.as_str(), value.expose());
            }
            let resp = http::send_raw(req, &self.target, self.idle, cancel).await?;
            if resp.status().is_success() {
                return Ok(self.read_success(resp, sink, cancel).await?);
            }
            let error = ErrorResponse::read(resp, &self.target, self.idle, cancel).await?;
            if shape.replay && rejects_replay(&error) && body_replays(&body) {
                tracing::warn!(provider = %self.name, "the server could not decrypt replayed reasoning; not replaying reasoning from now on");
                self.replay_off.store(true, Ordering::Relaxed);
            } else if shape.reasoning
                && rejects_reasoning(&error)
                && body.get("reasoning").is_some()
            {
                tracing::warn!(provider = %self.name, model = %request.model, "the model does not take reasoning parameters; not sending them from now on");
                self.reasoning_off.store(true, Ordering::Relaxed);
            } else {
                return Err(error.into_failure());
            }
        }
    }

    /// A 2xx body: SSE normally, a whole `response` object from servers that ignore `stream`.
    async fn read_success(
        &self,
        resp: reqwest::Response,
        sink: DeltaSink<'_>,
        cancel: &CancellationToken,
    ) -> Result<Completion, ProviderError> {
        let is_json = resp
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|ct| ct.starts_with("application/json"));
        if is_json {
            let body = http::read_body(resp, &self.target, self.idle, cancel, MAX_BODY).await?;
            if let Some(error) = http::html_page_error(&self.target, &body) {
                return Err(error);
            }
            return parse_response_object(&body, &self.issuer, sink);
        }
        let bytes = http::api_body_stream(resp, &self.target, self.idle, cancel).await?;
        read_responses_stream(bytes, self.idle, cancel, &self.issuer, sink).await
    }
}

#[async_trait]
impl Provider for OpenAiResponses {
    fn name(&self) -> &str {
        &self.name
    }

    async fn complete(
        &self,
        request: &ChatRequest,
        on_delta: DeltaSink<'_>,
        cancel: &CancellationToken,
    ) -> Result<Completion, ProviderError> {
        tracing::debug!(provider = %self.name, model = %request.model, messages = request.messages.len(), "responses request");
        let emitted = AtomicBool::new(false);
        let sink = |delta: StreamDelta| {
            emitted.store(true, Ordering::SeqCst);
            on_delta(delta);
        };
        let result = retry::run(&self.name, &self.retry, cancel, &emitted, |_| {
            self.attempt(request, &sink, cancel)
        })
        .await;
        retry::log_outcome(&self.name, "responses request", &result);
        result
    }
}

fn rejects_replay(error: &ErrorResponse) -> bool {
    error.status == 400 && error.body.contains("invalid_encrypted_content")
}

/// A 400/422 saying the model takes no `reasoning` parameters.
fn rejects_reasoning(error: &ErrorResponse) -> bool {
    let body = error.body.to_lowercase();
    matches!(error.status, 400 | 422)
        && body.contains("reasoning")
        && [
            "not supported",
            "unsupported",
            "not support",
            "unknown parameter",
        ]
        .iter()
        .any(|m| body.contains(m))
}

fn body_replays(body: &Value) -> bool {
    body["input"]
        .as_array()
        .is_some_and(|items| items.iter().any(|i| i["type"] == "reasoning"))
}

/// The JSON request body (always streaming).
pub fn build_body(request: &ChatRequest, shape: &Shape) -> Value {
    let tools: Vec<Value> = request
        .tools
        .iter()
        .map(|t| {
            json!({
                "type": "function",
                "name": t.name,
                "description": t.description,
                "strict": false,
                "parameters": t.parameters,
            })
        })
        .collect();
    let mut body = json!({
        "model": request.model,
        "input": input_items(&request.messages, shape),
        "store": false,
        "stream": true,
    });
    if !request.system.is_empty() {
        body["instructions"] = json!(request.system);
    }
    if shape.backend != Backend::Github {
        body["prompt_cache_key"] = json!(prompt_cache_key(&request.system, &tools));
    }
    if !tools.is_empty() {
        body["tools"] = Value::Array(tools);
        body["tool_choice"] = json!("auto");
        body["parallel_tool_calls"] = json!(true);
    }
    let include = if shape.replay {
        json!(["reasoning.encrypted_content"])
    } else {
        json!([])
    };
    match shape.backend {
        _ if !shape.reasoning => {}
        Backend::Github => {}
        Backend::Xai => {
            body["include"] = include;
            if grok_takes_effort(&request.model) {
                body["reasoning"] = json!({ "effort": REASONING_EFFORT });
            }
        }
        Backend::Generic | Backend::Codex => {
            body["reasoning"] = json!({ "effort": REASONING_EFFORT, "summary": "auto" });
            body["include"] = include;
        }
    }
    if let Some(max) = request
        .max_tokens
        .filter(|_| shape.backend != Backend::Codex)
    {
        body["max_output_tokens"] = json!(max);
    }
    body
}

fn grok_takes_effort(model: &str) -> bool {
    let name = model.trim().to_ascii_lowercase();
    let name = name.rsplit('/').next().unwrap_or_default();
    GROK_EFFORT_MODELS.iter().any(|p| name.starts_with(p))
}

/// `pck_` + 24 hex digits of SHA-256 over the instructions and the tool schemas (Hermes's
/// content-addressed key: stable across sessions that share a prompt and tool set).
fn prompt_cache_key(instructions: &str, tools: &[Value]) -> String {
    let mut hasher = sha2::Sha256::new();
    hasher.update(instructions.as_bytes());
    hasher.update([0u8]);
    hasher.update(Value::Array(tools.to_vec()).to_string().as_bytes());
    let digest = hasher.finalize();
    let hex: String = digest.iter().take(12).map(|b| format!("{b:02x}")).collect();
    format!("pck_{hex}")
}

/// The history as Responses `input` items.
pub fn input_items(history: &[Message], shape: &Shape) -> Vec<Value> {
    let mut items = Vec::with_capacity(history.len() + 1);
    let mut replayed: HashSet<String> = HashSet::new();
    for m in history {
        match m.role {
            Role::System => items.push(json!({ "role": "system", "content": m.content })),
            Role::User if m.images.is_empty() => {
                items.push(json!({ "role": "user", "content": m.content }));
            }
            Role::User => items.push(json!({ "role": "user", "content": input_parts(m) })),
            Role::Assistant => assistant_items(m, shape, &mut replayed, &mut items),
            Role::Tool => {
                let Some(call_id) = m.tool_call_id.as_deref().filter(|id| !id.trim().is_empty())
                else {
                    // An output without its call would be rejected; the call is gone.
                    continue;
                };
                let output = if m.images.is_empty() {
                    json!(m.content)
                } else {
                    Value::Array(input_parts(m))
                };
                items.push(
                    json!({ "type": "function_call_output", "call_id": call_id, "output": output }),
                );
            }
        }
    }
    items
}

/// Replayable reasoning items, then the text, then one `function_call` per call.
fn assistant_items(
    m: &Message,
    shape: &Shape,
    replayed: &mut HashSet<String>,
    items: &mut Vec<Value>,
) {
    let mut had_reasoning = false;
    for item in m.codex_reasoning_items.iter().filter(|_| shape.replay) {
        let Some(fields) = item.as_object() else {
            continue;
        };
        if fields
            .get("encrypted_content")
            .and_then(Value::as_str)
            .is_none_or(str::is_empty)
        {
            continue;
        }
        let issuer = fields.get(ISSUER_KEY).and_then(Value::as_str);
        if issuer.is_some_and(|i| i != shape.issuer) {
            continue;
        }
        if let Some(id) = fields.get("id").and_then(Value::as_str)
            && !replayed.insert(id.to_string())
        {
            continue;
        }
        // With `store: false` the server cannot look ids up (it answers 404), and the
        // issuer stamp is ours, not the API's.
        let mut replay = fields.clone();
        replay.remove("id");
        replay.remove(ISSUER_KEY);
        replay
            .entry("summary")
            .or_insert_with(|| Value::Array(Vec::new()));
        items.push(Value::Object(replay));
        had_reasoning = true;
    }
    if !m.content.trim().is_empty() {
        items.push(json!({ "role": "assistant", "content": m.content }));
    } else if had_reasoning && m.tool_calls.is_empty() {
        // A reasoning item must be followed by an item; nothing else follows it here.
        items.push(json!({ "role": "assistant", "content": "" }));
    }
    for call in &m.tool_calls {
        let arguments = if call.arguments.trim().is_empty() {
            "{}"
        } else {
            call.arguments.as_str()
        };
        items.push(json!({
            "type": "function_call",
            "call_id": call.id,
            "name": call.name,
            "arguments": arguments,
        }));
    }
}

/// Text part first (omitted when blank), then the images, as `input_*` parts.
fn input_parts(m: &Message) -> Vec<Value> {
    let mut parts = Vec::with_capacity(m.images.len() + 1);
    if !m.content.trim().is_empty() {
        parts.push(json!({ "type": "input_text", "text": m.content }));
    }
    parts.extend(m.images.iter().map(input_image));
    parts
}

fn input_image(part: &ImagePart) -> Value {
    match &part.payload {
        Some(payload) => json!({ "type": "input_image", "image_url": payload.data_url() }),
        None => json!({ "type": "input_text", "text": unavailable_note(&part.path) }),
    }
}

#[cfg(test)]
#[path = "openai_responses_tests.rs"]
mod tests;
