//! The Nous Portal login as Hermes stores it: `providers.nous` in `auth.json`, and the shared
//! cross-profile copy `shared/nous_auth.json`. A typed view over the stored JSON object (every
//! key is kept, unknown ones too), the shared store's exact format, and the pure state changes
//! Hermes makes around a refresh: adopting fresher shared tokens (`merge_shared`) and
//! quarantining a dead login (`quarantine`).
//!
//! What it does not do: HTTP, JWT interpretation or deciding when to refresh
//! (`providers::nous_login*`). Invariants: tokens leave a `NousState` only through
//! [`NousState::secret`] as a `Secret`, and `Debug` shows key names only.

use std::path::Path;

use chrono::DateTime;
use chrono::SecondsFormat;
use chrono::Timelike;
use chrono::Utc;
use serde_json::Map;
use serde_json::Value;

use super::auth_store::Activate;
use super::auth_store::AuthStore;
use super::auth_store::AuthStoreError;
use super::auth_store::lock_store;
use super::auth_store::write_private;
use crate::util::secret::Secret;

/// The provider id of the Nous Portal login.
pub const NOUS: &str = "nous";
pub const DEFAULT_PORTAL_URL: &str = "https://portal.nousresearch.com";
pub const DEFAULT_INFERENCE_URL: &str = "https://inference-api.nousresearch.com/v1";
pub const DEFAULT_CLIENT_ID: &str = "hermes-cli";
pub const DEFAULT_SCOPE: &str = "inference:invoke";
/// `source` of the credential-pool entry Hermes seeds from `providers.nous`.
pub const DEVICE_CODE_SOURCE: &str = "device_code";
/// Portal hosts Hermes rewrites to the default on load.
const STALE_PORTAL_HOSTS: &[&str] = &["api.nousresearch.com"];

/// Keys of `providers.nous` (Hermes's names).
pub mod keys {
    pub const ACCESS_TOKEN: &str = "access_token";
    pub const REFRESH_TOKEN: &str = "refresh_token";
    pub const TOKEN_TYPE: &str = "token_type";
    pub const SCOPE: &str = "scope";
    pub const CLIENT_ID: &str = "client_id";
    pub const PORTAL_BASE_URL: &str = "portal_base_url";
    pub const INFERENCE_BASE_URL: &str = "inference_base_url";
    pub const OBTAINED_AT: &str = "obtained_at";
    pub const EXPIRES_AT: &str = "expires_at";
    pub const EXPIRES_IN: &str = "expires_in";
    pub const TLS: &str = "tls";
    pub const LABEL: &str = "label";
    pub const AGENT_KEY: &str = "agent_key";
    pub const AGENT_KEY_ID: &str = "agent_key_id";
    pub const AGENT_KEY_EXPIRES_AT: &str = "agent_key_expires_at";
    pub const AGENT_KEY_EXPIRES_IN: &str = "agent_key_expires_in";
    pub const AGENT_KEY_REUSED: &str = "agent_key_reused";
    pub const AGENT_KEY_OBTAINED_AT: &str = "agent_key_obtained_at";
    pub const LAST_AUTH_ERROR: &str = "last_auth_error";
}

/// `providers.nous`: the stored JSON object with typed accessors.
#[derive(Clone, PartialEq, Default)]
pub struct NousState {
    fields: Map<String, Value>,
}

impl std::fmt::Debug for NousState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NousState")
            .field("keys", &self.fields.keys().collect::<Vec<_>>())
            .finish()
    }
}

impl NousState {
    pub fn from_map(fields: Map<String, Value>) -> Self {
        Self { fields }
    }

    pub fn into_map(self) -> Map<String, Value> {
        self.fields
    }

    /// A non-empty string value (Hermes treats empty strings as unset).
    pub fn text(&self, key: &str) -> Option<&str> {
        self.fields
            .get(key)
            .and_then(Value::as_str)
            .filter(|s| !s.trim().is_empty())
    }

    /// A token-valued key (`access_token`, `refresh_token`, `agent_key`) as a `Secret`.
    pub fn secret(&self, key: &str) -> Option<Secret> {
        self.text(key).map(Secret::new)
    }

    pub fn value(&self, key: &str) -> Option<&Value> {
        self.fields.get(key)
    }

    /// Sets a string, or `null` for `None` (Hermes writes explicit nulls).
    pub fn set_text(&mut self, key: &str, value: Option<&str>) {
        self.fields
            .insert(key.to_string(), value.map_or(Value::Null, Value::from));
    }

    /// Also registers the value as a known secret: a token just obtained is masked on every
    /// output path from now on.
    pub fn set_secret(&mut self, key: &str, value: &Secret) {
        crate::util::redact::register_known_secret(value.expose());
        self.fields
            .insert(key.to_string(), Value::from(value.expose()));
    }

    pub fn set_value(&mut self, key: &str, value: Value) {
        self.fields.insert(key.to_string(), value);
    }

    pub fn remove(&mut self, key: &str) {
        self.fields.remove(key);
    }

    /// Equal apart from the countdown fields (`expires_in`, `agent_key_expires_in`), which
    /// tick between reads; Hermes skips a write when only those changed.
    pub fn same_effective_state(&self, other: &NousState) -> bool {
        let strip = |s: &NousState| {
            let mut m = s.fields.clone();
            m.remove(keys::EXPIRES_IN);
            m.remove(keys::AGENT_KEY_EXPIRES_IN);
            m
        };
        strip(self) == strip(other)
    }
}

impl AuthStore {
    /// `providers.nous`, if present.
    pub fn nous(&self) -> Option<NousState> {
        self.provider(NOUS).cloned().map(NousState::from_map)
    }

    /// Replaces `providers.nous`.
    pub fn set_nous(&mut self, state: &NousState, activate: Activate) {
        self.set_provider(NOUS, state.fields.clone(), activate);
    }
}

/// Hermes's `_migrate_stale_nous_portal_url`: a portal on a retired host becomes the default.
pub(crate) fn migrate_stale_portal(store: &mut AuthStore) {
    let Some(mut state) = store.nous() else {
        return;
    };
    let stale = state
        .text(keys::PORTAL_BASE_URL)
        .and_then(url_host)
        .is_some_and(|host| STALE_PORTAL_HOSTS.contains(&host.as_str()));
    if stale {
        state.set_text(keys::PORTAL_BASE_URL, Some(DEFAULT_PORTAL_URL));
        store.set_nous(&state, Activate::No);
    }
}

/// The host of an `http(s)://host[:port]/…` URL, lowercased (the config layer has no URL
/// parser of its own; this is all it needs).
pub fn url_host(url: &str) -> Option<String> {
    let rest = url.trim().split_once("://")?.1;
    let authority = rest.split(['/', '?', '#']).next()?;
    let host_port = authority.rsplit('@').next()?;
    let host = if let Some(v6) = host_port.strip_prefix('[') {
        v6.split(']').next()?
    } else {
        host_port.split(':').next()?
    };
    (!host.is_empty()).then(|| host.to_ascii_lowercase())
}

/// Copies fresher tokens from the shared store into `state` (Hermes's
/// `_merge_shared_nous_oauth_state`): when another profile rotated the single-use refresh
/// token, or holds a later-expiring access token. True if `state` changed.
pub fn merge_shared(state: &mut NousState, shared: &NousState) -> bool {
    let Some(shared_refresh) = shared.text(keys::REFRESH_TOKEN) else {
        return false;
    };
    let local_refresh = state.text(keys::REFRESH_TOKEN).unwrap_or("");
    let expiry = |s: &NousState| {
        s.text(keys::EXPIRES_AT)
            .and_then(parse_iso)
            .map_or(0, |t| t.timestamp_micros())
    };
    let refresh_changed = shared_refresh.trim() != local_refresh.trim();
    if !refresh_changed && expiry(shared) <= expiry(state) {
        return false;
    }
    for key in [
        keys::ACCESS_TOKEN,
        keys::REFRESH_TOKEN,
        keys::TOKEN_TYPE,
        keys::SCOPE,
        keys::CLIENT_ID,
        keys::PORTAL_BASE_URL,
        keys::INFERENCE_BASE_URL,
        keys::OBTAINED_AT,
        keys::EXPIRES_AT,
    ] {
        match shared.value(key) {
            None | Some(Value::Null) => {}
            Some(Value::String(s)) if s.is_empty() => {}
            Some(value) => state.set_value(key, value.clone()),
        }
    }
    true
}

/// Why a login was quarantined, for `last_auth_error`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthFailure {
    /// The Portal's error code (`invalid_grant`, `refresh_token_reused`, …).
    pub code: String,
    pub message: String,
    /// Where it happened (`runtime_access_refresh_failure`, …).
    pub reason: String,
}

/// Hermes's `_quarantine_nous_oauth_state`: drops the dead token material so it is never
/// replayed, keeps the routing metadata, and records `last_auth_error`.
pub fn quarantine(state: &mut NousState, failure: &AuthFailure) {
    for key in [
        keys::ACCESS_TOKEN,
        keys::REFRESH_TOKEN,
        keys::EXPIRES_AT,
        keys::EXPIRES_IN,
        keys::OBTAINED_AT,
        keys::AGENT_KEY,
        keys::AGENT_KEY_ID,
        keys::AGENT_KEY_EXPIRES_AT,
        keys::AGENT_KEY_EXPIRES_IN,
        keys::AGENT_KEY_REUSED,
        keys::AGENT_KEY_OBTAINED_AT,
    ] {
        state.remove(key);
    }
    state.set_value(
        keys::LAST_AUTH_ERROR,
        serde_json::json!({
            "provider": NOUS,
            "code": failure.code,
            "message": failure.message,
            "reason": failure.reason,
            "relogin_required": true,
            "at": now_iso(),
        }),
    );
}

/// Reads the shared store; `None` when it is missing, unreadable or lacks either token (as
/// Hermes's `_read_shared_nous_state`).
pub fn read_shared(path: &Path) -> Option<NousState> {
    let text = std::fs::read_to_string(path).ok()?;
    let Value::Object(fields) = serde_json::from_str(&text).ok()? else {
        return None;
    };
    let state = NousState::from_map(fields);
    state.text(keys::ACCESS_TOKEN)?;
    state.text(keys::REFRESH_TOKEN)?;
    Some(state)
}

/// Writes the shared store from `state` in Hermes's format (`_schema: 1`, eleven keys,
/// sorted, two-space indent, no final newline), under its own lock. Skipped when `state` has
/// no access or refresh token. Lock order as in Hermes: a caller holding the `auth.json` lock
/// takes this one second.
pub fn write_shared(path: &Path, state: &NousState) -> Result<(), AuthStoreError> {
    let (Some(access), Some(refresh)) = (
        state.text(keys::ACCESS_TOKEN),
        state.text(keys::REFRESH_TOKEN),
    ) else {
        return Ok(());
    };
    let or_default = |key: &str, default: &str| state.text(key).unwrap_or(default).to_string();
    let passthrough = |key: &str| state.value(key).cloned().unwrap_or(Value::Null);
    let shared = serde_json::json!({
        "_schema": 1,
        "access_token": access,
        "refresh_token": refresh,
        "token_type": or_default(keys::TOKEN_TYPE, "Bearer"),
        "scope": or_default(keys::SCOPE, DEFAULT_SCOPE),
        "client_id": or_default(keys::CLIENT_ID, DEFAULT_CLIENT_ID),
        "portal_base_url": or_default(keys::PORTAL_BASE_URL, DEFAULT_PORTAL_URL),
        "inference_base_url": or_default(keys::INFERENCE_BASE_URL, DEFAULT_INFERENCE_URL),
        "obtained_at": passthrough(keys::OBTAINED_AT),
        "expires_at": passthrough(keys::EXPIRES_AT),
        "updated_at": now_iso(),
    });
    // serde_json's map is ordered by key, which is Python's `sort_keys=True`.
    let text = serde_json::to_string_pretty(&shared).map_err(|e| AuthStoreError::Corrupt {
        path: path.to_path_buf(),
        source: e.into(),
    })?;
    let _lock = lock_store(path)?;
    write_private(path, text.as_bytes())
}

/// Removes the shared store after a terminal refresh failure (its refresh token is dead).
pub fn clear_shared(path: &Path) -> Result<(), AuthStoreError> {
    let _lock = lock_store(path)?;
    match std::fs::remove_file(path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(source) => Err(AuthStoreError::Io {
            path: path.to_path_buf(),
            source,
        }),
    }
}

/// Python's `datetime.isoformat()` for a UTC time: microseconds only when non-zero, `+00:00`.
pub fn format_iso(time: DateTime<Utc>) -> String {
    let micros = time.nanosecond() / 1_000;
    match time.with_nanosecond(micros * 1_000) {
        Some(t) if micros != 0 => t.to_rfc3339_opts(SecondsFormat::Micros, false),
        Some(t) => t.to_rfc3339_opts(SecondsFormat::Secs, false),
        None => time.to_rfc3339_opts(SecondsFormat::Secs, false),
    }
}

pub fn now_iso() -> String {
    format_iso(Utc::now())
}

/// Python's `datetime.fromisoformat` as Hermes uses it: a trailing `Z` means UTC and a time
/// without an offset is taken as UTC.
pub fn parse_iso(text: &str) -> Option<DateTime<Utc>> {
    let text = text.trim();
    if let Ok(t) = DateTime::parse_from_rfc3339(text) {
        return Some(t.with_timezone(&Utc));
    }
    for format in ["%Y-%m-%dT%H:%M:%S%.f", "%Y-%m-%d %H:%M:%S%.f"] {
        if let Ok(naive) = chrono::NaiveDateTime::parse_from_str(text, format) {
            return Some(naive.and_utc());
        }
    }
    chrono::DateTime::parse_from_str(text, "%Y-%m-%d %H:%M:%S%.f%:z")
        .ok()
        .map(|t| t.with_timezone(&Utc))
}

#[cfg(test)]
#[path = "auth_store_nous_tests.rs"]
mod tests;
