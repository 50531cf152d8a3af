use serde_json::json;

use super::*;
use crate::tools::ToolOutcome;
use crate::tools::test_support::ctx;

#[tokio::test]
async fn empty_list_then_replace_then_read() {
    let dir = tempfile::tempdir().unwrap();
    let c = ctx(dir.path());
    let out = TodoTool.call(json!({}), &c).await;
    assert_eq!(out.content, "Todo list is empty.");
    let out = TodoTool
        .call(
            json!({"todos": [
                {"id": "1", "content": "plan", "status": "completed"},
                {"id": 2, "content": "build", "status": "in_progress"},
                {"id": "3", "content": "ship"}
            ]}),
            &c,
        )
        .await;
    assert_eq!(out.outcome, ToolOutcome::Ok, "{}", out.content);
    let expected = "Todo list (3 items: 1 pending, 1 in progress, 1 completed, 0 cancelled)\n\
                    [x] 1. plan\n[>] 2. build\n[ ] 3. ship";
    assert_eq!(out.content, expected);
    assert_eq!(TodoTool.call(json!({}), &c).await.content, expected);
    // Replace drops items not given.
    let out = TodoTool
        .call(json!({"todos": [{"id": "9", "content": "other"}]}), &c)
        .await;
    assert!(
        out.content.starts_with("Todo list (1 items"),
        "{}",
        out.content
    );
    assert_eq!(c.session.todos().len(), 1);
}

#[tokio::test]
async fn merge_updates_by_id_and_appends() {
    let dir = tempfile::tempdir().unwrap();
    let c = ctx(dir.path());
    TodoTool
        .call(
            json!({"todos": [{"id": "a", "content": "first"}, {"id": "b", "content": "second"}]}),
            &c,
        )
        .await;
    let out = TodoTool
        .call(
            json!({"merge": true, "todos": [
                {"id": "a", "status": "completed"},
                {"id": "c", "content": "third", "status": "cancelled"}
            ]}),
            &c,
        )
        .await;
    assert_eq!(
        out.content,
        "Todo list (3 items: 1 pending, 0 in progress, 1 completed, 1 cancelled)\n\
         [x] a. first\n[ ] b. second\n[-] c. third"
    );
}

#[tokio::test]
async fn rejects_invalid_items_without_changing_the_list() {
    let dir = tempfile::tempdir().unwrap();
    let c = ctx(dir.path());
    TodoTool
        .call(json!({"todos": [{"id": "a", "content": "keep"}]}), &c)
        .await;
    for bad in [
        json!({"todos": [{"id": "x", "content": "1"}, {"id": "x", "content": "2"}]}),
        json!({"todos": [{"id": "", "content": "no id"}]}),
        json!({"todos": [{"id": "y"}]}),
        json!({"merge": true, "todos": [{"id": "new"}]}),
        json!({"todos": [{"id": "z", "content": "c", "status": "done"}]}),
    ] {
        let out = TodoTool.call(bad.clone(), &c).await;
        assert_eq!(out.outcome, ToolOutcome::Error, "{bad}: {}", out.content);
    }
    assert_eq!(
        c.session.todos(),
        vec![TodoItem {
            id: "a".into(),
            content: "keep".into(),
            status: TodoStatus::Pending
        }]
    );
}
