use pretty_assertions::assert_eq;
use serde_json::json;

use super::*;
use crate::model::ImagePart;
use crate::model::ToolCall;
use crate::model::ToolSchema;
use crate::providers::test_images::png;
use crate::providers::test_images::with_images;

fn call(id: &str, name: &str, args: &str) -> ToolCall {
    ToolCall {
        id: id.into(),
        name: name.into(),
        arguments: args.into(),
    }
}

#[test]
fn url_encodes_the_model_id_like_the_sdks() {
    assert_eq!(
        converse_url(
            "https://bedrock-runtime.us-east-1.amazonaws.com/",
            "us.anthropic.claude-sonnet-4-20250514-v1:0"
        ),
        "https://bedrock-runtime.us-east-1.amazonaws.com/model/us.anthropic.claude-sonnet-4-20250514-v1%3A0/converse-stream"
    );
    assert_eq!(
        converse_url(
            "http://127.0.0.1:9",
            "arn:aws:bedrock:us-east-1:123:inference-profile/x"
        ),
        "http://127.0.0.1:9/model/arn%3Aaws%3Abedrock%3Aus-east-1%3A123%3Ainference-profile%2Fx/converse-stream"
    );
}

#[test]
fn body_in_converse_format() {
    let a = call("tooluse_a", "read_file", "{\"path\":\"a\"}");
    let b = call("tooluse_b", "terminal", "not json");
    let req = ChatRequest {
        model: "amazon.nova-pro-v1:0".into(),
        system: "You are Hermes.".into(),
        messages: vec![
            Message::user("hi"),
            Message::assistant("", vec![a.clone(), b.clone()]),
            Message::tool_result(&a, "alpha"),
            Message::tool_result(&b, ""),
        ],
        tools: vec![ToolSchema {
            name: "read_file".into(),
            description: "Read a file".into(),
            parameters: json!({"type":"object"}),
        }],
        max_tokens: None,
    };
    assert_eq!(
        build_body(&req),
        json!({
            "messages": [
                {"role":"user","content":[{"text":"hi"}]},
                {"role":"assistant","content":[
                    {"toolUse":{"toolUseId":"tooluse_a","name":"read_file","input":{"path":"a"}}},
                    {"toolUse":{"toolUseId":"tooluse_b","name":"terminal","input":{"raw_arguments":"not json"}}}]},
                {"role":"user","content":[
                    {"toolResult":{"toolUseId":"tooluse_a","content":[{"text":"alpha"}]}},
                    {"toolResult":{"toolUseId":"tooluse_b","content":[{"text":"(empty)"}]}}]},
            ],
            "system": [{"text":"You are Hermes."}],
            "inferenceConfig": {"maxTokens": 4096},
            "toolConfig": {"tools": [{"toolSpec":{"name":"read_file","description":"Read a file",
                "inputSchema":{"json":{"type":"object"}}}}]},
        })
    );
    let bare = ChatRequest {
        system: " ".into(),
        tools: vec![],
        max_tokens: Some(77),
        ..req
    };
    let body = build_body(&bare);
    assert!(body.get("system").is_none() && body.get("toolConfig").is_none());
    assert_eq!(body["inferenceConfig"]["maxTokens"], 77);
}

#[test]
fn alternation_is_kept_and_blank_text_never_sent() {
    let history = vec![
        Message::assistant("I start", vec![]),
        Message::user("  "),
        Message::user("two"),
        Message::assistant("  ", vec![]),
    ];
    assert_eq!(
        convert_history(&history),
        vec![
            json!({"role":"user","content":[{"text":"(empty)"}]}),
            json!({"role":"assistant","content":[{"text":"I start"}]}),
            json!({"role":"user","content":[{"text":"(empty)"},{"text":"two"}]}),
            json!({"role":"assistant","content":[{"text":"(empty)"}]}),
            json!({"role":"user","content":[{"text":"(empty)"}]}),
        ]
    );
}

#[test]
fn images_go_first_in_user_turns_and_after_the_text_in_tool_results() {
    let c = call("t1", "vision_analyze", "{}");
    let mut jpeg = png("/i/b.jpg", "BBBB");
    if let Some(payload) = jpeg.payload.as_mut() {
        std::sync::Arc::make_mut(payload).media_type = "image/jpeg".into();
    }
    let history = vec![
        with_images(Message::user("look"), vec![png("/i/a.png", "AAAA")]),
        Message::assistant("", vec![c.clone()]),
        with_images(
            Message::tool_result(&c, "loaded"),
            vec![jpeg, ImagePart::new("/i/gone.png")],
        ),
    ];
    assert_eq!(
        convert_history(&history),
        vec![
            json!({"role":"user","content":[
                {"image":{"format":"png","source":{"bytes":"AAAA"}}},{"text":"look"}]}),
            json!({"role":"assistant","content":[
                {"toolUse":{"toolUseId":"t1","name":"vision_analyze","input":{}}}]}),
            json!({"role":"user","content":[{"toolResult":{"toolUseId":"t1","content":[
                {"text":"loaded"},
                {"image":{"format":"jpeg","source":{"bytes":"BBBB"}}},
                {"text":"[image unavailable: gone.png]"}]}}]}),
        ]
    );
}
