use std::sync::Arc;

use serde_json::Value;
use serde_json::json;

use super::*;
use crate::config::WebConfig;
use crate::tools::ToolOutcome;
use crate::tools::test_support::FakeHost;
use crate::tools::test_support::ctx_with;
use crate::web::guard::PrivateAddresses;

#[path = "../../tests/support/web_site.rs"]
mod web_site;

fn tool(home: &std::path::Path, private: PrivateAddresses, config: WebConfig) -> WebExtractTool {
    WebExtractTool::new(Arc::new(WebSettings::new(
        config,
        private,
        home.join("cache/web"),
    )))
}

async fn run(
    tool: &WebExtractTool,
    args: Value,
    dir: &std::path::Path,
) -> (ToolOutput, Value, Vec<String>) {
    let host = Arc::new(FakeHost::default());
    let out = tool.call(args, &ctx_with(dir, Arc::clone(&host))).await;
    let parsed: Value = serde_json::from_str(&out.content).unwrap_or(Value::Null);
    (out, parsed, host.lines())
}

#[tokio::test]
async fn reads_an_article_keyless_in_hermes_shape_with_per_url_progress() {
    let site = web_site::WebSite::start().await;
    let dir = tempfile::tempdir().unwrap();
    let tool = tool(dir.path(), PrivateAddresses::Allowed, WebConfig::default());
    let (out, body, lines) = run(
        &tool,
        json!({"urls": [site.url("/article"), {"url": site.url("/docs")}, 42]}),
        dir.path(),
    )
    .await;
    assert_eq!(out.outcome, ToolOutcome::Ok, "{}", out.content);
    let results = body["results"].as_array().unwrap();
    assert_eq!(results.len(), 3, "input order and count are kept");
    assert_eq!(results[0]["url"], site.url("/article"));
    assert!(results[0]["error"].is_null());
    assert!(!results[0]["title"].as_str().unwrap().is_empty());
    assert!(results[0]["content"].as_str().unwrap().len() > 500);
    assert!(
        results[1]["error"].is_null(),
        "a search-result object's url is read"
    );
    assert!(
        results[2]["error"]
            .as_str()
            .unwrap()
            .contains("Invalid URL item at index 2")
    );
    assert_eq!(body["notice"], UNTRUSTED_NOTICE);
    assert!(lines.iter().any(|l| l.starts_with("reading ")), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("✓ ")), "{lines:?}");
}

#[tokio::test]
async fn private_addresses_are_refused_unless_allowed() {
    let site = web_site::WebSite::start().await;
    let dir = tempfile::tempdir().unwrap();
    let tool = tool(dir.path(), PrivateAddresses::Refused, WebConfig::default());
    let (out, body, _) = run(&tool, json!({"urls": [site.url("/article")]}), dir.path()).await;
    assert_eq!(out.outcome, ToolOutcome::Error);
    let error = body["results"][0]["error"].as_str().unwrap();
    assert!(
        error.contains("127.0.0.1") && error.contains("allow_private_urls"),
        "{error}"
    );
    assert_eq!(
        site.hits("/article"),
        0,
        "the refused page was never requested"
    );
}

#[tokio::test]
async fn a_url_carrying_a_key_is_refused_without_a_request() {
    let site = web_site::WebSite::start().await;
    let dir = tempfile::tempdir().unwrap();
    let tool = tool(dir.path(), PrivateAddresses::Allowed, WebConfig::default());
    let url = format!("{}?q=sk-ant-api03-{}", site.url("/article"), "a".repeat(40));
    let (_, body, _) = run(&tool, json!({"urls": [url]}), dir.path()).await;
    let error = body["results"][0]["error"].as_str().unwrap();
    // Refused before any request (a request would have ended in the site's 404).
    assert!(error.contains("API key or token"), "{error}");
}

#[tokio::test]
async fn a_long_page_is_windowed_and_saved_for_read_file() {
    let site = web_site::WebSite::start().await;
    let dir = tempfile::tempdir().unwrap();
    let tool = tool(dir.path(), PrivateAddresses::Allowed, WebConfig::default());
    let (_, body, _) = run(
        &tool,
        json!({"urls": [site.url("/article")], "char_limit": 2000}),
        dir.path(),
    )
    .await;
    let content = body["results"][0]["content"].as_str().unwrap();
    assert!(content.contains("[TRUNCATED]"), "{content}");
    let saved = content
        .lines()
        .find_map(|l| l.strip_prefix("Full text saved to: "))
        .unwrap();
    assert!(saved.starts_with(&dir.path().join("cache/web").display().to_string()));
    assert!(std::fs::read_to_string(saved).unwrap().len() > content.len() / 2);
}

#[tokio::test]
async fn more_than_five_urls_reads_five_and_says_so() {
    let site = web_site::WebSite::start().await;
    let dir = tempfile::tempdir().unwrap();
    let tool = tool(dir.path(), PrivateAddresses::Allowed, WebConfig::default());
    let urls: Vec<String> = (0..7)
        .map(|i| site.url(&format!("/notes.txt?{i}")))
        .collect();
    let (_, body, _) = run(&tool, json!({"urls": urls}), dir.path()).await;
    assert_eq!(body["results"].as_array().unwrap().len(), 5);
    assert!(
        body["skipped"]
            .as_str()
            .unwrap()
            .starts_with("2 more URL(s)")
    );
}

#[tokio::test]
async fn a_search_only_backend_for_extract_is_hermes_error() {
    let dir = tempfile::tempdir().unwrap();
    let config = WebConfig {
        extract_backend: "ddgs".into(),
        ..WebConfig::default()
    };
    let tool = tool(dir.path(), PrivateAddresses::Allowed, config);
    let (out, body, _) = run(&tool, json!({"urls": ["https://example.com/"]}), dir.path()).await;
    assert_eq!(out.outcome, ToolOutcome::Error);
    assert_eq!(body["success"], false);
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("is a search-only backend")
    );
}

#[test]
fn preview_names_the_urls() {
    let dir = tempfile::tempdir().unwrap();
    let tool = tool(dir.path(), PrivateAddresses::Refused, WebConfig::default());
    assert_eq!(
        tool.preview(&json!({"urls": ["https://a.example/"]})),
        "https://a.example/"
    );
    assert_eq!(
        tool.preview(&json!({"urls": ["https://a.example/", {"href": "https://b.example/"}]})),
        "https://a.example/ (+1 more)"
    );
}
