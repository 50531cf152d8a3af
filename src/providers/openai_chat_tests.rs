use std::sync::Mutex;
use std::time::Instant;

use pretty_assertions::assert_eq;
use serde_json::json;

use super::*;
use crate::config::schema::ModelConfig;
use crate::config::schema::ProviderConfig;
use crate::model::ImagePart;
use crate::model::ToolCall;
use crate::model::ToolSchema;
use crate::providers::registry;
use crate::providers::test_images::png;
use crate::providers::test_images::with_images;
use crate::test_server::Response;
use crate::test_server::ScriptedServer;

fn request() -> ChatRequest {
    ChatRequest {
        model: "m".into(),
        system: "sys".into(),
        messages: vec![Message::user("hi")],
        tools: vec![],
        max_tokens: None,
    }
}

#[test]
fn body_in_openai_format() {
    let call = ToolCall {
        id: "c1".into(),
        name: "read_file".into(),
        arguments: String::new(),
    };
    let req = ChatRequest {
        model: "gpt".into(),
        system: "sys".into(),
        messages: vec![
            Message::user("hi"),
            Message::assistant("", vec![call.clone()]),
            Message::tool_result(&call, "out"),
            Message::assistant("done", vec![]),
        ],
        tools: vec![ToolSchema {
            name: "read_file".into(),
            description: "d".into(),
            parameters: json!({"type":"object"}),
        }],
        max_tokens: Some(99),
    };
    assert_eq!(
        build_body(&req, Streaming::On, None),
        json!({
            "model": "gpt",
            "messages": [
                {"role":"system","content":"sys"},
                {"role":"user","content":"hi"},
                {"role":"assistant","content":null,"tool_calls":[
                    {"id":"c1","type":"function","function":{"name":"read_file","arguments":"{}"}}]},
                {"role":"tool","tool_call_id":"c1","content":"out"},
                {"role":"assistant","content":"done"},
            ],
            "tools": [{"type":"function","function":{"name":"read_file","description":"d","parameters":{"type":"object"}}}],
            "stream": true,
            "stream_options": {"include_usage": true},
            "max_tokens": 99,
        })
    );
    let plain = build_body(&request(), Streaming::Off, None);
    assert!(plain.get("stream").is_none() && plain.get("stream_options").is_none());
    assert!(plain.get("tools").is_none() && plain.get("max_tokens").is_none());
}

fn messages_of(history: Vec<Message>) -> serde_json::Value {
    let req = ChatRequest {
        system: String::new(),
        messages: history,
        ..request()
    };
    build_body(&req, Streaming::Off, None)["messages"].clone()
}

#[test]
fn user_image_with_text_is_an_array_with_text_first() {
    assert_eq!(
        messages_of(vec![
            Message::user("before"),
            with_images(
                Message::user("what is this?"),
                vec![png("/i/a.png", "AAAA")]
            ),
            Message::assistant("a cat", vec![]),
        ]),
        json!([
            {"role":"user","content":"before"},
            {"role":"user","content":[
                {"type":"text","text":"what is this?"},
                {"type":"image_url","image_url":{"url":"data:image/png;base64,AAAA"}},
            ]},
            {"role":"assistant","content":"a cat"},
        ])
    );
}

#[test]
fn two_images_with_empty_text_have_no_text_part() {
    assert_eq!(
        messages_of(vec![with_images(
            Message::user(""),
            vec![png("/i/a.png", "AAAA"), png("/i/b.png", "BBBB")]
        )]),
        json!([{"role":"user","content":[
            {"type":"image_url","image_url":{"url":"data:image/png;base64,AAAA"}},
            {"type":"image_url","image_url":{"url":"data:image/png;base64,BBBB"}},
        ]}])
    );
}

#[test]
fn missing_payload_becomes_a_text_part_in_place() {
    assert_eq!(
        messages_of(vec![with_images(
            Message::user("compare"),
            vec![png("/i/a.png", "AAAA"), ImagePart::new("/i/gone.png")]
        )]),
        json!([{"role":"user","content":[
            {"type":"text","text":"compare"},
            {"type":"image_url","image_url":{"url":"data:image/png;base64,AAAA"}},
            {"type":"text","text":"[image unavailable: gone.png]"},
        ]}])
    );
}

#[test]
fn tool_images_follow_the_last_tool_message_of_the_run() {
    let a = ToolCall {
        id: "c1".into(),
        name: "vision_analyze".into(),
        arguments: "{}".into(),
    };
    let b = ToolCall {
        id: "c2".into(),
        name: "read_file".into(),
        arguments: "{}".into(),
    };
    let c = ToolCall {
        id: "c3".into(),
        name: "vision_analyze".into(),
        arguments: "{}".into(),
    };
    let history = vec![
        Message::user("look"),
        Message::assistant("", vec![a.clone(), b.clone()]),
        with_images(
            Message::tool_result(&a, "loaded shot.png"),
            vec![png("/i/shot.png", "SHOT"), ImagePart::new("/i/lost.png")],
        ),
        Message::tool_result(&b, "text only"),
        Message::assistant("", vec![c.clone()]),
        with_images(
            Message::tool_result(&c, "loaded two.png"),
            vec![png("/i/two.png", "TWO")],
        ),
    ];
    let note = json!({"type":"text","text":"[Images returned by the tool call(s) above]"});
    assert_eq!(
        messages_of(history),
        json!([
            {"role":"user","content":"look"},
            {"role":"assistant","content":null,"tool_calls":[
                {"id":"c1","type":"function","function":{"name":"vision_analyze","arguments":"{}"}},
                {"id":"c2","type":"function","function":{"name":"read_file","arguments":"{}"}}]},
            {"role":"tool","tool_call_id":"c1","content":"loaded shot.png"},
            {"role":"tool","tool_call_id":"c2","content":"text only"},
            {"role":"user","content":[
                note,
                {"type":"image_url","image_url":{"url":"data:image/png;base64,SHOT"}},
                {"type":"text","text":"[image unavailable: lost.png]"},
            ]},
            {"role":"assistant","content":null,"tool_calls":[
                {"id":"c3","type":"function","function":{"name":"vision_analyze","arguments":"{}"}}]},
            {"role":"tool","tool_call_id":"c3","content":"loaded two.png"},
            {"role":"user","content":[
                note,
                {"type":"image_url","image_url":{"url":"data:image/png;base64,TWO"}},
            ]},
        ])
    );
}

#[test]
fn tool_run_without_images_adds_no_message() {
    let a = ToolCall {
        id: "c1".into(),
        name: "read_file".into(),
        arguments: "{}".into(),
    };
    let messages = messages_of(vec![
        Message::user("hi"),
        Message::assistant("", vec![a.clone()]),
        Message::tool_result(&a, "out"),
    ]);
    assert_eq!(messages.as_array().unwrap().len(), 3);
    assert_eq!(
        messages[2],
        json!({"role":"tool","tool_call_id":"c1","content":"out"})
    );
}

#[tokio::test]
async fn data_url_is_on_the_wire() {
    let server = ScriptedServer::start(vec![Response::raw_sse(&sse_text("a cat"))]).await;
    let p = provider_for(&server, "custom", None);
    let req = ChatRequest {
        messages: vec![with_images(
            Message::user("what is this?"),
            vec![png("/i/a.png", "iVBORw0KGgo+/A==")],
        )],
        ..request()
    };
    let sink = |_: StreamDelta| {};
    let c = p.complete(&req, &sink, &CancellationToken::new()).await;
    assert_eq!(c.unwrap().text, "a cat");
    let body = server.requests()[0].body_text();
    assert!(
        body.contains(r#""url":"data:image/png;base64,iVBORw0KGgo+/A==""#),
        "{body}"
    );
    assert!(!body.contains("/i/a.png"), "the local path is not sent");
}

#[test]
fn streaming_rejection_detection() {
    let e = |status, body: &str| ErrorResponse {
        status,
        retry_after: None,
        body: body.into(),
        redirect: None,
    };
    assert!(rejects_streaming(&e(
        400,
        r#"{"error":"Streaming is not supported for this model"}"#
    )));
    assert!(rejects_streaming(&e(422, "stream: unsupported value")));
    assert!(!rejects_streaming(&e(400, "bad tools")));
    assert!(!rejects_streaming(&e(500, "streaming not supported")));
}

fn provider_for(server: &ScriptedServer, name: &str, key: Option<&str>) -> Arc<dyn Provider> {
    let model = ModelConfig {
        default: "m".into(),
        provider: name.into(),
        base_url: format!("{}/v1", server.root_url()),
        ..ModelConfig::default()
    };
    let mut resolved = registry::resolve(&model, &ProviderConfig::default(), &|_| {
        key.map(str::to_string)
    })
    .unwrap();
    resolved.stream_idle_timeout = Duration::from_millis(300);
    resolved.retry.base_delay = Duration::from_millis(5);
    resolved.retry.max_delay = Duration::from_millis(20);
    crate::providers::build(&resolved, crate::util::http::build_client().unwrap())
}

use std::sync::Arc;

async fn complete(p: &Arc<dyn Provider>) -> (Result<Completion, ProviderError>, Vec<StreamDelta>) {
    let deltas = Mutex::new(Vec::new());
    let sink = |d: StreamDelta| deltas.lock().unwrap().push(d);
    let r = p
        .complete(&request(), &sink, &CancellationToken::new())
        .await;
    (r, deltas.into_inner().unwrap())
}

fn sse_text(text: &str) -> String {
    format!(
        "data: {}\n\ndata: {}\n\ndata: [DONE]\n\n",
        json!({"choices":[{"delta":{"content":text}}]}),
        json!({"choices":[],"usage":{"prompt_tokens":5,"completion_tokens":1}})
    )
}

const SSE_HEAD: &str = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n\r\n";

#[tokio::test]
async fn streams_over_http_with_auth_and_openrouter_headers() {
    let server = ScriptedServer::start(vec![Response::raw_sse(&sse_text("Hello"))]).await;
    let p = provider_for(&server, "openrouter", Some("sk-or-test"));
    let (r, deltas) = complete(&p).await;
    assert_eq!(r.unwrap().text, "Hello");
    assert_eq!(deltas, vec![StreamDelta::Text("Hello".into())]);
    let req = server.requests()[0].clone();
    let head = req.head.to_lowercase();
    assert!(head.starts_with("post /v1/chat/completions"), "{head}");
    assert!(head.contains("authorization: bearer sk-or-test"));
    assert!(head.contains("x-title: hermes") && head.contains("http-referer:"));
    assert_eq!(server.bodies()[0]["stream"], true);
}

#[tokio::test]
async fn falls_back_to_non_streaming_and_remembers() {
    let completion = json!({"choices":[{"message":{"role":"assistant","content":"plain"},"finish_reason":"stop"}]}).to_string();
    let server = ScriptedServer::start(vec![
        Response::raw_json(400, r#"{"error":{"message":"Streaming is not supported"}}"#),
        Response::raw_json(200, &completion),
        Response::raw_json(200, &completion),
    ])
    .await;
    let p = provider_for(&server, "custom", None);
    let (r, deltas) = complete(&p).await;
    assert_eq!(r.unwrap().text, "plain");
    assert_eq!(deltas, vec![StreamDelta::Text("plain".into())]);
    let (r, _) = complete(&p).await;
    assert_eq!(r.unwrap().text, "plain");
    let bodies = server.bodies();
    assert_eq!(bodies.len(), 3);
    assert_eq!(bodies[0]["stream"], true);
    assert!(bodies[1].get("stream").is_none());
    assert!(
        bodies[2].get("stream").is_none(),
        "second call must go non-streaming directly"
    );
    assert!(
        !server.requests()[0]
            .head
            .to_lowercase()
            .contains("authorization")
    );
}

#[tokio::test]
async fn rate_limit_is_retried_after_retry_after() {
    let server = ScriptedServer::start(vec![
        Response::raw_http(
            429,
            "application/json",
            &[("retry-after", "1")],
            r#"{"error":{"message":"slow down"}}"#,
        ),
        Response::raw_sse(&sse_text("ok")),
    ])
    .await;
    let p = provider_for(&server, "custom", None);
    let start = Instant::now();
    let (r, _) = complete(&p).await;
    assert_eq!(r.unwrap().text, "ok");
    assert!(
        start.elapsed() >= Duration::from_millis(950),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(server.requests().len(), 2);
}

#[tokio::test]
async fn connection_resets_are_retried_then_reported() {
    let server = ScriptedServer::start(vec![
        Response::reset(),
        Response::reset(),
        Response::raw_sse(&sse_text("after resets")),
    ])
    .await;
    let p = provider_for(&server, "custom", None);
    assert_eq!(complete(&p).await.0.unwrap().text, "after resets");

    let server = ScriptedServer::start(vec![Response::reset(); 4]).await;
    let p = provider_for(&server, "custom", None);
    let err = complete(&p).await.0.unwrap_err();
    assert!(
        matches!(err, ProviderError::Transport { ref message } if message.contains("127.0.0.1")),
        "{err:?}"
    );
    assert_eq!(server.requests().len(), 4, "1 attempt + 3 retries");
}

#[tokio::test]
async fn silent_stream_is_retried_once_then_succeeds() {
    let server = ScriptedServer::start(vec![
        Response::raw_then_stall(SSE_HEAD),
        Response::raw_sse(&sse_text("second")),
    ])
    .await;
    let p = provider_for(&server, "custom", None);
    assert_eq!(complete(&p).await.0.unwrap().text, "second");
    assert_eq!(server.requests().len(), 2);
}

#[tokio::test]
async fn hang_after_text_is_not_retried() {
    let partial = format!(
        "{SSE_HEAD}data: {}\n\n",
        json!({"choices":[{"delta":{"content":"par"}}]})
    );
    let server = ScriptedServer::start(vec![
        Response::raw_then_stall(partial),
        Response::raw_sse(&sse_text("dup")),
    ])
    .await;
    let p = provider_for(&server, "custom", None);
    let (r, deltas) = complete(&p).await;
    assert!(matches!(r, Err(ProviderError::Hang { .. })), "{r:?}");
    assert_eq!(deltas, vec![StreamDelta::Text("par".into())]);
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn auth_failure_is_final_and_keyless() {
    let server = ScriptedServer::start(vec![
        Response::raw_json(
            401,
            r#"{"error":{"message":"Invalid key sk-live-abcdefgh"}}"#,
        ),
        Response::raw_sse(&sse_text("x")),
    ])
    .await;
    let p = provider_for(&server, "openai", Some("sk-live-abcdefgh"));
    let err = complete(&p).await.0.unwrap_err();
    assert!(matches!(err, ProviderError::Auth { status: 401, .. }));
    assert!(!err.to_string().contains("abcdefgh"), "{err}");
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn cancellation_stops_a_stalled_stream() {
    let server = ScriptedServer::start(vec![Response::raw_then_stall(SSE_HEAD)]).await;
    let model = ModelConfig {
        default: "m".into(),
        provider: "custom".into(),
        base_url: server.root_url(),
        ..ModelConfig::default()
    };
    let resolved = registry::resolve(&model, &ProviderConfig::default(), &|_| None).unwrap();
    let p = crate::providers::build(&resolved, crate::util::http::build_client().unwrap());
    let cancel = CancellationToken::new();
    let c = cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(100)).await;
        c.cancel();
    });
    let start = Instant::now();
    let sink = |_: StreamDelta| {};
    assert_eq!(
        p.complete(&request(), &sink, &cancel).await,
        Err(ProviderError::Cancelled)
    );
    assert!(start.elapsed() < Duration::from_secs(5));
}
