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
fn threshold_follows_hermes_for_large_and_small_windows() {
    let s = CompressionSettings::default();
    // A large window keeps the configured 50% of the input budget.
    assert_eq!(threshold_tokens(&s, 1_000_000, None), Some(500_000));
    assert_eq!(
        threshold_tokens(&s, 1_000_000, Some(200_000)),
        Some(400_000)
    );
    // Under 512K the trigger is raised to 75%.
    assert_eq!(threshold_tokens(&s, 200_000, None), Some(150_000));
    let high = CompressionSettings {
        threshold: 0.9,
        ..s
    };
    assert_eq!(threshold_tokens(&high, 200_000, None), Some(180_000));
    // The 64K floor; at or above the budget it becomes 85% of it.
    assert_eq!(threshold_tokens(&s, 80_000, None), Some(64_000));
    assert_eq!(threshold_tokens(&s, 64_000, None), Some(54_400));
    assert_eq!(threshold_tokens(&s, 8_192, None), Some(6_963));
    let off = CompressionSettings {
        enabled: Enabled::No,
        ..s
    };
    assert_eq!(threshold_tokens(&off, 200_000, None), None);
    assert_eq!(threshold_tokens(&s, 0, None), None);
    assert!(over_threshold(150_001, Some(150_000)));
    assert!(!over_threshold(150_000, Some(150_000)));
    assert!(!over_threshold(u64::MAX, None));
}

#[test]
fn an_ineffective_compression_pauses_automatic_ones_until_the_prompt_fits() {
    let guard = CompressionGuard::default();
    let t = Some(1_000);
    assert!(guard.allows_automatic());
    // Over the threshold before any compression: nothing to judge.
    assert_eq!(guard.observe(5_000, t), Verdict::Quiet);
    guard.compressed();
    // A usage-less reply says nothing and keeps the verdict pending.
    assert_eq!(guard.observe(0, t), Verdict::Quiet);
    assert_eq!(guard.observe(1_200, t), Verdict::Ineffective);
    assert!(!guard.allows_automatic());
    // Said once.
    assert_eq!(guard.observe(1_300, t), Verdict::Quiet);
    guard.compressed();
    assert_eq!(guard.observe(1_300, t), Verdict::Quiet);
    // A prompt that fits again (after /new, or fewer tools) re-arms it.
    assert_eq!(guard.observe(900, t), Verdict::Quiet);
    assert!(guard.allows_automatic());
    guard.compressed();
    assert_eq!(guard.observe(800, t), Verdict::Quiet);
    assert!(guard.allows_automatic());
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
