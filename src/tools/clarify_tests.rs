use std::sync::Arc;
use std::time::Duration;

use serde_json::json;

use super::*;
use crate::tools::ToolOutcome;
use crate::tools::test_support::FakeHost;
use crate::tools::test_support::ctx_with;

#[tokio::test]
async fn returns_the_answer_and_passes_choices() {
    let dir = tempfile::tempdir().unwrap();
    let host = Arc::new(FakeHost::answering(ClarifyAnswer::Text("blue".into())));
    let c = ctx_with(dir.path(), Arc::clone(&host));
    let out = ClarifyTool
        .call(
            json!({"question": "Which colour?", "choices": ["red", " blue ", ""]}),
            &c,
        )
        .await;
    assert_eq!(out.outcome, ToolOutcome::Ok);
    assert_eq!(out.content, "The user answered: blue");
    let asked = host.questions.lock().unwrap().clone();
    assert_eq!(
        asked,
        vec![(
            "Which colour?".to_string(),
            vec!["red".to_string(), "blue".to_string()]
        )]
    );
}

#[tokio::test]
async fn caps_choices_at_four() {
    let dir = tempfile::tempdir().unwrap();
    let host = Arc::new(FakeHost::answering(ClarifyAnswer::Text("a".into())));
    let c = ctx_with(dir.path(), Arc::clone(&host));
    let out = ClarifyTool
        .call(
            json!({"question": "q", "choices": ["a", "b", "c", "d", "e", "f"]}),
            &c,
        )
        .await;
    assert_eq!(host.questions.lock().unwrap()[0].1.len(), 4);
    assert!(out.content.contains("2 dropped"), "{}", out.content);
}

#[tokio::test]
async fn declined_is_a_normal_result() {
    let dir = tempfile::tempdir().unwrap();
    let c = ctx_with(
        dir.path(),
        Arc::new(FakeHost::answering(ClarifyAnswer::Declined)),
    );
    let out = ClarifyTool.call(json!({"question": "q"}), &c).await;
    assert_eq!(out.outcome, ToolOutcome::Ok);
    assert!(out.content.contains("declined"), "{}", out.content);
    let out = ClarifyTool.call(json!({"question": "  "}), &c).await;
    assert_eq!(out.outcome, ToolOutcome::Error);
}

#[tokio::test]
async fn cancellation_ends_the_wait() {
    let dir = tempfile::tempdir().unwrap();
    let c = ctx_with(dir.path(), Arc::new(FakeHost::default())); // never answers
    let cancel = c.cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(50)).await;
        cancel.cancel();
    });
    let out = tokio::time::timeout(
        Duration::from_secs(2),
        ClarifyTool.call(json!({"question": "q"}), &c),
    )
    .await
    .unwrap();
    assert_eq!(out.outcome, ToolOutcome::Cancelled);
    assert_eq!(ClarifyTool.concurrency(), Concurrency::Exclusive);
}
