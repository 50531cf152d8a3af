//! `hermes login nous`: Nous Portal's OAuth device-code login (RFC 8628), as Hermes runs it.
//! Ask `POST {portal}/api/oauth/device/code` for a code, show the verification URL and user
//! code, poll `POST {portal}/api/oauth/token` at the server's interval (slower after
//! `slow_down`) until the user approves, then store the tokens in `providers.nous` of
//! `auth.json` (and the shared `nous_auth.json`) exactly as Hermes would.
//!
//! What it does not do: print or open a browser (the caller gets [`LoginEvent`]s and decides),
//! or refresh a stored login later (`nous_login_refresh`). Invariants: polling stops on
//! `expired_token`, `access_denied`, any other OAuth error, the code's own expiry or
//! cancellation; nothing is written unless a usable inference token was issued; the device
//! code and tokens never reach an event, a log line or an error.

use std::path::PathBuf;
use std::time::Duration;

use chrono::Utc;
use futures::future::BoxFuture;
use serde_json::Map;
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use super::ProviderError;
use super::nous_login_http::PortalReply;
use super::nous_login_http::field;
use super::nous_login_http::post_form;
use super::nous_login_refresh::RefreshContext;
use super::nous_login_refresh::RefreshError;
use super::nous_login_refresh::apply_refresh;
use super::nous_login_refresh::refresh_request;
use super::nous_login_token::base_url;
use super::nous_login_token::coerce_ttl;
use super::nous_login_token::select_invoke_jwt;
use super::nous_login_token::state_status;
use crate::config::auth_store::Activate;
use crate::config::auth_store::AuthStore;
use crate::config::auth_store::AuthStoreError;
use crate::config::auth_store::lock_store;
use crate::config::auth_store_nous::DEFAULT_CLIENT_ID;
use crate::config::auth_store_nous::DEFAULT_INFERENCE_URL;
use crate::config::auth_store_nous::DEFAULT_PORTAL_URL;
use crate::config::auth_store_nous::DEFAULT_SCOPE;
use crate::config::auth_store_nous::DEVICE_CODE_SOURCE;
use crate::config::auth_store_nous::NOUS;
use crate::config::auth_store_nous::NousState;
use crate::config::auth_store_nous::format_iso;
use crate::config::auth_store_nous::keys;
use crate::config::auth_store_nous::write_shared;
use crate::util::secret::Secret;

/// RFC 8628 §3.5: each `slow_down` adds five seconds to the polling interval.
const SLOW_DOWN_STEP_SECS: u64 = 5;
const MAX_INTERVAL_SECS: u64 = 60;
const DEVICE_GRANT: &str = "urn:ietf:params:oauth:grant-type:device_code";

/// `hermes login nous` flags (Hermes's names).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LoginOptions {
    /// `--portal-url`; else `HERMES_PORTAL_BASE_URL`/`NOUS_PORTAL_BASE_URL`, else the default.
    pub portal_url: Option<String>,
    /// `--inference-url`; else `NOUS_INFERENCE_BASE_URL`, else the default.
    pub inference_url: Option<String>,
    pub client_id: Option<String>,
    pub scope: Option<String>,
    /// `--label`: the name Hermes's credential pool shows for this login.
    pub label: Option<String>,
}

/// What the user should see while the login runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoginEvent {
    Starting {
        portal: String,
    },
    /// Open `url` (it carries the code) or enter `user_code` at the Portal.
    Verification {
        url: String,
        user_code: String,
    },
    Waiting {
        interval_secs: u64,
    },
    /// The Portal asked for slower polling.
    SlowDown {
        interval_secs: u64,
    },
    /// The Portal named its own inference URL.
    PortalInferenceUrl {
        url: String,
    },
}

/// Sleeps between polls; tests pass one that records the requested durations.
pub type Sleep<'a> = &'a (dyn Fn(Duration) -> BoxFuture<'static, ()> + Send + Sync);

/// The real sleep.
pub fn tokio_sleep(duration: Duration) -> BoxFuture<'static, ()> {
    Box::pin(tokio::time::sleep(duration))
}

#[derive(Debug, thiserror::Error)]
pub enum LoginError {
    #[error("could not reach the Nous Portal: {message}")]
    Unreachable { message: String },
    #[error("the Portal did not issue a device code (HTTP {status}{detail})")]
    DeviceCode { status: u16, detail: String },
    #[error("the Portal's answer was not understood: {message}")]
    BadResponse { message: String },
    #[error("access was denied at the Portal (access_denied)")]
    Denied,
    #[error(
        "the code expired before it was approved (expired_token); run `hermes login nous` again"
    )]
    Expired,
    #[error("the code expired after {secs}s without an approval; run `hermes login nous` again")]
    TimedOut { secs: u64 },
    #[error("{code}: {description}")]
    Portal { code: String, description: String },
    #[error("{0}")]
    Refresh(RefreshError),
    #[error(transparent)]
    Store(#[from] AuthStoreError),
    #[error("login cancelled")]
    Cancelled,
}

impl From<ProviderError> for LoginError {
    fn from(err: ProviderError) -> Self {
        match err {
            ProviderError::Cancelled => Self::Cancelled,
            other => Self::Unreachable {
                message: super::nous_login_refresh::portal_failure(&other),
            },
        }
    }
}

/// The Portal's answer to the device-code request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceAuthorization {
    pub device_code: Secret,
    pub user_code: String,
    pub verification_uri: String,
    pub verification_uri_complete: String,
    pub expires_in: u64,
    pub interval: u64,
}

/// Hermes's `_request_device_code`.
pub async fn request_device_code(
    ctx: &RefreshContext,
    portal: &str,
    client_id: &str,
    scope: &str,
    cancel: &CancellationToken,
) -> Result<DeviceAuthorization, LoginError> {
    let url = format!("{portal}/api/oauth/device/code");
    let mut form = vec![("client_id", client_id)];
    if !scope.is_empty() {
        form.push(("scope", scope));
    }
    let reply = post_form(&ctx.client, &url, &form, None, ctx.timeout, cancel).await?;
    if !(200..300).contains(&reply.status) {
        return Err(LoginError::DeviceCode {
            status: reply.status,
            detail: oauth_error(&reply)
                .map(|(code, description)| format!(": {code}: {description}"))
                .unwrap_or_default(),
        });
    }
    let json = reply.json.as_ref();
    let text = |key: &'static str| {
        field(json, key)
            .map(str::to_string)
            .ok_or_else(|| missing_field(key))
    };
    let number = |key: &'static str| {
        json.and_then(|j| j.get(key))
            .map(|v| coerce_ttl(Some(v)) as u64)
            .ok_or_else(|| missing_field(key))
    };
    Ok(DeviceAuthorization {
        device_code: Secret::new(text("device_code")?),
        user_code: text("user_code")?,
        verification_uri: text("verification_uri")?,
        verification_uri_complete: text("verification_uri_complete")?,
        expires_in: number("expires_in")?,
        interval: number("interval")?,
    })
}

fn missing_field(key: &str) -> LoginError {
    LoginError::BadResponse {
        message: format!("the device-code answer has no `{key}`"),
    }
}

fn oauth_error(reply: &PortalReply) -> Option<(String, String)> {
    let json = reply.json.as_ref();
    let code = field(json, "error")?.to_string();
    let description = field(json, "error_description")
        .filter(|d| !d.trim().is_empty())
        .unwrap_or("Unknown authentication error")
        .to_string();
    Some((code, description))
}

/// Polls the token endpoint until the user approves (Hermes's `_poll_for_token`, but at the
/// server's interval rather than Hermes's one second, growing on `slow_down` as RFC 8628
/// says). Returns the token answer.
pub async fn poll_for_token(
    ctx: &RefreshContext,
    portal: &str,
    client_id: &str,
    device: &DeviceAuthorization,
    sleep: Sleep<'_>,
    on_event: &(dyn Fn(LoginEvent) + Send + Sync),
    cancel: &CancellationToken,
) -> Result<Map<String, Value>, LoginError> {
    let url = format!("{portal}/api/oauth/token");
    let lifetime = device.expires_in.max(1);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(lifetime);
    let mut interval = device.interval.clamp(1, MAX_INTERVAL_SECS);
    loop {
        let pause = Duration::from_secs(interval);
        if tokio::time::Instant::now() + pause > deadline {
            return Err(LoginError::TimedOut { secs: lifetime });
        }
        tokio::select! {
            biased;
            () = cancel.cancelled() => return Err(LoginError::Cancelled),
            () = sleep(pause) => {}
        }
        let form = [
            ("grant_type", DEVICE_GRANT),
            ("client_id", client_id),
            ("device_code", device.device_code.expose()),
        ];
        let reply = post_form(&ctx.client, &url, &form, None, ctx.timeout, cancel).await?;
        if reply.status == 200 {
            return match reply.json {
                Some(Value::Object(token))
                    if token.get("access_token").is_some_and(Value::is_string) =>
                {
                    Ok(token)
                }
                _ => Err(LoginError::BadResponse {
                    message: "the token answer has no `access_token`".into(),
                }),
            };
        }
        let Some((code, description)) = oauth_error(&reply) else {
            return Err(LoginError::BadResponse {
                message: format!(
                    "the token endpoint answered HTTP {} without an OAuth error",
                    reply.status
                ),
            });
        };
        match code.as_str() {
            "authorization_pending" => {}
            "slow_down" => {
                interval = (interval + SLOW_DOWN_STEP_SECS).min(MAX_INTERVAL_SECS);
                on_event(LoginEvent::SlowDown {
                    interval_secs: interval,
                });
            }
            "expired_token" => return Err(LoginError::Expired),
            "access_denied" => return Err(LoginError::Denied),
            _ => return Err(LoginError::Portal { code, description }),
        }
    }
}

/// A finished login.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoginOutcome {
    /// The `auth.json` written.
    pub saved_to: PathBuf,
    /// Where an unparsable `auth.json` was copied before it was replaced.
    pub corrupt_backup: Option<PathBuf>,
    pub inference_base_url: String,
}

/// The whole device-code login, stored like Hermes's `hermes auth add nous`.
pub async fn login(
    ctx: &RefreshContext,
    options: &LoginOptions,
    sleep: Sleep<'_>,
    on_event: &(dyn Fn(LoginEvent) + Send + Sync),
    cancel: &CancellationToken,
) -> Result<LoginOutcome, LoginError> {
    let portal = options
        .portal_url
        .as_deref()
        .and_then(base_url)
        .or_else(|| ctx.env.portal_override.clone())
        .unwrap_or_else(|| DEFAULT_PORTAL_URL.to_string());
    let requested_inference = options
        .inference_url
        .as_deref()
        .and_then(base_url)
        .or_else(|| ctx.env.inference_override.clone())
        .unwrap_or_else(|| DEFAULT_INFERENCE_URL.to_string());
    let client_id = options.client_id.as_deref().unwrap_or(DEFAULT_CLIENT_ID);
    let scope = options.scope.as_deref().unwrap_or(DEFAULT_SCOPE);
    on_event(LoginEvent::Starting {
        portal: portal.clone(),
    });
    let device = request_device_code(ctx, &portal, client_id, scope, cancel).await?;
    on_event(LoginEvent::Verification {
        url: device.verification_uri_complete.clone(),
        user_code: device.user_code.clone(),
    });
    on_event(LoginEvent::Waiting {
        interval_secs: device.interval.clamp(1, MAX_INTERVAL_SECS),
    });
    let token = poll_for_token(ctx, &portal, client_id, &device, sleep, on_event, cancel).await?;

    let inference = token
        .get("inference_base_url")
        .and_then(Value::as_str)
        .and_then(base_url)
        .unwrap_or_else(|| requested_inference.clone());
    if inference != requested_inference {
        on_event(LoginEvent::PortalInferenceUrl {
            url: inference.clone(),
        });
    }
    let mut state = initial_state(&token, &portal, &inference, client_id, scope);
    if let Some(label) = options
        .label
        .as_deref()
        .map(str::trim)
        .filter(|l| !l.is_empty())
    {
        state.set_text(keys::LABEL, Some(label));
    }
    if state_status(&state, Utc::now()).is_err() {
        // Hermes swaps a non-inference access token for one with its refresh token at once.
        let refresh_token = state
            .secret(keys::REFRESH_TOKEN)
            .ok_or(LoginError::Refresh(RefreshError::Missing {
                what: "refresh token",
            }))?;
        let payload = refresh_request(ctx, &portal, client_id, &refresh_token, cancel)
            .await
            .map_err(|e| match e {
                RefreshError::Cancelled => LoginError::Cancelled,
                other => LoginError::Refresh(other),
            })?;
        apply_refresh(&mut state, &payload, &refresh_token);
    }
    if let Err(reason) = state_status(&state, Utc::now()) {
        return Err(LoginError::Refresh(RefreshError::NotUsable {
            reason: reason.code(),
        }));
    }
    select_invoke_jwt(&mut state, Utc::now());
    let (saved_to, corrupt_backup) = save_login(ctx, &state).await?;
    Ok(LoginOutcome {
        saved_to,
        corrupt_backup,
        inference_base_url: state
            .text(keys::INFERENCE_BASE_URL)
            .unwrap_or(DEFAULT_INFERENCE_URL)
            .to_string(),
    })
}

/// The state Hermes's `_nous_device_code_login` builds from a token answer.
fn initial_state(
    token: &Map<String, Value>,
    portal: &str,
    inference: &str,
    client_id: &str,
    scope: &str,
) -> NousState {
    let now = Utc::now();
    let ttl = coerce_ttl(token.get("expires_in"));
    let text = |key: &str| {
        token
            .get(key)
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
    };
    let mut state = NousState::default();
    state.set_text(keys::PORTAL_BASE_URL, Some(portal));
    state.set_text(keys::INFERENCE_BASE_URL, Some(inference));
    state.set_text(keys::CLIENT_ID, Some(client_id));
    match token
        .get("scope")
        .filter(|s| !s.is_null() && s.as_str() != Some(""))
    {
        Some(granted) => state.set_value(keys::SCOPE, granted.clone()),
        None => state.set_text(keys::SCOPE, Some(scope)),
    }
    state.set_text(
        keys::TOKEN_TYPE,
        Some(text("token_type").unwrap_or("Bearer")),
    );
    state.set_text(keys::ACCESS_TOKEN, text("access_token"));
    state.set_text(keys::REFRESH_TOKEN, text("refresh_token"));
    state.set_text(keys::OBTAINED_AT, Some(&format_iso(now)));
    state.set_text(
        keys::EXPIRES_AT,
        Some(&format_iso(now + chrono::Duration::seconds(ttl))),
    );
    state.set_value(keys::EXPIRES_IN, Value::from(ttl));
    state.set_value(
        keys::TLS,
        serde_json::json!({"insecure": false, "ca_bundle": null}),
    );
    for key in [
        keys::AGENT_KEY,
        keys::AGENT_KEY_ID,
        keys::AGENT_KEY_EXPIRES_AT,
        keys::AGENT_KEY_EXPIRES_IN,
        keys::AGENT_KEY_REUSED,
        keys::AGENT_KEY_OBTAINED_AT,
    ] {
        state.set_value(key, Value::Null);
    }
    state
}

/// Hermes's `persist_nous_credentials`: `providers.nous` replaced and made active, the
/// `device_code` source un-suppressed, the shared store mirrored. Always the active home's
/// `auth.json` (a profile's login shadows the root's, as in Hermes).
async fn save_login(
    ctx: &RefreshContext,
    state: &NousState,
) -> Result<(PathBuf, Option<PathBuf>), LoginError> {
    let path = ctx.paths.auth_file.clone();
    let shared = ctx.paths.shared_nous_file.clone();
    let state = state.clone();
    let saved = tokio::task::spawn_blocking(move || {
        let _lock = lock_store(&path)?;
        let (mut store, backup) = AuthStore::read_or_back_up(&path)?;
        store.set_nous(&state, Activate::Yes);
        store.unsuppress_source(NOUS, DEVICE_CODE_SOURCE);
        store.write(&path)?;
        if let Err(err) = write_shared(&shared, &state) {
            tracing::warn!(error = %err, "could not write the shared Nous login");
        }
        Ok::<_, AuthStoreError>((path, backup))
    })
    .await
    .map_err(|e| {
        LoginError::Store(AuthStoreError::Io {
            path: ctx.paths.auth_file.clone(),
            source: std::io::Error::other(e.to_string()),
        })
    })??;
    Ok(saved)
}

#[cfg(test)]
#[path = "nous_login_tests.rs"]
mod tests;
