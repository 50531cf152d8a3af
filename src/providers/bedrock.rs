//! AWS Bedrock Converse (`POST {base}/model/{modelId}/converse-stream`), SigV4-signed (or a
//! Bedrock API key as a bearer token), answered in the AWS event-stream framing
//! (decoded in `bedrock_stream`).
//!
//! Credentials are read on the first request (off the async runtime) and cached; an auth
//! failure drops the cache so a refreshed `~/.aws/credentials` is picked up by the next call.
//! Every attempt, retries included, is signed afresh (a SigV4 signature is valid for minutes).
//!
//! History conversion: the system prompt becomes `system: [{text}]`; tool calls become
//! `toolUse` blocks (arguments that are not a JSON object are sent as
//! `{"raw_arguments": "<text>"}`, as for Anthropic); tool results become `toolResult` blocks in
//! a `user` message, with their images; consecutive same-role messages are merged (Converse
//! wants strict alternation) and the conversation starts and ends with a user turn. Converse
//! rejects blank text blocks, so blank text becomes Hermes's `(empty)` placeholder. Images are
//! base64 `image` blocks before the text. Request bodies carry images and are never logged.

use std::sync::Arc;
use std::sync::Mutex;
use std::sync::PoisonError;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering;
use std::time::Duration;
use std::time::SystemTime;

use async_trait::async_trait;
use percent_encoding::AsciiSet;
use percent_encoding::NON_ALPHANUMERIC;
use percent_encoding::utf8_percent_encode;
use serde_json::Value;
use serde_json::json;
use tokio_util::sync::CancellationToken;

use super::ChatRequest;
use super::Completion;
use super::DeltaSink;
use super::Provider;
use super::ProviderError;
use super::StreamDelta;
use super::anthropic::tool_input;
use super::aws_auth;
use super::aws_auth::AwsAuth;
use super::aws_auth::AwsEnv;
use super::aws_auth::AwsSetup;
use super::aws_auth::SignInput;
use super::bedrock_stream::classify_http_error;
use super::bedrock_stream::read_converse_stream;
use super::http;
use super::http::ErrorResponse;
use super::image_blocks::unavailable_note;
use super::registry::ResolvedProvider;
use super::retry;
use super::retry::Failure;
use super::retry::RetryPolicy;
use crate::model::ImagePart;
use crate::model::Message;
use crate::model::Role;

/// Hermes's default `maxTokens` for Converse when the config sets none.
pub const DEFAULT_MAX_TOKENS: u32 = 4096;
/// Converse rejects empty and whitespace-only text blocks; Hermes sends this instead.
pub const EMPTY_TEXT: &str = "(empty)";
const JSON: &str = "application/json";
const EVENT_STREAM: &str = "application/vnd.amazon.eventstream";
/// A path label is encoded like the AWS SDKs do: everything but unreserved characters, so
/// `:` in `…-v2:0` and `/` in an ARN become `%3A` / `%2F`.
const LABEL: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'~');

pub struct BedrockConverse {
    name: String,
    client: reqwest::Client,
    base_url: String,
    target: String,
    /// The region the base URL's host names (`bedrock-runtime.<region>.amazonaws.com`).
    url_region: Option<String>,
    aws_env: AwsEnv,
    idle: Duration,
    retry: RetryPolicy,
    setup: Mutex<Option<Arc<AwsSetup>>>,
}

impl BedrockConverse {
    pub fn new(resolved: &ResolvedProvider, client: reqwest::Client) -> Self {
        let url_region = reqwest::Url::parse(&resolved.base_url)
            .ok()
            .and_then(|u| u.host_str().and_then(aws_auth::region_of_host));
        Self {
            name: resolved.name.clone(),
            client,
            base_url: resolved.base_url.trim_end_matches('/').to_string(),
            target: http::target_of(&resolved.base_url),
            url_region,
            aws_env: resolved.aws.clone(),
            idle: resolved.stream_idle_timeout,
            retry: resolved.retry,
            setup: Mutex::new(None),
        }
    }

    /// The cached credentials, or freshly read ones.
    async fn setup(&self) -> Result<Arc<AwsSetup>, ProviderError> {
        if let Some(setup) = self.cached().clone() {
            return Ok(setup);
        }
        let (env, url_region) = (self.aws_env.clone(), self.url_region.clone());
        let loaded =
            tokio::task::spawn_blocking(move || aws_auth::load(&env, url_region.as_deref()))
                .await
                .map_err(|e| ProviderError::Credentials {
                    message: format!("reading the AWS credentials failed: {e}"),
                })?
                .map_err(|e| ProviderError::Credentials {
                    message: e.to_string(),
                })?;
        tracing::debug!(provider = %self.name, region = %loaded.region, source = %loaded.source, "AWS credentials loaded");
        let loaded = Arc::new(loaded);
        *self.cached() = Some(Arc::clone(&loaded));
        Ok(loaded)
    }

    fn cached(&self) -> std::sync::MutexGuard<'_, Option<Arc<AwsSetup>>> {
        self.setup.lock().unwrap_or_else(PoisonError::into_inner)
    }

    async fn attempt(
        &self,
        url: &str,
        body: &[u8],
        sink: DeltaSink<'_>,
        cancel: &CancellationToken,
    ) -> Result<Completion, Failure> {
        let setup = self.setup().await?;
        let headers = [("content-type", JSON), ("accept", EVENT_STREAM)];
        let mut req = self.client.post(url).body(body.to_vec());
        for (name, value) in headers {
            req = req.header(name, value);
        }
        match &setup.auth {
            AwsAuth::Bearer(token) => req = req.bearer_auth(token.expose()),
            AwsAuth::Keys(keys) => {
                let input = SignInput {
                    method: "POST",
                    url,
                    headers: &headers,
                    body,
                    time: SystemTime::now(),
                };
                let signed = aws_auth::sigv4_headers(keys, &setup.region, &input).map_err(|e| {
                    ProviderError::Credentials {
                        message: e.to_string(),
                    }
                })?;
                for (name, value) in signed {
                    req = req.header(name, value);
                }
            }
        }
        let resp = http::send_raw(req, &self.target, self.idle, cancel).await?;
        if !resp.status().is_success() {
            let error_type = resp
                .headers()
                .get("x-amzn-errortype")
                .and_then(|v| v.to_str().ok())
                .map(str::to_string);
            let error = ErrorResponse::read(resp, &self.target, self.idle, cancel).await?;
            let failure = classify_http_error(&error, error_type.as_deref());
            if matches!(failure.error, ProviderError::Auth { .. }) {
                // Keys may have been rotated on disk; read them again next time.
                *self.cached() = None;
            }
            return Err(failure);
        }
        let bytes = http::api_body_stream(resp, &self.target, self.idle, cancel).await?;
        Ok(read_converse_stream(bytes, self.idle, cancel, sink).await?)
    }
}

#[async_trait]
impl Provider for BedrockConverse {
    fn name(&self) -> &str {
        &self.name
    }

    async fn complete(
        &self,
        request: &ChatRequest,
        on_delta: DeltaSink<'_>,
        cancel: &CancellationToken,
    ) -> Result<Completion, ProviderError> {
        tracing::debug!(provider = %self.name, model = %request.model, messages = request.messages.len(), "converse request");
        let url = converse_url(&self.base_url, &request.model);
        let body = build_body(request).to_string().into_bytes();
        let emitted = AtomicBool::new(false);
        let sink = |delta: StreamDelta| {
            emitted.store(true, Ordering::SeqCst);
            on_delta(delta);
        };
        let result = retry::run(&self.name, &self.retry, cancel, &emitted, |_| {
            self.attempt(&url, &body, &sink, cancel)
        })
        .await;
        retry::log_outcome(&self.name, "converse request", &result);
        result
    }
}

/// `{base}/model/{model id, percent-encoded}/converse-stream`.
pub fn converse_url(base_url: &str, model: &str) -> String {
    let model = utf8_percent_encode(model.trim(), LABEL);
    format!(
        "{}/model/{model}/converse-stream",
        base_url.trim_end_matches('/')
    )
}

/// The JSON request body.
pub fn build_body(request: &ChatRequest) -> Value {
    let mut body = json!({
        "messages": convert_history(&request.messages),
        "inferenceConfig": { "maxTokens": request.max_tokens.unwrap_or(DEFAULT_MAX_TOKENS) },
    });
    if !request.system.trim().is_empty() {
        body["system"] = json!([{ "text": request.system }]);
    }
    if !request.tools.is_empty() {
        let tools: Vec<Value> = request
            .tools
            .iter()
            .map(|t| {
                json!({ "toolSpec": {
                    "name": t.name,
                    "description": t.description,
                    "inputSchema": { "json": t.parameters },
                }})
            })
            .collect();
        body["toolConfig"] = json!({ "tools": tools });
    }
    body
}

/// OpenAI-shaped history as Converse messages (see the module doc for the rules).
pub fn convert_history(history: &[Message]) -> Vec<Value> {
    let mut out: Vec<(&'static str, Vec<Value>)> = Vec::new();
    for m in history {
        let (role, blocks) = match m.role {
            // No mid-conversation system role in Converse; the text still reaches the model.
            Role::User | Role::System => ("user", user_blocks(m)),
            Role::Tool => ("user", vec![tool_result_block(m)]),
            Role::Assistant => ("assistant", assistant_blocks(m)),
        };
        match out.last_mut() {
            Some((last_role, last_blocks)) if *last_role == role => last_blocks.extend(blocks),
            _ => out.push((role, blocks)),
        }
    }
    if out.first().is_some_and(|(role, _)| *role != "user") {
        out.insert(0, ("user", vec![text_block(EMPTY_TEXT)]));
    }
    if out.last().is_some_and(|(role, _)| *role != "user") {
        out.push(("user", vec![text_block(EMPTY_TEXT)]));
    }
    out.into_iter()
        .map(|(role, content)| json!({ "role": role, "content": content }))
        .collect()
}

fn text_block(text: &str) -> Value {
    let text = if text.trim().is_empty() {
        EMPTY_TEXT
    } else {
        text
    };
    json!({ "text": text })
}

/// Images first, then the text (a placeholder when blank and there are no images).
fn user_blocks(m: &Message) -> Vec<Value> {
    let mut blocks: Vec<Value> = m.images.iter().map(image_block).collect();
    if !m.content.trim().is_empty() || blocks.is_empty() {
        blocks.push(text_block(&m.content));
    }
    blocks
}

fn assistant_blocks(m: &Message) -> Vec<Value> {
    let mut blocks = Vec::with_capacity(m.tool_calls.len() + 1);
    if !m.content.trim().is_empty() {
        blocks.push(text_block(&m.content));
    }
    blocks.extend(m.tool_calls.iter().map(|c| {
        json!({ "toolUse": { "toolUseId": c.id, "name": c.name, "input": tool_input(&c.arguments) } })
    }));
    if blocks.is_empty() {
        blocks.push(text_block(EMPTY_TEXT));
    }
    blocks
}

fn tool_result_block(m: &Message) -> Value {
    let mut content = vec![text_block(&m.content)];
    content.extend(m.images.iter().map(image_block));
    json!({ "toolResult": {
        "toolUseId": m.tool_call_id.clone().unwrap_or_default(),
        "content": content,
    }})
}

/// A base64 `image` block (`format` is the media subtype: png, jpeg, gif, webp), or the
/// unavailable note when the payload is missing.
fn image_block(part: &ImagePart) -> Value {
    match &part.payload {
        Some(payload) => {
            let subtype = payload
                .media_type
                .rsplit('/')
                .next()
                .unwrap_or("png")
                .to_ascii_lowercase();
            let format = if subtype == "jpg" {
                "jpeg".to_string()
            } else {
                subtype
            };
            json!({ "image": { "format": format, "source": { "bytes": payload.base64 } } })
        }
        None => json!({ "text": unavailable_note(&part.path) }),
    }
}

#[cfg(test)]
#[path = "bedrock_tests.rs"]
mod tests;
