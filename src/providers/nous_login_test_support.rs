//! Shared by the Nous login unit tests: unsigned JWTs shaped like the Portal's, and a
//! HERMES_HOME holding a stored login.

use base64::Engine;
use serde_json::Value;
use serde_json::json;

use super::nous_login_refresh::RefreshContext;
use super::nous_login_token::NousEnv;
use crate::config::HermesHome;
use crate::config::auth_store::AuthPaths;

/// An unsigned JWT with `scope` and an `exp` `ttl_secs` from now (negative: expired).
pub fn jwt(ttl_secs: i64, scope: &str) -> String {
    let b64 = |v: &Value| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(v.to_string());
    let exp = chrono::Utc::now().timestamp() + ttl_secs;
    format!(
        "{}.{}.sig",
        b64(&json!({"alg": "none", "typ": "JWT"})),
        b64(&json!({"scope": scope, "exp": exp, "sub": "user-1"}))
    )
}

/// A home in `dir` with `auth` as its auth.json (when given).
pub fn home_with(dir: &std::path::Path, auth: Option<&Value>) -> HermesHome {
    let home = HermesHome::from_base(dir.join("home"), None).unwrap();
    std::fs::create_dir_all(home.root()).unwrap();
    if let Some(auth) = auth {
        std::fs::write(home.auth_path(), auth.to_string()).unwrap();
    }
    home
}

pub fn context(home: &HermesHome) -> RefreshContext {
    RefreshContext {
        paths: AuthPaths::for_home(home, &|_| None),
        env: NousEnv::default(),
        client: crate::util::http::build_client().unwrap(),
        timeout: std::time::Duration::from_secs(5),
    }
}

pub fn read_json(path: &std::path::Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// A stored Nous login whose access token expires in `ttl_secs`, refreshed at `portal`.
pub fn nous_state(access: &str, refresh: &str, portal: &str) -> Value {
    json!({
        "access_token": access,
        "refresh_token": refresh,
        "client_id": "hermes-cli",
        "portal_base_url": portal,
        "inference_base_url": "https://inference-api.nousresearch.com/v1",
        "token_type": "Bearer",
        "scope": "inference:invoke",
        "expires_at": "2020-01-01T00:00:00+00:00",
        "agent_key": access,
        "tls": {"insecure": false, "ca_bundle": null},
        "custom_key_from_the_future": 7,
    })
}
