use serde_json::json;

use super::*;
use crate::tools::ToolOutcome;
use crate::tools::test_support::ctx;

async fn read(ctx: &ToolContext, args: serde_json::Value) -> ToolOutput {
    ReadFileTool.call(args, ctx).await
}

fn numbered(n: usize) -> String {
    (1..=n).map(|i| format!("line {i}\n")).collect()
}

#[tokio::test]
async fn reads_with_line_numbers() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "alpha\nbeta\r\ngamma").unwrap();
    let out = read(&ctx(dir.path()), json!({"path": "a.txt"})).await;
    assert_eq!(out.outcome, ToolOutcome::Ok);
    assert_eq!(out.content, "     1|alpha\n     2|beta\n     3|gamma");
}

#[tokio::test]
async fn pages_with_offset_and_limit() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), numbered(10)).unwrap();
    let c = ctx(dir.path());
    let out = read(&c, json!({"path": "a.txt", "offset": 3, "limit": 2})).await;
    assert_eq!(
        out.content,
        "     3|line 3\n     4|line 4\n\n[showing lines 3-4 of 10; use offset=5 to continue]"
    );
    let out = read(&c, json!({"path": "a.txt", "offset": "9"})).await;
    assert_eq!(out.content, "     9|line 9\n    10|line 10");
    let out = read(&c, json!({"path": "a.txt", "offset": 11})).await;
    assert_eq!(out.outcome, ToolOutcome::Error);
    assert!(out.content.contains("past the end"), "{}", out.content);
    assert!(out.content.contains("10 lines"), "{}", out.content);
}

#[tokio::test]
async fn default_limit_is_2000_lines() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), numbered(2500)).unwrap();
    let out = read(&ctx(dir.path()), json!({"path": "a.txt"})).await;
    assert!(out.content.contains("  2000|line 2000\n"), "tail missing");
    assert!(!out.content.contains("|line 2001"));
    assert!(
        out.content
            .ends_with("[showing lines 1-2000 of 2500; use offset=2001 to continue]")
    );
}

#[tokio::test]
async fn big_file_returns_first_part_with_paging_hint() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("big.txt"), numbered(5000)).unwrap();
    let mut c = ctx(dir.path());
    c.limits.max_read_bytes = 2048;
    let out = read(&c, json!({"path": "big.txt"})).await;
    assert_eq!(out.outcome, ToolOutcome::Ok);
    assert!(out.content.starts_with("     1|line 1\n"));
    assert!(out.content.contains("(5000 lines)"), "{}", out.content);
    assert!(
        out.content.contains("Use offset and limit"),
        "{}",
        out.content
    );
    assert!(out.content.len() < 2048 + 400, "{}", out.content.len());
    // Paging explicitly reads further in.
    let out = read(&c, json!({"path": "big.txt", "offset": 4000, "limit": 2})).await;
    assert_eq!(
        out.content,
        "  4000|line 4000\n  4001|line 4001\n\n[showing lines 4000-4001 of 5000; use offset=4002 to continue]"
    );
}

#[tokio::test]
async fn refuses_binary_files() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("data.txt"), b"abc\0def").unwrap();
    std::fs::write(dir.path().join("pic.PNG"), b"not really").unwrap();
    let c = ctx(dir.path());
    for name in ["data.txt", "pic.PNG"] {
        let out = read(&c, json!({"path": name})).await;
        assert_eq!(out.outcome, ToolOutcome::Error, "{name}");
        assert!(out.content.contains("binary file"), "{}", out.content);
    }
}

#[tokio::test]
async fn missing_file_suggests_similar_names() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("config.yaml"), "x").unwrap();
    std::fs::write(dir.path().join("unrelated.md"), "x").unwrap();
    let out = read(&ctx(dir.path()), json!({"path": "config.yml"})).await;
    assert_eq!(out.outcome, ToolOutcome::Error);
    assert!(
        out.content.starts_with("file not found: "),
        "{}",
        out.content
    );
    assert!(out.content.contains("config.yaml"), "{}", out.content);
    assert!(!out.content.contains("unrelated.md"), "{}", out.content);
}

#[tokio::test]
async fn directories_empty_files_and_invalid_utf8() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("empty.txt"), "").unwrap();
    std::fs::write(dir.path().join("latin1.txt"), b"caf\xe9\n").unwrap();
    let c = ctx(dir.path());
    let out = read(&c, json!({"path": "."})).await;
    assert!(out.content.contains("is a directory"), "{}", out.content);
    let out = read(&c, json!({"path": "/dev/zero"})).await;
    assert!(
        out.content.contains("not a regular file"),
        "{}",
        out.content
    );
    let out = read(&c, json!({"path": "empty.txt"})).await;
    assert!(out.content.ends_with("is empty."), "{}", out.content);
    let out = read(&c, json!({"path": "latin1.txt"})).await;
    assert_eq!(out.content, "     1|caf\u{fffd}");
}

#[tokio::test]
async fn long_lines_are_cut() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("min.js"), "x".repeat(5000)).unwrap();
    let out = read(&ctx(dir.path()), json!({"path": "min.js"})).await;
    assert!(
        out.content.ends_with("… [line cut: 5000 chars]"),
        "{}",
        &out.content[..30]
    );
    assert!(out.content.len() < 2100);
}
