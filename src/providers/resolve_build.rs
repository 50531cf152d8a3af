//! Turns a selected profile or `providers:` entry into the parts of a `ResolvedProvider`:
//! base URL (`model.base_url`, the profile's `*_BASE_URL` variable, what the key or login
//! implies, the default), key (`model.api_key`, the key variables in order, a login, a
//! placeholder), wire format and auth header, with Hermes's per-provider rules (Kimi Code,
//! LM Studio, Gemini, OpenCode, Azure Foundry, Bedrock's region, custom endpoints' host-gated
//! keys).
//!
//! No I/O: the environment and the stored login come in as functions.

use super::ProviderSetupError;
use super::endpoint_rules as rules;
use super::profiles;
use super::profiles::Credential;
use super::profiles::ModeRule;
use super::profiles::Profile;
use super::registry::AuthScheme;
use super::registry::CredentialSources;
use super::registry::Env;
use super::registry::ProviderRequest;
use super::registry::StoredLogin;
use super::wire::ApiMode;
use crate::config::schema::EntrySource;
use crate::config::schema::ModelConfig;
use crate::config::schema::NamedProvider;

/// A resolution before the config limits are applied.
pub(super) struct Built {
    pub(super) name: String,
    pub(super) base_url: String,
    pub(super) model: String,
    pub(super) api_mode: ApiMode,
    pub(super) context_window: u64,
    pub(super) max_tokens: Option<u32>,
    pub(super) api_key: Option<String>,
    pub(super) auth: AuthScheme,
    pub(super) headers: Vec<(String, String)>,
}

pub(super) fn build_profile(
    profile: &'static Profile,
    requested: &str,
    request: &ProviderRequest<'_>,
    env: &Env<'_>,
    sources: &CredentialSources<'_>,
) -> Result<Built, ProviderSetupError> {
    let model = request.model;
    let configured_key = Some(model.api_key.trim().to_string()).filter(|k| rules::usable_secret(k));
    let login = match profile.credential {
        Credential::Login => (sources.login)(profile.id),
        _ => None,
    };
    let key = configured_key.or_else(|| match profile.credential {
        Credential::ApiKey | Credential::Placeholder(_) => env.first_key(profile.key_vars),
        Credential::Login => login
            .as_ref()
            .map(|l| l.access.expose().to_string())
            .or_else(|| env.first_key(profile.key_vars)),
        Credential::Optional | Credential::Aws => None,
    });
    let base = base_url(
        profile,
        requested,
        request,
        env,
        key.as_deref(),
        login.as_ref(),
    )?;
    validate_url(&base)?;
    let api_mode = wire_mode(profile, model, &base)?;
    let base = match profile.id {
        "gemini" => rules::gemini_openai_base(&base),
        "lmstudio" => rules::lmstudio_base(&base),
        "opencode-zen" | "opencode-go" => rules::opencode_base(&base, api_mode),
        _ => base,
    };
    let key = match profile.credential {
        Credential::ApiKey if key.is_none() => {
            return Err(ProviderSetupError::MissingKey {
                provider: profile.id.to_string(),
                env_var: profile
                    .key_vars
                    .first()
                    .copied()
                    .unwrap_or("API_KEY")
                    .to_string(),
            });
        }
        Credential::Login if key.is_none() => {
            return Err(ProviderSetupError::NeedsLogin {
                provider: profile.id.to_string(),
            });
        }
        Credential::Placeholder(placeholder) => key.or_else(|| Some(placeholder.to_string())),
        Credential::Optional => key.or_else(|| custom_key(env, profile.key_vars, &base)),
        _ => key,
    };
    let (auth, headers) = auth_and_headers(profile, api_mode, &base, key.as_deref());
    Ok(Built {
        name: profile.id.to_string(),
        base_url: base,
        model: model.default.trim().to_string(),
        api_mode,
        context_window: profile.context_window,
        max_tokens: None,
        api_key: key,
        auth,
        headers,
    })
}

/// A login's URL, else `model.base_url`, else the profile's variable, else what the key
/// implies, else the profile's default.
fn base_url(
    profile: &Profile,
    requested: &str,
    request: &ProviderRequest<'_>,
    env: &Env<'_>,
    key: Option<&str>,
    login: Option<&StoredLogin>,
) -> Result<String, ProviderSetupError> {
    let configured = request.model.base_url.trim();
    let from_var = (!profile.base_url_var.is_empty())
        .then(|| env.get(profile.base_url_var))
        .flatten();
    let implied = match profile.id {
        "kimi-coding" | "kimi-coding-cn" if key.is_some_and(|k| k.starts_with("sk-kimi-")) => {
            Some(rules::KIMI_CODE_BASE_URL.to_string())
        }
        "custom" => profiles::LOCAL_DEFAULT_URLS
            .iter()
            .find(|(alias, _)| *alias == requested)
            .map(|(_, url)| url.to_string()),
        "bedrock" => Some(profile.base_url.replace(
            "{region}",
            &bedrock_region(&request.endpoints.bedrock_region, env),
        )),
        _ => None,
    };
    // A stored login's inference URL replaces any other (it already honours
    // NOUS_INFERENCE_BASE_URL), as Hermes uses the login's URL for Nous.
    let login_url = login.and_then(|l| l.inference_base_url.clone());
    let base = match (login_url, configured.is_empty()) {
        (Some(url), _) => url,
        (None, true) => from_var
            .or(implied)
            .unwrap_or_else(|| profile.base_url.to_string()),
        (None, false) => configured.to_string(),
    };
    let base = base.trim().trim_end_matches('/').to_string();
    match (base.is_empty(), profile.id) {
        (false, _) => Ok(base),
        (true, "custom") => Err(ProviderSetupError::MissingBaseUrl {
            provider: profile.id.to_string(),
        }),
        (true, _) => Err(ProviderSetupError::MissingEndpoint {
            provider: profile.id.to_string(),
            env_var: profile.base_url_var.to_string(),
        }),
    }
}

/// `bedrock.region`, `AWS_REGION`, `AWS_DEFAULT_REGION`, then us-east-1 (Hermes's order).
fn bedrock_region(configured: &str, env: &Env<'_>) -> String {
    Some(configured.trim().to_string())
        .filter(|r| !r.is_empty())
        .or_else(|| env.get("AWS_REGION"))
        .or_else(|| env.get("AWS_DEFAULT_REGION"))
        .unwrap_or_else(|| "us-east-1".to_string())
}

fn wire_mode(
    profile: &Profile,
    model: &ModelConfig,
    base: &str,
) -> Result<ApiMode, ProviderSetupError> {
    let configured = parse_mode(&model.api_mode)?;
    let detected = rules::api_mode_for_url(base);
    Ok(match profile.mode_rule {
        ModeRule::Fixed => profile.api_mode,
        ModeRule::OpenCode => rules::opencode_mode(profile.id, &model.default),
        ModeRule::AzureFoundry => match configured.unwrap_or(ApiMode::ChatCompletions) {
            ApiMode::AnthropicMessages => ApiMode::AnthropicMessages,
            _ if rules::azure_wants_responses(&model.default) => ApiMode::CodexResponses,
            mode => mode,
        },
        // An explicit mode wins, also `codex_responses` on a custom endpoint (Hermes drops
        // that one there, against stale values its `/model` leaves behind).
        ModeRule::FromUrl => match configured {
            Some(mode) => mode,
            None => detected.unwrap_or(ApiMode::ChatCompletions),
        },
    })
}

fn parse_mode(value: &str) -> Result<Option<ApiMode>, ProviderSetupError> {
    match value.trim() {
        "" => Ok(None),
        other => ApiMode::parse(&other.to_lowercase())
            .map(Some)
            .ok_or_else(|| ProviderSetupError::UnknownApiMode {
                mode: other.to_string(),
            }),
    }
}

/// A custom endpoint's key: CUSTOM_API_KEY, then the key its host earns (never an OpenAI or
/// OpenRouter key sent to someone else's server).
fn custom_key(env: &Env<'_>, own_vars: &[&str], base: &str) -> Option<String> {
    env.first_key(own_vars)
        .or_else(|| rules::host_gated_key_var(base).and_then(|var| env.key(var)))
        .or_else(|| rules::host_derived_key_var(base).and_then(|var| env.key(&var)))
}

/// The auth header and the extra headers for a profile on `base` in `mode`.
fn auth_and_headers(
    profile: &Profile,
    mode: ApiMode,
    base: &str,
    key: Option<&str>,
) -> (AuthScheme, Vec<(String, String)>) {
    let own = |pairs: &[(&str, &str)]| {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect::<Vec<_>>()
    };
    if mode != ApiMode::AnthropicMessages {
        return (AuthScheme::Bearer, own(profile.headers));
    }
    if rules::is_kimi_code_url(base) {
        return (
            AuthScheme::XApiKey,
            own(&[("User-Agent", rules::KIMI_CODE_USER_AGENT)]),
        );
    }
    if rules::messages_wants_bearer(base) || profile.messages_auth == AuthScheme::Bearer {
        return (AuthScheme::Bearer, own(profile.headers));
    }
    if rules::is_anthropic_host(base) && key.is_some_and(rules::is_anthropic_oauth_token) {
        let mut headers = own(profile.headers);
        headers.push(("anthropic-beta".into(), rules::ANTHROPIC_OAUTH_BETA.into()));
        return (AuthScheme::Bearer, headers);
    }
    (AuthScheme::XApiKey, own(profile.headers))
}

/// A `providers:` / `custom_providers:` entry (Hermes resolves it as `custom`).
pub(super) fn build_named(
    entry: &NamedProvider,
    model: &ModelConfig,
    env: &Env<'_>,
) -> Result<Built, ProviderSetupError> {
    let configured = model.base_url.trim();
    let base = if configured.is_empty() {
        entry.base_url.trim()
    } else {
        configured
    }
    .trim_end_matches('/')
    .to_string();
    validate_url(&base)?;
    let api_mode = parse_mode(&entry.api_mode)?
        .or_else(|| rules::api_mode_for_url(&base))
        .unwrap_or(ApiMode::ChatCompletions);
    let inline = Some(entry.api_key.clone()).filter(|k| rules::usable_secret(k));
    let from_var = Some(entry.key_env.trim())
        .filter(|v| !v.is_empty())
        .and_then(|var| env.key(var));
    // Hermes reads `providers:` entries key_env-first and `custom_providers` items inline-first.
    let key = match entry.source {
        EntrySource::Providers => from_var.or(inline),
        EntrySource::CustomProviders => inline.or(from_var),
    }
    .or_else(|| rules::host_gated_key_var(&base).and_then(|var| env.key(var)))
    .or_else(|| rules::host_derived_key_var(&base).and_then(|var| env.key(&var)));
    let custom = profiles::profile("custom").ok_or(ProviderSetupError::NoProvider)?;
    let (auth, mut headers) = auth_and_headers(custom, api_mode, &base, key.as_deref());
    headers.extend(entry.extra_headers.iter().cloned());
    let requested_model = model.default.trim();
    let serves_entry =
        requested_model.is_empty() || requested_model == entry.key || requested_model == entry.name;
    Ok(Built {
        name: "custom".to_string(),
        base_url: base,
        model: if serves_entry && !entry.model.is_empty() {
            entry.model.clone()
        } else {
            requested_model.to_string()
        },
        api_mode,
        context_window: match entry.context_length {
            0 => custom.context_window,
            n => n,
        },
        max_tokens: (entry.max_output_tokens > 0).then_some(entry.max_output_tokens),
        api_key: key,
        auth,
        headers,
    })
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
