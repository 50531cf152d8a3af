use super::*;
use crate::model::ToolCall;

fn call(id: &str) -> ToolCall {
    ToolCall {
        id: id.into(),
        name: "terminal".into(),
        arguments: "{}".into(),
    }
}

fn conversation(turns: usize) -> Vec<Message> {
    let mut history = Vec::new();
    for i in 0..turns {
        history.push(Message::user(format!("question {i}")));
        let c = call(&format!("c{i}"));
        history.push(Message::assistant("", vec![c.clone()]));
        history.push(Message::tool_result(&c, format!("output {i}")));
        history.push(Message::assistant(format!("answer {i}"), Vec::new()));
    }
    history
}

#[test]
fn threshold_is_a_fraction_of_the_window() {
    let s = CompressionSettings::default();
    assert!(!over_threshold(&s, 50_000, 100_000));
    assert!(over_threshold(&s, 50_001, 100_000));
    let off = CompressionSettings {
        enabled: Enabled::No,
        ..s
    };
    assert!(!over_threshold(&off, 99_000, 100_000));
}

#[test]
fn middle_keeps_head_and_tail_and_never_splits_a_tool_call() {
    let history = conversation(10); // 40 messages
    let s = CompressionSettings::default();
    let (start, end) = middle_range(&history, &s).unwrap();
    assert_eq!(start, 3, "first three kept");
    assert!(history[start].role != Role::Tool);
    assert!(
        history[end].role != Role::Tool,
        "tail starts with its tool call"
    );
    assert!(history.len() - end >= 20);
    let rebuilt = rebuild(&history, (start, end), "SUMMARY");
    assert_eq!(rebuilt.len(), history.len() - (end - start) + 1);
    assert!(rebuilt[start].content.starts_with(SUMMARY_PREFIX));
    assert!(rebuilt[start].content.ends_with("SUMMARY"));
    // Every tool result still follows an assistant message that asked for it.
    for (i, m) in rebuilt.iter().enumerate() {
        if m.role == Role::Tool {
            let id = m.tool_call_id.as_deref().unwrap();
            assert!(
                rebuilt[..i]
                    .iter()
                    .any(|a| a.tool_calls.iter().any(|c| c.id == id)),
                "orphaned tool result {id}"
            );
        }
    }
}

#[test]
fn short_conversations_are_left_alone() {
    assert_eq!(
        middle_range(&conversation(5), &CompressionSettings::default()),
        None
    );
}

#[test]
fn estimate_counts_text_and_calls() {
    let history = vec![Message::user("x".repeat(400))];
    assert_eq!(estimate_tokens(&"s".repeat(400), &history), 200);
}
