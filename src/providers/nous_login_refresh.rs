//! Keeping a Nous Portal login usable, as Hermes's `resolve_nous_runtime_credentials` does:
//! under the `auth.json` lock, re-read the stored login (another process may have refreshed
//! it already), adopt fresher tokens from the shared store, and only if the access token is
//! still unusable (or the inference API rejected it) spend the single-use refresh token at
//! `POST {portal}/api/oauth/token`. The rotated tokens are saved before anything else can
//! fail, to the store the login came from and to the shared store. A refresh the Portal
//! refuses for good (`invalid_grant`, `invalid_token`, `refresh_token_reused`) quarantines the
//! login exactly as Hermes does, so neither program replays the dead token.
//!
//! What it does not do: the device-code login (`nous_login`) or choosing when a request
//! needs a fresh token (`nous_login_provider`). Invariants: the lock is held from the re-read
//! to the last write, so two processes never both refresh the same token; errors are one
//! line and never contain a token.

use std::path::PathBuf;
use std::time::Duration;

use chrono::Utc;
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use super::ProviderError;
use super::nous_login_http::field;
use super::nous_login_http::post_form;
use super::nous_login_token::NousEnv;
use super::nous_login_token::coerce_ttl;
use super::nous_login_token::effective_inference_url;
use super::nous_login_token::effective_portal_url;
use super::nous_login_token::select_invoke_jwt;
use super::nous_login_token::state_status;
use super::nous_login_token::stored_inference_url;
use super::nous_login_token::token_expiry;
use super::nous_login_token::validated_inference_url;
use crate::config::auth_store::Activate;
use crate::config::auth_store::AuthPaths;
use crate::config::auth_store::AuthStore;
use crate::config::auth_store::AuthStoreError;
use crate::config::auth_store::lock_store;
use crate::config::auth_store_nous::AuthFailure;
use crate::config::auth_store_nous::DEFAULT_CLIENT_ID;
use crate::config::auth_store_nous::DEVICE_CODE_SOURCE;
use crate::config::auth_store_nous::NOUS;
use crate::config::auth_store_nous::NousState;
use crate::config::auth_store_nous::format_iso;
use crate::config::auth_store_nous::keys;
use crate::config::auth_store_nous::merge_shared;
use crate::config::auth_store_nous::quarantine;
use crate::config::auth_store_nous::read_shared;
use crate::util::secret::Secret;

/// Portal error codes after which the refresh token can never work again.
const TERMINAL_CODES: &[&str] = &["invalid_grant", "invalid_token", "refresh_token_reused"];
/// Default for `HERMES_NOUS_TIMEOUT_SECONDS`.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(15);

/// A usable inference credential from the login.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NousCredential {
    pub access: Secret,
    /// Where inference requests go (`NOUS_INFERENCE_BASE_URL`, else the stored URL).
    pub inference_base_url: String,
    /// When the token stops being usable (its `exp`, else the stored `expires_at`).
    pub expires_at: Option<chrono::DateTime<Utc>>,
}

impl NousCredential {
    fn of(state: &NousState, env: &NousEnv) -> Option<Self> {
        let access = state
            .secret(keys::ACCESS_TOKEN)
            .or_else(|| state.secret(keys::AGENT_KEY))?;
        Some(Self {
            expires_at: token_expiry(access.expose(), state.text(keys::EXPIRES_AT)),
            inference_base_url: effective_inference_url(state, env),
            access,
        })
    }

    /// Whether the token is past, or within Hermes's refresh skew of, its expiry.
    pub fn expiring(&self, now: chrono::DateTime<Utc>) -> bool {
        let horizon = now + chrono::Duration::seconds(super::nous_login_token::REFRESH_SKEW_SECS);
        self.expires_at.is_none_or(|t| t <= horizon)
    }
}

/// Everything a refresh needs, fixed when a session starts.
#[derive(Debug, Clone)]
pub struct RefreshContext {
    pub paths: AuthPaths,
    pub env: NousEnv,
    pub client: reqwest::Client,
    /// Per Portal request (`HERMES_NOUS_TIMEOUT_SECONDS`).
    pub timeout: Duration,
}

/// Why the stored token could not be made usable.
#[derive(Debug, thiserror::Error)]
pub enum RefreshError {
    #[error("hermes is not logged in to Nous Portal")]
    NotLoggedIn,
    #[error("the stored login has no {what}")]
    Missing { what: &'static str },
    #[error("the Portal refused the refresh token ({code}): {description}")]
    Rejected {
        code: String,
        description: String,
        /// Retrying with this refresh token can never succeed.
        terminal: bool,
    },
    #[error("the Portal's token is not a usable inference token ({reason})")]
    NotUsable { reason: &'static str },
    #[error("the Portal answered HTTP {status} without an OAuth JSON body")]
    Unexpected { status: u16 },
    #[error("could not reach the Nous Portal: {message}")]
    Unreachable { message: String },
    #[error("cancelled")]
    Cancelled,
    #[error(transparent)]
    Store(#[from] AuthStoreError),
}

impl From<ProviderError> for RefreshError {
    fn from(err: ProviderError) -> Self {
        match err {
            ProviderError::Cancelled => Self::Cancelled,
            other => Self::Unreachable {
                message: portal_failure(&other),
            },
        }
    }
}

/// What went wrong talking to the Portal, without the provider-specific advice.
pub(crate) fn portal_failure(err: &ProviderError) -> String {
    match err {
        ProviderError::Transport { message } => message.clone(),
        ProviderError::Hang { idle_secs } => format!("no answer within {idle_secs}s"),
        other => other.to_string(),
    }
}

impl RefreshError {
    /// Whether only a new `hermes login nous` can fix this (as opposed to trying again).
    pub fn needs_login(&self) -> bool {
        match self {
            Self::NotLoggedIn | Self::Missing { .. } | Self::NotUsable { .. } => true,
            Self::Rejected { terminal, .. } => *terminal,
            Self::Unexpected { .. }
            | Self::Unreachable { .. }
            | Self::Cancelled
            | Self::Store(_) => false,
        }
    }

    /// The one line a user sees, as a provider error.
    pub fn into_provider_error(self) -> ProviderError {
        match self {
            Self::Cancelled => ProviderError::Cancelled,
            err if err.needs_login() => ProviderError::Login {
                message: format!(
                    "Nous Portal login expired and could not be refreshed: {err}; run `hermes login nous`"
                ),
            },
            err => ProviderError::Transport {
                message: format!("the Nous Portal login could not be refreshed: {err}"),
            },
        }
    }
}

/// When to spend the refresh token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RefreshMode {
    /// Only when the stored access token is unusable or within the skew of expiry.
    IfNeeded,
    /// The inference API rejected this token: refresh unless the store already holds a
    /// different (newer) one.
    Rejected(Secret),
}

/// Which store holds the login: the active home's, else the Hermes root's (profiles).
fn login_source(paths: &AuthPaths) -> Result<PathBuf, RefreshError> {
    let has_login = |path: &PathBuf| {
        AuthStore::read(path)
            .ok()
            .is_some_and(|store| store.nous().is_some())
    };
    if has_login(&paths.auth_file) {
        return Ok(paths.auth_file.clone());
    }
    match &paths.root_auth_file {
        Some(root) if has_login(root) => Ok(root.clone()),
        _ => Err(RefreshError::NotLoggedIn),
    }
}

/// Makes the stored login usable (refreshing it if needed) and returns its credential.
pub async fn fresh_credential(
    ctx: &RefreshContext,
    mode: RefreshMode,
    cancel: &CancellationToken,
) -> Result<NousCredential, RefreshError> {
    let source = login_source(&ctx.paths)?;
    let lock_target = source.clone();
    let _lock = tokio::task::spawn_blocking(move || lock_store(&lock_target))
        .await
        .map_err(|e| {
            RefreshError::Store(AuthStoreError::Io {
                path: source.clone(),
                source: std::io::Error::other(e.to_string()),
            })
        })??;
    let mut tx = Transaction {
        ctx,
        store: AuthStore::read(&source)?,
        path: source,
        persisted: None,
    };
    let mut state = tx.store.nous().ok_or(RefreshError::NotLoggedIn)?;
    tx.persisted = Some(state.clone());
    let portal = effective_portal_url(&state, &ctx.env);
    let client_id = state
        .text(keys::CLIENT_ID)
        .unwrap_or(DEFAULT_CLIENT_ID)
        .to_string();

    let rejected = |state: &NousState| match &mode {
        RefreshMode::Rejected(token) => state.secret(keys::ACCESS_TOKEN).as_ref() == Some(token),
        RefreshMode::IfNeeded => false,
    };
    let needs_refresh = |state: &NousState| {
        state.text(keys::ACCESS_TOKEN).is_none()
            || state_status(state, Utc::now()).is_err()
            || rejected(state)
    };
    if needs_refresh(&state) {
        if let Some(shared) = read_shared(&ctx.paths.shared_nous_file)
            && merge_shared(&mut state, &shared)
        {
            tx.persist(&state)?;
        }
        if state.text(keys::ACCESS_TOKEN).is_none() && state.text(keys::REFRESH_TOKEN).is_none() {
            return Err(RefreshError::Missing {
                what: "access token",
            });
        }
        if needs_refresh(&state) {
            let refresh_token = state
                .secret(keys::REFRESH_TOKEN)
                .ok_or(RefreshError::Missing {
                    what: "refresh token",
                })?;
            if cancel.is_cancelled() {
                return Err(RefreshError::Cancelled);
            }
            // Not cancellable once sent: the Portal spends the old refresh token as soon as it
            // answers, so the answer must be saved even if the user interrupted the turn.
            let uncancellable = CancellationToken::new();
            match refresh_request(ctx, &portal, &client_id, &refresh_token, &uncancellable).await {
                Ok(payload) => {
                    apply_refresh(&mut state, &payload, &refresh_token);
                    // Saved at once: the old refresh token is spent, whatever happens next.
                    tx.persist(&state)?;
                }
                Err(err) => {
                    if let RefreshError::Rejected {
                        code,
                        description,
                        terminal: true,
                    } = &err
                    {
                        tx.quarantine(&mut state, code, description)?;
                    }
                    return Err(err);
                }
            }
        }
    }
    if let Err(reason) = state_status(&state, Utc::now()) {
        return Err(RefreshError::NotUsable {
            reason: reason.code(),
        });
    }
    select_invoke_jwt(&mut state, Utc::now());
    state.set_text(keys::PORTAL_BASE_URL, Some(&portal));
    state.set_text(
        keys::INFERENCE_BASE_URL,
        Some(&stored_inference_url(&state)),
    );
    state.set_text(keys::CLIENT_ID, Some(&client_id));
    if state.value(keys::TLS).is_none() {
        state.set_value(
            keys::TLS,
            serde_json::json!({"insecure": false, "ca_bundle": null}),
        );
    }
    tx.persist(&state)?;
    NousCredential::of(&state, &ctx.env).ok_or(RefreshError::Missing {
        what: "access token",
    })
}

/// The locked store being updated.
struct Transaction<'a> {
    ctx: &'a RefreshContext,
    store: AuthStore,
    path: PathBuf,
    /// The state as last written (writes that change only countdowns are skipped).
    persisted: Option<NousState>,
}

impl Transaction<'_> {
    fn persist(&mut self, state: &NousState) -> Result<(), RefreshError> {
        if self
            .persisted
            .as_ref()
            .is_some_and(|p| p.same_effective_state(state))
        {
            return Ok(());
        }
        // A refresh is not a choice of provider: `active_provider` stays as it is.
        self.store.set_nous(state, Activate::No);
        self.store.write(&self.path)?;
        self.persisted = Some(state.clone());
        // The shared copy must follow every rotation, or another profile (or Python Hermes)
        // would adopt the spent refresh token from it.
        if let Err(err) =
            crate::config::auth_store_nous::write_shared(&self.ctx.paths.shared_nous_file, state)
        {
            tracing::warn!(error = %err, "could not update the shared Nous login");
        }
        Ok(())
    }

    fn quarantine(
        &mut self,
        state: &mut NousState,
        code: &str,
        description: &str,
    ) -> Result<(), RefreshError> {
        quarantine(
            state,
            &AuthFailure {
                code: code.to_string(),
                message: description.to_string(),
                reason: "runtime_access_refresh_failure".to_string(),
            },
        );
        let manual = format!("manual:{DEVICE_CODE_SOURCE}");
        self.store
            .remove_pool_entries(NOUS, &[DEVICE_CODE_SOURCE, manual.as_str()]);
        self.store.set_nous(state, Activate::No);
        self.store.write(&self.path)?;
        if let Err(err) =
            crate::config::auth_store_nous::clear_shared(&self.ctx.paths.shared_nous_file)
        {
            tracing::warn!(error = %err, "could not remove the dead shared Nous login");
        }
        Ok(())
    }
}

/// Hermes's `_refresh_access_token`.
pub(crate) async fn refresh_request(
    ctx: &RefreshContext,
    portal: &str,
    client_id: &str,
    refresh_token: &Secret,
    cancel: &CancellationToken,
) -> Result<serde_json::Map<String, Value>, RefreshError> {
    let url = format!("{portal}/api/oauth/token");
    let reply = post_form(
        &ctx.client,
        &url,
        &[("grant_type", "refresh_token"), ("client_id", client_id)],
        Some(refresh_token),
        ctx.timeout,
        cancel,
    )
    .await?;
    if reply.status == 200 {
        return match reply.json {
            Some(Value::Object(payload))
                if payload.get("access_token").is_some_and(Value::is_string) =>
            {
                Ok(payload)
            }
            // Hermes treats a token answer without a token as a dead session.
            Some(Value::Object(_)) => Err(missing_access_token()),
            _ => Err(RefreshError::Unexpected { status: 200 }),
        };
    }
    let Some(json) = reply.json.filter(Value::is_object) else {
        return Err(RefreshError::Unexpected {
            status: reply.status,
        });
    };
    let code = field(Some(&json), "error")
        .unwrap_or("invalid_grant")
        .to_string();
    let mut description = field(Some(&json), "error_description")
        .filter(|d| !d.trim().is_empty())
        .unwrap_or("Refresh token exchange failed")
        .to_string();
    let reuse = code == "refresh_token_reused" || description.to_lowercase().contains("reuse");
    if reuse {
        description = "Nous Portal detected refresh-token reuse and revoked this session \
            (another program used the refresh token without saving the rotated one)"
            .to_string();
    }
    let terminal = reuse || TERMINAL_CODES.contains(&code.as_str());
    Err(RefreshError::Rejected {
        code,
        description,
        terminal,
    })
}

fn missing_access_token() -> RefreshError {
    RefreshError::Rejected {
        code: "invalid_token".into(),
        description: "Refresh response missing access_token".into(),
        terminal: true,
    }
}

/// Writes a successful refresh into the state, as Hermes does.
pub(crate) fn apply_refresh(
    state: &mut NousState,
    payload: &serde_json::Map<String, Value>,
    used_refresh_token: &Secret,
) {
    let now = Utc::now();
    let text = |key: &str| {
        payload
            .get(key)
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
    };
    let ttl = coerce_ttl(payload.get("expires_in"));
    if let Some(access) = text("access_token") {
        state.set_secret(keys::ACCESS_TOKEN, &Secret::new(access));
    }
    match text("refresh_token") {
        Some(rotated) => state.set_secret(keys::REFRESH_TOKEN, &Secret::new(rotated)),
        None => state.set_secret(keys::REFRESH_TOKEN, used_refresh_token),
    }
    let token_type = text("token_type")
        .or(state.text(keys::TOKEN_TYPE))
        .unwrap_or("Bearer")
        .to_string();
    state.set_text(keys::TOKEN_TYPE, Some(&token_type));
    if let Some(scope) = payload.get("scope").filter(|s| !is_blank(s)) {
        state.set_value(keys::SCOPE, scope.clone());
    }
    let inference = validated_inference_url(text("inference_base_url"))
        .unwrap_or_else(|| crate::config::auth_store_nous::DEFAULT_INFERENCE_URL.to_string());
    state.set_text(keys::INFERENCE_BASE_URL, Some(&inference));
    state.set_text(keys::OBTAINED_AT, Some(&format_iso(now)));
    state.set_value(keys::EXPIRES_IN, Value::from(ttl));
    let expires = now + chrono::Duration::seconds(ttl);
    state.set_text(keys::EXPIRES_AT, Some(&format_iso(expires)));
}

fn is_blank(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::String(s) => s.is_empty(),
        _ => false,
    }
}

/// The stored login as it is on disk (the active home's store, else the Hermes root's), read
/// without the lock and without the network: for session start, which must stay offline
/// and fast.
pub fn read_stored_login(paths: &AuthPaths, env: &NousEnv) -> Option<NousCredential> {
    let source = login_source(paths).ok()?;
    let state = AuthStore::read(&source).ok()?.nous()?;
    NousCredential::of(&state, env)
}

#[cfg(test)]
#[path = "nous_login_refresh_tests.rs"]
mod tests;
