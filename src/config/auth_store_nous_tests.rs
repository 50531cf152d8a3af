use pretty_assertions::assert_eq;
use serde_json::json;

use super::*;

fn state(value: serde_json::Value) -> NousState {
    match value {
        Value::Object(map) => NousState::from_map(map),
        other => panic!("not an object: {other}"),
    }
}

#[test]
fn shared_tokens_are_adopted_when_rotated_or_fresher_only() {
    let mut local = state(json!({
        "access_token": "local-at", "refresh_token": "rt-1",
        "expires_at": "2030-01-01T00:00:00+00:00", "inference_base_url": "https://keep",
    }));
    let same = state(json!({
        "access_token": "shared-at", "refresh_token": "rt-1",
        "expires_at": "2029-01-01T00:00:00+00:00",
    }));
    assert!(
        !merge_shared(&mut local, &same),
        "same refresh token, older access"
    );
    assert_eq!(local.text(keys::ACCESS_TOKEN), Some("local-at"));

    let rotated = state(json!({
        "access_token": "shared-at", "refresh_token": "rt-2",
        "expires_at": "2029-01-01T00:00:00+00:00", "inference_base_url": null, "scope": "",
    }));
    assert!(merge_shared(&mut local, &rotated));
    assert_eq!(local.text(keys::REFRESH_TOKEN), Some("rt-2"));
    assert_eq!(local.text(keys::ACCESS_TOKEN), Some("shared-at"));
    assert_eq!(
        local.text(keys::INFERENCE_BASE_URL),
        Some("https://keep"),
        "null and empty shared values are skipped"
    );

    let fresher = state(json!({
        "access_token": "newest", "refresh_token": "rt-2",
        "expires_at": "2031-01-01T00:00:00Z",
    }));
    assert!(merge_shared(&mut local, &fresher));
    assert_eq!(local.text(keys::ACCESS_TOKEN), Some("newest"));
}

#[test]
fn quarantine_drops_token_material_and_keeps_routing() {
    let mut s = state(json!({
        "access_token": "a", "refresh_token": "r", "agent_key": "a", "expires_at": "x",
        "expires_in": 5, "agent_key_reused": false, "portal_base_url": "https://p",
        "client_id": "hermes-cli", "label": "mine",
    }));
    quarantine(
        &mut s,
        &AuthFailure {
            code: "invalid_grant".into(),
            message: "revoked".into(),
            reason: "runtime_access_refresh_failure".into(),
        },
    );
    let map = s.into_map();
    for gone in [
        "access_token",
        "refresh_token",
        "agent_key",
        "expires_at",
        "expires_in",
    ] {
        assert!(!map.contains_key(gone), "{gone} kept");
    }
    assert_eq!(map["portal_base_url"], "https://p");
    assert_eq!(map["label"], "mine");
    let error = &map["last_auth_error"];
    assert_eq!(error["code"], "invalid_grant");
    assert_eq!(error["relogin_required"], true);
    assert_eq!(error["provider"], "nous");
    assert_eq!(error["reason"], "runtime_access_refresh_failure");
}

#[test]
fn the_shared_store_has_hermes_exact_shape() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("shared/nous_auth.json");
    let login = state(json!({
        "access_token": "at", "refresh_token": "rt", "agent_key": "at",
        "portal_base_url": "http://127.0.0.1:9", "obtained_at": "2026-01-01T00:00:00+00:00",
        "expires_at": null,
    }));
    write_shared(&path, &login).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.starts_with("{\n  \"_schema\": 1,\n  \"access_token\""),
        "{text}"
    );
    assert!(text.ends_with('}'), "no final newline, as json.dumps");
    let written: Value = serde_json::from_str(&text).unwrap();
    let keys: Vec<&String> = written.as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        [
            "_schema",
            "access_token",
            "client_id",
            "expires_at",
            "inference_base_url",
            "obtained_at",
            "portal_base_url",
            "refresh_token",
            "scope",
            "token_type",
            "updated_at"
        ]
    );
    assert_eq!(written["client_id"], "hermes-cli");
    assert_eq!(written["scope"], "inference:invoke");
    assert_eq!(written["inference_base_url"], DEFAULT_INFERENCE_URL);
    assert_eq!(written["expires_at"], Value::Null);
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
    assert_eq!(
        read_shared(&path).unwrap().text(keys::REFRESH_TOKEN),
        Some("rt")
    );

    clear_shared(&path).unwrap();
    assert!(read_shared(&path).is_none());
    clear_shared(&path).unwrap();

    // Without both tokens there is nothing worth sharing.
    write_shared(&path, &state(json!({"access_token": "at"}))).unwrap();
    assert!(!path.exists());
}

#[test]
fn timestamps_match_python_isoformat() {
    let whole = DateTime::from_timestamp(1_796_167_011, 0).unwrap();
    assert_eq!(format_iso(whole), "2026-12-01T23:16:51+00:00");
    let fraction = DateTime::from_timestamp(1_796_167_011, 204_007_123).unwrap();
    assert_eq!(format_iso(fraction), "2026-12-01T23:16:51.204007+00:00");

    for text in [
        "2026-12-01T23:16:51+00:00",
        "2026-12-01T23:16:51Z",
        "2026-12-01T23:16:51",
        "2026-12-02T00:16:51+01:00",
    ] {
        assert_eq!(parse_iso(text), Some(whole), "{text}");
    }
    assert_eq!(parse_iso("yesterday"), None);
}

#[test]
fn debug_and_hosts() {
    let s = state(json!({"access_token": "very-secret-token"}));
    assert!(!format!("{s:?}").contains("very-secret-token"));
    assert_eq!(
        url_host("https://Portal.NousResearch.com/x"),
        Some("portal.nousresearch.com".into())
    );
    assert_eq!(url_host("http://127.0.0.1:8080"), Some("127.0.0.1".into()));
    assert_eq!(url_host("http://user@[::1]:9/"), Some("::1".into()));
    assert_eq!(url_host("nonsense"), None);
}

#[test]
fn only_countdowns_are_ignored_when_comparing_states() {
    let a = state(json!({"access_token": "a", "expires_in": 10, "agent_key_expires_in": 10}));
    let b = state(json!({"access_token": "a", "expires_in": 9, "agent_key_expires_in": 8}));
    let c = state(json!({"access_token": "b", "expires_in": 10, "agent_key_expires_in": 10}));
    assert!(a.same_effective_state(&b));
    assert!(!a.same_effective_state(&c));
}
