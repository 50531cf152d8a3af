//! Parallel search and extract (its beta Search/Extract API, as parallel-web 0.4, Python
//! Hermes's SDK, calls it): `POST {PARALLEL_BASE_URL}/v1beta/search` (`search_queries: [q]`,
//! `objective: q`, `mode` from `PARALLEL_SEARCH_MODE` — `agentic` unless `fast`/`one-shot` —
//! and `max_results` ≤ 20) and `POST /v1beta/extract` (`urls`, `full_content: true`), with
//! `x-api-key` and `parallel-beta: search-extract-2025-10-10`. Excerpts joined by spaces are
//! a hit's description; an extract's `full_content` (markdown; its excerpts when empty) is the
//! page, and each `errors[]` entry fails its URL.

use std::time::Duration;

use async_trait::async_trait;
use serde::Deserialize;
use serde_json::json;

use super::BackendName;
use super::ExtractBackend;
use super::ExtractProgress;
use super::SearchBackend;
use super::service::BadBaseUrl;
use super::service::Service;
use super::service::all_failed;
use super::service::base_url;
use super::service::env_value;
use super::service::in_request_order;
use crate::web::PageResult;
use crate::web::SearchHit;
use crate::web::WebError;

pub const KEY_VAR: &str = "PARALLEL_API_KEY";
pub const BASE_URL_VAR: &str = "PARALLEL_BASE_URL";
pub const MODE_VAR: &str = "PARALLEL_SEARCH_MODE";
const DEFAULT_BASE_URL: &str = "https://api.parallel.ai";
const BETA: &str = "search-extract-2025-10-10";
const TIMEOUT: Duration = Duration::from_secs(60);
/// Parallel's extract takes at most 20 URLs a request.
const EXTRACT_BATCH: usize = 20;

pub struct Parallel {
    service: Service,
    key: String,
    mode: &'static str,
}

impl Parallel {
    /// `None` without `PARALLEL_API_KEY`.
    pub fn from_env(
        env: &dyn Fn(&str) -> Option<String>,
        client: reqwest::Client,
    ) -> Option<Result<Self, BadBaseUrl>> {
        let key = env_value(env, KEY_VAR)?;
        let mode = search_mode(env_value(env, MODE_VAR).as_deref());
        Some(base_url(env, BASE_URL_VAR, DEFAULT_BASE_URL).map(|url| {
            Self {
                service: Service::new(BackendName::Parallel, client, url, TIMEOUT)
                    .with_key(KEY_VAR, Some(key.clone())),
                key,
                mode,
            }
        }))
    }

    fn post(&self, path: &str, body: &serde_json::Value) -> reqwest::RequestBuilder {
        self.service
            .request(reqwest::Method::POST, path)
            .header("x-api-key", &self.key)
            .header("parallel-beta", BETA)
            .json(body)
    }

    async fn extract_batch(&self, urls: &[String]) -> Result<Vec<PageResult>, WebError> {
        let body = json!({ "urls": urls, "full_content": true });
        let response: ExtractResponse = self
            .service
            .json(self.post("/v1beta/extract", &body))
            .await?;
        let mut pages: Vec<PageResult> = response
            .results
            .into_iter()
            .map(|r| {
                let content = r
                    .full_content
                    .filter(|c| !c.is_empty())
                    .unwrap_or_else(|| r.excerpts.unwrap_or_default().join("\n\n"));
                PageResult {
                    url: r.url,
                    title: r.title.unwrap_or_default(),
                    content,
                    ..PageResult::default()
                }
            })
            .collect();
        pages.extend(response.errors.into_iter().map(|e| {
            let reason = e
                .content
                .filter(|c| !c.is_empty())
                .or(e.error_type)
                .unwrap_or_else(|| "extraction failed".to_string());
            let reason = match e.http_status_code {
                Some(code) => format!("HTTP {code}: {reason}"),
                None => reason,
            };
            PageResult::failed(&e.url, reason)
        }));
        Ok(pages)
    }
}

/// Hermes's `_resolve_search_mode`: `fast`, `one-shot` or `agentic` (the default).
pub(crate) fn search_mode(value: Option<&str>) -> &'static str {
    match value.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
        Some("fast") => "fast",
        Some("one-shot") => "one-shot",
        _ => "agentic",
    }
}

#[derive(Deserialize)]
struct SearchResponse {
    #[serde(default)]
    results: Vec<SearchResult>,
}

#[derive(Deserialize)]
struct SearchResult {
    #[serde(default)]
    url: Option<String>,
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    excerpts: Option<Vec<String>>,
}

#[derive(Deserialize)]
struct ExtractResponse {
    #[serde(default)]
    results: Vec<ExtractResult>,
    #[serde(default)]
    errors: Vec<ExtractError>,
}

#[derive(Deserialize)]
struct ExtractResult {
    #[serde(default)]
    url: String,
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    full_content: Option<String>,
    #[serde(default)]
    excerpts: Option<Vec<String>>,
}

#[derive(Deserialize)]
struct ExtractError {
    #[serde(default)]
    url: String,
    #[serde(default)]
    error_type: Option<String>,
    #[serde(default)]
    http_status_code: Option<u16>,
    #[serde(default)]
    content: Option<String>,
}

#[async_trait]
impl SearchBackend for Parallel {
    fn name(&self) -> BackendName {
        BackendName::Parallel
    }

    async fn search(&self, query: &str, limit: usize) -> Result<Vec<SearchHit>, WebError> {
        let body = json!({
            "search_queries": [query],
            "objective": query,
            "mode": self.mode,
            "max_results": limit.clamp(1, 20),
        });
        let response: SearchResponse = self
            .service
            .json(self.post("/v1beta/search", &body))
            .await?;
        Ok(response
            .results
            .into_iter()
            .take(limit)
            .enumerate()
            .map(|(i, r)| SearchHit {
                title: r.title.unwrap_or_default(),
                url: r.url.unwrap_or_default(),
                description: r.excerpts.unwrap_or_default().join(" "),
                position: i + 1,
            })
            .collect())
    }
}

#[async_trait]
impl ExtractBackend for Parallel {
    fn name(&self) -> BackendName {
        BackendName::Parallel
    }

    async fn extract(&self, urls: &[String], progress: &dyn ExtractProgress) -> Vec<PageResult> {
        let mut out = Vec::with_capacity(urls.len());
        for batch in urls.chunks(EXTRACT_BATCH) {
            batch.iter().for_each(|url| progress.started(url));
            match self.extract_batch(batch).await {
                Ok(pages) => out.extend(in_request_order(batch, pages, progress)),
                Err(error) => out.extend(all_failed(batch, &error, progress)),
            }
        }
        out
    }
}

#[cfg(test)]
#[path = "parallel_tests.rs"]
mod tests;
