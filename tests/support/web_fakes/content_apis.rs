//! The search + extract JSON APIs: Tavily (`/search`, `/extract`, `Authorization: Bearer`),
//! Exa (`/search`, `/contents`, `x-api-key`), Firecrawl (`/v2/search`, `/v2/scrape`, and the
//! v1 paths self-hosted instances still serve; `Authorization: Bearer`, optional when
//! self-hosted) and Parallel (`/v1beta/search`, `/v1beta/extract`, `x-api-key` plus the
//! `parallel-beta` header). Extract endpoints know the pages of `known_page`; other URLs fail
//! the way each service reports a failed URL.

use serde_json::Value;
use serde_json::json;

use super::FAKE_KEY;
use super::Kind;
use super::RawRequest;
use super::Reply;
use super::expect_header;
use super::expect_route;
use super::int_field;
use super::json_body;
use super::known_page;
use super::only_fields;
use super::string_field;
use super::strings_field;
use super::unauthorized;

fn bearer_ok(request: &RawRequest) -> bool {
    request.headers.get("authorization").map(String::as_str) == Some(&format!("Bearer {FAKE_KEY}"))
}

fn api_key_ok(request: &RawRequest) -> bool {
    request.headers.get("x-api-key").map(String::as_str) == Some(FAKE_KEY)
}

fn run(f: impl FnOnce() -> Result<Reply, Reply>) -> Reply {
    f().unwrap_or_else(|reply| reply)
}

pub(super) fn tavily(request: &RawRequest) -> Reply {
    run(|| {
        let (path, _) = super::query(request);
        if !bearer_ok(request) {
            return Err(unauthorized(Kind::Tavily));
        }
        if path == "/search" {
            expect_route(request, "POST", "/search")?;
            let body = json_body(request)?;
            only_fields(
                &body,
                &[
                    "query",
                    "max_results",
                    "include_raw_content",
                    "include_images",
                    "search_depth",
                    "topic",
                ],
            )?;
            let query = string_field(&body, "query")?;
            let max = int_field(&body, "max_results", 0..=20)?;
            if body.get("include_raw_content") != Some(&json!(false))
                || body.get("include_images") != Some(&json!(false))
            {
                return Err(Reply::reject(
                    "include_raw_content and include_images must be false",
                ));
            }
            let results: Vec<Value> = (1..=max.min(3))
                .map(|i| {
                    json!({
                        "title": format!("Tavily result {i}"),
                        "url": format!("https://example.com/tavily/{i}"),
                        "content": format!("Snippet {i} about {query}."),
                        "score": 0.9 - (i as f64) / 10.0,
                        "raw_content": null,
                        "favicon": "https://example.com/favicon.ico"
                    })
                })
                .collect();
            return Ok(Reply::json(
                200,
                &json!({
                    "query": query,
                    "follow_up_questions": null,
                    "answer": null,
                    "images": [],
                    "results": results,
                    "response_time": 1.09,
                    "request_id": "123e4567-e89b-12d3-a456-426614174111"
                }),
            ));
        }
        expect_route(request, "POST", "/extract")?;
        let body = json_body(request)?;
        only_fields(
            &body,
            &["urls", "include_images", "extract_depth", "format"],
        )?;
        let urls = strings_field(&body, "urls")?;
        if urls.is_empty() || urls.len() > 20 {
            return Err(Reply::reject("urls must hold 1 to 20 URLs"));
        }
        let (mut results, mut failed) = (Vec::new(), Vec::new());
        for url in urls {
            match known_page(&url) {
                Some((title, text)) => results.push(json!({ "url": url, "title": title, "raw_content": text, "images": [], "favicon": null })),
                None => failed.push(json!({ "url": url, "error": "Failed to fetch url" })),
            }
        }
        Ok(Reply::json(
            200,
            &json!({
                "results": results,
                "failed_results": failed,
                "response_time": 0.02,
                "request_id": "123e4567-e89b-12d3-a456-426614174112"
            }),
        ))
    })
}

pub(super) fn exa(request: &RawRequest) -> Reply {
    run(|| {
        let (path, _) = super::query(request);
        if !api_key_ok(request) {
            return Err(unauthorized(Kind::Exa));
        }
        if path == "/search" {
            expect_route(request, "POST", "/search")?;
            let body = json_body(request)?;
            only_fields(&body, &["query", "numResults", "contents", "type"])?;
            let query = string_field(&body, "query")?;
            let n = int_field(&body, "numResults", 1..=100)?;
            if body.get("contents") != Some(&json!({ "highlights": true })) {
                return Err(Reply::reject(format!(
                    "contents: expected {{\"highlights\": true}}, got {:?}",
                    body.get("contents")
                )));
            }
            let results: Vec<Value> = (1..=n.min(3))
                .map(|i| {
                    json!({
                        "id": format!("https://example.com/exa/{i}"),
                        "title": format!("Exa result {i}"),
                        "url": format!("https://example.com/exa/{i}"),
                        "publishedDate": "2024-05-01T00:00:00.000Z",
                        "author": "Example Author",
                        "highlights": [format!("First highlight on {query}."), format!("Second highlight {i}.")],
                        "highlightScores": [0.46, 0.31]
                    })
                })
                .collect();
            return Ok(Reply::json(
                200,
                &json!({
                    "requestId": "b5947044c4b78efa9552a7c89b306d95",
                    "resolvedSearchType": "neural",
                    "results": results,
                    "searchType": "neural",
                    "costDollars": { "total": 0.005 }
                }),
            ));
        }
        expect_route(request, "POST", "/contents")?;
        let body = json_body(request)?;
        only_fields(&body, &["urls", "ids", "text"])?;
        let urls = strings_field(&body, "urls")?;
        if body.get("text") != Some(&json!(true)) {
            return Err(Reply::reject("text must be true"));
        }
        let (mut results, mut statuses) = (Vec::new(), Vec::new());
        for url in urls {
            match known_page(&url) {
                Some((title, text)) => {
                    results.push(json!({ "id": url, "url": url, "title": title, "text": text, "author": null }));
                    statuses.push(json!({ "id": url, "status": "success", "source": "cached" }));
                }
                None => statuses.push(json!({ "id": url, "status": "error", "error": { "tag": "CRAWL_NOT_FOUND", "httpStatusCode": 404 } })),
            }
        }
        Ok(Reply::json(
            200,
            &json!({
                "requestId": "e492118ccdedcba5088bfc4357a8a125",
                "results": results,
                "statuses": statuses,
                "costDollars": { "total": 0.001 }
            }),
        ))
    })
}

/// Which Firecrawl a fake plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Firecrawl {
    /// The cloud API: v2 and v1 paths, the key required.
    Cloud,
    /// A self-hosted instance that predates v2 and runs without auth (`USE_DB_AUTHENTICATION`
    /// off): v2 paths are 404, any request is accepted.
    SelfHostedV1,
}

pub(super) fn firecrawl(request: &RawRequest, flavour: Firecrawl) -> Reply {
    run(|| {
        let (path, _) = super::query(request);
        if flavour == Firecrawl::SelfHostedV1 && path.starts_with("/v2/") {
            return Err(Reply::html(404, &format!("<pre>Cannot POST {path}</pre>")));
        }
        if flavour == Firecrawl::Cloud && !bearer_ok(request) {
            return Err(unauthorized(Kind::Firecrawl));
        }
        match path.as_str() {
            "/v2/search" | "/v1/search" => {
                expect_route(request, "POST", &path)?;
                let body = json_body(request)?;
                only_fields(
                    &body,
                    &["query", "limit", "timeout", "sources", "scrapeOptions"],
                )?;
                let query = string_field(&body, "query")?;
                let limit = int_field(&body, "limit", 1..=100)?;
                let items: Vec<Value> = (1..=limit.min(3))
                    .map(|i| {
                        json!({
                            "url": format!("https://example.com/firecrawl/{i}"),
                            "title": format!("Firecrawl result {i}"),
                            "description": format!("About {query}, part {i}."),
                            "position": i
                        })
                    })
                    .collect();
                // v2 groups results by source; v1 sent a flat list.
                let data = if path == "/v2/search" {
                    json!({ "web": items })
                } else {
                    json!(items)
                };
                Ok(Reply::json(
                    200,
                    &json!({ "success": true, "data": data, "creditsUsed": 2 }),
                ))
            }
            "/v2/scrape" | "/v1/scrape" => {
                expect_route(request, "POST", &path)?;
                let body = json_body(request)?;
                only_fields(&body, &["url", "formats", "onlyMainContent", "timeout"])?;
                let url = string_field(&body, "url")?;
                let formats = strings_field(&body, "formats")?;
                if !formats.iter().any(|f| f == "markdown") {
                    return Err(Reply::reject("formats must include markdown"));
                }
                if url == "https://example.net/missing" {
                    // The target answered 404: Firecrawl still succeeds, with the status in metadata.
                    return Ok(Reply::json(
                        200,
                        &json!({ "success": true, "data": {
                            "markdown": "Not Found",
                            "metadata": { "title": "404 Not Found", "sourceURL": url, "url": url, "statusCode": 404, "error": "Not Found" }
                        }}),
                    ));
                }
                match known_page(url) {
                    Some((title, text)) => Ok(Reply::json(
                        200,
                        &json!({ "success": true, "data": {
                            "markdown": text,
                            "metadata": { "title": title, "description": "", "language": "en", "sourceURL": url, "url": url, "statusCode": 200, "contentType": "text/html", "creditsUsed": 1 }
                        }}),
                    )),
                    None => Ok(Reply::json(
                        500,
                        &json!({ "success": false, "code": "SCRAPE_ALL_ENGINES_FAILED", "error": "All scraping engines failed! -- Double check the URL to make sure it's not broken." }),
                    )),
                }
            }
            _ => Err(Reply::json(
                404,
                &json!({ "success": false, "error": format!("Cannot {} {path}", request.method) }),
            )),
        }
    })
}

pub(super) fn parallel(request: &RawRequest) -> Reply {
    run(|| {
        let (path, _) = super::query(request);
        if !api_key_ok(request) {
            return Err(unauthorized(Kind::Parallel));
        }
        expect_header(request, "parallel-beta", "search-extract-2025-10-10")?;
        if path == "/v1beta/search" {
            expect_route(request, "POST", "/v1beta/search")?;
            let body = json_body(request)?;
            only_fields(
                &body,
                &[
                    "objective",
                    "search_queries",
                    "mode",
                    "max_results",
                    "excerpts",
                    "max_chars_per_result",
                ],
            )?;
            let objective = string_field(&body, "objective")?;
            let queries = strings_field(&body, "search_queries")?;
            if queries.is_empty() {
                return Err(Reply::json(
                    422,
                    &json!({ "type": "error", "error": { "ref_id": "x", "message": "search_queries must not be empty" } }),
                ));
            }
            let mode = string_field(&body, "mode")?;
            if !["one-shot", "agentic", "fast"].contains(&mode) {
                return Err(Reply::json(
                    422,
                    &json!({ "type": "error", "error": { "ref_id": "x", "message": format!("invalid mode {mode}") } }),
                ));
            }
            let max = int_field(&body, "max_results", 1..=20)?;
            let results: Vec<Value> = (1..=max.min(3))
                .map(|i| json!({
                    "url": format!("https://example.com/parallel/{i}"),
                    "title": format!("Parallel result {i}"),
                    "publish_date": "2024-10-01",
                    "excerpts": [format!("Excerpt A on {objective}."), format!("Excerpt B {i}.")]
                }))
                .collect();
            return Ok(Reply::json(
                200,
                &json!({
                    "search_id": "search_cad0a6d2dec046bd95ae900527d880e7",
                    "results": results,
                    "warnings": null,
                    "usage": [{ "name": "sku_search", "count": 1 }]
                }),
            ));
        }
        expect_route(request, "POST", "/v1beta/extract")?;
        let body = json_body(request)?;
        only_fields(
            &body,
            &[
                "urls",
                "full_content",
                "excerpts",
                "objective",
                "search_queries",
            ],
        )?;
        let urls = strings_field(&body, "urls")?;
        if body.get("full_content") != Some(&json!(true)) {
            return Err(Reply::reject("full_content must be true"));
        }
        let (mut results, mut errors) = (Vec::new(), Vec::new());
        for url in urls {
            match known_page(&url) {
                Some((title, text)) => results.push(json!({ "url": url, "title": title, "publish_date": null, "excerpts": [], "full_content": text })),
                None => errors.push(json!({ "url": url, "error_type": "fetch_error", "http_status_code": 404, "content": "Not Found" })),
            }
        }
        Ok(Reply::json(
            200,
            &json!({
                "extract_id": "extract_cad0a6d2dec046bd95ae900527d880e7",
                "results": results,
                "errors": errors,
                "warnings": null,
                "usage": [{ "name": "sku_extract_excerpts", "count": 1 }]
            }),
        ))
    })
}
