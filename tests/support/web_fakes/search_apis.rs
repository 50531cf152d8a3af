//! The search-only JSON APIs: SearXNG (`GET /search?q=&format=json`, no key) and Brave
//! (`GET /res/v1/web/search?q=&count=`, `X-Subscription-Token`). Response shapes are the
//! services' documented ones, trimmed to a few results.

use serde_json::json;

use super::FAKE_KEY;
use super::RawRequest;
use super::Reply;
use super::expect_header;
use super::expect_route;
use super::query;

pub(super) fn searxng(request: &RawRequest) -> Reply {
    if let Err(reply) = expect_route(request, "GET", "/search") {
        return reply;
    }
    let (_, params) = query(request);
    if params.get("format").map(String::as_str) != Some("json") {
        // Without format=json SearXNG answers with its HTML results page.
        return Reply::html(
            200,
            "<!DOCTYPE html><html><body><div id=\"results\"></div></body></html>",
        );
    }
    let Some(q) = params.get("q").filter(|q| !q.trim().is_empty()) else {
        return Reply::reject("q is missing");
    };
    if params.get("pageno").map(String::as_str) != Some("1") {
        return Reply::reject(format!(
            "pageno: expected 1, got {:?}",
            params.get("pageno")
        ));
    }
    // Scores are deliberately out of rank order: the client sorts by score.
    Reply::json(
        200,
        &json!({
            "query": q,
            "number_of_results": 0,
            "results": [
                {
                    "url": "https://doc.rust-lang.org/book/",
                    "title": "The Rust Programming Language",
                    "content": "by Steve Klabnik, Carol Nichols, and Chris Krycho.",
                    "engine": "duckduckgo",
                    "parsed_url": ["https", "doc.rust-lang.org", "/book/", "", "", ""],
                    "template": "default.html",
                    "engines": ["duckduckgo", "brave"],
                    "positions": [2, 3],
                    "publishedDate": null,
                    "thumbnail": "",
                    "score": 1.25,
                    "category": "general"
                },
                {
                    "url": "https://www.rust-lang.org/",
                    "title": "Rust Programming Language",
                    "content": "A language empowering everyone to build reliable and efficient software.",
                    "engine": "google",
                    "parsed_url": ["https", "www.rust-lang.org", "/", "", "", ""],
                    "template": "default.html",
                    "engines": ["google", "duckduckgo", "brave"],
                    "positions": [1, 1, 1],
                    "publishedDate": null,
                    "score": 9.0,
                    "category": "general"
                },
                {
                    "url": "https://en.wikipedia.org/wiki/Rust_(programming_language)",
                    "title": "Rust (programming language) - Wikipedia",
                    "content": "Rust is a general-purpose programming language emphasizing performance, type safety, and concurrency.",
                    "engine": "wikipedia",
                    "parsed_url": ["https", "en.wikipedia.org", "/wiki/Rust_(programming_language)", "", "", ""],
                    "template": "default.html",
                    "engines": ["wikipedia"],
                    "positions": [1],
                    "score": 3.5,
                    "category": "general"
                }
            ],
            "answers": [],
            "corrections": [],
            "infoboxes": [],
            "suggestions": ["rust language", "rust game"],
            "unresponsive_engines": [["bing", "timeout"]]
        }),
    )
}

pub(super) fn brave(request: &RawRequest) -> Reply {
    if let Err(reply) = expect_route(request, "GET", "/res/v1/web/search") {
        return reply;
    }
    if request
        .headers
        .get("x-subscription-token")
        .map(String::as_str)
        != Some(FAKE_KEY)
    {
        // Brave answers a bad or missing token with 422 SUBSCRIPTION_TOKEN_INVALID.
        return Reply::json(
            422,
            &json!({
                "type": "ErrorResponse",
                "error": {
                    "id": "c3e1f0a2-9b8d-4c7e-a6f5-1d2e3f4a5b6c",
                    "status": 422,
                    "code": "SUBSCRIPTION_TOKEN_INVALID",
                    "detail": "The provided subscription token is invalid.",
                    "meta": { "component": "authentication" }
                },
                "time": 1_736_400_000
            }),
        );
    }
    if let Err(reply) = expect_header(request, "accept", "application/json") {
        return reply;
    }
    let (_, params) = query(request);
    let Some(q) = params.get("q").filter(|q| !q.trim().is_empty()) else {
        return Reply::reject("q is missing");
    };
    let count: u64 = match params.get("count").map(|c| c.parse()) {
        Some(Ok(c)) if (1..=20).contains(&c) => c,
        other => {
            return Reply::json(
                422,
                &json!({ "fake_error": format!("count must be 1..=20, got {other:?}") }),
            );
        }
    };
    let results: Vec<_> = (1..=count.min(3))
        .map(|i| {
            json!({
                "title": format!("Brave result {i} for {q}"),
                "url": format!("https://example.com/brave/{i}"),
                "is_source_local": false,
                "is_source_both": false,
                "description": format!("The <strong>{q}</strong> page number {i}."),
                "page_age": "2024-11-02T08:15:00",
                "profile": { "name": "Example", "url": "https://example.com", "long_name": "example.com", "img": "https://imgs.search.brave.com/x.png" },
                "language": "en",
                "family_friendly": true,
                "type": "search_result",
                "subtype": "generic",
                "is_live": false,
                "meta_url": { "scheme": "https", "netloc": "example.com", "hostname": "example.com", "favicon": "https://imgs.search.brave.com/f.png", "path": format!("› brave › {i}") }
            })
        })
        .collect();
    Reply::json(
        200,
        &json!({
            "query": { "original": q, "show_strict_warning": false, "is_navigational": false, "is_news_breaking": false, "spellcheck_off": true, "country": "us", "bad_results": false, "should_fallback": false, "postal_code": "", "city": "", "header_country": "", "more_results_available": true, "state": "" },
            "mixed": { "type": "mixed", "main": [{ "type": "web", "index": 0, "all": false }], "top": [], "side": [] },
            "type": "search",
            "web": { "type": "search", "results": results, "family_friendly": true }
        }),
    )
}
