//! `web_search` and `web_extract` as a user gets them: the real binary (`hermes -z --json`)
//! against the scripted provider, which calls the tools; the pages come from the loopback site
//! (`support/web_site.rs`) and search results from the DuckDuckGo fake, so nothing leaves
//! 127.0.0.1. The tool result the model receives (recorded by the scripted server) is checked,
//! as are the long-page file under `HERMES_HOME/cache/web/` and the SSRF refusals.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use serde_json::Value;
use serde_json::json;

use crate::support;
use support::Response;
use support::ScriptedCall;
use support::ScriptedServer;
use support::cli_home::CliHome;
use support::web_site::WebSite;

/// Runs `hermes -z` with the scripted provider calling `tool` with `args`, and returns the
/// tool result the model got and the home it ran in.
async fn call(
    tool: &str,
    args: Value,
    extra_yaml: &str,
    env: &[(&str, String)],
) -> (Value, CliHome) {
    let server = ScriptedServer::start_on_own_thread([
        Response::tool_calls([ScriptedCall::new("w1", tool, &args.to_string())]),
        Response::text(["done"]),
    ]);
    let home = CliHome::new(&format!("{}{extra_yaml}", server.config_yaml()));
    let mut command = home.command(&["-z", "read the web", "--json"]);
    for (key, value) in env {
        command.env(key, value);
    }
    let output = tokio::task::spawn_blocking(move || command.output().unwrap())
        .await
        .unwrap();
    assert!(
        output.status.success(),
        "hermes failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let requests = server.requests();
    let result = requests
        .get(1)
        .map(|r| r.tool_results().join("\n"))
        .unwrap_or_default();
    let parsed = serde_json::from_str(&result).unwrap_or_else(|e| panic!("{e}: {result}"));
    (parsed, home)
}

const ALLOW_PRIVATE: &str = "web:\n  allow_private_urls: true\n";

#[tokio::test(flavor = "multi_thread")]
async fn extract_reads_pages_keyless_and_reports_each_failure() {
    let site = WebSite::start().await;
    let urls = [
        site.url("/article"),
        site.url("/report.pdf"),
        site.url("/ru"),
        site.url("/forbidden"),
        site.url("/image.png"),
    ];
    let (result, _home) = call("web_extract", json!({"urls": urls}), ALLOW_PRIVATE, &[]).await;
    let results = result["results"].as_array().unwrap();
    assert_eq!(results.len(), 5);
    let article = results[0]["content"].as_str().unwrap();
    assert!(article.contains("A crew of sixty abseilers"), "{article}");
    assert!(
        !article.to_lowercase().contains("subscribe"),
        "boilerplate is gone: {article}"
    );
    assert!(
        results[1]["content"]
            .as_str()
            .unwrap()
            .contains("1,204 widgets")
    );
    assert!(
        results[2]["content"].as_str().unwrap().contains("Байкал"),
        "windows-1251 decoded"
    );
    assert!(
        results[3]["error"].as_str().unwrap().contains("403"),
        "{}",
        results[3]
    );
    assert!(
        results[4]["error"]
            .as_str()
            .unwrap()
            .contains("not a text document"),
        "{}",
        results[4]
    );
    assert!(result["notice"].as_str().unwrap().contains("untrusted"));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_long_page_is_cut_and_saved_under_the_cache() {
    let site = WebSite::start().await;
    let args = json!({"urls": [site.url("/article")], "char_limit": 2000});
    let (result, home) = call("web_extract", args, ALLOW_PRIVATE, &[]).await;
    let content = result["results"][0]["content"].as_str().unwrap();
    assert!(content.contains("[TRUNCATED]"), "{content}");
    let saved = content
        .lines()
        .find_map(|l| l.strip_prefix("Full text saved to: "))
        .unwrap();
    assert!(
        saved.starts_with(&home.home().join("cache/web").display().to_string()),
        "{saved}"
    );
    let full = std::fs::read_to_string(saved).unwrap();
    assert!(full.chars().count() > 2000);
    assert!(content.contains(&format!("read_file path=\"{saved}\"")));
}

#[tokio::test(flavor = "multi_thread")]
async fn private_addresses_and_redirects_into_them_are_refused_by_default() {
    let site = WebSite::start().await;
    let urls = [
        site.url("/article"),
        "http://169.254.169.254/latest/meta-data/".to_string(),
    ];
    let (result, _home) = call("web_extract", json!({"urls": urls}), "", &[]).await;
    let first = result["results"][0]["error"].as_str().unwrap();
    assert!(
        first.contains("127.0.0.1") && first.contains("web.allow_private_urls"),
        "{first}"
    );
    let metadata = result["results"][1]["error"].as_str().unwrap();
    assert!(metadata.contains("cloud metadata"), "{metadata}");
    assert_eq!(site.hits("/article"), 0, "nothing was requested");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_redirect_to_a_private_address_is_refused_at_that_hop() {
    let site = WebSite::start().await;
    // Through the binary the site itself is private, so the hop check is shown with a
    // redirect to a metadata host, which stays refused even with private addresses allowed
    // (suite::web_fetch shows the loopback hops with the site trusted).
    let args = json!({"urls": [site.url("/redirect/metadata")]});
    let (result, _home) = call("web_extract", args, ALLOW_PRIVATE, &[]).await;
    let error = result["results"][0]["error"].as_str().unwrap();
    assert!(error.contains("metadata"), "{error}");
}

#[tokio::test(flavor = "multi_thread")]
async fn search_works_with_no_key_through_duckduckgo() {
    use hermes_fakes::FakeService;
    use hermes_fakes::Kind;
    let fake = FakeService::start(Kind::Ddgs).await;
    let (result, _home) = call(
        "web_search",
        json!({"query": "rust async runtime", "limit": 3}),
        "",
        &[("DDGS_BASE_URL", fake.base_url())],
    )
    .await;
    assert_eq!(result["success"], true, "{result}");
    let hits = result["data"]["web"].as_array().unwrap();
    assert_eq!(hits.len(), 3);
    assert_eq!(hits[0]["url"], "https://tokio.rs/");
    assert_eq!(hits[0]["position"], 1);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_url_with_a_secret_never_leaves_and_the_model_is_told_why() {
    let site = WebSite::start().await;
    // A key the user configured (no vendor shape) and a credential-named parameter.
    let known = format!("{}?q=Zq9xK2mP7vR4tL8wN3bH", site.url("/article"));
    let named = format!("{}?access_token=opaque-value-1234", site.url("/docs"));
    let server = ScriptedServer::start_on_own_thread([
        Response::tool_calls([ScriptedCall::new(
            "w1",
            "web_extract",
            &json!({"urls": [known, named]}).to_string(),
        )]),
        Response::text(["done"]),
    ]);
    let home = CliHome::new(&format!("{}{ALLOW_PRIVATE}", server.config_yaml()));
    std::fs::write(
        home.home().join(".env"),
        "WIDGET_SERVICE_TOKEN=Zq9xK2mP7vR4tL8wN3bH\n",
    )
    .unwrap();
    let mut command = home.command(&["-z", "read the web", "--json"]);
    let output = tokio::task::spawn_blocking(move || command.output().unwrap())
        .await
        .unwrap();
    assert!(output.status.success());
    let result: Value =
        serde_json::from_str(&server.requests()[1].tool_results().join("\n")).unwrap();
    let first = result["results"][0]["error"].as_str().unwrap();
    assert!(first.contains("API key or token"), "{first}");
    let second = result["results"][1]["error"].as_str().unwrap();
    assert!(
        second.contains("credential-like query parameter (access_token)"),
        "{second}"
    );
}

use support::web_fakes as hermes_fakes;
