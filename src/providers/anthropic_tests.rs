use pretty_assertions::assert_eq;
use serde_json::json;

use super::*;
use crate::providers::test_images::png;
use crate::providers::test_images::with_images;

use crate::model::ImagePart;
use crate::model::ToolCall;
use crate::model::ToolSchema;
use crate::providers::prompt_cache::CacheTtl;

const FIVE: Option<CacheTtl> = Some(CacheTtl::FiveMinutes);

fn call(id: &str, name: &str, args: &str) -> ToolCall {
    ToolCall {
        id: id.into(),
        name: name.into(),
        arguments: args.into(),
    }
}

fn request(messages: Vec<Message>) -> ChatRequest {
    ChatRequest {
        model: "claude-sonnet-4".into(),
        system: "You are Hermes.".into(),
        messages,
        tools: vec![ToolSchema {
            name: "read_file".into(),
            description: "Read a file".into(),
            parameters: json!({"type":"object","properties":{"path":{"type":"string"}}}),
        }],
        max_tokens: None,
    }
}

#[test]
fn history_conversion_merges_tool_results_and_same_roles() {
    let a = call("toolu_a", "read_file", "{\"path\":\"a\"}");
    let b = call("toolu_b", "terminal", "not json");
    let history = vec![
        Message::user("hi"),
        Message::user("and more"),
        Message::assistant("", vec![a.clone(), b.clone()]),
        Message::tool_result(&a, "contents"),
        Message::tool_result(&b, ""),
        Message::assistant("done", vec![]),
    ];
    assert_eq!(
        convert_history(&history),
        vec![
            json!({"role":"user","content":[{"type":"text","text":"hi"},{"type":"text","text":"and more"}]}),
            json!({"role":"assistant","content":[
                {"type":"tool_use","id":"toolu_a","name":"read_file","input":{"path":"a"}},
                {"type":"tool_use","id":"toolu_b","name":"terminal","input":{"raw_arguments":"not json"}}]}),
            json!({"role":"user","content":[
                {"type":"tool_result","tool_use_id":"toolu_a","content":"contents"},
                {"type":"tool_result","tool_use_id":"toolu_b"}]}),
            json!({"role":"assistant","content":[{"type":"text","text":"done"}]}),
        ]
    );
}

fn image_block(base64: &str) -> serde_json::Value {
    json!({"type":"image","source":{"type":"base64","media_type":"image/png","data":base64}})
}

#[test]
fn user_images_come_before_the_text() {
    assert_eq!(
        convert_history(&[with_images(
            Message::user("what is this?"),
            vec![png("/i/a.png", "AAAA")]
        )]),
        vec![json!({"role":"user","content":[
            image_block("AAAA"),
            {"type":"text","text":"what is this?"},
        ]})]
    );
}

#[test]
fn two_images_with_empty_text_have_no_text_block_and_keep_the_cache_marker() {
    let body = build_body(
        &request(vec![
            Message::user("earlier"),
            Message::assistant("ok", vec![]),
            with_images(
                Message::user(""),
                vec![png("/i/a.png", "AAAA"), png("/i/b.png", "BBBB")],
            ),
        ]),
        FIVE,
    );
    let mut marked_b = image_block("BBBB");
    marked_b["cache_control"] = json!({"type":"ephemeral"});
    assert_eq!(
        body["messages"][2],
        json!({"role":"user","content":[image_block("AAAA"), marked_b]})
    );
    assert_eq!(body.to_string().matches("cache_control").count(), 4);
}

#[test]
fn missing_payload_becomes_a_text_block_in_place() {
    assert_eq!(
        convert_history(&[with_images(
            Message::user("compare"),
            vec![ImagePart::new("/i/gone.png"), png("/i/b.png", "BBBB")]
        )]),
        vec![json!({"role":"user","content":[
            {"type":"text","text":"[image unavailable: gone.png]"},
            image_block("BBBB"),
            {"type":"text","text":"compare"},
        ]})]
    );
}

#[test]
fn tool_result_images_make_content_an_array() {
    let a = call("toolu_a", "vision_analyze", "{}");
    let b = call("toolu_b", "read_file", "{}");
    let c = call("toolu_c", "vision_analyze", "{}");
    let history = vec![
        Message::user("look"),
        Message::assistant("", vec![a.clone(), b.clone(), c.clone()]),
        with_images(
            Message::tool_result(&a, "loaded shot.png"),
            vec![png("/i/shot.png", "SHOT"), ImagePart::new("/i/lost.png")],
        ),
        Message::tool_result(&b, "text only"),
        with_images(Message::tool_result(&c, ""), vec![png("/i/c.png", "CCCC")]),
    ];
    assert_eq!(
        convert_history(&history)[2],
        json!({"role":"user","content":[
            {"type":"tool_result","tool_use_id":"toolu_a","content":[
                {"type":"text","text":"loaded shot.png"},
                image_block("SHOT"),
                {"type":"text","text":"[image unavailable: lost.png]"},
            ]},
            {"type":"tool_result","tool_use_id":"toolu_b","content":"text only"},
            {"type":"tool_result","tool_use_id":"toolu_c","content":[image_block("CCCC")]},
        ]})
    );
}

#[test]
fn tool_input_variants() {
    assert_eq!(tool_input(""), json!({}));
    assert_eq!(tool_input("{\"a\":1}"), json!({"a":1}));
    assert_eq!(tool_input("[1]"), json!({"raw_arguments":"[1]"}));
}

#[test]
fn body_has_cache_control_on_system_and_last_three_messages() {
    let a = call("t1", "read_file", "{}");
    let body = build_body(
        &request(vec![
            Message::user("one"),
            Message::assistant("two", vec![a.clone()]),
            Message::tool_result(&a, "three"),
            Message::assistant("four", vec![]),
            Message::user("five"),
        ]),
        FIVE,
    );
    assert_eq!(body["model"], "claude-sonnet-4");
    assert_eq!(body["max_tokens"], DEFAULT_MAX_TOKENS);
    assert_eq!(body["stream"], true);
    assert_eq!(
        body["system"],
        json!([{"type":"text","text":"You are Hermes.","cache_control":{"type":"ephemeral"}}])
    );
    assert_eq!(body["tools"][0]["input_schema"]["type"], "object");
    let messages = body["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 5);
    let marked: Vec<bool> = messages
        .iter()
        .map(|m| {
            let blocks = m["content"].as_array().unwrap();
            assert!(
                blocks[..blocks.len() - 1]
                    .iter()
                    .all(|b| b.get("cache_control").is_none())
            );
            blocks.last().unwrap().get("cache_control").is_some()
        })
        .collect();
    assert_eq!(marked, vec![false, false, true, true, true]);
    // The assistant message with a tool call is marked on its last block (the tool_use).
    let with_tool = build_body(
        &request(vec![Message::user("x"), Message::assistant("y", vec![a])]),
        FIVE,
    );
    assert_eq!(with_tool["messages"][1]["content"][1]["type"], "tool_use");
    assert_eq!(
        with_tool["messages"][1]["content"][1]["cache_control"],
        json!({"type":"ephemeral"})
    );
    // Four breakpoints at most.
    let count = body.to_string().matches("cache_control").count();
    assert_eq!(count, 4);
}

#[test]
fn body_omits_empty_system_and_tools_and_honours_max_tokens() {
    let mut req = request(vec![Message::user("x")]);
    req.system.clear();
    req.tools.clear();
    req.max_tokens = Some(1000);
    let body = build_body(&req, FIVE);
    assert!(body.get("system").is_none());
    assert!(body.get("tools").is_none());
    assert_eq!(body["max_tokens"], 1000);
}

#[test]
fn breakpoints_count_history_messages_not_merged_ones() {
    let a = call("t1", "read_file", "{}");
    let b = call("t2", "read_file", "{}");
    let body = build_body(
        &request(vec![
            Message::user("one"),
            Message::assistant("", vec![a.clone(), b.clone()]),
            Message::tool_result(&a, "ra"),
            Message::tool_result(&b, "rb"),
            Message::assistant("done", vec![]),
        ]),
        Some(CacheTtl::OneHour),
    );
    let hour = json!({"type":"ephemeral","ttl":"1h"});
    assert_eq!(body["system"][0]["cache_control"], hour);
    // The two results share one API message; each is one of Hermes's last 3 messages.
    let results = body["messages"][2]["content"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    assert_eq!(results[0]["cache_control"], hour);
    assert_eq!(results[1]["cache_control"], hour);
    assert_eq!(body["messages"][3]["content"][0]["cache_control"], hour);
    assert!(
        body["messages"][1]["content"][1]
            .get("cache_control")
            .is_none()
    );
    assert_eq!(body.to_string().matches("cache_control").count(), 4);
}

#[test]
fn without_a_system_prompt_the_last_four_messages_are_marked() {
    let mut req = request((0..6).map(|i| Message::user(format!("m{i}"))).collect());
    // Alternate roles so nothing merges.
    for (i, m) in req.messages.iter_mut().enumerate() {
        if i % 2 == 1 {
            m.role = Role::Assistant;
        }
    }
    req.system.clear();
    let body = build_body(&req, FIVE);
    let marked: Vec<bool> = body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["content"][0].get("cache_control").is_some())
        .collect();
    assert_eq!(marked, [false, false, true, true, true, true]);
}

#[test]
fn an_uncached_route_has_no_breakpoints() {
    let body = build_body(
        &request(vec![Message::user("a"), Message::assistant("b", vec![])]),
        None,
    );
    assert!(!body.to_string().contains("cache_control"), "{body}");
    assert_eq!(
        body["system"],
        json!([{"type":"text","text":"You are Hermes."}])
    );
}

mod network {
    use std::sync::Mutex;
    use std::time::Duration;

    use tokio_util::sync::CancellationToken;

    use super::*;
    use crate::config::schema::ModelConfig;
    use crate::config::schema::ProviderConfig;
    use crate::providers::StreamDelta;
    use crate::providers::registry;
    use crate::test_server::Response;
    use crate::test_server::ScriptedServer;
    use crate::util::http;
    use pretty_assertions::assert_eq;

    fn sse(events: &[serde_json::Value]) -> String {
        events
            .iter()
            .map(|e| format!("event: {}\ndata: {e}\n\n", e["type"].as_str().unwrap()))
            .collect()
    }

    #[tokio::test]
    async fn sends_anthropic_headers_and_retries_overloaded_stream() {
        let overloaded = sse(&[
            json!({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}),
        ]);
        let ok = sse(&[
            json!({"type":"message_start","message":{"usage":{"input_tokens":3}}}),
            json!({"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}),
            json!({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi!"}}),
            json!({"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":2}}),
            json!({"type":"message_stop"}),
        ]);
        let server =
            ScriptedServer::start(vec![Response::raw_sse(&overloaded), Response::raw_sse(&ok)])
                .await;
        let model = ModelConfig {
            default: "claude".into(),
            provider: "anthropic".into(),
            base_url: server.root_url(),
            ..ModelConfig::default()
        };
        let env = |k: &str| (k == "ANTHROPIC_API_KEY").then(|| "sk-ant-test".to_string());
        let mut resolved = registry::resolve(&model, &ProviderConfig::default(), &env).unwrap();
        resolved.retry.base_delay = Duration::from_millis(5);
        let p = crate::providers::build(&resolved, http::build_client().unwrap());
        let deltas = Mutex::new(Vec::new());
        let sink = |d: StreamDelta| deltas.lock().unwrap().push(d);
        let c = p
            .complete(
                &request(vec![Message::user("hello")]),
                &sink,
                &CancellationToken::new(),
            )
            .await
            .unwrap();
        assert_eq!(c.text, "Hi!");
        assert_eq!((c.usage.input_tokens, c.usage.output_tokens), (3, 2));
        assert_eq!(
            deltas.into_inner().unwrap(),
            vec![StreamDelta::Text("Hi!".into())]
        );
        let reqs = server.requests();
        assert_eq!(reqs.len(), 2);
        let head = reqs[0].head.to_lowercase();
        assert!(head.starts_with("post /v1/messages"), "{head}");
        assert!(
            head.contains("x-api-key: sk-ant-test")
                && head.contains("anthropic-version: 2023-06-01")
        );
        assert!(!head.contains("authorization"));
    }

    #[tokio::test]
    async fn image_data_is_on_the_wire() {
        let ok = sse(&[
            json!({"type":"message_start","message":{"usage":{"input_tokens":3}}}),
            json!({"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}),
            json!({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"A cat."}}),
            json!({"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":2}}),
            json!({"type":"message_stop"}),
        ]);
        let server = ScriptedServer::start(vec![Response::raw_sse(&ok)]).await;
        let model = ModelConfig {
            default: "claude".into(),
            provider: "anthropic".into(),
            base_url: server.root_url(),
            ..ModelConfig::default()
        };
        let env = |k: &str| (k == "ANTHROPIC_API_KEY").then(|| "sk-ant-test".to_string());
        let resolved = registry::resolve(&model, &ProviderConfig::default(), &env).unwrap();
        let p = crate::providers::build(&resolved, http::build_client().unwrap());
        let sink = |_: StreamDelta| {};
        let req = request(vec![with_images(
            Message::user("what is this?"),
            vec![png("/i/a.png", "iVBORw0KGgo+/A==")],
        )]);
        let c = p.complete(&req, &sink, &CancellationToken::new()).await;
        assert_eq!(c.unwrap().text, "A cat.");
        let body = server.requests()[0].body_text();
        assert!(
            body.contains(r#""data":"iVBORw0KGgo+/A==""#)
                && body.contains(r#""media_type":"image/png""#),
            "{body}"
        );
        assert!(!body.contains("/i/a.png"), "the local path is not sent");
    }
}
