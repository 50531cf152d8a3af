//! A fake Nous Portal on 127.0.0.1 for the login tests: the device-code endpoint
//! (`POST /api/oauth/device/code`) and the token endpoint (`POST /api/oauth/token`) for both
//! the device-code grant and the refresh grant, with the Portal's JSON shapes.
//!
//! Device-code polls consume a script of answers (pending, slow_down, expired, denied,
//! approve). Refresh tokens are single-use like the real Portal's: only the current one is
//! accepted, each refresh rotates it, and replaying a spent one answers
//! `refresh_token_reused`. Issued access tokens are unsigned JWTs with `inference:invoke` and
//! an hour's `exp`. Every request is recorded. Runs on its own thread, so tests may block on
//! a child process while it serves.

use std::collections::BTreeMap;
use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::Mutex;
use std::time::Instant;

use base64::Engine;
use serde_json::Value;
use serde_json::json;
use tokio::net::TcpListener;

use crate::support::http;

/// How the Portal answers the next device-code poll.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Poll {
    Pending,
    SlowDown,
    Expired,
    Denied,
    Approve,
}

/// How the Portal answers the next refresh.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refresh {
    /// Check the refresh token and rotate it (the default when nothing is scripted).
    Rotate,
    /// Answer HTTP 400 with this OAuth error code.
    Fail(&'static str),
}

#[derive(Debug, Clone)]
pub struct PortalRequest {
    pub path: String,
    pub headers: BTreeMap<String, String>,
    pub form: BTreeMap<String, String>,
    pub at: Instant,
}

struct State {
    polls: VecDeque<Poll>,
    refreshes: VecDeque<Refresh>,
    current_refresh: Option<String>,
    issued: Vec<String>,
    requests: Vec<PortalRequest>,
    interval: u64,
    serial: u32,
}

pub struct FakePortal {
    addr: SocketAddr,
    state: Arc<Mutex<State>>,
}

pub const USER_CODE: &str = "ABCD-1234";

impl FakePortal {
    /// Starts with device-code poll answers `polls` and polling interval `interval` seconds.
    pub fn start(polls: &[Poll], interval: u64) -> Self {
        let std_listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        std_listener.set_nonblocking(true).unwrap();
        let addr = std_listener.local_addr().unwrap();
        let state = Arc::new(Mutex::new(State {
            polls: polls.iter().copied().collect(),
            refreshes: VecDeque::new(),
            current_refresh: None,
            issued: Vec::new(),
            requests: Vec::new(),
            interval,
            serial: 0,
        }));
        let shared = Arc::clone(&state);
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async move {
                let listener = TcpListener::from_std(std_listener).unwrap();
                while let Ok((mut stream, _)) = listener.accept().await {
                    let shared = Arc::clone(&shared);
                    tokio::spawn(async move {
                        let Ok(request) = http::read_request(&mut stream).await else {
                            return;
                        };
                        let (status, body) = answer(&shared, &request);
                        let _ =
                            http::write_fixed(&mut stream, status, &[], "application/json", &body)
                                .await;
                    });
                }
            });
        });
        Self { addr, state }
    }

    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub fn requests(&self) -> Vec<PortalRequest> {
        self.state.lock().unwrap().requests.clone()
    }

    /// Requests to the token endpoint with `grant_type`.
    pub fn token_requests(&self, grant_type: &str) -> Vec<PortalRequest> {
        self.requests()
            .into_iter()
            .filter(|r| r.form.get("grant_type").map(String::as_str) == Some(grant_type))
            .collect()
    }

    /// Access tokens issued so far, oldest first.
    pub fn issued(&self) -> Vec<String> {
        self.state.lock().unwrap().issued.clone()
    }

    /// Makes `token` the refresh token the Portal accepts (for a seeded login).
    pub fn accept_refresh_token(&self, token: &str) {
        self.state.lock().unwrap().current_refresh = Some(token.to_string());
    }

    pub fn push_refresh(&self, answer: Refresh) {
        self.state.lock().unwrap().refreshes.push_back(answer);
    }
}

fn oauth_error(code: &str, description: &str) -> (u16, String) {
    (
        400,
        json!({"error": code, "error_description": description}).to_string(),
    )
}

fn issue(state: &mut State) -> (u16, String) {
    state.serial += 1;
    let access = jwt(3600, "inference:invoke");
    let refresh = format!("rt-{}", state.serial);
    state.issued.push(access.clone());
    state.current_refresh = Some(refresh.clone());
    (
        200,
        json!({
            "access_token": access,
            "refresh_token": refresh,
            "token_type": "Bearer",
            "scope": "inference:invoke",
            "expires_in": 3600,
        })
        .to_string(),
    )
}

fn answer(shared: &Mutex<State>, request: &http::RawRequest) -> (u16, String) {
    let form: BTreeMap<String, String> = form_urlencoded::parse(&request.body)
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect();
    let mut state = shared.lock().unwrap();
    state.requests.push(PortalRequest {
        path: request.path.clone(),
        headers: request.headers.clone(),
        form: form.clone(),
        at: Instant::now(),
    });
    if form.get("client_id").map(String::as_str) != Some("hermes-cli") {
        return oauth_error("invalid_client", "unknown client");
    }
    match (request.method.as_str(), request.path.as_str()) {
        ("POST", "/api/oauth/device/code") => (
            200,
            json!({
                "device_code": "device-secret-1",
                "user_code": USER_CODE,
                "verification_uri": "https://portal.example/device",
                "verification_uri_complete": format!("https://portal.example/device?user_code={USER_CODE}"),
                "expires_in": 900,
                "interval": state.interval,
            })
            .to_string(),
        ),
        ("POST", "/api/oauth/token") => match form.get("grant_type").map(String::as_str) {
            Some("urn:ietf:params:oauth:grant-type:device_code") => {
                if form.get("device_code").map(String::as_str) != Some("device-secret-1") {
                    return oauth_error("invalid_grant", "unknown device code");
                }
                match state.polls.pop_front().unwrap_or(Poll::Pending) {
                    Poll::Pending => oauth_error("authorization_pending", "waiting for the user"),
                    Poll::SlowDown => oauth_error("slow_down", "polling too fast"),
                    Poll::Expired => oauth_error("expired_token", "the device code expired"),
                    Poll::Denied => oauth_error("access_denied", "the user said no"),
                    Poll::Approve => issue(&mut state),
                }
            }
            Some("refresh_token") => {
                let presented = request.headers.get("x-nous-refresh-token").cloned();
                match state.refreshes.pop_front().unwrap_or(Refresh::Rotate) {
                    Refresh::Fail(code) => oauth_error(code, "the refresh token was revoked"),
                    Refresh::Rotate if presented.is_some() && presented == state.current_refresh => {
                        issue(&mut state)
                    }
                    Refresh::Rotate => oauth_error("refresh_token_reused", "refresh token reuse detected"),
                }
            }
            _ => oauth_error("unsupported_grant_type", "unknown grant"),
        },
        _ => (404, json!({"error": "not_found"}).to_string()),
    }
}

/// An unsigned JWT shaped like the Portal's, expiring `ttl_secs` from now.
pub fn jwt(ttl_secs: i64, scope: &str) -> String {
    let b64 = |v: Value| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(v.to_string());
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    static SERIAL: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let jti = SERIAL.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    format!(
        "{}.{}.signature",
        b64(json!({"alg": "RS256", "typ": "JWT"})),
        b64(json!({"sub": "user-1", "scope": scope, "exp": now + ttl_secs, "jti": jti}))
    )
}
