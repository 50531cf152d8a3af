//! Provider resolution: turns `model:` config, the user's `providers:` entries and the
//! credential sources into a `ResolvedProvider` (endpoint, key, auth header, wire format,
//! limits), as Python Hermes 0.19's `resolve_runtime_provider` does.
//!
//! A name is, in this order: a `providers:`/`custom_providers:` entry (unless it is a
//! built-in id), one of the profiles in `profiles` (id or alias), a provider hermes cannot
//! use (one-line `Unsupported` error), or unknown (error with the nearest name). Empty and
//! `auto` pick a provider the way Hermes does (see `auto_detect`). For a profile the base
//! URL is `model.base_url`, else the profile's `*_BASE_URL` variable, else its default; the
//! key is `model.api_key`, else the first usable key variable (placeholders like `changeme`
//! do not count); the wire format is `model.api_mode`, else what the URL implies, else chat
//! completions (a few profiles fix it).
//!
//! Invariants: keys and header values live only in `Secret`, whose `Debug` prints `***`, so
//! a resolved provider can be logged. Resolution does no I/O (the environment and stored
//! logins are functions) and never reads files.

use std::time::Duration;

use super::ProviderSetupError;
use super::auto_detect;
use super::aws_auth::AwsEnv;
use super::endpoint_rules as rules;
use super::profiles;
use super::profiles::Profile;
use super::resolve_build::Built;
use super::resolve_build::build_named;
use super::resolve_build::build_profile;
use super::retry::RetryPolicy;
use super::select::select;
use super::wire::ApiMode;
use super::wire::endpoint;
use crate::config::schema::ModelConfig;
use crate::config::schema::NamedProvider;
use crate::config::schema::ProviderConfig;
use crate::config::schema::ProviderEndpoints;

/// An API key or login token; defined in `util` so the config layer's auth store shares it.
pub use crate::util::secret::Secret;

/// How the key travels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuthScheme {
    /// `Authorization: Bearer <key>`.
    Bearer,
    /// `x-api-key: <key>` (Anthropic's own header).
    XApiKey,
}

/// Everything needed to talk to one provider.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedProvider {
    /// Hermes's canonical id (`openrouter`, `kimi-coding`, `custom` for local servers and
    /// the user's own endpoints), as the session store records it.
    pub name: String,
    /// Normalised base URL (no trailing slash).
    pub base_url: String,
    /// The URL requests are POSTed to.
    pub endpoint: String,
    pub model: String,
    pub api_mode: ApiMode,
    /// Context window in tokens (config override or profile default).
    pub context_window: u64,
    /// `model.max_tokens` (or the endpoint entry's cap), if set.
    pub max_tokens: Option<u32>,
    pub api_key: Option<Secret>,
    pub auth: AuthScheme,
    /// Sent with every request (attribution, required User-Agents, the user's
    /// `extra_headers`); values may be credentials.
    pub headers: Vec<(String, Secret)>,
    pub stream_idle_timeout: Duration,
    pub retry: RetryPolicy,
    /// The AWS variables of the environment (Bedrock only; empty for other wire formats).
    pub aws: AwsEnv,
    /// `prompt_caching.cache_ttl`, for the routes that get cache breakpoints.
    pub prompt_cache_ttl: super::prompt_cache::CacheTtl,
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

/// What to resolve.
pub struct ProviderRequest<'a> {
    pub model: &'a ModelConfig,
    pub provider: &'a ProviderConfig,
    /// The user's `providers:` / `custom_providers:` entries and `bedrock.region`.
    pub endpoints: &'a ProviderEndpoints,
    /// Where `model.provider` came from, for errors (`model.provider`, `--provider`,
    /// `auxiliary.vision.provider`, …).
    pub origin: &'a str,
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

/// [`resolve_request`] with no `providers:` entries, for `model.provider`.
pub fn resolve_with(
    model: &ModelConfig,
    provider: &ProviderConfig,
    sources: &CredentialSources<'_>,
) -> Result<ResolvedProvider, ProviderSetupError> {
    let endpoints = ProviderEndpoints::default();
    let request = ProviderRequest {
        model,
        provider,
        endpoints: &endpoints,
        origin: "model.provider",
    };
    resolve_request(&request, sources)
}

/// Resolves the requested provider from config and the credential sources.
pub fn resolve_request(
    request: &ProviderRequest<'_>,
    sources: &CredentialSources<'_>,
) -> Result<ResolvedProvider, ProviderSetupError> {
    let env = Env(sources.env);
    // Hermes consults HERMES_INFERENCE_PROVIDER only when model.provider is unset.
    let (name, origin) = match normalise(&request.model.provider) {
        name if name.is_empty() => match env.get("HERMES_INFERENCE_PROVIDER") {
            Some(from_env) => (normalise(&from_env), "HERMES_INFERENCE_PROVIDER"),
            None => (name, request.origin),
        },
        name => (name, request.origin),
    };
    if request.endpoints.disabled.contains(&name) {
        return Err(ProviderSetupError::Disabled { provider: name });
    }
    let target = if name.is_empty() || name == "auto" {
        auto_detect::select(request.model, &env, sources)?
    } else {
        select(&name, origin, request.endpoints)?
    };
    let built = match target {
        Target::Profile { profile, requested } => {
            build_profile(profile, &requested, request, &env, sources)?
        }
        Target::Named(entry) => build_named(entry, request.model, &env)?,
    };
    finish(built, request, &env)
}

/// The environment, with blank values as unset.
pub(super) struct Env<'a>(pub(super) &'a dyn Fn(&str) -> Option<String>);

impl Env<'_> {
    pub(super) fn get(&self, var: &str) -> Option<String> {
        (self.0)(var)
            .map(|v| v.trim().to_string())
            .filter(|v| !v.is_empty())
    }

    /// The value of `var` if it is a usable secret (not a placeholder).
    pub(super) fn key(&self, var: &str) -> Option<String> {
        self.get(var).filter(|v| rules::usable_secret(v))
    }

    pub(super) fn first_key(&self, vars: &[&str]) -> Option<String> {
        vars.iter().find_map(|var| self.key(var))
    }
}

/// What a name selected.
pub(super) enum Target<'a> {
    Profile {
        profile: &'static Profile,
        /// The name as requested (an alias like `ollama` may carry a default URL).
        requested: String,
    },
    Named(&'a NamedProvider),
}

impl Target<'_> {
    pub(super) fn profile(id: &str) -> Result<Self, ProviderSetupError> {
        profiles::profile(id)
            .map(|profile| Target::Profile {
                profile,
                requested: id.to_string(),
            })
            .ok_or(ProviderSetupError::NoProvider)
    }
}

/// Hermes's spelling rules for provider names: trimmed, lower-case, spaces as dashes.
pub(super) fn normalise(name: &str) -> String {
    name.trim().to_lowercase().replace(' ', "-")
}

/// Applies `model.context_length`, `model.max_tokens` and `provider:` limits; `env` goes to
/// the Bedrock provider, which reads AWS's variables per request.
fn finish(
    built: Built,
    request: &ProviderRequest<'_>,
    env: &Env<'_>,
) -> Result<ResolvedProvider, ProviderSetupError> {
    let model = request.model;
    let idle_secs = match request.provider.stream_idle_timeout {
        0 => ProviderConfig::default().stream_idle_timeout,
        secs => secs,
    };
    Ok(ResolvedProvider {
        endpoint: endpoint(&built.base_url, built.api_mode),
        name: built.name,
        base_url: built.base_url,
        model: built.model,
        api_mode: built.api_mode,
        context_window: match model.context_length {
            0 => built.context_window,
            n => n,
        },
        max_tokens: (model.max_tokens > 0)
            .then_some(model.max_tokens)
            .or(built.max_tokens),
        api_key: built.api_key.map(Secret::new),
        auth: built.auth,
        headers: built
            .headers
            .into_iter()
            .map(|(k, v)| (k, Secret::new(v)))
            .collect(),
        stream_idle_timeout: Duration::from_secs(idle_secs),
        retry: RetryPolicy::new(request.provider.max_retries),
        aws: match built.api_mode {
            ApiMode::BedrockConverse => AwsEnv::capture(env.0),
            _ => AwsEnv::default(),
        },
        prompt_cache_ttl: Default::default(),
    })
}

#[cfg(test)]
#[path = "registry_tests.rs"]
pub(super) mod tests;
