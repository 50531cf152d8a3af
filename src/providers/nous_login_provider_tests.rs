use pretty_assertions::assert_eq;
use serde_json::Value;
use serde_json::json;

use super::*;
use crate::config::schema::ModelConfig;
use crate::config::schema::ProviderConfig;
use crate::model::Message;
use crate::providers::CredentialSources;
use crate::providers::nous_login_test_support::home_with;
use crate::providers::nous_login_test_support::jwt;
use crate::providers::nous_login_test_support::nous_state;
use crate::providers::nous_login_test_support::read_json;
use crate::test_server::Response;
use crate::test_server::ScriptedServer;

fn sse_text(text: &str) -> String {
    format!(
        "data: {}\n\ndata: [DONE]\n\n",
        json!({"choices":[{"delta":{"content":text}}]})
    )
}

fn request() -> ChatRequest {
    ChatRequest {
        model: "Hermes-4-70B".into(),
        system: "sys".into(),
        messages: vec![Message::user("hi")],
        tools: vec![],
        max_tokens: None,
    }
}

struct Setup {
    _dir: tempfile::TempDir,
    home: HermesHome,
    sources: LoginSources,
    resolved: ResolvedProvider,
}

/// A home logged in with `access`, inference at `inference` (via NOUS_INFERENCE_BASE_URL)
/// and refreshes at `portal`, resolved as `model.provider: nous`.
fn setup(access: &str, portal: &str, inference: &str, active: &str) -> Setup {
    let dir = tempfile::tempdir().unwrap();
    let mut state = nous_state(access, "rt-1", portal);
    state["expires_at"] = Value::Null;
    let home = home_with(
        dir.path(),
        Some(&json!({"version": 1, "providers": {"nous": state}, "active_provider": active})),
    );
    let inference_url = format!("{inference}/v1");
    let env = move |k: &str| (k == "NOUS_INFERENCE_BASE_URL").then(|| inference_url.clone());
    let sources = LoginSources::load(&home, &env, crate::util::http::build_client().unwrap());
    let model = ModelConfig {
        default: "Hermes-4-70B".into(),
        provider: "nous".into(),
        ..ModelConfig::default()
    };
    let login = |p: &str| sources.stored_login(p);
    let mut resolved = crate::providers::resolve_with(
        &model,
        &ProviderConfig::default(),
        &CredentialSources {
            env: &|_| None,
            login: &login,
            active_login: sources.active_login(),
        },
    )
    .unwrap();
    resolved.retry.base_delay = std::time::Duration::from_millis(5);
    Setup {
        _dir: dir,
        home,
        sources,
        resolved,
    }
}

fn wrapped(s: &Setup) -> Arc<dyn Provider> {
    let inner = crate::providers::build(&s.resolved, s.sources.refresh.client.clone());
    s.sources.wrap(&s.resolved, inner)
}

async fn complete(provider: &Arc<dyn Provider>) -> Result<Completion, ProviderError> {
    provider
        .complete(&request(), &|_| {}, &CancellationToken::new())
        .await
}

fn bearer_of(server: &ScriptedServer, n: usize) -> String {
    let head = server.requests()[n].head.clone();
    head.lines()
        .find_map(|l| {
            l.strip_prefix("authorization: Bearer ")
                .or_else(|| l.strip_prefix("Authorization: Bearer "))
        })
        .unwrap_or_default()
        .to_string()
}

#[tokio::test]
async fn an_expiring_login_is_refreshed_before_the_request_on_the_session_task() {
    let new_access = jwt(3600, "inference:invoke");
    let portal = ScriptedServer::start(vec![Response::raw_json(
        200,
        &json!({"access_token": new_access, "refresh_token": "rt-2", "expires_in": 3600})
            .to_string(),
    )])
    .await;
    let inference = ScriptedServer::start(vec![Response::raw_sse(&sse_text("hello"))]).await;
    let old_access = jwt(30, "inference:invoke");
    let s = setup(
        &old_access,
        &portal.root_url(),
        &inference.root_url(),
        "nous",
    );
    assert_eq!(s.resolved.base_url, format!("{}/v1", inference.root_url()));
    assert_eq!(
        s.resolved.api_key.as_ref().map(Secret::expose),
        Some(old_access.as_str())
    );

    let provider = wrapped(&s);
    assert_eq!(provider.name(), "nous");
    assert!(
        portal.requests().is_empty(),
        "nothing happens before a request"
    );
    assert_eq!(complete(&provider).await.unwrap().text, "hello");
    assert_eq!(bearer_of(&inference, 0), new_access);
    assert_eq!(
        read_json(&s.home.auth_path())["providers"]["nous"]["refresh_token"],
        "rt-2"
    );
}

#[tokio::test]
async fn a_401_refreshes_once_and_retries_with_the_new_token() {
    let new_access = jwt(3600, "inference:invoke");
    let portal = ScriptedServer::start(vec![Response::raw_json(
        200,
        &json!({"access_token": new_access, "refresh_token": "rt-2", "expires_in": 3600})
            .to_string(),
    )])
    .await;
    let inference = ScriptedServer::start(vec![
        Response::raw_json(401, r#"{"error":{"message":"token revoked"}}"#),
        Response::raw_sse(&sse_text("again")),
    ])
    .await;
    let old_access = jwt(3600, "inference:invoke");
    let s = setup(
        &old_access,
        &portal.root_url(),
        &inference.root_url(),
        "nous",
    );
    let provider = wrapped(&s);
    assert_eq!(complete(&provider).await.unwrap().text, "again");
    assert_eq!(bearer_of(&inference, 0), old_access);
    assert_eq!(bearer_of(&inference, 1), new_access);
    assert_eq!(portal.requests().len(), 1);
}

#[tokio::test]
async fn a_token_rejected_after_refresh_says_to_log_in_again() {
    let new_access = jwt(3600, "inference:invoke");
    let portal = ScriptedServer::start(vec![Response::raw_json(
        200,
        &json!({"access_token": new_access, "expires_in": 3600}).to_string(),
    )])
    .await;
    let inference = ScriptedServer::start(vec![
        Response::raw_json(401, r#"{"error":{"message":"no"}}"#),
        Response::raw_json(401, r#"{"error":{"message":"still no"}}"#),
    ])
    .await;
    let s = setup(
        &jwt(3600, "inference:invoke"),
        &portal.root_url(),
        &inference.root_url(),
        "nous",
    );
    let err = complete(&wrapped(&s)).await.unwrap_err();
    let text = err.to_string();
    assert!(matches!(err, ProviderError::Login { .. }), "{err:?}");
    assert!(
        text.contains("run `hermes login nous`") && !text.contains(".env"),
        "{text}"
    );
}

#[tokio::test]
async fn only_the_login_token_is_wrapped() {
    let s = setup(
        &jwt(3600, "inference:invoke"),
        "http://127.0.0.1:9",
        "http://127.0.0.1:9",
        "nous",
    );
    let inner = crate::providers::build(&s.resolved, s.sources.refresh.client.clone());
    assert!(!Arc::ptr_eq(
        &inner,
        &s.sources.wrap(&s.resolved, Arc::clone(&inner))
    ));

    let mut keyed = s.resolved.clone();
    keyed.api_key = Some(Secret::new("nous-api-key"));
    assert!(Arc::ptr_eq(
        &inner,
        &s.sources.wrap(&keyed, Arc::clone(&inner))
    ));
    let mut other = s.resolved.clone();
    other.name = "openrouter".into();
    assert!(Arc::ptr_eq(
        &inner,
        &s.sources.wrap(&other, Arc::clone(&inner))
    ));
}

#[test]
fn the_active_login_needs_a_usable_state() {
    let s = setup(
        &jwt(3600, "inference:invoke"),
        "http://127.0.0.1:9",
        "http://127.0.0.1:9",
        "nous",
    );
    assert_eq!(s.sources.active_login(), Some("nous"));
    assert!(s.sources.stored_login("nous").is_some());
    assert!(s.sources.stored_login("openrouter").is_none());

    let dir = tempfile::tempdir().unwrap();
    let quarantined = json!({
        "providers": {"nous": {"portal_base_url": "x", "last_auth_error": {"code": "invalid_grant"}},
                      "openai-codex": {"tokens": {}}},
        "active_provider": "nous",
    });
    let home = home_with(dir.path(), Some(&quarantined));
    let client = crate::util::http::build_client().unwrap();
    let sources = LoginSources::load(&home, &|_| None, client.clone());
    assert_eq!(
        sources.active_login(),
        None,
        "a quarantined login is not active"
    );
    assert!(sources.stored_login("nous").is_none());

    let other =
        json!({"providers": {"openai-codex": {"tokens": {}}}, "active_provider": "openai-codex"});
    let home = home_with(dir.path(), Some(&other));
    assert_eq!(
        LoginSources::load(&home, &|_| None, client).active_login(),
        Some("openai-codex")
    );
}
