//! What Hermes decides from a stored Nous login without asking the Portal: whether the access
//! token is a usable inference JWT (an `inference:invoke` scope and an `exp` more than the
//! refresh skew away), the agent-key fields Hermes derives from it, and which Portal and
//! inference URLs a login may use (the env overrides, and the host allowlists that keep a
//! poisoned `auth.json` from sending the token elsewhere).
//!
//! What it does not do: verify JWT signatures (the Portal and the inference API do; Hermes
//! only decodes the claims), or any I/O. Invariant: pure functions of the state, the
//! environment snapshot and the clock passed in.

use std::collections::BTreeSet;

use base64::Engine;
use chrono::DateTime;
use chrono::Utc;
use serde_json::Map;
use serde_json::Value;

use crate::config::auth_store_nous::DEFAULT_INFERENCE_URL;
use crate::config::auth_store_nous::DEFAULT_PORTAL_URL;
use crate::config::auth_store_nous::NousState;
use crate::config::auth_store_nous::format_iso;
use crate::config::auth_store_nous::keys;
use crate::config::auth_store_nous::parse_iso;

/// Refresh this long before the token expires (`ACCESS_TOKEN_REFRESH_SKEW_SECONDS`, which is
/// also `NOUS_INVOKE_JWT_MIN_TTL_SECONDS`).
pub const REFRESH_SKEW_SECS: i64 = 120;
/// The scope an inference token must carry.
pub const INVOKE_SCOPE: &str = "inference:invoke";
const ALLOWED_PORTAL_HOSTS: &[&str] = &["portal.nousresearch.com", "localhost", "127.0.0.1"];
const ALLOWED_INFERENCE_HOSTS: &[&str] = &["inference-api.nousresearch.com"];

/// Why a token cannot be used for inference as it is (Hermes's reason codes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unusable {
    NotJwt,
    MissingInvokeScope,
    Expiring,
    ExpiryUnknownOrExpiring,
}

impl Unusable {
    /// Hermes's code for the reason (`access_token_not_jwt`, …).
    pub fn code(self) -> &'static str {
        match self {
            Self::NotJwt => "access_token_not_jwt",
            Self::MissingInvokeScope => "missing_inference_invoke_scope",
            Self::Expiring => "invoke_jwt_expiring",
            Self::ExpiryUnknownOrExpiring => "invoke_jwt_expiry_unknown_or_expiring",
        }
    }
}

/// The claims of a `header.payload.signature` token, if it is one.
pub fn jwt_claims(token: &str) -> Option<Map<String, Value>> {
    let mut parts = token.split('.');
    let (_, payload, _, None) = (parts.next()?, parts.next()?, parts.next()?, parts.next()) else {
        return None;
    };
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(payload.trim_end_matches('='))
        .ok()?;
    match serde_json::from_slice(&bytes).ok()? {
        Value::Object(claims) => Some(claims),
        _ => None,
    }
}

fn scope_values(raw: Option<&Value>, out: &mut BTreeSet<String>) {
    match raw {
        Some(Value::String(s)) => {
            out.extend(s.replace(',', " ").split_whitespace().map(str::to_string))
        }
        Some(Value::Array(items)) => items.iter().for_each(|v| scope_values(Some(v), out)),
        _ => {}
    }
}

fn numeric_exp(claims: &Map<String, Value>) -> Option<f64> {
    claims.get("exp").and_then(Value::as_f64)
}

/// Hermes's `_nous_invoke_jwt_status`: `Ok` when `token` can be used for inference for at
/// least `min_ttl_secs` more. `scope` and `expires_at` are the stored values, used when the
/// token itself lacks them.
pub fn invoke_jwt_status(
    token: &str,
    scope: Option<&Value>,
    expires_at: Option<&str>,
    min_ttl_secs: i64,
    now: DateTime<Utc>,
) -> Result<(), Unusable> {
    let claims = jwt_claims(token).ok_or(Unusable::NotJwt)?;
    let mut scopes = BTreeSet::new();
    scope_values(scope, &mut scopes);
    scope_values(claims.get("scope"), &mut scopes);
    scope_values(claims.get("scp"), &mut scopes);
    if !scopes.contains(INVOKE_SCOPE) {
        return Err(Unusable::MissingInvokeScope);
    }
    let deadline = now.timestamp() as f64 + min_ttl_secs.max(0) as f64;
    if let Some(exp) = numeric_exp(&claims) {
        return if exp <= deadline {
            Err(Unusable::Expiring)
        } else {
            Ok(())
        };
    }
    match expires_at.and_then(parse_iso) {
        Some(t) if t.timestamp() as f64 > deadline => Ok(()),
        _ => Err(Unusable::ExpiryUnknownOrExpiring),
    }
}

/// [`invoke_jwt_status`] of the state's access token with Hermes's refresh skew.
pub fn state_status(state: &NousState, now: DateTime<Utc>) -> Result<(), Unusable> {
    let token = state.text(keys::ACCESS_TOKEN).ok_or(Unusable::NotJwt)?;
    invoke_jwt_status(
        token,
        state.value(keys::SCOPE),
        state.text(keys::EXPIRES_AT),
        REFRESH_SKEW_SECS,
        now,
    )
}

/// When the token expires: its `exp` claim, else the stored `expires_at`.
pub fn token_expiry(token: &str, stored: Option<&str>) -> Option<DateTime<Utc>> {
    let from_claim = jwt_claims(token)
        .as_ref()
        .and_then(numeric_exp)
        .and_then(|exp| DateTime::from_timestamp_micros((exp * 1_000_000.0) as i64));
    from_claim.or_else(|| stored.and_then(parse_iso))
}

/// Hermes's `_set_nous_agent_key_from_invoke_jwt`: the access token becomes the runtime
/// `agent_key`, and the expiry fields follow the token's `exp`.
pub fn select_invoke_jwt(state: &mut NousState, now: DateTime<Utc>) {
    let Some(access) = state.text(keys::ACCESS_TOKEN).map(str::to_string) else {
        return;
    };
    let obtained_at = match state.text(keys::AGENT_KEY_OBTAINED_AT) {
        Some(existing) if state.text(keys::AGENT_KEY) == Some(access.as_str()) => {
            existing.to_string()
        }
        _ => format_iso(now),
    };
    let from_claim = jwt_claims(&access)
        .as_ref()
        .and_then(numeric_exp)
        .and_then(|exp| DateTime::from_timestamp_micros((exp * 1_000_000.0) as i64))
        .map(format_iso);
    let expires_at = from_claim.or_else(|| state.text(keys::EXPIRES_AT).map(str::to_string));
    let expires_in = match expires_at.as_deref().and_then(parse_iso) {
        Some(t) => (t.timestamp() - now.timestamp()).max(0),
        None => coerce_ttl(state.value(keys::EXPIRES_IN)),
    };
    if let Some(at) = &expires_at {
        state.set_text(keys::EXPIRES_AT, Some(at));
        state.set_value(keys::EXPIRES_IN, Value::from(expires_in));
    }
    state.set_text(keys::AGENT_KEY, Some(&access));
    state.set_value(keys::AGENT_KEY_ID, Value::Null);
    state.set_text(keys::AGENT_KEY_EXPIRES_AT, expires_at.as_deref());
    state.set_value(keys::AGENT_KEY_EXPIRES_IN, Value::from(expires_in));
    state.set_value(keys::AGENT_KEY_REUSED, Value::Bool(false));
    state.set_text(keys::AGENT_KEY_OBTAINED_AT, Some(&obtained_at));
}

/// Hermes's `_coerce_ttl_seconds`: a non-negative whole number of seconds, else 0.
pub fn coerce_ttl(value: Option<&Value>) -> i64 {
    let secs = match value {
        Some(Value::Number(n)) => n.as_i64().or_else(|| n.as_f64().map(|f| f as i64)),
        Some(Value::String(s)) => s.trim().parse::<i64>().ok(),
        _ => None,
    };
    secs.unwrap_or(0).max(0)
}

/// The environment variables a Nous login honours, read once.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NousEnv {
    /// `HERMES_PORTAL_BASE_URL` or `NOUS_PORTAL_BASE_URL`: trusted, wins over the stored URL.
    pub portal_override: Option<String>,
    /// `NOUS_INFERENCE_BASE_URL`: trusted, used at run time, never written to `auth.json`.
    pub inference_override: Option<String>,
}

impl NousEnv {
    pub fn from_env(env: &dyn Fn(&str) -> Option<String>) -> Self {
        Self {
            portal_override: env("HERMES_PORTAL_BASE_URL")
                .and_then(|v| base_url(&v))
                .or_else(|| env("NOUS_PORTAL_BASE_URL").and_then(|v| base_url(&v))),
            inference_override: env("NOUS_INFERENCE_BASE_URL").and_then(|v| base_url(&v)),
        }
    }
}

/// A trimmed URL without trailing slashes, or `None` when blank (`_optional_base_url`).
pub fn base_url(value: &str) -> Option<String> {
    let cleaned = value.trim().trim_end_matches('/');
    (!cleaned.is_empty()).then(|| cleaned.to_string())
}

/// The Portal a refresh goes to: the env override, else the stored URL when its host is one
/// Hermes allows (https, or http on loopback), else the default.
pub fn effective_portal_url(state: &NousState, env: &NousEnv) -> String {
    if let Some(url) = &env.portal_override {
        return url.clone();
    }
    let stored = state.text(keys::PORTAL_BASE_URL).and_then(base_url);
    let allowed = stored.as_deref().and_then(|url| {
        let parsed = reqwest::Url::parse(url).ok()?;
        let host = parsed.host_str()?.to_ascii_lowercase();
        let loopback = host == "localhost" || host == "127.0.0.1";
        let trusted = parsed.scheme() == "https" || (parsed.scheme() == "http" && loopback);
        (trusted && ALLOWED_PORTAL_HOSTS.contains(&host.as_str())).then(|| url.to_string())
    });
    if allowed.is_none() && stored.is_some() {
        tracing::warn!("auth: ignoring a stored Nous portal URL outside the allowlist");
    }
    allowed.unwrap_or_else(|| DEFAULT_PORTAL_URL.to_string())
}

/// Hermes's `_validate_nous_inference_url_from_network`: an https URL on an allowed host,
/// else `None`.
pub fn validated_inference_url(url: Option<&str>) -> Option<String> {
    let url = base_url(url?)?;
    let parsed = reqwest::Url::parse(&url).ok()?;
    let host = parsed.host_str()?.to_ascii_lowercase();
    (parsed.scheme() == "https" && ALLOWED_INFERENCE_HOSTS.contains(&host.as_str())).then_some(url)
}

/// The inference URL to store: the stored one if it passes the allowlist, else the default.
pub fn stored_inference_url(state: &NousState) -> String {
    validated_inference_url(state.text(keys::INFERENCE_BASE_URL))
        .unwrap_or_else(|| DEFAULT_INFERENCE_URL.to_string())
}

/// The inference URL requests go to: `NOUS_INFERENCE_BASE_URL`, else [`stored_inference_url`].
pub fn effective_inference_url(state: &NousState, env: &NousEnv) -> String {
    env.inference_override
        .clone()
        .unwrap_or_else(|| stored_inference_url(state))
}

#[cfg(test)]
#[path = "nous_login_token_tests.rs"]
mod tests;
