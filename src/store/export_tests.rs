use crate::providers::Message;
use crate::providers::ToolCall;
use crate::store::StoreError;
use crate::store::StoredMessage;
use crate::store::UsageTotals;
use crate::store::test_support::new_session;
use crate::store::test_support::temp_store;

fn setup() -> (tempfile::TempDir, crate::store::SessionStore) {
    let (dir, store) = temp_store();
    store.create_session(&new_session("s")).unwrap();
    store.set_title("s", "Export me").unwrap();
    let call = ToolCall {
        id: "c1".into(),
        name: "terminal".into(),
        arguments: r#"{"command":"echo ```"}"#.into(),
    };
    for m in [
        Message::user("run echo"),
        Message::assistant("Running.", vec![call.clone()]),
        Message::tool_result(&call, "```\n"),
        Message::assistant("Done.", vec![]),
    ] {
        store
            .append_message("s", &StoredMessage::from_message(&m))
            .unwrap();
    }
    store
        .update_usage(
            "s",
            &UsageTotals {
                input: 10,
                output: 5,
                cost_usd: Some(0.5),
                ..UsageTotals::default()
            },
        )
        .unwrap();
    (dir, store)
}

#[test]
fn markdown_has_metadata_messages_and_safe_fences() {
    let (_dir, store) = setup();
    let md = store.export_markdown("s").unwrap();
    assert!(md.starts_with("# Export me\n"), "{md}");
    assert!(md.contains("- id: `s`"), "{md}");
    assert!(md.contains("tokens: 10 in / 5 out, cost: $0.5000"), "{md}");
    assert!(md.contains("## user"), "{md}");
    assert!(md.contains("run echo"), "{md}");
    assert!(md.contains("**→ terminal**"), "{md}");
    assert!(md.contains("## tool (terminal)"), "{md}");
    // Content with a ``` run is fenced with a longer fence.
    assert!(md.contains("````\n```\n````"), "{md}");
    assert!(md.trim_end().ends_with("Done."), "{md}");
}

#[test]
fn json_has_session_and_openai_shaped_messages() {
    let (_dir, store) = setup();
    let v = store.export_json("s").unwrap();
    assert_eq!(v["session"]["title"], "Export me");
    assert_eq!(v["session"]["input_tokens"], 10);
    let messages = v["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 4);
    assert_eq!(messages[1]["tool_calls"][0]["function"]["name"], "terminal");
    assert_eq!(messages[2]["tool_call_id"], "c1");
    assert!(messages[0].get("tool_calls").is_none());
    assert!(matches!(
        store.export_json("missing"),
        Err(StoreError::NotFound(_))
    ));
}
