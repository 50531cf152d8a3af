//! Tavily search and extract: `POST {TAVILY_BASE_URL}/search` (`query`, `max_results` ≤ 20,
//! no raw content or images) and `POST /extract` (`urls`, up to 20 a request), the key as
//! `Authorization: Bearer` as Tavily's API reference and SDK send it (Python Hermes puts it
//! in the body as `api_key`, which Tavily also accepts; the header keeps it out of bodies).
//! Results normalised as Hermes does: search `content` → description; extract `raw_content`
//! (markdown) → content, `failed_results` / `failed_urls` → per-URL errors.

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

pub const KEY_VAR: &str = "TAVILY_API_KEY";
pub const BASE_URL_VAR: &str = "TAVILY_BASE_URL";
const DEFAULT_BASE_URL: &str = "https://api.tavily.com";
/// Hermes's timeout for every Tavily call.
const TIMEOUT: Duration = Duration::from_secs(60);
/// Tavily's extract takes at most 20 URLs a request.
const EXTRACT_BATCH: usize = 20;

pub struct Tavily {
    service: Service,
    key: String,
}

impl Tavily {
    /// `None` without `TAVILY_API_KEY`.
    pub fn from_env(
        env: &dyn Fn(&str) -> Option<String>,
        client: reqwest::Client,
    ) -> Option<Result<Self, BadBaseUrl>> {
        let key = env_value(env, KEY_VAR)?;
        Some(base_url(env, BASE_URL_VAR, DEFAULT_BASE_URL).map(|url| {
            Self {
                service: Service::new(BackendName::Tavily, client, url, TIMEOUT)
                    .with_key(KEY_VAR, Some(key.clone())),
                key,
            }
        }))
    }

    fn post(&self, path: &str, body: &serde_json::Value) -> reqwest::RequestBuilder {
        self.service
            .request(reqwest::Method::POST, path)
            .bearer_auth(&self.key)
            .json(body)
    }

    async fn extract_batch(&self, urls: &[String]) -> Result<Vec<PageResult>, WebError> {
        let body = json!({ "urls": urls, "include_images": false });
        let response: ExtractResponse = self.service.json(self.post("/extract", &body)).await?;
        let mut pages: Vec<PageResult> = response
            .results
            .into_iter()
            .map(|r| PageResult {
                url: r.url,
                title: r.title.unwrap_or_default(),
                content: r.raw_content.or(r.content).unwrap_or_default(),
                ..PageResult::default()
            })
            .collect();
        pages.extend(response.failed_results.into_iter().map(|f| {
            let error = f.error.unwrap_or_else(|| "extraction failed".to_string());
            PageResult::failed(&f.url, error)
        }));
        pages.extend(
            response
                .failed_urls
                .iter()
                .filter_map(serde_json::Value::as_str)
                .map(|url| PageResult::failed(url, "extraction failed")),
        );
        Ok(pages)
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
    title: String,
    #[serde(default)]
    url: String,
    #[serde(default)]
    content: String,
}

#[derive(Deserialize)]
struct ExtractResponse {
    #[serde(default)]
    results: Vec<ExtractResult>,
    #[serde(default)]
    failed_results: Vec<FailedResult>,
    /// Older responses list failed URLs bare.
    #[serde(default)]
    failed_urls: Vec<serde_json::Value>,
}

#[derive(Deserialize)]
struct ExtractResult {
    #[serde(default)]
    url: String,
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    raw_content: Option<String>,
    #[serde(default)]
    content: Option<String>,
}

#[derive(Deserialize)]
struct FailedResult {
    #[serde(default)]
    url: String,
    #[serde(default)]
    error: Option<String>,
}

#[async_trait]
impl SearchBackend for Tavily {
    fn name(&self) -> BackendName {
        BackendName::Tavily
    }

    async fn search(&self, query: &str, limit: usize) -> Result<Vec<SearchHit>, WebError> {
        let body = json!({
            "query": query,
            "max_results": limit.min(20),
            "include_raw_content": false,
            "include_images": false,
        });
        let response: SearchResponse = self.service.json(self.post("/search", &body)).await?;
        Ok(response
            .results
            .into_iter()
            .take(limit)
            .enumerate()
            .map(|(i, r)| SearchHit {
                title: r.title,
                url: r.url,
                description: r.content,
                position: i + 1,
            })
            .collect())
    }
}

#[async_trait]
impl ExtractBackend for Tavily {
    fn name(&self) -> BackendName {
        BackendName::Tavily
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
#[path = "tavily_tests.rs"]
mod tests;
