use super::*;

#[test]
fn synthetic_payloads_fill_tool_fields_only_for_tool_events() {
    let cwd = Path::new("/w");
    let tool = Synthetic::for_event(HookEvent::PreToolCall).payload(HookEvent::PreToolCall, cwd);
    assert_eq!(tool["tool_name"], "terminal");
    assert_eq!(tool["tool_input"], json!({"command": "echo hello"}));
    let llm = Synthetic::for_event(HookEvent::PreLlmCall).payload(HookEvent::PreLlmCall, cwd);
    assert_eq!(llm["tool_name"], Value::Null);
    assert_eq!(llm["extra"]["user_message"], "What is the weather?");
    for event in HookEvent::ALL {
        let p = Synthetic::for_event(event).payload(event, cwd);
        assert_eq!(p["hook_event_name"], event.as_str());
        assert_eq!(p["session_id"], "test-session");
    }
}

#[test]
fn a_payload_file_overrides_top_level_fields_and_extends_extra() {
    let mut s = Synthetic::for_event(HookEvent::PreToolCall);
    let custom = json!({
        "tool_name": "patch",
        "tool_input": {"path": "x"},
        "session_id": "mine",
        "task_id": "override",
        "new": [1],
    });
    let Value::Object(custom) = custom else {
        unreachable!()
    };
    s.merge(custom);
    let p = s.payload(HookEvent::PreToolCall, Path::new("/w"));
    assert_eq!(p["tool_name"], "patch");
    assert_eq!(p["tool_input"], json!({"path": "x"}));
    assert_eq!(p["session_id"], "mine");
    assert_eq!(
        p["extra"],
        json!({"task_id": "override", "tool_call_id": "test-call", "new": [1]})
    );
}
