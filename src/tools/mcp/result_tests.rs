#![allow(clippy::unwrap_used, clippy::expect_used)]

use rmcp::model::CallToolResult;

use super::*;
use crate::tools::ToolOutcome;

/// A 1×1 PNG.
const PIXEL: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

fn result(json: serde_json::Value) -> CallToolResult {
    serde_json::from_value(json).unwrap()
}

fn render(json: serde_json::Value, dir: &std::path::Path, max: usize) -> ToolOutput {
    let sink = MediaSink {
        dir,
        prefix: "mcp_srv_tool",
    };
    render_call_result(&result(json), &sink, "mcp_srv_read_resource", max)
}

#[test]
fn text_blocks_join_with_newlines() {
    let dir = tempfile::tempdir().unwrap();
    let out = render(
        serde_json::json!({"content": [{"type": "text", "text": "one"}, {"type": "text", "text": "two"}]}),
        dir.path(),
        50_000,
    );
    assert_eq!(out.outcome, ToolOutcome::Ok);
    assert_eq!(out.content, "one\ntwo");
    assert!(out.images.is_empty());
}

#[test]
fn errors_become_tool_errors_with_a_fallback_text() {
    let dir = tempfile::tempdir().unwrap();
    let out = render(
        serde_json::json!({"content": [{"type": "text", "text": "no such file"}], "isError": true}),
        dir.path(),
        50_000,
    );
    assert_eq!(out.outcome, ToolOutcome::Error);
    assert_eq!(out.content, "no such file");
    let empty = render(
        serde_json::json!({"content": [], "isError": true}),
        dir.path(),
        50_000,
    );
    assert_eq!(empty.outcome, ToolOutcome::Error);
    assert_eq!(empty.content, "MCP tool returned an error");
}

#[test]
fn images_are_saved_and_attached() {
    let dir = tempfile::tempdir().unwrap();
    let out = render(
        serde_json::json!({"content": [{"type": "image", "data": PIXEL, "mimeType": "image/png"}]}),
        dir.path(),
        50_000,
    );
    assert_eq!(out.images.len(), 1);
    let saved = std::fs::read(&out.images[0]).unwrap();
    assert_eq!(&saved[..4], b"\x89PNG");
    assert!(
        out.content
            .starts_with("[image: image/png, 70 B, saved to "),
        "{}",
        out.content
    );
    assert!(out.images[0].extension().is_some_and(|e| e == "png"));
}

#[test]
fn broken_base64_is_reported_not_fatal() {
    let dir = tempfile::tempdir().unwrap();
    let out = render(
        serde_json::json!({"content": [{"type": "image", "data": "%%%not base64", "mimeType": "image/png"}]}),
        dir.path(),
        50_000,
    );
    assert_eq!(out.outcome, ToolOutcome::Ok);
    assert!(
        out.content.contains("not saved: not valid base64"),
        "{}",
        out.content
    );
    assert!(out.images.is_empty());
}

#[test]
fn structured_content_is_added_unless_a_text_block_repeats_it() {
    let dir = tempfile::tempdir().unwrap();
    let dual = render(
        serde_json::json!({"content": [{"type": "text", "text": "{\"sum\": 3}"}], "structuredContent": {"sum": 3}}),
        dir.path(),
        50_000,
    );
    assert_eq!(dual.content, "{\"sum\": 3}");
    let only = render(
        serde_json::json!({"content": [{"type": "text", "text": "done"}], "structuredContent": {"sum": 3}}),
        dir.path(),
        50_000,
    );
    assert_eq!(only.content, "done\nstructuredContent: {\"sum\":3}");
    // server-filesystem wraps its text as {"content": text}: nothing new, not repeated.
    let wrapped = render(
        serde_json::json!({"content": [{"type": "text", "text": "file body\n"}], "structuredContent": {"content": "file body\n"}}),
        dir.path(),
        50_000,
    );
    assert_eq!(wrapped.content, "file body\n");
}

#[test]
fn resource_links_and_embedded_resources_are_described() {
    let dir = tempfile::tempdir().unwrap();
    let out = render(
        serde_json::json!({"content": [
            {"type": "resource_link", "uri": "demo://r/1", "name": "Resource 1", "mimeType": "text/plain"},
            {"type": "resource", "resource": {"uri": "demo://r/2", "text": "inline text"}},
            {"type": "resource", "resource": {"uri": "demo://r/3", "blob": PIXEL, "mimeType": "image/png"}}
        ]}),
        dir.path(),
        50_000,
    );
    let lines: Vec<&str> = out.content.lines().collect();
    assert_eq!(
        lines[0],
        "[MCP resource link: uri=demo://r/1, name=Resource 1, mimeType=text/plain — read it with mcp_srv_read_resource]"
    );
    assert_eq!(lines[1], "inline text");
    assert!(
        lines[2].starts_with("[MCP resource demo://r/3 saved to "),
        "{}",
        lines[2]
    );
    assert!(lines[2].ends_with("(image/png, 70 B) — read it with read_file or terminal tools]"));
}

#[test]
fn long_output_is_capped() {
    let dir = tempfile::tempdir().unwrap();
    let big = "x".repeat(200_000);
    let out = render(
        serde_json::json!({"content": [{"type": "text", "text": big}]}),
        dir.path(),
        10_000,
    );
    assert!(out.content.len() < 11_000, "{}", out.content.len());
    assert!(out.content.contains("omitted"), "the cap says so");
}
