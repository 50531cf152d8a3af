use pretty_assertions::assert_eq;
use serde_json::json;

use super::*;
use crate::providers::nous_login_test_support::jwt;

fn state(value: Value) -> NousState {
    match value {
        Value::Object(map) => NousState::from_map(map),
        other => panic!("not an object: {other}"),
    }
}

#[test]
fn invoke_jwt_status_follows_hermes_reasons() {
    let now = Utc::now();
    let check = |token: &str, scope: Option<Value>, expires_at: Option<&str>| {
        invoke_jwt_status(token, scope.as_ref(), expires_at, REFRESH_SKEW_SECS, now)
    };
    assert_eq!(check("opaque-token", None, None), Err(Unusable::NotJwt));
    assert_eq!(
        check(&jwt(3600, "openid"), None, None),
        Err(Unusable::MissingInvokeScope)
    );
    // The stored scope counts when the token's own does not name it.
    assert_eq!(
        check(&jwt(3600, "openid"), Some(json!("inference:invoke")), None),
        Ok(())
    );
    assert_eq!(check(&jwt(3600, "a inference:invoke"), None, None), Ok(()));
    assert_eq!(
        check(&jwt(60, "inference:invoke"), None, None),
        Err(Unusable::Expiring),
        "within the two-minute skew"
    );
    assert_eq!(
        check(&jwt(-10, "inference:invoke"), None, None),
        Err(Unusable::Expiring)
    );
    assert_eq!(Unusable::Expiring.code(), "invoke_jwt_expiring");
}

#[test]
fn a_token_without_exp_uses_the_stored_expiry() {
    let b64 = |v: Value| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(v.to_string());
    let token = format!(
        "{}.{}.s",
        b64(json!({})),
        b64(json!({"scp": ["inference:invoke"]}))
    );
    let now = Utc::now();
    let later = format_iso(now + chrono::Duration::hours(1));
    let soon = format_iso(now + chrono::Duration::seconds(30));
    assert_eq!(
        invoke_jwt_status(&token, None, Some(&later), 120, now),
        Ok(())
    );
    assert_eq!(
        invoke_jwt_status(&token, None, Some(&soon), 120, now),
        Err(Unusable::ExpiryUnknownOrExpiring)
    );
    assert_eq!(
        invoke_jwt_status(&token, None, None, 120, now),
        Err(Unusable::ExpiryUnknownOrExpiring)
    );
}

#[test]
fn selecting_the_invoke_jwt_sets_hermes_agent_key_fields() {
    let token = jwt(3600, "inference:invoke");
    let mut s = state(json!({
        "access_token": token, "expires_at": "2000-01-01T00:00:00+00:00", "agent_key": null,
    }));
    let now = Utc::now();
    select_invoke_jwt(&mut s, now);
    let exp = jwt_claims(&token).unwrap()["exp"].as_i64().unwrap();
    let expected_at = format_iso(DateTime::from_timestamp(exp, 0).unwrap());
    assert_eq!(s.text(keys::AGENT_KEY), Some(token.as_str()));
    assert_eq!(s.text(keys::EXPIRES_AT), Some(expected_at.as_str()));
    assert_eq!(
        s.text(keys::AGENT_KEY_EXPIRES_AT),
        Some(expected_at.as_str())
    );
    assert_eq!(s.value(keys::AGENT_KEY_ID), Some(&Value::Null));
    assert_eq!(s.value(keys::AGENT_KEY_REUSED), Some(&Value::Bool(false)));
    let left = s
        .value(keys::AGENT_KEY_EXPIRES_IN)
        .unwrap()
        .as_i64()
        .unwrap();
    assert!((3590..=3600).contains(&left), "{left}");
    assert_eq!(
        s.value(keys::EXPIRES_IN),
        s.value(keys::AGENT_KEY_EXPIRES_IN)
    );

    // Selecting the same key again keeps when it was first obtained.
    let first = s.text(keys::AGENT_KEY_OBTAINED_AT).unwrap().to_string();
    select_invoke_jwt(&mut s, now + chrono::Duration::minutes(5));
    assert_eq!(s.text(keys::AGENT_KEY_OBTAINED_AT), Some(first.as_str()));
}

#[test]
fn portal_urls_pass_the_allowlist_or_fall_back() {
    let with_portal = |url: &str| state(json!({"portal_base_url": url}));
    let env = NousEnv::default();
    for kept in [
        "https://portal.nousresearch.com",
        "http://127.0.0.1:8123",
        "http://localhost:9",
    ] {
        assert_eq!(effective_portal_url(&with_portal(kept), &env), kept);
    }
    for refused in [
        "https://evil.example.com",
        "http://portal.nousresearch.com",
        "ftp://127.0.0.1",
    ] {
        assert_eq!(
            effective_portal_url(&with_portal(refused), &env),
            DEFAULT_PORTAL_URL,
            "{refused}"
        );
    }
    assert_eq!(
        effective_portal_url(&state(json!({})), &env),
        DEFAULT_PORTAL_URL
    );
    let staging = NousEnv {
        portal_override: Some("https://portal.staging.example".into()),
        inference_override: None,
    };
    assert_eq!(
        effective_portal_url(&with_portal("https://portal.nousresearch.com"), &staging),
        "https://portal.staging.example",
        "the operator's override wins and bypasses the allowlist"
    );
}

#[test]
fn inference_urls_from_the_store_are_validated_but_the_env_override_is_trusted() {
    let with = |url: &str| state(json!({"inference_base_url": url}));
    assert_eq!(
        stored_inference_url(&with("https://inference-api.nousresearch.com/v1/")),
        "https://inference-api.nousresearch.com/v1"
    );
    assert_eq!(
        stored_inference_url(&with("http://127.0.0.1:9/v1")),
        DEFAULT_INFERENCE_URL
    );
    assert_eq!(
        stored_inference_url(&with("https://evil.example/v1")),
        DEFAULT_INFERENCE_URL
    );
    let env = NousEnv::from_env(&|k| {
        (k == "NOUS_INFERENCE_BASE_URL").then(|| " http://127.0.0.1:9/v1/ ".to_string())
    });
    assert_eq!(
        effective_inference_url(&with("https://evil.example/v1"), &env),
        "http://127.0.0.1:9/v1"
    );
}

#[test]
fn env_overrides_prefer_hermes_portal_variable() {
    let env = NousEnv::from_env(&|k| match k {
        "HERMES_PORTAL_BASE_URL" => Some("https://a/".into()),
        "NOUS_PORTAL_BASE_URL" => Some("https://b".into()),
        _ => None,
    });
    assert_eq!(env.portal_override.as_deref(), Some("https://a"));
    let env = NousEnv::from_env(&|k| (k == "NOUS_PORTAL_BASE_URL").then(|| "https://b".into()));
    assert_eq!(env.portal_override.as_deref(), Some("https://b"));
    assert_eq!(
        NousEnv::from_env(&|_| Some("  ".into())),
        NousEnv::default()
    );
}

#[test]
fn ttl_coercion_is_hermes() {
    assert_eq!(coerce_ttl(Some(&json!(3600))), 3600);
    assert_eq!(coerce_ttl(Some(&json!("90"))), 90);
    assert_eq!(coerce_ttl(Some(&json!(-5))), 0);
    assert_eq!(coerce_ttl(Some(&json!(12.7))), 12);
    assert_eq!(coerce_ttl(Some(&json!("soon"))), 0);
    assert_eq!(coerce_ttl(None), 0);
}
