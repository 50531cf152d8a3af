//! Anthropic-style prompt caching as Hermes does it (`agent/prompt_caching.py`, layout
//! `system_and_3`): up to 4 `cache_control` breakpoints — the system prompt and the last 3
//! other messages (the last 4 when there is no system prompt), all with one TTL
//! (`prompt_caching.cache_ttl`: `5m`, Hermes's default, or `1h`; anything else is `5m`).
//! The marker is `{"type": "ephemeral"}`, plus `"ttl": "1h"` for the hour tier; Hermes sends
//! no extra beta header for it, and neither do we.
//!
//! Who gets breakpoints (Hermes's `anthropic_prompt_cache_policy`), and where:
//! - the Anthropic Messages format, for Anthropic itself (provider `anthropic` or host
//!   `api.anthropic.com`, any model), any Claude model, or MiniMax's Anthropic endpoint:
//!   *native* layout, the marker on the last content block of each chosen message;
//! - chat completions through OpenRouter or Nous Portal for Claude and Kimi/Moonshot models
//!   (and Qwen on Nous Portal), or Qwen on OpenCode Zen/Go and Alibaba: *envelope* layout,
//!   the marker on a content part (a string content becomes one text part); messages that
//!   cannot carry one (empty content, pure tool calls) are skipped so no breakpoint is wasted.
//! - nobody else: servers that do not know `cache_control` never see it.
//!
//! One difference from Hermes: OpenRouter and Nous Portal are recognised by the provider name
//! as well as the host, so a proxy configured as `provider: openrouter` still caches.
//!
//! Pure functions over the wire JSON; nothing here does I/O.

use serde_json::Value;
use serde_json::json;

use super::ApiMode;

/// Most breakpoints a request may carry (the Anthropic API's limit).
const MAX_BREAKPOINTS: usize = 4;

/// `prompt_caching.cache_ttl`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum CacheTtl {
    #[default]
    FiveMinutes,
    OneHour,
}

impl CacheTtl {
    /// The config value: `1h` is the hour tier; `5m` and anything else (as in Hermes) the
    /// five-minute one.
    pub fn from_config(value: &str) -> Self {
        match value.trim() {
            "1h" => Self::OneHour,
            _ => Self::FiveMinutes,
        }
    }

    /// The `cache_control` marker.
    pub fn marker(self) -> Value {
        match self {
            Self::FiveMinutes => json!({ "type": "ephemeral" }),
            Self::OneHour => json!({ "type": "ephemeral", "ttl": "1h" }),
        }
    }
}

/// Where breakpoints go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// Anthropic Messages: inside the content blocks.
    Native,
    /// Chat completions (OpenRouter and the like): on content parts.
    Envelope,
}

/// The layout a request to `model` through this route gets, or `None` for no caching.
pub fn policy(provider: &str, base_url: &str, api_mode: ApiMode, model: &str) -> Option<Layout> {
    let model = model.to_ascii_lowercase();
    let provider = provider.trim().to_ascii_lowercase();
    let host = host_of(base_url);
    let host_is = |domain: &str| {
        host.as_deref()
            .is_some_and(|h| h == domain || h.ends_with(&format!(".{domain}")))
    };
    let is_claude = model.contains("claude");
    let is_kimi = is_kimi_family(&model) || model.contains("moonshot");
    let is_qwen = model.contains("qwen");
    let is_openrouter = host_is("openrouter.ai") || provider == "openrouter";
    let is_nous = base_url.to_ascii_lowercase().contains("nousresearch") || provider == "nous";
    match api_mode {
        ApiMode::AnthropicMessages => {
            let native = provider == "anthropic" || host.as_deref() == Some("api.anthropic.com");
            let minimax = matches!(provider.as_str(), "minimax" | "minimax-cn")
                || host_is("api.minimax.io")
                || host_is("api.minimaxi.com");
            (native || is_claude || minimax).then_some(Layout::Native)
        }
        ApiMode::ChatCompletions => {
            let routed = (is_openrouter || is_nous) && (is_claude || is_kimi);
            let nous_qwen = is_nous && is_qwen;
            let alibaba_qwen = is_qwen
                && matches!(
                    provider.as_str(),
                    "opencode" | "opencode-zen" | "opencode-go" | "alibaba"
                );
            (routed || nous_qwen || alibaba_qwen).then_some(Layout::Envelope)
        }
        ApiMode::CodexResponses | ApiMode::BedrockConverse => None,
    }
}

fn host_of(url: &str) -> Option<String> {
    let parsed = reqwest::Url::parse(url.trim()).ok()?;
    parsed.host_str().map(str::to_ascii_lowercase)
}

/// Hermes's `_model_name_is_kimi_family` (on a lowercased id).
fn is_kimi_family(model: &str) -> bool {
    let slug = model.rsplit('/').next().unwrap_or(model).trim();
    const PREFIXES: &[&str] = &[
        "kimi-",
        "kimi_",
        "moonshot-",
        "moonshot_",
        "k1.",
        "k1-",
        "k2.",
        "k2-",
        "k25",
        "k2.5",
        "k3.",
        "k3-",
    ];
    slug == "k3" || PREFIXES.iter().any(|p| slug.starts_with(p))
}

/// How many non-system messages get a breakpoint.
pub fn tail_breakpoints(has_system: bool) -> usize {
    MAX_BREAKPOINTS - usize::from(has_system)
}

/// Envelope layout over chat-completions messages (the system message, if any, first):
/// Hermes's `apply_anthropic_cache_control(..., native_anthropic=False)`.
pub fn apply_envelope(messages: &mut [Value], ttl: CacheTtl) {
    let marker = ttl.marker();
    let has_system = messages.first().is_some_and(|m| m["role"] == "system");
    if has_system {
        mark_content(&mut messages[0], &marker);
    }
    let carriers: Vec<usize> = messages
        .iter()
        .enumerate()
        .filter(|(_, m)| m["role"] != "system" && can_carry(m))
        .map(|(i, _)| i)
        .collect();
    let take = tail_breakpoints(has_system).min(carriers.len());
    for &i in &carriers[carriers.len() - take..] {
        mark_content(&mut messages[i], &marker);
    }
}

/// Whether a marker on this message would be honoured: it needs a content part to sit on.
fn can_carry(message: &Value) -> bool {
    match &message["content"] {
        Value::String(s) => !s.is_empty(),
        Value::Array(parts) => parts.last().is_some_and(Value::is_object),
        _ => false,
    }
}

fn mark_content(message: &mut Value, marker: &Value) {
    match &mut message["content"] {
        Value::String(text) if !text.is_empty() => {
            let text = std::mem::take(text);
            message["content"] = json!([{ "type": "text", "text": text, "cache_control": marker }]);
        }
        Value::Array(parts) => {
            if let Some(last) = parts.last_mut().filter(|p| p.is_object()) {
                last["cache_control"] = marker.clone();
            }
        }
        _ => {}
    }
}

#[cfg(test)]
#[path = "prompt_cache_tests.rs"]
mod tests;
