use crate::model::Message;
use crate::model::ToolCall;
use crate::store::StoreError;
use crate::store::StoredMessage;
use crate::store::test_support::new_session;
use crate::store::test_support::temp_store;
use crate::util::redact::RedactSecrets;
use crate::util::redact::Redactor;

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
    crate::store::test_support::exec(
        &store,
        "UPDATE sessions SET input_tokens = 10, output_tokens = 5, estimated_cost_usd = 0.5 \
         WHERE id = 's'",
    );
    (dir, store)
}

#[test]
fn markdown_has_metadata_messages_and_safe_fences() {
    let (_dir, store) = setup();
    let md = store.export_markdown("s", &Redactor::off()).unwrap();
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
    let v = store.export_json("s", &Redactor::off()).unwrap();
    assert_eq!(v["session"]["title"], "Export me");
    assert_eq!(v["session"]["input_tokens"], 10);
    let messages = v["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 4);
    assert_eq!(messages[1]["tool_calls"][0]["function"]["name"], "terminal");
    assert_eq!(messages[2]["tool_call_id"], "c1");
    assert!(messages[0].get("tool_calls").is_none());
    assert!(matches!(
        store.export_json("missing", &Redactor::default()),
        Err(StoreError::NotFound(_))
    ));
}

/// A session whose messages, tool arguments, tool output and reasoning carry secrets.
fn leaky() -> (tempfile::TempDir, crate::store::SessionStore) {
    let (dir, store) = temp_store();
    store.create_session(&new_session("s")).unwrap();
    store
        .set_title("s", "deploy with ghp_0123456789abcdefghijABCDEFGHIJ1234")
        .unwrap();
    let call = ToolCall {
        id: "c1".into(),
        name: "terminal".into(),
        arguments: r#"{"command":"export OPENAI_API_KEY=sk-proj-AbC123dEf456GhI7"}"#.into(),
    };
    let mut reply = Message::assistant("Setting the key.", vec![call.clone()]);
    reply.reasoning = Some("The user's password: hunter2hunter2".into());
    for m in [
        Message::user("my db is postgres://admin:s3cr3tP4ss@db:5432/app and the .env has MY_VALUE"),
        reply,
        Message::tool_result(
            &call,
            "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA0Z3VS5JJcds3xfn\n",
        ),
        Message::assistant("Done, token my-local-value-1234 stored.", vec![]),
    ] {
        store
            .append_message("s", &StoredMessage::from_message(&m))
            .unwrap();
    }
    (dir, store)
}

const SECRETS: [&str; 6] = [
    "ghp_0123456789",
    "AbC123dEf456GhI7",
    "hunter2hunter2",
    "s3cr3tP4ss",
    "MIIEpAIBAAKCAQEA",
    "my-local-value-1234",
];

#[test]
fn exports_are_redacted_when_the_switch_is_on() {
    let (_dir, store) = leaky();
    let redactor = Redactor::new(RedactSecrets::On, vec!["my-local-value-1234".into()]);
    let md = store.export_markdown("s", &redactor).unwrap();
    let json = store.export_json("s", &redactor).unwrap().to_string();
    for out in [&md, &json] {
        for secret in SECRETS {
            assert!(!out.contains(secret), "{secret} leaked:\n{out}");
        }
    }
    assert!(md.starts_with("# deploy with ghp_***\n"), "{md}");
    assert!(md.contains("OPENAI_API_KEY=***"), "{md}");
    assert!(md.contains("postgres://admin:***@db:5432/app"), "{md}");
    // An unterminated key masks to the end of its own field, not of the document.
    assert!(
        md.contains("-----BEGIN RSA PRIVATE KEY-----\n***\n```"),
        "{md}"
    );
    assert!(md.trim_end().ends_with("Done, token *** stored."), "{md}");
}

#[test]
fn exports_are_verbatim_when_the_switch_is_off() {
    let (_dir, store) = leaky();
    let redactor = Redactor::new(RedactSecrets::Off, vec!["my-local-value-1234".into()]);
    let md = store.export_markdown("s", &redactor).unwrap();
    let json = store.export_json("s", &redactor).unwrap().to_string();
    for out in [&md, &json] {
        for secret in SECRETS {
            assert!(out.contains(secret), "{secret} missing:\n{out}");
        }
    }
}
