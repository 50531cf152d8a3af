//! What Hermes infers from a base URL, a key or a model id: the wire format a URL implies,
//! which Anthropic-format hosts want `Authorization: Bearer`, which keys are placeholders,
//! and the per-provider URL fix-ups (Gemini's OpenAI-compatible path, LM Studio's `/v1`,
//! OpenCode's `/v1`, Kimi Code's `sk-kimi-` keys).
//!
//! Pure string work, no I/O. Hosts are compared exactly or as a dot-separated suffix (never
//! as a substring), so `api.openai.com.evil.test` is not OpenAI — the lookalike rule Hermes
//! applies before sending a key anywhere.

use super::wire::ApiMode;

/// Kimi Code's endpoint for `sk-kimi-` keys (Anthropic Messages format).
pub(super) const KIMI_CODE_BASE_URL: &str = "https://api.kimi.com/coding";
/// The User-Agent Kimi Code requires of a coding agent (403 without it).
pub(super) const KIMI_CODE_USER_AGENT: &str = "claude-code/0.1.0";
/// The beta Anthropic requires with an OAuth (setup-token) credential.
pub(super) const ANTHROPIC_OAUTH_BETA: &str = "oauth-2025-04-20";

/// Values Hermes treats as "no key" (`has_usable_secret`).
const PLACEHOLDER_SECRETS: &[&str] = &[
    "*",
    "**",
    "***",
    "changeme",
    "your_api_key",
    "your_api_key_here",
    "your-api-key",
    "placeholder",
    "example",
    "dummy",
    "null",
    "none",
];

/// Whether a configured secret looks like a real one: at least 4 characters and not a
/// placeholder word.
pub(super) fn usable_secret(value: &str) -> bool {
    let value = value.trim();
    value.chars().count() >= 4 && !PLACEHOLDER_SECRETS.contains(&value.to_lowercase().as_str())
}

/// The lower-cased host of `url`, if it parses.
pub(super) fn host_of(url: &str) -> Option<String> {
    reqwest::Url::parse(url.trim())
        .ok()?
        .host_str()
        .map(|h| h.trim_end_matches('.').to_ascii_lowercase())
}

/// `url`'s host is `domain` or a subdomain of it.
pub(super) fn host_matches(url: &str, domain: &str) -> bool {
    host_of(url).is_some_and(|h| h == domain || h.ends_with(&format!(".{domain}")))
}

fn path_of(url: &str) -> String {
    reqwest::Url::parse(url.trim())
        .map(|u| u.path().trim_end_matches('/').to_ascii_lowercase())
        .unwrap_or_default()
}

/// The wire format a base URL implies (Hermes's `_detect_api_mode_for_url`), if any.
pub(super) fn api_mode_for_url(url: &str) -> Option<ApiMode> {
    let host = host_of(url)?;
    match host.as_str() {
        "api.x.ai" | "api.openai.com" => return Some(ApiMode::CodexResponses),
        "api.anthropic.com" => return Some(ApiMode::AnthropicMessages),
        _ => {}
    }
    let path = path_of(url);
    if path.ends_with("/anthropic") || path.ends_with("/anthropic/v1") {
        return Some(ApiMode::AnthropicMessages);
    }
    if host == "api.kimi.com" && path.contains("/coding") {
        return Some(ApiMode::AnthropicMessages);
    }
    None
}

/// Hosts whose URL under `provider: auto` keeps the cloud provider's own profile rather
/// than meaning "a custom endpoint".
pub(super) fn cloud_profile_for_url(url: &str) -> Option<&'static str> {
    if host_matches(url, "openrouter.ai") {
        Some("openrouter")
    } else if host_matches(url, "anthropic.com") {
        Some("anthropic")
    } else if host_matches(url, "openai.com") {
        Some("openai-api")
    } else {
        None
    }
}

/// Anthropic-format endpoints that take the key as `Authorization: Bearer` instead of
/// `x-api-key` (MiniMax, Azure AI Foundry, Palantir Foundry).
pub(super) fn messages_wants_bearer(url: &str) -> bool {
    let lower = url.trim().trim_end_matches('/').to_ascii_lowercase();
    lower.starts_with("https://api.minimax.io/anthropic")
        || lower.starts_with("https://api.minimaxi.com/anthropic")
        || host_matches(url, "azure.com")
        || host_matches(url, "palantirfoundry.com")
}

/// Kimi Code's Anthropic-format endpoint (wants the coding-agent User-Agent).
pub(super) fn is_kimi_code_url(url: &str) -> bool {
    host_of(url).as_deref() == Some("api.kimi.com") && path_of(url).starts_with("/coding")
}

/// An Anthropic OAuth / setup token rather than a Console API key (Hermes's
/// `_is_oauth_token`); only meaningful on Anthropic's own hosts.
pub(super) fn is_anthropic_oauth_token(key: &str) -> bool {
    if key.starts_with("sk-ant-api") {
        return false;
    }
    key.starts_with("sk-ant-") || key.starts_with("eyJ") || key.starts_with("cc-")
}

/// Anthropic's own hosts, where OAuth-shaped keys go as Bearer.
pub(super) fn is_anthropic_host(url: &str) -> bool {
    host_matches(url, "anthropic.com") || host_matches(url, "claude.com")
}

/// Google AI Studio's OpenAI-compatible surface is `…/v1beta/openai`; Hermes's native
/// Gemini client uses the bare `/v1beta`, which hermes does not speak.
pub(super) fn gemini_openai_base(url: &str) -> String {
    let base = url.trim_end_matches('/');
    if host_matches(base, "generativelanguage.googleapis.com") && !base.ends_with("/openai") {
        format!("{base}/openai")
    } else {
        base.to_string()
    }
}

/// LM Studio's OpenAI surface is `/v1`; users paste `/api/v1` or the bare root too.
pub(super) fn lmstudio_base(url: &str) -> String {
    let mut root = url.trim().trim_end_matches('/');
    for suffix in ["/api/v1", "/api", "/v1"] {
        if let Some(stripped) = root.strip_suffix(suffix) {
            root = stripped.trim_end_matches('/');
            break;
        }
    }
    let root = if root.is_empty() {
        "http://127.0.0.1:1234"
    } else {
        root
    };
    format!("{root}/v1")
}

/// OpenCode's OpenAI-format routes live under `/v1`; a URL stripped for the Anthropic
/// format (Hermes persists that) gets it back. Other hosts are left alone.
pub(super) fn opencode_base(url: &str, mode: ApiMode) -> String {
    let base = url.trim_end_matches('/');
    if mode != ApiMode::AnthropicMessages
        && !base.ends_with("/v1")
        && host_matches(base, "opencode.ai")
    {
        format!("{base}/v1")
    } else {
        base.to_string()
    }
}

/// The API OpenCode serves a model on (Hermes's `opencode_model_api_mode`).
pub(super) fn opencode_mode(provider_id: &str, model: &str) -> ApiMode {
    let model = model.trim().to_ascii_lowercase();
    let model = model
        .strip_prefix(&format!("{provider_id}/"))
        .unwrap_or(&model);
    match provider_id {
        "opencode-go" if model.starts_with("minimax-") || model.starts_with("qwen") => {
            ApiMode::AnthropicMessages
        }
        "opencode-zen" if model.starts_with("claude-") || model.starts_with("qwen") => {
            ApiMode::AnthropicMessages
        }
        "opencode-zen" if model.starts_with("gpt-") => ApiMode::CodexResponses,
        _ => ApiMode::ChatCompletions,
    }
}

/// Azure Foundry deploys these model families on the Responses API only.
pub(super) fn azure_wants_responses(model: &str) -> bool {
    let model = model.trim().to_ascii_lowercase();
    let model = model.rsplit('/').next().unwrap_or(&model);
    ["codex", "gpt-5", "o1", "o3", "o4"]
        .iter()
        .any(|prefix| model.starts_with(prefix))
}

/// `<VENDOR>_API_KEY` for a custom URL's host (`api.deepseek.com` → `DEEPSEEK_API_KEY`), as
/// Hermes derives it; none for IPs, loopback, one-label hosts and the hosts with their own
/// host-gated key (OpenAI, OpenRouter, Ollama).
pub(super) fn host_derived_key_var(url: &str) -> Option<String> {
    let host = host_of(url)?;
    let last = host.rsplit('.').next()?;
    if last.starts_with(|c: char| c.is_ascii_digit()) || host == "localhost" || host.contains(':') {
        return None;
    }
    let mut labels: Vec<&str> = host.split('.').filter(|l| !l.is_empty()).collect();
    while labels.first().is_some_and(|l| *l == "api" || *l == "www") {
        labels.remove(0);
    }
    if labels.len() < 2 {
        return None;
    }
    let vendor: String = labels[labels.len() - 2]
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect();
    if !vendor.starts_with(|c: char| c.is_ascii_alphabetic())
        || matches!(vendor.as_str(), "OPENAI" | "OPENROUTER" | "OLLAMA")
    {
        return None;
    }
    Some(format!("{vendor}_API_KEY"))
}

/// The key variable a custom URL's own host earns (Hermes gates each on its host, so an
/// OpenAI key never reaches a local server).
pub(super) fn host_gated_key_var(url: &str) -> Option<&'static str> {
    if host_matches(url, "ollama.com") {
        Some("OLLAMA_API_KEY")
    } else if host_matches(url, "openai.com") || host_matches(url, "openai.azure.com") {
        Some("OPENAI_API_KEY")
    } else if host_matches(url, "openrouter.ai") {
        Some("OPENROUTER_API_KEY")
    } else {
        None
    }
}

#[cfg(test)]
#[path = "endpoint_rules_tests.rs"]
mod tests;
