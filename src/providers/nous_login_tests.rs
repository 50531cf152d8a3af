use std::sync::Arc;
use std::sync::Mutex;

use pretty_assertions::assert_eq;
use serde_json::json;

use super::*;
use crate::providers::nous_login_test_support::context;
use crate::providers::nous_login_test_support::home_with;
use crate::providers::nous_login_test_support::jwt;
use crate::providers::nous_login_test_support::read_json;
use crate::test_server::Response;
use crate::test_server::ScriptedServer;

fn device_reply(interval: u64) -> Response {
    Response::raw_json(
        200,
        &json!({
            "device_code": "dev-123", "user_code": "ABCD-EFGH",
            "verification_uri": "https://portal/device",
            "verification_uri_complete": "https://portal/device?code=ABCD-EFGH",
            "expires_in": 900, "interval": interval,
        })
        .to_string(),
    )
}

fn oauth_error(code: &str) -> Response {
    Response::raw_json(
        400,
        &json!({"error": code, "error_description": format!("{code} says the portal")}).to_string(),
    )
}

fn token_reply(access: &str) -> Response {
    Response::raw_json(
        200,
        &json!({
            "access_token": access, "refresh_token": "rt-1", "token_type": "Bearer",
            "scope": "inference:invoke", "expires_in": 3600,
        })
        .to_string(),
    )
}

/// A sleep that returns at once and records what was asked.
fn recording_sleep() -> (
    Arc<Mutex<Vec<u64>>>,
    impl Fn(Duration) -> BoxFuture<'static, ()> + Send + Sync,
) {
    let asked = Arc::new(Mutex::new(Vec::new()));
    let record = Arc::clone(&asked);
    let sleep = move |d: Duration| -> BoxFuture<'static, ()> {
        record.lock().unwrap().push(d.as_secs());
        Box::pin(async {})
    };
    (asked, sleep)
}

fn device(interval: u64) -> DeviceAuthorization {
    DeviceAuthorization {
        device_code: Secret::new("dev-123"),
        user_code: "ABCD-EFGH".into(),
        verification_uri: "u".into(),
        verification_uri_complete: "u?c".into(),
        expires_in: 900,
        interval,
    }
}

async fn poll(
    server: &ScriptedServer,
    interval: u64,
) -> (
    Result<Map<String, Value>, LoginError>,
    Vec<u64>,
    Vec<LoginEvent>,
) {
    let dir = tempfile::tempdir().unwrap();
    let ctx = context(&home_with(dir.path(), None));
    let (asked, sleep) = recording_sleep();
    let events = Mutex::new(Vec::new());
    let on_event = |e: LoginEvent| events.lock().unwrap().push(e);
    let result = poll_for_token(
        &ctx,
        &server.root_url(),
        "hermes-cli",
        &device(interval),
        &sleep,
        &on_event,
        &CancellationToken::new(),
    )
    .await;
    let asked = asked.lock().unwrap().clone();
    (result, asked, events.into_inner().unwrap())
}

#[tokio::test]
async fn polling_waits_the_server_interval_and_slows_down_when_told() {
    let access = jwt(3600, "inference:invoke");
    let server = ScriptedServer::start(vec![
        oauth_error("authorization_pending"),
        oauth_error("slow_down"),
        oauth_error("authorization_pending"),
        oauth_error("slow_down"),
        token_reply(&access),
    ])
    .await;
    let (result, asked, events) = poll(&server, 2).await;
    assert_eq!(result.unwrap()["access_token"], access.as_str());
    assert_eq!(asked, [2, 2, 7, 7, 12], "interval, then +5 s per slow_down");
    assert_eq!(
        events,
        [
            LoginEvent::SlowDown { interval_secs: 7 },
            LoginEvent::SlowDown { interval_secs: 12 }
        ]
    );
    let requests = server.requests();
    assert_eq!(requests.len(), 5);
    assert!(requests[0].head.starts_with("POST /api/oauth/token "));
    assert_eq!(
        requests[0].body_text(),
        "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Adevice_code&client_id=hermes-cli&device_code=dev-123"
    );
}

#[tokio::test]
async fn polling_stops_on_expired_denied_and_other_errors() {
    for (reply, expected) in [
        (oauth_error("expired_token"), "expired_token"),
        (oauth_error("access_denied"), "access_denied"),
        (
            oauth_error("invalid_client"),
            "invalid_client: invalid_client says the portal",
        ),
    ] {
        let server = ScriptedServer::start(vec![oauth_error("authorization_pending"), reply]).await;
        let (result, asked, _) = poll(&server, 1).await;
        let err = result.unwrap_err();
        assert!(err.to_string().contains(expected), "{err}");
        assert!(!err.to_string().contains('\n'));
        assert_eq!(asked, [1, 1], "stopped at once");
    }
}

#[tokio::test]
async fn the_device_code_answer_must_be_complete() {
    let server = ScriptedServer::start(vec![Response::raw_json(
        200,
        r#"{"device_code":"d","user_code":"u"}"#,
    )])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let ctx = context(&home_with(dir.path(), None));
    let err = request_device_code(
        &ctx,
        &server.root_url(),
        "hermes-cli",
        "inference:invoke",
        &CancellationToken::new(),
    )
    .await
    .unwrap_err();
    assert!(err.to_string().contains("verification_uri"), "{err}");
    let body = server.requests()[0].body_text();
    assert_eq!(body, "client_id=hermes-cli&scope=inference%3Ainvoke");
}

#[tokio::test]
async fn a_login_is_stored_as_hermes_stores_it() {
    let access = jwt(3600, "inference:invoke");
    let server = ScriptedServer::start(vec![
        device_reply(1),
        oauth_error("authorization_pending"),
        token_reply(&access),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let home = home_with(
        dir.path(),
        Some(&json!({
            "version": 1,
            "providers": {"nous": {"access_token": "old", "last_auth_error": {"code": "invalid_grant"}},
                          "openai-codex": {"tokens": {}}},
            "suppressed_sources": {"nous": ["device_code"]},
            "active_provider": "openai-codex",
            "credential_pool": {"openrouter": [{"id": "x"}]},
        })),
    );
    let ctx = context(&home);
    let (_, sleep) = recording_sleep();
    let events = Mutex::new(Vec::new());
    let on_event = |e: LoginEvent| events.lock().unwrap().push(e);
    let options = LoginOptions {
        portal_url: Some(format!("{}/", server.root_url())),
        label: Some("work".into()),
        ..LoginOptions::default()
    };
    let outcome = login(&ctx, &options, &sleep, &on_event, &CancellationToken::new())
        .await
        .unwrap();
    assert_eq!(outcome.saved_to, home.auth_path());
    assert_eq!(outcome.inference_base_url, DEFAULT_INFERENCE_URL);
    let events = events.into_inner().unwrap();
    assert_eq!(
        events[..3],
        [
            LoginEvent::Starting {
                portal: server.root_url()
            },
            LoginEvent::Verification {
                url: "https://portal/device?code=ABCD-EFGH".into(),
                user_code: "ABCD-EFGH".into()
            },
            LoginEvent::Waiting { interval_secs: 1 },
        ]
    );

    let written = read_json(&home.auth_path());
    assert_eq!(written["active_provider"], "nous");
    assert!(written.get("suppressed_sources").is_none());
    assert_eq!(written["providers"]["openai-codex"], json!({"tokens": {}}));
    assert_eq!(
        written["credential_pool"],
        json!({"openrouter": [{"id": "x"}]})
    );
    let nous = written["providers"]["nous"].as_object().unwrap();
    let mut keys: Vec<&str> = nous.keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "access_token",
            "agent_key",
            "agent_key_expires_at",
            "agent_key_expires_in",
            "agent_key_id",
            "agent_key_obtained_at",
            "agent_key_reused",
            "client_id",
            "expires_at",
            "expires_in",
            "inference_base_url",
            "label",
            "obtained_at",
            "portal_base_url",
            "refresh_token",
            "scope",
            "tls",
            "token_type"
        ],
        "Hermes's keys; the old login's last_auth_error is gone"
    );
    assert_eq!(nous["access_token"], access.as_str());
    assert_eq!(nous["agent_key"], access.as_str());
    assert_eq!(nous["portal_base_url"], server.root_url().as_str());
    assert_eq!(nous["client_id"], "hermes-cli");
    assert_eq!(nous["tls"], json!({"insecure": false, "ca_bundle": null}));
    assert_eq!(nous["label"], "work");
    assert_eq!(
        read_json(&ctx.paths.shared_nous_file)["refresh_token"],
        "rt-1"
    );
}

#[tokio::test]
async fn a_login_whose_token_cannot_invoke_is_refreshed_or_refused() {
    let good = jwt(3600, "inference:invoke");
    let server = ScriptedServer::start(vec![
        device_reply(1),
        token_reply("opaque-session-token"),
        Response::raw_json(
            200,
            &json!({"access_token": good, "expires_in": 3600}).to_string(),
        ),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let home = home_with(dir.path(), None);
    let ctx = context(&home);
    let (_, sleep) = recording_sleep();
    let options = LoginOptions {
        portal_url: Some(server.root_url()),
        ..LoginOptions::default()
    };
    login(&ctx, &options, &sleep, &|_| {}, &CancellationToken::new())
        .await
        .unwrap();
    let nous = &read_json(&home.auth_path())["providers"]["nous"];
    assert_eq!(nous["access_token"], good.as_str());
    assert_eq!(
        nous["refresh_token"], "rt-1",
        "kept when the refresh sends none"
    );

    let without_scope = jwt(3600, "openid");
    let server = ScriptedServer::start(vec![
        device_reply(1),
        Response::raw_json(
            200,
            &json!({"access_token": without_scope, "refresh_token": "r", "scope": "openid"})
                .to_string(),
        ),
        Response::raw_json(200, &json!({"access_token": without_scope}).to_string()),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let home = home_with(dir.path(), None);
    let options = LoginOptions {
        portal_url: Some(server.root_url()),
        ..LoginOptions::default()
    };
    let err = login(
        &context(&home),
        &options,
        &sleep,
        &|_| {},
        &CancellationToken::new(),
    )
    .await
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "the Portal's token is not a usable inference token (missing_inference_invoke_scope)"
    );
    assert!(
        !home.auth_path().exists(),
        "nothing is written without a usable token"
    );
}
