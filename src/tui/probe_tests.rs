use std::time::Duration;

use pretty_assertions::assert_eq;
use tokio::net::TcpListener;

use super::*;
use crate::test_server::{Response, ScriptedServer};

const TIMEOUT: Duration = Duration::from_secs(2);

/// The scripted test server answering every request (up to 8) with `status` and `body`.
async fn serve(status: u16, body: &str) -> ScriptedServer {
    ScriptedServer::start(vec![Response::raw_json(status, body); 8]).await
}

/// A port nothing listens on (bound, then released).
async fn closed_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    listener.local_addr().unwrap().port()
}

fn custom(base_url: String, model: &str) -> ProviderChoice {
    ProviderChoice {
        provider: "custom".into(),
        base_url: Some(base_url),
        api_key: None,
        api_key_env: None,
        model: model.into(),
    }
}

const MODELS: &str =
    r#"{"object":"list","data":[{"id":"qwen2.5:7b","object":"model"},{"id":"llama3.2:3b"}]}"#;

#[tokio::test]
async fn probe_finds_model_servers_and_skips_others() {
    let ollama = serve(200, MODELS).await;
    let not_models = serve(200, "<html>hello</html>").await;
    let missing = serve(404, "{}").await;
    let closed = closed_port().await;
    let ports = [
        ("Ollama", ollama.port()),
        ("web page", not_models.port()),
        ("404", missing.port()),
        ("closed", closed),
    ];
    let found = probe_ports(&ports, TIMEOUT).await;
    assert_eq!(
        found,
        vec![LocalServer {
            name: "Ollama".into(),
            base_url: format!("http://127.0.0.1:{}/v1", ollama.port()),
            models: vec!["qwen2.5:7b".into(), "llama3.2:3b".into()],
        }]
    );
    let head = &ollama.requests()[0].head;
    assert!(head.starts_with("GET /v1/models HTTP/1.1"), "{head}");
    assert_eq!(
        found[0].label(),
        format!("Ollama at http://127.0.0.1:{}/v1 (2 models)", ollama.port())
    );
}

#[tokio::test]
async fn probe_times_out_on_a_silent_port() {
    // Reads the request but never answers.
    let silent = ScriptedServer::start([Response::raw_then_stall(Vec::new())]).await;
    let port = silent.port();
    let started = std::time::Instant::now();
    let found = probe_ports(&[("silent", port)], Duration::from_millis(300)).await;
    assert!(found.is_empty());
    assert!(started.elapsed() < Duration::from_secs(2));
}

#[tokio::test]
async fn test_connection_sends_bearer_key_and_accepts_listed_model() {
    let server = serve(200, MODELS).await;
    let mut choice = custom(
        format!("http://127.0.0.1:{}/v1/", server.port()),
        "llama3.2:3b",
    );
    choice.api_key = Some("sk-local".into());
    assert_eq!(test_connection(&choice, TIMEOUT).await, Ok(()));
    let head = server.requests()[0].head.to_lowercase();
    assert!(head.starts_with("get /v1/models "), "{head}");
    assert!(head.contains("authorization: bearer sk-local"), "{head}");
}

#[tokio::test]
async fn anthropic_uses_x_api_key_and_version() {
    let server = serve(200, r#"{"data":[]}"#).await;
    let choice = ProviderChoice {
        provider: "anthropic".into(),
        base_url: Some(format!("http://127.0.0.1:{}/v1", server.port())),
        api_key: Some("sk-ant-1".into()),
        api_key_env: Some("ANTHROPIC_API_KEY"),
        model: "claude-sonnet-4-20250514".into(),
    };
    assert_eq!(test_connection(&choice, TIMEOUT).await, Ok(()));
    let head = server.requests()[0].head.to_lowercase();
    assert!(head.contains("x-api-key: sk-ant-1"), "{head}");
    assert!(head.contains("anthropic-version: 2023-06-01"), "{head}");
    assert!(!head.contains("authorization"), "{head}");
}

#[tokio::test]
async fn failures_become_one_actionable_line() {
    let rejected = serve(401, r#"{"error":"bad key"}"#).await;
    let mut choice = custom(format!("http://127.0.0.1:{}/v1", rejected.port()), "m");
    choice.api_key = Some("sk-wrong-secret".into());
    let error = test_connection(&choice, TIMEOUT).await.unwrap_err();
    assert_eq!(
        error,
        "the key was rejected (HTTP 401); check it and try again"
    );

    let missing = serve(404, "{}").await;
    let error = test_connection(
        &custom(format!("http://127.0.0.1:{}", missing.port()), "m"),
        TIMEOUT,
    )
    .await
    .unwrap_err();
    assert!(error.contains("was not found (HTTP 404)"), "{error}");

    let port = closed_port().await;
    let error = test_connection(&custom(format!("http://127.0.0.1:{port}/v1"), "m"), TIMEOUT)
        .await
        .unwrap_err();
    assert_eq!(
        error,
        format!(
            "nothing is listening at 127.0.0.1:{port}; is the server running? (http://127.0.0.1:{port}/v1)"
        )
    );

    let listed = serve(200, MODELS).await;
    let error = test_connection(
        &custom(format!("http://127.0.0.1:{}/v1", listed.port()), "typo"),
        TIMEOUT,
    )
    .await
    .unwrap_err();
    assert!(
        error.contains("does not serve model \"typo\"; it has: qwen2.5:7b, llama3.2:3b"),
        "{error}"
    );

    let error = test_connection(&custom("not a url".into(), "m"), TIMEOUT)
        .await
        .unwrap_err();
    assert!(error.contains("not a valid URL"), "{error}");
    assert!(!error.contains('\n'));
}

#[test]
fn hosted_defaults() {
    assert_eq!(
        hosted_base_url("openrouter"),
        Some("https://openrouter.ai/api/v1")
    );
    assert_eq!(
        hosted_base_url("openai-api"),
        Some("https://api.openai.com/v1")
    );
    assert_eq!(
        hosted_base_url("anthropic"),
        Some("https://api.anthropic.com/v1")
    );
    assert_eq!(
        hosted_base_url("nous"),
        Some("https://inference-api.nousresearch.com/v1")
    );
    assert_eq!(hosted_base_url("custom"), None);
}
