//! Wire formats: which HTTP API a provider speaks (`ApiMode`), the request URL for a base
//! URL in that format, and building the `Provider` that speaks it.
//!
//! This module knows nothing about profiles, keys or configuration; `registry` decides the
//! mode and hands over a `ResolvedProvider`.

use std::sync::Arc;

use super::Provider;
use super::anthropic::AnthropicMessages;
use super::bedrock::BedrockConverse;
use super::openai_chat::OpenAiChat;
use super::openai_responses::OpenAiResponses;
use super::registry::ResolvedProvider;

/// Wire format of the endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ApiMode {
    ChatCompletions,
    AnthropicMessages,
    /// OpenAI's Responses API (`POST {base}/responses`); Hermes calls it `codex_responses`.
    CodexResponses,
    /// AWS Bedrock Converse (`POST {base}/model/{model}/converse-stream`, SigV4-signed).
    BedrockConverse,
}

impl ApiMode {
    /// Every mode, in the order error messages list them.
    pub const ALL: [ApiMode; 4] = [
        Self::ChatCompletions,
        Self::AnthropicMessages,
        Self::CodexResponses,
        Self::BedrockConverse,
    ];

    /// Hermes's name for the mode (`model.api_mode`, `providers.<name>.api_mode`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::ChatCompletions => "chat_completions",
            Self::AnthropicMessages => "anthropic_messages",
            Self::CodexResponses => "codex_responses",
            Self::BedrockConverse => "bedrock_converse",
        }
    }

    /// The mode a config value names, if any.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|m| m.as_str() == name.trim())
    }
}

/// The request URL for a normalised base: OpenAI-style bases get `/chat/completions`;
/// Anthropic bases get `/v1/messages` (just `/messages` when they already end in `/v1`);
/// Responses bases get `/responses`; Bedrock keeps the base (the model id is in the path, so
/// `bedrock::converse_url` completes it per request).
pub fn endpoint(base_url: &str, api_mode: ApiMode) -> String {
    let base = base_url.trim_end_matches('/');
    match api_mode {
        ApiMode::ChatCompletions if base.ends_with("/chat/completions") => base.to_string(),
        ApiMode::ChatCompletions => format!("{base}/chat/completions"),
        ApiMode::AnthropicMessages if base.ends_with("/v1/messages") => base.to_string(),
        ApiMode::AnthropicMessages if base.ends_with("/v1") => format!("{base}/messages"),
        ApiMode::AnthropicMessages => format!("{base}/v1/messages"),
        ApiMode::CodexResponses if base.ends_with("/responses") => base.to_string(),
        ApiMode::CodexResponses => format!("{base}/responses"),
        // The model id is part of Bedrock's path; the provider appends it per request.
        ApiMode::BedrockConverse => base.to_string(),
    }
}

/// Builds the provider for a resolved configuration; `client` is shared (see `http`).
pub fn build(resolved: &ResolvedProvider, client: reqwest::Client) -> Arc<dyn Provider> {
    tracing::debug!(
        provider = %resolved.name,
        endpoint = %resolved.endpoint,
        api_mode = resolved.api_mode.as_str(),
        model = %resolved.model,
        "provider configured"
    );
    match resolved.api_mode {
        ApiMode::ChatCompletions => Arc::new(OpenAiChat::new(resolved, client)),
        ApiMode::AnthropicMessages => Arc::new(AnthropicMessages::new(resolved, client)),
        ApiMode::CodexResponses => Arc::new(OpenAiResponses::new(resolved, client)),
        ApiMode::BedrockConverse => Arc::new(BedrockConverse::new(resolved, client)),
    }
}
