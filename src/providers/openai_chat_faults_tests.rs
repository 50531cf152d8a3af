//! What real gateways, proxies and misconfigured endpoints send, against the chat provider
//! with the production client (`build_provider_client`): each gets a result or one clear line.

use std::io::Read;
use std::io::Write;
use std::sync::Arc;
use std::sync::Mutex;
use std::time::Duration;

use serde_json::json;

use super::*;
use crate::config::schema::ModelConfig;
use crate::config::schema::ProviderConfig;
use crate::providers::registry;
use crate::test_server::Response;
use crate::test_server::ScriptedServer;

fn provider_at(base_url: &str) -> Arc<dyn Provider> {
    let model = ModelConfig {
        default: "m".into(),
        provider: "custom".into(),
        base_url: base_url.to_string(),
        ..ModelConfig::default()
    };
    let mut resolved = registry::resolve(&model, &ProviderConfig::default(), &|_| {
        Some("k-test".into())
    })
    .unwrap();
    resolved.stream_idle_timeout = Duration::from_millis(2_000);
    resolved.retry.base_delay = Duration::from_millis(5);
    resolved.retry.max_delay = Duration::from_millis(20);
    crate::providers::build(
        &resolved,
        crate::util::http::build_provider_client().unwrap(),
    )
}

fn provider_for(server: &ScriptedServer) -> Arc<dyn Provider> {
    provider_at(&format!("{}/v1", server.root_url()))
}

async fn complete(p: &Arc<dyn Provider>) -> (Result<Completion, ProviderError>, Vec<StreamDelta>) {
    let request = ChatRequest {
        model: "m".into(),
        system: "sys".into(),
        messages: vec![Message::user("hi")],
        tools: vec![],
        max_tokens: None,
    };
    let deltas = Mutex::new(Vec::new());
    let sink = |d: StreamDelta| deltas.lock().unwrap().push(d);
    let r = p.complete(&request, &sink, &CancellationToken::new()).await;
    (r, deltas.into_inner().unwrap())
}

fn text_chunk(text: &str) -> String {
    format!(
        "data: {}\n\n",
        json!({"choices":[{"delta":{"content":text}}]})
    )
}

const DONE: &str =
    "data: {\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n";

const PORTAL: &str = "<!DOCTYPE html>\n<html><head><title>\n  Hotel WiFi — Log in\n</title></head><body><form>…</form></body></html>";

fn bad_response(r: Result<Completion, ProviderError>) -> String {
    match r {
        Err(ProviderError::BadResponse { message }) => message,
        other => panic!("expected BadResponse, got {other:?}"),
    }
}

#[tokio::test]
async fn an_html_page_is_named_as_such_whatever_its_content_type() {
    for content_type in [
        "text/event-stream",
        "application/json",
        "text/html; charset=utf-8",
    ] {
        let server =
            ScriptedServer::start(vec![Response::raw_http(200, content_type, &[], PORTAL)]).await;
        let (r, _) = complete(&provider_for(&server)).await;
        let message = bad_response(r);
        assert!(
            message.contains("answered with an HTML page titled \"Hotel WiFi — Log in\"")
                && message.contains("proxy or login page")
                && message.contains(&server.addr().to_string()),
            "{content_type}: {message}"
        );
        assert!(!message.contains('<'), "no raw HTML: {message}");
        assert_eq!(server.requests().len(), 1, "not retried");
    }
}

#[tokio::test]
async fn null_frames_and_null_choices_are_skipped() {
    let body = format!(
        "data: null\n\ndata: {{\"choices\":null}}\n\n{}{}{DONE}",
        text_chunk("Hel"),
        text_chunk("lo")
    );
    let server = ScriptedServer::start(vec![Response::raw_sse(&body)]).await;
    let (r, _) = complete(&provider_for(&server)).await;
    assert_eq!(r.unwrap().text, "Hello");
}

#[tokio::test]
async fn a_lone_surrogate_is_decoded_lossily() {
    let body = format!(
        "data: {{\"choices\":[{{\"delta\":{{\"content\":\"smile \\ud83d!\"}}}}]}}\n\n{DONE}"
    );
    let server = ScriptedServer::start(vec![Response::raw_sse(&body)]).await;
    let (r, _) = complete(&provider_for(&server)).await;
    assert_eq!(r.unwrap().text, "smile \u{fffd}!");
}

#[tokio::test]
async fn a_stream_that_ends_mid_answer_is_an_error_not_an_answer() {
    let body = text_chunk("The answer is");
    let server = ScriptedServer::start(vec![Response::raw_sse(&body)]).await;
    let (r, deltas) = complete(&provider_for(&server)).await;
    match r {
        Err(ProviderError::Transport { message }) => {
            assert!(
                message.contains("ended before the answer was complete"),
                "{message}"
            )
        }
        other => panic!("expected a cut-off error, got {other:?}"),
    }
    assert_eq!(deltas, vec![StreamDelta::Text("The answer is".into())]);
    // Text was shown, so it is not retried (the user would see it twice).
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn a_cut_stream_with_nothing_shown_is_retried() {
    let server = ScriptedServer::start(vec![
        Response::raw_sse("data: {\"choices\":[]}\n\n"),
        Response::raw_sse(&format!("{}{DONE}", text_chunk("ok"))),
    ])
    .await;
    let (r, _) = complete(&provider_for(&server)).await;
    assert_eq!(r.unwrap().text, "ok");
    assert_eq!(server.requests().len(), 2);
}

#[tokio::test]
async fn gzip_encoded_sse_is_decoded() {
    let body = format!("{}{DONE}", text_chunk("squeezed"));
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(body.as_bytes()).unwrap();
    let gz = encoder.finish().unwrap();
    let server = ScriptedServer::start(vec![Response::raw_http(
        200,
        "text/event-stream",
        &[("content-encoding", "gzip")],
        gz,
    )])
    .await;
    let (r, _) = complete(&provider_for(&server)).await;
    assert_eq!(r.unwrap().text, "squeezed");
}

#[tokio::test]
async fn a_301_on_the_post_is_reported_with_where_it_pointed() {
    for status in [301, 302, 303] {
        let server = ScriptedServer::start(vec![Response::raw_http(
            status,
            "text/html",
            &[("location", "/v2/chat/completions?token=abc")],
            "<html>moved</html>",
        )])
        .await;
        let (r, _) = complete(&provider_for(&server)).await;
        let message = bad_response(r);
        let to = format!("{}/v2/chat/completions", server.root_url());
        assert!(
            message.contains(&format!("redirected (HTTP {status}) to {to};"))
                && message.contains("set model.base_url"),
            "{message}"
        );
        assert!(!message.contains("token=abc"), "{message}");
        assert_eq!(server.requests().len(), 1, "not followed as a GET");
    }
}

#[tokio::test]
async fn a_307_within_the_origin_is_followed_with_the_body() {
    let server = ScriptedServer::start(vec![
        Response::raw_http(
            307,
            "text/plain",
            &[("location", "/v1/next/chat/completions")],
            "",
        ),
        Response::raw_sse(&format!("{}{DONE}", text_chunk("moved fine"))),
    ])
    .await;
    let (r, _) = complete(&provider_for(&server)).await;
    assert_eq!(r.unwrap().text, "moved fine");
    let requests = server.requests();
    assert_eq!(requests.len(), 2);
    let head = requests[1].head.to_lowercase();
    assert!(head.starts_with("post /v1/next/chat/completions"), "{head}");
    assert!(head.contains("authorization: bearer k-test"), "{head}");
    assert_eq!(server.bodies()[1]["model"], "m");
}

#[tokio::test]
async fn a_307_to_another_origin_is_not_followed_so_the_key_stays() {
    let other = ScriptedServer::start(vec![Response::raw_sse(DONE)]).await;
    let location = format!("{}/v1/chat/completions", other.root_url());
    let server = ScriptedServer::start(vec![Response::raw_http(
        307,
        "text/plain",
        &[("location", &location)],
        "",
    )])
    .await;
    let (r, _) = complete(&provider_for(&server)).await;
    let message = bad_response(r);
    assert!(
        message.contains(&format!("redirected (HTTP 307) to {location}")),
        "{message}"
    );
    assert!(
        other.requests().is_empty(),
        "the key went to another origin"
    );
}

#[tokio::test]
async fn https_to_a_plain_http_server_says_use_http() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming().take(8) {
            let Ok(mut stream) = stream else { break };
            let mut buf = [0u8; 1024];
            let _ = stream.read(&mut buf);
            let _ = stream.write_all(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n");
        }
    });
    let (r, _) = complete(&provider_at(&format!("https://{addr}/v1"))).await;
    match r {
        Err(ProviderError::Transport { message }) => assert!(
            message.contains(&format!(
                "{addr} speaks plain HTTP, not HTTPS — use http://"
            )),
            "{message}"
        ),
        other => panic!("expected Transport, got {other:?}"),
    }
}

#[tokio::test]
async fn a_server_error_does_not_claim_the_provider_was_unreachable() {
    let server = ScriptedServer::start(vec![
        Response::raw_json(
            500,
            r#"{"error":{"message":"boom"}}"#
        );
        4
    ])
    .await;
    let (r, _) = complete(&provider_for(&server)).await;
    let text = r.unwrap_err().to_string();
    assert!(text.contains("HTTP 500 from the provider: boom"), "{text}");
    assert!(!text.contains("could not reach"), "{text}");
}
