//! Answering a server's `sampling/createMessage`: the server asks hermes's model for a
//! completion (spec-002b §3.7, Hermes's `SamplingHandler`). Per server: a sliding-window rate
//! limit (`max_rpm`), a per-request timeout, a cap on `maxTokens`, an optional model override
//! and an `allowed_models` list; every request is logged at the configured level and
//! announced to the user with its token count, because it spends their tokens.
//!
//! Does not offer tools to the model (the `sampling.tools` capability is not declared, so
//! `max_tool_rounds` has nothing to count) and passes text only: image and audio blocks are
//! replaced by a line saying so. The model sees the server's messages and system prompt, never
//! the conversation.

// The SDK marks sampling deprecated (SEP-2577) but still carries it, and servers still send it.
#![allow(deprecated)]

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::PoisonError;
use std::time::Duration;
use std::time::Instant;

use rmcp::model::CreateMessageRequestParams;
use rmcp::model::CreateMessageResult;
use rmcp::model::ErrorData;
use rmcp::model::ModelPreferences;
use rmcp::model::Role as McpRole;
use rmcp::model::SamplingMessage;
use rmcp::model::SamplingMessageContentBlock;
use tokio_util::sync::CancellationToken;

use crate::config::schema::McpSamplingConfig;
use crate::model::Message;
use crate::protocol::Event;
use crate::protocol::Notice;
use crate::protocol::NoticeLevel;
use crate::providers::ChatRequest;
use crate::providers::Provider;

/// The rate limit's window.
const WINDOW: Duration = Duration::from_secs(60);

/// The model that answers: the session's provider and model when the server connected.
#[derive(Clone)]
pub struct SamplingModel {
    pub provider: Arc<dyn Provider>,
    pub model: String,
}

/// Counts for one server (Hermes's per-instance metrics).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SamplingMetrics {
    pub requests: u64,
    pub errors: u64,
    pub tokens: u64,
}

/// One server's sampling handler; it lives as long as the server's supervisor, so the rate
/// window survives reconnects.
pub struct Sampler {
    server: String,
    config: McpSamplingConfig,
    model: SamplingModel,
    emit: Arc<dyn Fn(Event) + Send + Sync>,
    recent: Mutex<VecDeque<Instant>>,
    metrics: Mutex<SamplingMetrics>,
    stop: CancellationToken,
}

impl Sampler {
    pub fn new(
        server: &str,
        config: McpSamplingConfig,
        model: SamplingModel,
        emit: Arc<dyn Fn(Event) + Send + Sync>,
        stop: CancellationToken,
    ) -> Self {
        Self {
            server: server.to_string(),
            config,
            model,
            emit,
            recent: Mutex::new(VecDeque::new()),
            metrics: Mutex::new(SamplingMetrics::default()),
            stop,
        }
    }

    pub fn metrics(&self) -> SamplingMetrics {
        *self.metrics.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Answer one request, or say why not (the server gets the message as its error).
    pub async fn create_message(
        &self,
        params: CreateMessageRequestParams,
    ) -> Result<CreateMessageResult, ErrorData> {
        let answered = self.answer(params).await;
        let mut metrics = self.metrics.lock().unwrap_or_else(PoisonError::into_inner);
        match answered {
            Ok((result, tokens)) => {
                metrics.requests += 1;
                metrics.tokens += tokens;
                let note = format!(
                    "MCP server '{}' asked the model for a completion ({} via sampling): {tokens} tokens",
                    self.server, result.model
                );
                drop(metrics);
                (self.emit)(Event::Notice(Notice {
                    level: NoticeLevel::Info,
                    text: note,
                }));
                Ok(result)
            }
            Err(why) => {
                metrics.errors += 1;
                drop(metrics);
                tracing::warn!(server = %self.server, "MCP sampling request refused: {why}");
                Err(ErrorData::internal_error(why.to_string(), None))
            }
        }
    }

    async fn answer(
        &self,
        params: CreateMessageRequestParams,
    ) -> Result<(CreateMessageResult, u64), SamplingError> {
        if !self.admit(Instant::now()) {
            return Err(SamplingError::RateLimited {
                server: self.server.clone(),
                max_rpm: self.config.max_rpm,
            });
        }
        let model = resolve_model(
            &self.config,
            params.model_preferences.as_ref(),
            &self.model.model,
        )?;
        let max_tokens = params
            .max_tokens
            .clamp(1, self.config.max_tokens_cap.max(1));
        let request = ChatRequest {
            model: model.clone(),
            system: params.system_prompt.clone().unwrap_or_default(),
            messages: params.messages.iter().map(to_message).collect(),
            tools: Vec::new(),
            max_tokens: Some(max_tokens),
        };
        self.audit(&format!(
            "MCP server '{}' sampling request: model={model}, max_tokens={max_tokens}, messages={}",
            self.server,
            request.messages.len()
        ));
        let timeout = self.config.request_timeout();
        let call = self.model.provider.complete(&request, &|_| {}, &self.stop);
        let completion = match tokio::time::timeout(timeout, call).await {
            Ok(Ok(completion)) => completion,
            Ok(Err(source)) => return Err(SamplingError::Provider { model, source }),
            Err(_) => {
                return Err(SamplingError::Timeout {
                    model,
                    timeout,
                    server: self.server.clone(),
                });
            }
        };
        let tokens = completion.usage.input_tokens + completion.usage.output_tokens;
        self.audit(&format!(
            "MCP server '{}' sampling response: model={model}, tokens={tokens}",
            self.server
        ));
        let mut result =
            CreateMessageResult::new(SamplingMessage::assistant_text(completion.text), model);
        result.stop_reason = Some(
            match completion.finish_reason.as_deref() {
                Some("length" | "max_tokens") => CreateMessageResult::STOP_REASON_END_MAX_TOKEN,
                _ => CreateMessageResult::STOP_REASON_END_TURN,
            }
            .to_string(),
        );
        Ok((result, tokens))
    }

    /// The sliding window: whether one more request fits in the last minute.
    fn admit(&self, now: Instant) -> bool {
        let mut recent = self.recent.lock().unwrap_or_else(PoisonError::into_inner);
        while recent
            .front()
            .is_some_and(|t| now.duration_since(*t) >= WINDOW)
        {
            recent.pop_front();
        }
        if recent.len() >= self.config.max_rpm as usize {
            return false;
        }
        recent.push_back(now);
        true
    }

    fn audit(&self, line: &str) {
        match self.config.log_level.to_ascii_lowercase().as_str() {
            "debug" => tracing::debug!("{line}"),
            "warning" | "warn" => tracing::warn!("{line}"),
            _ => tracing::info!("{line}"),
        }
    }
}

/// Why a sampling request was refused; the server gets the text as its error.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SamplingError {
    #[error(
        "sampling rate limit exceeded for MCP server '{server}' ({max_rpm} requests/minute; \
         mcp_servers.{server}.sampling.max_rpm)"
    )]
    RateLimited { server: String, max_rpm: u32 },
    #[error("model '{model}' is not in allowed_models ({allowed})")]
    NotAllowed { model: String, allowed: String },
    #[error("the sampling call to {model} failed: {source}")]
    Provider {
        model: String,
        source: crate::providers::ProviderError,
    },
    #[error(
        "the sampling call to {model} timed out after {:.0}s (mcp_servers.{server}.sampling.timeout)",
        timeout.as_secs_f64()
    )]
    Timeout {
        model: String,
        timeout: Duration,
        server: String,
    },
}

/// The model to answer with: `model` from the config; else a hinted model that
/// `allowed_models` lists; else the session's. A configured model outside a non-empty
/// `allowed_models` is refused.
pub fn resolve_model(
    config: &McpSamplingConfig,
    preferences: Option<&ModelPreferences>,
    session_model: &str,
) -> Result<String, SamplingError> {
    let allowed = &config.allowed_models;
    if let Some(model) = &config.model {
        if !allowed.is_empty() && !allowed.contains(model) {
            return Err(SamplingError::NotAllowed {
                model: model.clone(),
                allowed: allowed.join(", "),
            });
        }
        return Ok(model.clone());
    }
    let hinted = preferences
        .and_then(|p| p.hints.as_ref())
        .into_iter()
        .flatten()
        .filter_map(|hint| hint.name.as_ref())
        .find(|name| allowed.contains(name));
    Ok(hinted.cloned().unwrap_or_else(|| session_model.to_string()))
}

/// A server's message as a provider message: text blocks joined; other blocks named.
fn to_message(message: &SamplingMessage) -> Message {
    let blocks = message.content.clone().into_vec();
    let text = blocks
        .iter()
        .map(|block| match block {
            SamplingMessageContentBlock::Text(text) => text.text.clone(),
            SamplingMessageContentBlock::Image(image) => {
                format!(
                    "[an image ({}) was left out: hermes samples text only]",
                    image.mime_type
                )
            }
            SamplingMessageContentBlock::Audio(audio) => {
                format!(
                    "[audio ({}) was left out: hermes samples text only]",
                    audio.mime_type
                )
            }
            SamplingMessageContentBlock::ToolUse(tool_use) => format!(
                "[tool call {}: {}]",
                tool_use.name,
                serde_json::Value::Object(tool_use.input.clone())
            ),
            SamplingMessageContentBlock::ToolResult(result) => {
                format!("[tool result for {}]", result.tool_use_id)
            }
            // The SDK's enum is non-exhaustive: a kind added later is named, not dropped.
            _ => "[a content block hermes does not read was left out]".to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n");
    match message.role {
        McpRole::User => Message::user(text),
        McpRole::Assistant => Message::assistant(text, Vec::new()),
    }
}

#[cfg(test)]
#[path = "sampling_tests.rs"]
mod tests;
