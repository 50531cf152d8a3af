use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::Value;
use serde_json::json;

use super::*;
use crate::config::WebConfig;
use crate::tools::ToolEnv;
use crate::tools::ToolOutcome;
use crate::tools::test_support::FakeHost;
use crate::tools::test_support::ctx_with;
use crate::web::backends::fakes::FakeService;
use crate::web::backends::fakes::Fault;
use crate::web::backends::fakes::Kind;
use crate::web::guard::PrivateAddresses;

fn tool(dir: &std::path::Path, config: WebConfig) -> WebSearchTool {
    WebSearchTool::new(Arc::new(WebSettings::new(
        config,
        PrivateAddresses::Refused,
        dir.join("cache/web"),
    )))
}

async fn search(tool: &WebSearchTool, args: Value, env: &[(&str, String)]) -> (ToolOutput, Value) {
    let dir = tempfile::tempdir().unwrap();
    let mut ctx = ctx_with(dir.path(), Arc::new(FakeHost::default()));
    let vars: BTreeMap<String, String> = env
        .iter()
        .map(|(k, v)| ((*k).to_string(), v.clone()))
        .collect();
    ctx.env = Arc::new(ToolEnv::new(vars));
    let out = tool.call(args, &ctx).await;
    let parsed = serde_json::from_str(&out.content).unwrap_or(Value::Null);
    (out, parsed)
}

#[tokio::test]
async fn searches_duckduckgo_by_default_in_hermes_shape() {
    let fake = FakeService::start(Kind::Ddgs).await;
    let dir = tempfile::tempdir().unwrap();
    let (out, body) = search(
        &tool(dir.path(), WebConfig::default()),
        json!({"query": "rust async runtime", "limit": 2}),
        &[("DDGS_BASE_URL", fake.base_url())],
    )
    .await;
    assert_eq!(out.outcome, ToolOutcome::Ok, "{}", out.content);
    assert_eq!(body["success"], true);
    let hits = body["data"]["web"].as_array().unwrap();
    assert_eq!(hits.len(), 2, "limit is honoured");
    assert_eq!(
        hits[0]["url"], "https://tokio.rs/",
        "DuckDuckGo's redirect link is unwrapped"
    );
    assert_eq!(hits[0]["position"], 1);
    assert!(!hits[0]["title"].as_str().unwrap().is_empty());
    assert!(hits[0].get("description").is_some());
}

#[tokio::test]
async fn a_chosen_backend_without_its_key_says_which_variable() {
    let dir = tempfile::tempdir().unwrap();
    let config = WebConfig {
        search_backend: "tavily".into(),
        ..WebConfig::default()
    };
    let (out, body) = search(&tool(dir.path(), config), json!({"query": "x"}), &[]).await;
    assert_eq!(out.outcome, ToolOutcome::Error);
    assert_eq!(body["success"], false);
    assert!(
        body["error"].as_str().unwrap().contains("TAVILY_API_KEY"),
        "{body}"
    );
}

#[tokio::test]
async fn a_rate_limited_service_is_reported_with_its_retry_after() {
    let fake =
        FakeService::start_with(Kind::Brave, Some(Fault::RateLimited { retry_after: 7 })).await;
    let dir = tempfile::tempdir().unwrap();
    let (out, body) = search(
        &tool(dir.path(), WebConfig::default()),
        json!({"query": "x"}),
        &[
            (
                "BRAVE_SEARCH_API_KEY",
                crate::web::backends::fakes::FAKE_KEY.to_string(),
            ),
            ("BRAVE_SEARCH_BASE_URL", fake.base_url()),
        ],
    )
    .await;
    assert_eq!(out.outcome, ToolOutcome::Error);
    let error = body["error"].as_str().unwrap();
    assert!(error.contains("429") && error.contains("7 s"), "{error}");
    assert!(!error.contains(crate::web::backends::fakes::FAKE_KEY));
}

#[tokio::test]
async fn an_empty_query_is_refused_and_limit_is_clamped() {
    let dir = tempfile::tempdir().unwrap();
    let (out, _) = search(
        &tool(dir.path(), WebConfig::default()),
        json!({"query": "  "}),
        &[],
    )
    .await;
    assert_eq!(out.outcome, ToolOutcome::Error);
    assert!(out.content.contains("non-empty"));
}
