//! `model.provider: auto` (Hermes's default) and an empty provider: which provider the
//! configured base URL and the credentials present mean, in Hermes 0.19's order
//! (`resolve_runtime_provider` / `resolve_provider`):
//!
//! 1. `model.base_url` set: that endpoint — as the cloud provider whose host it is
//!    (OpenRouter, Anthropic, OpenAI), otherwise as `custom`;
//! 2. OPENROUTER_API_KEY → `openrouter`; OPENAI_API_KEY → `openai-api` (Hermes sends it to
//!    OpenRouter; hermes does that only for an OpenRouter-shaped `sk-or-` key);
//! 3. each profile's key variables in Hermes's registry order (Copilot and LM Studio only
//!    when named), then NOUS_API_KEY;
//! 4. the logged-in provider (`active_provider` of auth.json);
//! 5. AWS credentials in the environment → `bedrock`;
//! 6. otherwise `NoProvider`.
//!
//! Placeholder keys (`changeme`, `***`, shorter than 4 characters) count as unset. No I/O:
//! AWS's shared credential files are not read here, so a key pair only in
//! `~/.aws/credentials` needs `provider: bedrock` (or AWS_PROFILE) to be picked.

use super::ProviderSetupError;
use super::endpoint_rules as rules;
use super::profiles;
use super::registry::CredentialSources;
use super::registry::Env;
use super::registry::Target;
use crate::config::schema::ModelConfig;

/// Environment variables whose presence means AWS credentials (Hermes's
/// `resolve_aws_auth_env_var`, without the boto3 fallback).
const AWS_MARKERS: &[&[&str]] = &[
    &["AWS_BEARER_TOKEN_BEDROCK"],
    &["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"],
    &["AWS_PROFILE"],
    &["AWS_CONTAINER_CREDENTIALS_RELATIVE_URI"],
    &["AWS_WEB_IDENTITY_TOKEN_FILE"],
];

/// The provider `auto` means here.
pub(super) fn select(
    model: &ModelConfig,
    env: &Env<'_>,
    sources: &CredentialSources<'_>,
) -> Result<Target<'static>, ProviderSetupError> {
    let base = model.base_url.trim();
    if !base.is_empty() {
        return Target::profile(rules::cloud_profile_for_url(base).unwrap_or("custom"));
    }
    if env.key("OPENROUTER_API_KEY").is_some() {
        return Target::profile("openrouter");
    }
    if let Some(key) = env.key("OPENAI_API_KEY") {
        return Target::profile(if key.starts_with("sk-or-") {
            "openrouter"
        } else {
            "openai-api"
        });
    }
    if let Some(profile) =
        profiles::auto_order().find(|p| p.key_vars.iter().any(|var| env.key(var).is_some()))
    {
        return Target::profile(profile.id);
    }
    if env.key("NOUS_API_KEY").is_some() {
        return Target::profile("nous");
    }
    if let Some(active) = sources
        .active_login
        .map(str::trim)
        .filter(|a| !a.is_empty())
    {
        let active = active.to_lowercase();
        if let Some(unsupported) = super::unsupported::unsupported(&active) {
            return Err(ProviderSetupError::Unsupported {
                provider: unsupported.id.to_string(),
                origin: "the login in auth.json".to_string(),
                why: unsupported.why.to_string(),
                instead: unsupported.instead.to_string(),
            });
        }
        if profiles::profile(&active).is_some() {
            return Target::profile(&active);
        }
    }
    if AWS_MARKERS
        .iter()
        .any(|vars| vars.iter().all(|var| env.get(var).is_some()))
    {
        return Target::profile("bedrock");
    }
    Err(ProviderSetupError::NoProvider)
}

#[cfg(test)]
#[path = "auto_detect_tests.rs"]
mod tests;
