use serde_json::json;

use super::*;
use crate::tools::ToolOutcome;
use crate::tools::test_support::ctx;

#[tokio::test]
async fn creates_parents_and_reports_size() {
    let dir = tempfile::tempdir().unwrap();
    let c = ctx(dir.path());
    let out = WriteFileTool
        .call(json!({"path": "a/b/c.txt", "content": "one\ntwo\n"}), &c)
        .await;
    assert_eq!(out.outcome, ToolOutcome::Ok, "{}", out.content);
    assert!(out.content.starts_with("Created "), "{}", out.content);
    assert!(
        out.content.ends_with("wrote 8 bytes (2 lines)"),
        "{}",
        out.content
    );
    let path = dir.path().join("a/b/c.txt");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "one\ntwo\n");
    let out = WriteFileTool
        .call(json!({"path": path.to_str().unwrap(), "content": "x"}), &c)
        .await;
    assert!(out.content.starts_with("Overwrote "), "{}", out.content);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "x");
}

#[tokio::test]
async fn refuses_directories_and_bad_args() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("d")).unwrap();
    let c = ctx(dir.path());
    let out = WriteFileTool
        .call(json!({"path": "d", "content": "x"}), &c)
        .await;
    assert_eq!(out.outcome, ToolOutcome::Error);
    assert!(out.content.contains("is a directory"), "{}", out.content);
    let out = WriteFileTool.call(json!({"path": "f.txt"}), &c).await;
    assert_eq!(out.outcome, ToolOutcome::Error);
    assert!(out.content.contains("content"), "{}", out.content);
}

#[tokio::test]
async fn a_refused_write_creates_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = ctx(dir.path());
    c.policy = std::sync::Arc::new(crate::tools::test_support::RefuseWrites);
    let out = WriteFileTool
        .call(json!({"path": "new/file.txt", "content": "x"}), &c)
        .await;
    assert_eq!(out.outcome, ToolOutcome::Denied);
    assert!(
        out.content.contains("write_file may not write"),
        "{}",
        out.content
    );
    assert!(
        !dir.path().join("new").exists(),
        "not even the parent directory"
    );
}
