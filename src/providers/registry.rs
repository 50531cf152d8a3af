//! Provider profiles and resolution: turns `model:` + `provider:` config and the environment
//! into a `ResolvedProvider` (endpoint, key, wire format, limits), and builds the `Provider`.
//!
//! Profiles: `openrouter`, `openai`, `anthropic`, `nous` (Nous Portal), `custom` (any
//! OpenAI-compatible or Anthropic-compatible server; `ollama`, `lmstudio`, `vllm` and
//! `llamacpp` are aliases of it with a default local URL). An empty `model.provider` is
//! inferred: a base URL means `custom` (or the profile whose host it is), otherwise the first
//! of OPENROUTER_API_KEY, ANTHROPIC_API_KEY, OPENAI_API_KEY, NOUS_API_KEY that is set.
//!
//! Invariants: the key lives only in `Secret`, whose `Debug` prints `***`, so a resolved
//! provider can be logged. Resolution does no I/O (the environment is a function) and never
//! reads files: loading HERMES_HOME/.env into that function is the config layer's job.

use std::time::Duration;

use super::ProviderSetupError;
use super::aws_auth::AwsEnv;
use super::retry::RetryPolicy;
use super::wire::ApiMode;
use super::wire::endpoint;
use crate::config::schema::ModelConfig;
use crate::config::schema::ProviderConfig;

/// An API key or login token; defined in `util` so the config layer's auth store shares it.
pub use crate::util::secret::Secret;

/// Everything needed to talk to one provider.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedProvider {
    /// Profile name as configured (`openrouter`, `custom`, `ollama`, …).
    pub name: String,
    /// Normalised base URL (no trailing slash).
    pub base_url: String,
    /// The URL requests are POSTed to.
    pub endpoint: String,
    pub model: String,
    pub api_mode: ApiMode,
    /// Context window in tokens (config override or profile default).
    pub context_window: u64,
    /// `model.max_tokens`, if set; the engine copies it into `ChatRequest`.
    pub max_tokens: Option<u32>,
    pub api_key: Option<Secret>,
    pub stream_idle_timeout: Duration,
    pub retry: RetryPolicy,
    /// The AWS variables of the environment (Bedrock only; empty for other wire formats).
    pub aws: AwsEnv,
    /// `prompt_caching.cache_ttl`, for the routes that get cache breakpoints.
    pub prompt_cache_ttl: super::prompt_cache::CacheTtl,
}

struct Profile {
    name: &'static str,
    base_url: &'static str,
    /// Key variables, most specific first.
    key_vars: &'static [&'static str],
    key_required: bool,
    api_mode: ApiMode,
    context_window: u64,
}

const fn hosted(
    name: &'static str,
    base_url: &'static str,
    key_vars: &'static [&'static str],
    api_mode: ApiMode,
    context_window: u64,
) -> Profile {
    Profile {
        name,
        base_url,
        key_vars,
        key_required: true,
        api_mode,
        context_window,
    }
}

const fn local(name: &'static str, base_url: &'static str) -> Profile {
    Profile {
        name,
        base_url,
        key_vars: &["CUSTOM_API_KEY", "OPENAI_API_KEY"],
        key_required: false,
        api_mode: ApiMode::ChatCompletions,
        context_window: 32_768,
    }
}

const PROFILES: &[Profile] = &[
    hosted(
        "openrouter",
        "https://openrouter.ai/api/v1",
        &["OPENROUTER_API_KEY"],
        ApiMode::ChatCompletions,
        128_000,
    ),
    hosted(
        "openai",
        "https://api.openai.com/v1",
        &["OPENAI_API_KEY"],
        ApiMode::ChatCompletions,
        128_000,
    ),
    hosted(
        "anthropic",
        "https://api.anthropic.com",
        &["ANTHROPIC_API_KEY"],
        ApiMode::AnthropicMessages,
        200_000,
    ),
    hosted(
        "nous",
        "https://inference-api.nousresearch.com/v1",
        &["NOUS_API_KEY"],
        ApiMode::ChatCompletions,
        128_000,
    ),
    local("custom", ""),
    local("ollama", "http://127.0.0.1:11434/v1"),
    local("lmstudio", "http://127.0.0.1:1234/v1"),
    local("vllm", "http://127.0.0.1:8000/v1"),
    local("llamacpp", "http://127.0.0.1:8080/v1"),
];

/// Order in which keys pick a provider when none is configured.
const INFERENCE_ORDER: &[&str] = &["openrouter", "anthropic", "openai", "nous"];

fn profile(name: &str) -> Option<&'static Profile> {
    PROFILES.iter().find(|p| p.name == name)
}

fn valid_names() -> String {
    PROFILES
        .iter()
        .map(|p| p.name)
        .collect::<Vec<_>>()
        .join(", ")
}

/// A credential a login left in `HERMES_HOME/auth.json` (Nous Portal's device-code login),
/// already refreshed by the caller if it had expired. Resolution never reads the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredLogin {
    /// The bearer credential inference requests carry.
    pub access: Secret,
    /// The inference base URL the login recorded, if any (overrides the profile's).
    pub inference_base_url: Option<String>,
}

/// Where credentials come from, as functions, so resolution does no I/O.
pub struct CredentialSources<'a> {
    /// Environment variables, including those loaded from HERMES_HOME/.env; empty values
    /// count as unset.
    pub env: &'a dyn Fn(&str) -> Option<String>,
    /// The stored login for a provider id (`nous`), if one exists.
    pub login: &'a dyn Fn(&str) -> Option<StoredLogin>,
    /// `active_provider` of auth.json: the provider last logged in to, the last resort of
    /// `provider: auto`.
    pub active_login: Option<&'a str>,
}

/// [`resolve_with`] with no stored logins.
pub fn resolve(
    model: &ModelConfig,
    provider: &ProviderConfig,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<ResolvedProvider, ProviderSetupError> {
    let sources = CredentialSources {
        env,
        login: &|_| None,
        active_login: None,
    };
    resolve_with(model, provider, &sources)
}

/// Resolves the configured provider from config and the credential sources.
pub fn resolve_with(
    model: &ModelConfig,
    provider: &ProviderConfig,
    sources: &CredentialSources<'_>,
) -> Result<ResolvedProvider, ProviderSetupError> {
    let env = sources.env;
    let lookup = |var: &str| {
        env(var)
            .map(|v| v.trim().to_string())
            .filter(|v| !v.is_empty())
    };
    let base_override = model.base_url.trim().trim_end_matches('/');
    let name = model.provider.trim().to_lowercase();
    let profile = if name.is_empty() {
        infer_profile(base_override, &lookup)?
    } else {
        profile(&name).ok_or_else(|| ProviderSetupError::UnknownProvider {
            name: name.clone(),
            valid: valid_names(),
        })?
    };

    // A stored Nous login comes first, as in Hermes (which has no Nous API key); its
    // inference URL already honours NOUS_INFERENCE_BASE_URL and replaces any base URL.
    let login = match profile.name {
        "nous" if model.api_key.trim().is_empty() => (sources.login)("nous"),
        _ => None,
    };
    let base_url = match login.as_ref().and_then(|l| l.inference_base_url.as_deref()) {
        Some(url) => url,
        None if base_override.is_empty() => profile.base_url,
        None => base_override,
    };
    if base_url.is_empty() {
        return Err(ProviderSetupError::MissingBaseUrl {
            provider: profile.name.to_string(),
        });
    }
    validate_url(base_url)?;

    let api_mode = match model.api_mode.trim() {
        "" if base_url.ends_with("/anthropic") => ApiMode::AnthropicMessages,
        "" => profile.api_mode,
        other => ApiMode::parse(other).ok_or_else(|| ProviderSetupError::UnknownApiMode {
            mode: other.to_string(),
        })?,
    };

    let api_key = if let Some(login) = &login {
        Some(login.access.expose().to_string())
    } else if model.api_key.trim().is_empty() {
        profile.key_vars.iter().find_map(|var| lookup(var))
    } else {
        Some(model.api_key.trim().to_string())
    };
    if api_key.is_none() && profile.key_required {
        return Err(ProviderSetupError::MissingKey {
            provider: profile.name.to_string(),
            env_var: profile
                .key_vars
                .first()
                .copied()
                .unwrap_or("API_KEY")
                .to_string(),
        });
    }

    let idle_secs = match provider.stream_idle_timeout {
        0 => ProviderConfig::default().stream_idle_timeout,
        secs => secs,
    };
    Ok(ResolvedProvider {
        name: profile.name.to_string(),
        base_url: base_url.to_string(),
        endpoint: endpoint(base_url, api_mode),
        model: model.default.trim().to_string(),
        api_mode,
        context_window: match model.context_length {
            0 => profile.context_window,
            n => n,
        },
        max_tokens: (model.max_tokens > 0).then_some(model.max_tokens),
        api_key: api_key.map(Secret::new),
        stream_idle_timeout: Duration::from_secs(idle_secs),
        retry: RetryPolicy::new(provider.max_retries),
        aws: match api_mode {
            ApiMode::BedrockConverse => AwsEnv::capture(&lookup),
            _ => AwsEnv::default(),
        },
        prompt_cache_ttl: Default::default(),
    })
}

fn infer_profile(
    base_url: &str,
    lookup: &dyn Fn(&str) -> Option<String>,
) -> Result<&'static Profile, ProviderSetupError> {
    if !base_url.is_empty() {
        // A hosted provider's own URL keeps that provider's key and defaults.
        let hosted = PROFILES
            .iter()
            .filter(|p| p.key_required)
            .find(|p| host_of(p.base_url).is_some_and(|h| host_of(base_url) == Some(h)));
        return hosted
            .or_else(|| profile("custom"))
            .ok_or(ProviderSetupError::NoProvider);
    }
    INFERENCE_ORDER
        .iter()
        .filter_map(|name| profile(name))
        .find(|p| p.key_vars.iter().any(|var| lookup(var).is_some()))
        .ok_or(ProviderSetupError::NoProvider)
}

fn host_of(url: &str) -> Option<String> {
    reqwest::Url::parse(url)
        .ok()?
        .host_str()
        .map(str::to_string)
}

fn validate_url(url: &str) -> Result<(), ProviderSetupError> {
    let invalid = |reason: &str| ProviderSetupError::InvalidBaseUrl {
        url: url.to_string(),
        reason: reason.to_string(),
    };
    let parsed = reqwest::Url::parse(url).map_err(|e| invalid(&e.to_string()))?;
    match parsed.scheme() {
        "http" | "https" if parsed.host_str().is_some() => Ok(()),
        "http" | "https" => Err(invalid("no host")),
        _ => Err(invalid("the scheme must be http or https")),
    }
}

#[cfg(test)]
#[path = "registry_tests.rs"]
mod tests;
