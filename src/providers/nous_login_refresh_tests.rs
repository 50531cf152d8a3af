use pretty_assertions::assert_eq;
use serde_json::json;

use super::*;
use crate::providers::nous_login_test_support::context;
use crate::providers::nous_login_test_support::home_with;
use crate::providers::nous_login_test_support::jwt;
use crate::providers::nous_login_test_support::nous_state;
use crate::providers::nous_login_test_support::read_json;
use crate::test_server::Response;
use crate::test_server::ScriptedServer;

fn store_with(nous: Value) -> Value {
    json!({
        "version": 1,
        "providers": {"nous": nous, "openai-codex": {"tokens": {"access_token": "codex"}}},
        "credential_pool": {"nous": [
            {"id": "d1", "source": "device_code", "access_token": "old"},
            {"id": "m1", "source": "manual", "access_token": "mine"},
        ]},
        "active_provider": "openai-codex",
    })
}

fn refreshed(access: &str, refresh: &str) -> Response {
    Response::raw_json(
        200,
        &json!({
            "access_token": access, "refresh_token": refresh, "token_type": "Bearer",
            "scope": "inference:invoke", "expires_in": 3600,
            "inference_base_url": "https://evil.example/v1",
        })
        .to_string(),
    )
}

#[tokio::test]
async fn an_expired_token_is_refreshed_saved_and_shared() {
    let new_access = jwt(3600, "inference:invoke");
    let portal = ScriptedServer::start(vec![refreshed(&new_access, "rt-2")]).await;
    let dir = tempfile::tempdir().unwrap();
    let old_access = jwt(-60, "inference:invoke");
    let home = home_with(
        dir.path(),
        Some(&store_with(nous_state(
            &old_access,
            "rt-1",
            &portal.root_url(),
        ))),
    );
    let ctx = context(&home);

    let credential = fresh_credential(&ctx, RefreshMode::IfNeeded, &CancellationToken::new())
        .await
        .unwrap();
    assert_eq!(credential.access.expose(), new_access);
    assert_eq!(
        credential.inference_base_url,
        crate::config::auth_store_nous::DEFAULT_INFERENCE_URL
    );
    assert!(!credential.expiring(Utc::now()));

    let request = portal.requests()[0].clone();
    let head = request.head.to_lowercase();
    assert!(head.starts_with("post /api/oauth/token "), "{head}");
    assert!(head.contains("x-nous-refresh-token: rt-1"), "{head}");
    assert!(head.contains("content-type: application/x-www-form-urlencoded"));
    assert_eq!(
        request.body_text(),
        "grant_type=refresh_token&client_id=hermes-cli"
    );

    let written = read_json(&home.auth_path());
    let nous = &written["providers"]["nous"];
    assert_eq!(nous["access_token"], new_access.as_str());
    assert_eq!(nous["agent_key"], new_access.as_str());
    assert_eq!(nous["refresh_token"], "rt-2");
    assert_eq!(
        nous["inference_base_url"], "https://inference-api.nousresearch.com/v1",
        "a Portal-sent URL off the allowlist is not stored"
    );
    assert_eq!(nous["custom_key_from_the_future"], 7);
    assert_eq!(
        written["active_provider"], "openai-codex",
        "a refresh is not a login"
    );
    assert_eq!(
        written["providers"]["openai-codex"]["tokens"]["access_token"],
        "codex"
    );
    assert_eq!(
        written["credential_pool"],
        store_with(json!({}))["credential_pool"]
    );
    let shared = read_json(&ctx.paths.shared_nous_file);
    assert_eq!(shared["refresh_token"], "rt-2");
    assert_eq!(shared["access_token"], new_access.as_str());
}

#[tokio::test]
async fn a_usable_token_is_used_without_asking_the_portal() {
    let portal = ScriptedServer::start(vec![]).await;
    let dir = tempfile::tempdir().unwrap();
    let access = jwt(3600, "inference:invoke");
    let home = home_with(
        dir.path(),
        Some(&store_with(nous_state(&access, "rt-1", &portal.root_url()))),
    );
    let ctx = context(&home);
    let credential = fresh_credential(&ctx, RefreshMode::IfNeeded, &CancellationToken::new())
        .await
        .unwrap();
    assert_eq!(credential.access.expose(), access);
    assert!(portal.requests().is_empty());

    // The inference API rejected an older token, but the store already has a newer one
    // (another process refreshed): adopt it instead of spending the refresh token again.
    let stale = Secret::new(jwt(3000, "inference:invoke"));
    let credential = fresh_credential(
        &ctx,
        RefreshMode::Rejected(stale),
        &CancellationToken::new(),
    )
    .await
    .unwrap();
    assert_eq!(credential.access.expose(), access);
    assert!(portal.requests().is_empty());
}

#[tokio::test]
async fn a_rejected_current_token_is_refreshed_even_before_expiry() {
    let new_access = jwt(3600, "inference:invoke");
    let portal = ScriptedServer::start(vec![refreshed(&new_access, "rt-2")]).await;
    let dir = tempfile::tempdir().unwrap();
    let access = jwt(3600, "inference:invoke");
    let home = home_with(
        dir.path(),
        Some(&store_with(nous_state(&access, "rt-1", &portal.root_url()))),
    );
    let credential = fresh_credential(
        &context(&home),
        RefreshMode::Rejected(Secret::new(access)),
        &CancellationToken::new(),
    )
    .await
    .unwrap();
    assert_eq!(credential.access.expose(), new_access);
}

#[tokio::test]
async fn a_refresh_token_rotated_by_another_profile_is_adopted_first() {
    let new_access = jwt(3600, "inference:invoke");
    let portal = ScriptedServer::start(vec![refreshed(&new_access, "rt-3")]).await;
    let dir = tempfile::tempdir().unwrap();
    let home = home_with(
        dir.path(),
        Some(&store_with(nous_state(
            &jwt(-60, "inference:invoke"),
            "rt-spent",
            &portal.root_url(),
        ))),
    );
    let ctx = context(&home);
    let shared = NousState::from_map(
        json!({"access_token": jwt(-30, "inference:invoke"), "refresh_token": "rt-live"})
            .as_object()
            .unwrap()
            .clone(),
    );
    crate::config::auth_store_nous::write_shared(&ctx.paths.shared_nous_file, &shared).unwrap();

    fresh_credential(&ctx, RefreshMode::IfNeeded, &CancellationToken::new())
        .await
        .unwrap();
    let head = portal.requests()[0].head.to_lowercase();
    assert!(head.contains("x-nous-refresh-token: rt-live"), "{head}");
    assert_eq!(
        read_json(&home.auth_path())["providers"]["nous"]["refresh_token"],
        "rt-3"
    );
}

#[tokio::test]
async fn a_dead_refresh_token_quarantines_the_login_like_hermes() {
    let portal = ScriptedServer::start(vec![Response::raw_json(
        400,
        r#"{"error":"invalid_grant","error_description":"Refresh token revoked"}"#,
    )])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let home = home_with(
        dir.path(),
        Some(&store_with(nous_state(
            &jwt(-60, "inference:invoke"),
            "rt-1",
            &portal.root_url(),
        ))),
    );
    let ctx = context(&home);
    let login = NousState::from_map(
        json!({"access_token": "a", "refresh_token": "rt-1"})
            .as_object()
            .unwrap()
            .clone(),
    );
    crate::config::auth_store_nous::write_shared(&ctx.paths.shared_nous_file, &login).unwrap();

    let err = fresh_credential(&ctx, RefreshMode::IfNeeded, &CancellationToken::new())
        .await
        .unwrap_err();
    assert!(err.needs_login());
    let message = err.into_provider_error().to_string();
    assert_eq!(
        message,
        "Nous Portal login expired and could not be refreshed: the Portal refused the refresh \
         token (invalid_grant): Refresh token revoked; run `hermes login nous`"
    );
    assert!(!message.contains('\n'));

    let written = read_json(&home.auth_path());
    let nous = &written["providers"]["nous"];
    assert!(nous.get("access_token").is_none() && nous.get("refresh_token").is_none());
    assert_eq!(nous["last_auth_error"]["code"], "invalid_grant");
    assert_eq!(
        written["credential_pool"]["nous"],
        json!([{"id": "m1", "source": "manual", "access_token": "mine"}])
    );
    assert!(
        !ctx.paths.shared_nous_file.exists(),
        "the dead shared copy is removed"
    );
    // Next time there is simply nothing to use.
    assert!(read_stored_login(&ctx.paths, &ctx.env).is_none());
}

#[tokio::test]
async fn a_portal_outage_is_transient_and_changes_nothing() {
    let portal = ScriptedServer::start(vec![Response::raw_http(
        502,
        "text/html",
        &[],
        "<h1>bad gateway</h1>",
    )])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let stored = store_with(nous_state(
        &jwt(-60, "inference:invoke"),
        "rt-1",
        &portal.root_url(),
    ));
    let home = home_with(dir.path(), Some(&stored));
    let err = fresh_credential(
        &context(&home),
        RefreshMode::IfNeeded,
        &CancellationToken::new(),
    )
    .await
    .unwrap_err();
    assert!(!err.needs_login(), "{err}");
    assert!(matches!(
        err.into_provider_error(),
        ProviderError::Transport { .. }
    ));
    assert_eq!(
        read_json(&home.auth_path())["providers"]["nous"],
        stored["providers"]["nous"]
    );
}

#[tokio::test]
async fn refresh_token_reuse_gets_hermes_explanation_in_one_line() {
    let portal = ScriptedServer::start(vec![Response::raw_json(
        400,
        r#"{"error":"invalid_request","error_description":"Refresh token reuse detected"}"#,
    )])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let home = home_with(
        dir.path(),
        Some(&store_with(nous_state(
            &jwt(-60, "inference:invoke"),
            "rt-1",
            &portal.root_url(),
        ))),
    );
    let err = fresh_credential(
        &context(&home),
        RefreshMode::IfNeeded,
        &CancellationToken::new(),
    )
    .await
    .unwrap_err();
    assert!(err.needs_login());
    let text = err.to_string();
    assert!(
        text.contains("refresh-token reuse") && !text.contains('\n'),
        "{text}"
    );
}

#[tokio::test]
async fn a_profile_uses_and_refreshes_the_root_login() {
    let new_access = jwt(3600, "inference:invoke");
    let portal = ScriptedServer::start(vec![refreshed(&new_access, "rt-2")]).await;
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().join("data");
    std::fs::create_dir_all(base.join("profiles/coder")).unwrap();
    std::fs::write(
        base.join("auth.json"),
        store_with(nous_state(
            &jwt(-60, "inference:invoke"),
            "rt-1",
            &portal.root_url(),
        ))
        .to_string(),
    )
    .unwrap();
    let profile = crate::config::HermesHome::from_base(&base, Some("coder")).unwrap();
    let ctx = context(&profile);
    assert!(read_stored_login(&ctx.paths, &ctx.env).is_some());

    fresh_credential(&ctx, RefreshMode::IfNeeded, &CancellationToken::new())
        .await
        .unwrap();
    assert_eq!(
        read_json(&base.join("auth.json"))["providers"]["nous"]["refresh_token"],
        "rt-2"
    );
    assert!(
        !profile.auth_path().exists(),
        "the rotated token went back where it came from"
    );
}

#[tokio::test]
async fn no_login_is_not_logged_in() {
    let dir = tempfile::tempdir().unwrap();
    let home = home_with(dir.path(), None);
    let err = fresh_credential(
        &context(&home),
        RefreshMode::IfNeeded,
        &CancellationToken::new(),
    )
    .await
    .unwrap_err();
    assert!(matches!(err, RefreshError::NotLoggedIn));
}
