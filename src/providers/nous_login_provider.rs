//! Using a stored Nous Portal login for inference. [`LoginSources`] reads `auth.json` when a
//! session starts or switches model (file I/O only — start-up stays offline, and in the TUI it
//! runs on the UI task) and feeds resolution through `CredentialSources`. When resolution
//! picked the login's token, the built provider is wrapped in a [`LoginProvider`], which makes
//! the token usable before each request — refreshing it, with Hermes's two-minute skew, on the
//! session's own task — and retries once with a fresh token when the inference API answers
//! 401.
//!
//! What it does not do: decide which provider a config means (`registry`) or talk OAuth
//! itself (`nous_login_refresh`). Invariants: a request never starts with a token inside the
//! refresh skew; a refresh failure is one line naming `hermes login nous` when only a new
//! login can help.

use std::sync::Arc;

use async_trait::async_trait;
use chrono::Utc;
use tokio_util::sync::CancellationToken;

use super::ChatRequest;
use super::Completion;
use super::DeltaSink;
use super::Provider;
use super::ProviderError;
use super::nous_login_refresh::DEFAULT_TIMEOUT;
use super::nous_login_refresh::NousCredential;
use super::nous_login_refresh::RefreshContext;
use super::nous_login_refresh::RefreshMode;
use super::nous_login_refresh::fresh_credential;
use super::nous_login_refresh::read_stored_login;
use super::nous_login_token::NousEnv;
use super::registry::ResolvedProvider;
use super::registry::StoredLogin;
use crate::config::HermesHome;
use crate::config::auth_store::AuthPaths;
use crate::config::auth_store::AuthStore;
use crate::config::auth_store_nous::NOUS;
use crate::util::secret::Secret;

/// The logins a session may use, read from disk once.
#[derive(Debug, Clone)]
pub struct LoginSources {
    nous: Option<NousCredential>,
    active: Option<String>,
    refresh: Arc<RefreshContext>,
}

impl LoginSources {
    /// Reads `auth.json` (and the Hermes root's, for a profile) for `home`. Never fails: an
    /// unreadable store means no login.
    pub fn load(
        home: &HermesHome,
        env: &dyn Fn(&str) -> Option<String>,
        client: reqwest::Client,
    ) -> Self {
        let paths = AuthPaths::for_home(home, env);
        let nous_env = NousEnv::from_env(env);
        let nous = read_stored_login(&paths, &nous_env);
        let active = AuthStore::read(&paths.auth_file)
            .ok()
            .and_then(|store| active_login(&store, nous.is_some()));
        let timeout = env("HERMES_NOUS_TIMEOUT_SECONDS")
            .and_then(|v| v.trim().parse::<f64>().ok())
            .filter(|secs| secs.is_finite() && *secs > 0.0)
            .map_or(DEFAULT_TIMEOUT, std::time::Duration::from_secs_f64);
        Self {
            nous,
            active,
            refresh: Arc::new(RefreshContext {
                paths,
                env: nous_env,
                client,
                timeout,
            }),
        }
    }

    /// `CredentialSources::login`: the stored login for `provider`.
    pub fn stored_login(&self, provider: &str) -> Option<StoredLogin> {
        let login = self.nous.as_ref().filter(|_| provider == NOUS)?;
        Some(StoredLogin {
            access: login.access.clone(),
            inference_base_url: Some(login.inference_base_url.clone()),
        })
    }

    /// `CredentialSources::active_login`: `active_provider`, when that login is usable.
    pub fn active_login(&self) -> Option<&str> {
        self.active.as_deref()
    }

    /// Wraps `provider` in a [`LoginProvider`] when `resolved` carries the stored Nous token;
    /// anything else (an API key, another provider) is returned as it is.
    pub fn wrap(
        &self,
        resolved: &ResolvedProvider,
        provider: Arc<dyn Provider>,
    ) -> Arc<dyn Provider> {
        let Some(login) = &self.nous else {
            return provider;
        };
        if resolved.name != NOUS || resolved.api_key.as_ref() != Some(&login.access) {
            return provider;
        }
        Arc::new(LoginProvider {
            template: resolved.clone(),
            refresh: Arc::clone(&self.refresh),
            current: tokio::sync::Mutex::new(Current {
                credential: login.clone(),
                inner: provider,
            }),
        })
    }
}

/// `active_provider` as resolution may use it: `nous` only with a stored token (a
/// quarantined login is not active); another provider when its state exists.
fn active_login(store: &AuthStore, nous_usable: bool) -> Option<String> {
    let active = store.active_provider()?;
    let usable = if active == NOUS {
        nous_usable
    } else {
        store.provider(active).is_some()
    };
    usable.then(|| active.to_string())
}

/// A provider whose bearer token is a Nous login kept fresh.
pub struct LoginProvider {
    /// The resolution the login fed; rebuilt with each new token.
    template: ResolvedProvider,
    refresh: Arc<RefreshContext>,
    current: tokio::sync::Mutex<Current>,
}

struct Current {
    credential: NousCredential,
    inner: Arc<dyn Provider>,
}

impl LoginProvider {
    /// The provider to send with: the current one, or one rebuilt with a fresh token.
    async fn ready(
        &self,
        mode: RefreshMode,
        cancel: &CancellationToken,
    ) -> Result<(Secret, Arc<dyn Provider>), ProviderError> {
        let mut current = self.current.lock().await;
        if mode == RefreshMode::IfNeeded && !current.credential.expiring(Utc::now()) {
            return Ok((
                current.credential.access.clone(),
                Arc::clone(&current.inner),
            ));
        }
        let fresh = fresh_credential(&self.refresh, mode, cancel)
            .await
            .map_err(super::nous_login_refresh::RefreshError::into_provider_error)?;
        if fresh.access != current.credential.access {
            let mut resolved = self.template.clone();
            resolved.api_key = Some(fresh.access.clone());
            current.inner = super::build(&resolved, self.refresh.client.clone());
        }
        current.credential = fresh;
        Ok((
            current.credential.access.clone(),
            Arc::clone(&current.inner),
        ))
    }
}

#[async_trait]
impl Provider for LoginProvider {
    fn name(&self) -> &str {
        &self.template.name
    }

    async fn complete(
        &self,
        request: &ChatRequest,
        on_delta: DeltaSink<'_>,
        cancel: &CancellationToken,
    ) -> Result<Completion, ProviderError> {
        let (token, provider) = self.ready(RefreshMode::IfNeeded, cancel).await?;
        match provider.complete(request, on_delta, cancel).await {
            Err(ProviderError::Auth { status: 401, .. }) => {
                // Revoked or expired early: one refresh (unless another process already
                // refreshed), then one retry.
                let (_, provider) = self.ready(RefreshMode::Rejected(token), cancel).await?;
                provider
                    .complete(request, on_delta, cancel)
                    .await
                    .map_err(login_rejected)
            }
            other => other,
        }
    }
}

/// A 401 for a fresh login token is not a `.env` key problem: say what to do instead.
fn login_rejected(err: ProviderError) -> ProviderError {
    match err {
        ProviderError::Auth { status, message } => ProviderError::Login {
            message: format!(
                "the Nous inference API rejected the login token (HTTP {status}): {message}; run `hermes login nous`"
            ),
        },
        other => other,
    }
}

#[cfg(test)]
#[path = "nous_login_provider_tests.rs"]
mod tests;
