use super::*;

#[test]
fn search_results_show_count_titles_and_sites() {
    let output = serde_json::json!({
        "success": true,
        "data": {"web": [
            {"title": "Tokio tutorial", "url": "https://www.tokio.rs/tokio/tutorial", "description": "d", "position": 1},
            {"title": "", "url": "https://docs.rs/tokio", "description": "", "position": 2},
        ]}
    })
    .to_string();
    insta::assert_snapshot!(summarize("web_search", &output).unwrap(), @r"
    2 results
    1. Tokio tutorial — tokio.rs
    2. https://docs.rs/tokio — docs.rs
    ");
}

#[test]
fn extract_results_show_size_cut_and_failures() {
    let long = "head\n\n──────── [TRUNCATED] ────────\nShowing 1,475 chars (head) + 491 chars \
                (tail) of 48,210 total clean characters.";
    let output = serde_json::json!({"results": [
        {"url": "https://example.com/a", "title": "An article", "content": "x".repeat(1234), "error": null},
        {"url": "https://example.com/long", "title": "A long page", "content": long, "error": null},
        {"url": "https://nowhere.invalid/", "title": "", "content": "", "error": "DNS lookup for nowhere.invalid failed: no such host"},
        {"url": "https://example.com/evil", "title": "Evil", "content": "y", "error": null, "warning": "x"},
    ]})
    .to_string();
    insta::assert_snapshot!(summarize("web_extract", &output).unwrap(), @r"
    ✓ example.com · 1,234 chars — An article
    ✓ example.com · 48,210 chars, cut to fit (full text saved) — A long page
    ✗ nowhere.invalid/ — DNS lookup for nowhere.invalid failed: no such host
    ✓ example.com · 1 char ⚠ reads like a prompt injection — Evil
    ");
}

#[test]
fn whole_call_errors_are_shown_as_their_message() {
    let blocked = r#"{"success": false, "error": "Blocked: URL contains what appears to be an API key or token."}"#;
    assert_eq!(
        summarize("web_extract", blocked).as_deref(),
        Some("Blocked: URL contains what appears to be an API key or token.")
    );
    assert_eq!(
        summarize(
            "web_search",
            r#"{"error": "No web search provider configured."}"#
        )
        .as_deref(),
        Some("No web search provider configured.")
    );
}

#[test]
fn other_output_is_left_alone() {
    assert_eq!(summarize("web_extract", "not json"), None);
    assert_eq!(
        summarize("web_extract", r#"{"results": [{"url": "u", "ti"#),
        None
    );
    assert_eq!(summarize("terminal", r#"{"results": []}"#), None);
}
