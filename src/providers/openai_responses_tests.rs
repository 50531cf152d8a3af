use std::sync::Arc;

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

const ISSUER: &str = "other:http://127.0.0.1:9/v1";

fn shape(backend: Backend) -> Shape {
    Shape {
        backend,
        issuer: ISSUER.into(),
        reasoning: true,
        replay: true,
    }
}

fn call(id: &str, name: &str, args: &str) -> ToolCall {
    ToolCall {
        id: id.into(),
        name: name.into(),
        arguments: args.into(),
    }
}

fn request(messages: Vec<Message>) -> ChatRequest {
    ChatRequest {
        model: "gpt-5".into(),
        system: "You are Hermes.".into(),
        messages,
        tools: vec![ToolSchema {
            name: "read_file".into(),
            description: "Read a file".into(),
            parameters: json!({"type":"object"}),
        }],
        max_tokens: Some(500),
    }
}

fn reasoning_item(id: &str, issuer: Option<&str>) -> Value {
    let mut item = json!({"type":"reasoning","id":id,"encrypted_content":format!("ENC-{id}"),
        "summary":[{"type":"summary_text","text":"s"}]});
    if let Some(issuer) = issuer {
        item["_issuer_kind"] = json!(issuer);
    }
    item
}

#[test]
fn body_in_responses_format() {
    let a = call("call_a", "read_file", "{\"path\":\"a\"}");
    let b = call("call_b", "read_file", "");
    let mut assistant = Message::assistant("", vec![a.clone(), b.clone()]);
    assistant.codex_reasoning_items = vec![
        reasoning_item("rs_1", Some(ISSUER)),
        reasoning_item("rs_x", Some("xai_responses")),
        reasoning_item("rs_1", Some(ISSUER)),
        reasoning_item("rs_legacy", None),
        json!({"type":"reasoning","id":"rs_plain"}),
    ];
    let body = build_body(
        &request(vec![
            Message::user("hi"),
            assistant,
            Message::tool_result(&a, "alpha"),
            Message::tool_result(&b, "beta"),
            Message::assistant("done", vec![]),
        ]),
        &shape(Backend::Generic),
    );
    let key = body["prompt_cache_key"].as_str().unwrap().to_string();
    assert_eq!(
        body,
        json!({
            "model": "gpt-5",
            "instructions": "You are Hermes.",
            "input": [
                {"role":"user","content":"hi"},
                {"type":"reasoning","encrypted_content":"ENC-rs_1","summary":[{"type":"summary_text","text":"s"}]},
                {"type":"reasoning","encrypted_content":"ENC-rs_legacy","summary":[{"type":"summary_text","text":"s"}]},
                {"type":"function_call","call_id":"call_a","name":"read_file","arguments":"{\"path\":\"a\"}"},
                {"type":"function_call","call_id":"call_b","name":"read_file","arguments":"{}"},
                {"type":"function_call_output","call_id":"call_a","output":"alpha"},
                {"type":"function_call_output","call_id":"call_b","output":"beta"},
                {"role":"assistant","content":"done"},
            ],
            "store": false,
            "stream": true,
            "prompt_cache_key": key,
            "tools": [{"type":"function","name":"read_file","description":"Read a file","strict":false,"parameters":{"type":"object"}}],
            "tool_choice": "auto",
            "parallel_tool_calls": true,
            "reasoning": {"effort":"medium","summary":"auto"},
            "include": ["reasoning.encrypted_content"],
            "max_output_tokens": 500,
        })
    );
    assert!(key.starts_with("pck_") && key.len() == 28, "{key}");
    assert!(body.get("previous_response_id").is_none());
}

#[test]
fn cache_key_follows_the_static_prefix_only() {
    let key =
        |req: &ChatRequest| build_body(req, &shape(Backend::Generic))["prompt_cache_key"].clone();
    let one = request(vec![Message::user("a")]);
    let two = request(vec![Message::user("b"), Message::assistant("c", vec![])]);
    assert_eq!(key(&one), key(&two));
    let other_system = ChatRequest {
        system: "other".into(),
        ..one.clone()
    };
    assert_ne!(key(&one), key(&other_system));
}

#[test]
fn reasoning_only_turn_gets_its_following_item_and_replay_can_be_off() {
    let mut assistant = Message::assistant("", vec![]);
    assistant.codex_reasoning_items = vec![reasoning_item("rs_1", Some(ISSUER))];
    let history = vec![Message::user("hi"), assistant, Message::user("go on")];
    let items = input_items(&history, &shape(Backend::Generic));
    assert_eq!(items[1]["type"], "reasoning");
    assert_eq!(items[2], json!({"role":"assistant","content":""}));
    let off = Shape {
        replay: false,
        ..shape(Backend::Generic)
    };
    let items = input_items(&history, &off);
    assert!(items.iter().all(|i| i["type"] != "reasoning"));
    let body = build_body(&request(history), &off);
    assert_eq!(body["include"], json!([]));
}

#[test]
fn images_are_input_images_in_user_messages_and_tool_outputs() {
    let c = call("call_1", "vision_analyze", "{}");
    let items = input_items(
        &[
            with_images(
                Message::user("what is this?"),
                vec![png("/i/a.png", "AAAA")],
            ),
            Message::assistant("", vec![c.clone()]),
            with_images(
                Message::tool_result(&c, "loaded"),
                vec![png("/i/b.png", "BBBB"), ImagePart::new("/i/gone.png")],
            ),
        ],
        &shape(Backend::Generic),
    );
    assert_eq!(
        items[0],
        json!({"role":"user","content":[
            {"type":"input_text","text":"what is this?"},
            {"type":"input_image","image_url":"data:image/png;base64,AAAA"}]})
    );
    assert_eq!(
        items[2],
        json!({"type":"function_call_output","call_id":"call_1","output":[
            {"type":"input_text","text":"loaded"},
            {"type":"input_image","image_url":"data:image/png;base64,BBBB"},
            {"type":"input_text","text":"[image unavailable: gone.png]"}]})
    );
}

#[test]
fn backends_get_their_quirks() {
    assert_eq!(Backend::of("https://api.x.ai/v1"), Backend::Xai);
    assert_eq!(
        Backend::of("https://models.github.ai/inference"),
        Backend::Github
    );
    assert_eq!(
        Backend::of("https://chatgpt.com/backend-api/codex"),
        Backend::Codex
    );
    assert_eq!(Backend::of("https://api.openai.com/v1"), Backend::Generic);
    let req = request(vec![Message::user("hi")]);
    let xai = build_body(&req, &shape(Backend::Xai));
    assert!(
        xai.get("reasoning").is_none(),
        "gpt-5 is not a Grok effort model"
    );
    assert_eq!(xai["include"], json!(["reasoning.encrypted_content"]));
    let grok = ChatRequest {
        model: "grok-4.3".into(),
        ..req.clone()
    };
    assert_eq!(
        build_body(&grok, &shape(Backend::Xai))["reasoning"],
        json!({"effort":"medium"})
    );
    let github = build_body(&req, &shape(Backend::Github));
    assert!(github.get("reasoning").is_none() && github.get("prompt_cache_key").is_none());
    let codex = build_body(&req, &shape(Backend::Codex));
    assert!(codex.get("max_output_tokens").is_none());
}

#[test]
fn refusals_are_recognised() {
    let e = |status, body: &str| ErrorResponse {
        status,
        retry_after: None,
        body: body.into(),
        redirect: None,
    };
    assert!(rejects_replay(&e(
        400,
        r#"{"error":{"code":"invalid_encrypted_content","message":"x"}}"#
    )));
    assert!(!rejects_replay(&e(500, "invalid_encrypted_content")));
    assert!(rejects_reasoning(&e(
        400,
        r#"{"error":{"message":"Unsupported parameter: 'reasoning.effort' is not supported with this model."}}"#
    )));
    assert!(!rejects_reasoning(&e(400, "bad tools")));
}

fn provider_for(server: &ScriptedServer) -> Arc<dyn Provider> {
    let model = ModelConfig {
        default: "gpt-5".into(),
        provider: "custom".into(),
        base_url: format!("{}/v1", server.root_url()),
        api_mode: "codex_responses".into(),
        api_key: "sk-test-responses-key".into(),
        ..ModelConfig::default()
    };
    let mut resolved = registry::resolve(&model, &ProviderConfig::default(), &|_| None).unwrap();
    resolved.stream_idle_timeout = Duration::from_millis(500);
    resolved.retry.base_delay = Duration::from_millis(5);
    crate::providers::build(&resolved, crate::util::http::build_client().unwrap())
}

fn sse_text(text: &str) -> String {
    let delta =
        json!({"type":"response.output_text.delta","item_id":"m","output_index":0,"delta":text});
    let done = json!({"type":"response.completed","response":{"status":"completed","output":[]}});
    format!("event: a\ndata: {delta}\n\nevent: b\ndata: {done}\n\n")
}

async fn complete(p: &Arc<dyn Provider>, req: &ChatRequest) -> Result<Completion, ProviderError> {
    let sink = |_: StreamDelta| {};
    p.complete(req, &sink, &CancellationToken::new()).await
}

#[tokio::test]
async fn posts_to_responses_with_the_key_and_falls_back_without_replay_once() {
    let server = ScriptedServer::start(vec![
        Response::raw_json(
            400,
            r#"{"error":{"code":"invalid_encrypted_content","message":"could not decrypt"}}"#,
        ),
        Response::raw_sse(&sse_text("one")),
        Response::raw_sse(&sse_text("two")),
    ])
    .await;
    let p = provider_for(&server);
    let mut assistant = Message::assistant("earlier", vec![]);
    assistant.codex_reasoning_items = vec![reasoning_item(
        "rs_1",
        Some(&format!("other:{}/v1", server.root_url())),
    )];
    let req = request(vec![Message::user("a"), assistant, Message::user("b")]);
    assert_eq!(complete(&p, &req).await.unwrap().text, "one");
    assert_eq!(complete(&p, &req).await.unwrap().text, "two");
    let heads: Vec<String> = server
        .requests()
        .iter()
        .map(|r| r.head.to_lowercase())
        .collect();
    assert!(heads[0].starts_with("post /v1/responses "), "{}", heads[0]);
    assert!(heads[0].contains("authorization: bearer sk-test-responses-key"));
    let bodies = server.bodies();
    let replays = |b: &Value| {
        b["input"]
            .as_array()
            .unwrap()
            .iter()
            .any(|i| i["type"] == "reasoning")
    };
    assert!(replays(&bodies[0]), "the first request replays the item");
    assert!(
        !replays(&bodies[1]) && !replays(&bodies[2]),
        "then never again"
    );
    assert_eq!(bodies[1]["include"], json!([]));
}

#[tokio::test]
async fn a_model_without_reasoning_gets_requests_without_it() {
    let server = ScriptedServer::start(vec![
        Response::raw_json(
            400,
            r#"{"error":{"message":"Unsupported parameter: 'reasoning.effort' is not supported with this model.","type":"invalid_request_error"}}"#,
        ),
        Response::raw_sse(&sse_text("fine")),
    ])
    .await;
    let p = provider_for(&server);
    let req = request(vec![Message::user("hi")]);
    assert_eq!(complete(&p, &req).await.unwrap().text, "fine");
    let bodies = server.bodies();
    assert!(bodies[0].get("reasoning").is_some());
    assert!(bodies[1].get("reasoning").is_none() && bodies[1].get("include").is_none());
}

#[tokio::test]
async fn a_json_answer_to_a_streaming_request_is_accepted() {
    let body = json!({"status":"completed","output":[{"type":"message","content":[{"type":"output_text","text":"plain"}]}]});
    let server = ScriptedServer::start(vec![Response::raw_json(200, &body.to_string())]).await;
    let p = provider_for(&server);
    assert_eq!(
        complete(&p, &request(vec![Message::user("hi")]))
            .await
            .unwrap()
            .text,
        "plain"
    );
}
