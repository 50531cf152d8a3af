use std::time::Duration;

use tokio_util::sync::CancellationToken;

use super::*;
use crate::test_server::Response;
use crate::test_server::ScriptedServer;
use crate::util::http::build_client;

fn client() -> reqwest::Client {
    build_client().unwrap()
}

#[test]
fn target_names_host_and_port() {
    assert_eq!(target_of("http://127.0.0.1:1234/v1/chat"), "127.0.0.1:1234");
    assert_eq!(target_of("https://api.openai.com/v1"), "api.openai.com:443");
}

#[tokio::test]
async fn connection_refused_names_the_host() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    drop(listener);
    let url = format!("http://{addr}/v1/chat/completions");
    let cancel = CancellationToken::new();
    let err = send(
        client().post(&url),
        &target_of(&url),
        Duration::from_secs(5),
        &cancel,
    )
    .await
    .unwrap_err();
    assert_eq!(
        err.error,
        ProviderError::Transport {
            message: format!("could not reach the provider: connection refused to {addr}")
        }
    );
}

#[tokio::test]
async fn connection_reset_is_transport() {
    let server = ScriptedServer::start(vec![Response::reset()]).await;
    let url = format!("{}/v1/chat/completions", server.root_url());
    let cancel = CancellationToken::new();
    let err = send(
        client().post(&url).body("{}"),
        &target_of(&url),
        Duration::from_secs(5),
        &cancel,
    )
    .await
    .unwrap_err();
    match err.error {
        ProviderError::Transport { message } => {
            assert_eq!(
                message,
                format!(
                    "the connection to {} was reset before it answered",
                    target_of(&url)
                )
            )
        }
        other => panic!("expected Transport, got {other:?}"),
    }
}

#[tokio::test]
async fn error_status_is_classified_with_retry_after() {
    let server = ScriptedServer::start(vec![Response::raw_http(
        429,
        "application/json",
        &[("retry-after", "3")],
        r#"{"error":{"message":"slow down"}}"#,
    )])
    .await;
    let cancel = CancellationToken::new();
    let err = send(
        client().get(server.root_url()),
        "t",
        Duration::from_secs(5),
        &cancel,
    )
    .await
    .unwrap_err();
    assert_eq!(
        err.error,
        ProviderError::RateLimited {
            retry_after: Some(Duration::from_secs(3))
        }
    );
    assert_eq!(err.retry_after, Some(Duration::from_secs(3)));
}

#[tokio::test]
async fn silent_server_is_a_hang() {
    let server = ScriptedServer::start(vec![Response::raw_then_stall(String::new())]).await;
    let cancel = CancellationToken::new();
    let err = send(
        client().get(server.root_url()),
        "t",
        Duration::from_millis(200),
        &cancel,
    )
    .await
    .unwrap_err();
    assert!(matches!(err.error, ProviderError::Hang { .. }));
}

#[tokio::test]
async fn read_body_truncates_at_limit() {
    let server = ScriptedServer::start(vec![Response::raw_json(200, &"y".repeat(5000))]).await;
    let cancel = CancellationToken::new();
    let resp = send(
        client().get(server.root_url()),
        "t",
        Duration::from_secs(5),
        &cancel,
    )
    .await
    .unwrap();
    let body = read_body(resp, "t", Duration::from_secs(5), &cancel, 100)
        .await
        .unwrap();
    assert_eq!(body.len(), 100);
}
