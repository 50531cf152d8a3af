//! Firecrawl search and scrape, cloud or self-hosted: `POST {FIRECRAWL_API_URL}/v2/search`
//! (`query`, `limit`) and `POST /v2/scrape` (`url`, `formats: ["markdown"]`) with
//! `Authorization: Bearer FIRECRAWL_API_KEY`, as firecrawl-py v4 (Python Hermes's SDK)
//! sends them. The key is optional when `FIRECRAWL_API_URL` names a self-hosted instance; an
//! instance that predates v2 (404 on `/v2/…`) is asked the same on `/v1/…`. Search results
//! are read from every shape Hermes's normaliser accepts (v2 `data.web`, v1 `data` list,
//! `data.results`, top-level `web`/`results`); a scrape's `markdown` is the page, its
//! `metadata.title`/`sourceURL` the title and final URL, and a target that answered an error
//! status (`metadata.statusCode` ≥ 400) fails with it. URLs are scraped three at a time, each
//! within Hermes's 60 s.
//! Not here: the Nous tool gateway (a subscriber-only route Python Hermes also has).

use std::time::Duration;

use async_trait::async_trait;
use futures::StreamExt;
use serde_json::Value;
use serde_json::json;

use super::BackendName;
use super::ExtractBackend;
use super::ExtractProgress;
use super::SearchBackend;
use super::service::BadBaseUrl;
use super::service::Service;
use super::service::base_url;
use super::service::env_value;
use crate::web::PageResult;
use crate::web::SearchHit;
use crate::web::WebError;

pub const KEY_VAR: &str = "FIRECRAWL_API_KEY";
pub const URL_VAR: &str = "FIRECRAWL_API_URL";
const DEFAULT_BASE_URL: &str = "https://api.firecrawl.dev";
/// Hermes's per-scrape timeout.
const TIMEOUT: Duration = Duration::from_secs(60);
const CONCURRENT_SCRAPES: usize = 3;

pub struct Firecrawl {
    service: Service,
    key: Option<String>,
}

impl Firecrawl {
    /// `None` with neither `FIRECRAWL_API_KEY` nor `FIRECRAWL_API_URL` (the cloud needs a key).
    pub fn from_env(
        env: &dyn Fn(&str) -> Option<String>,
        client: reqwest::Client,
    ) -> Option<Result<Self, BadBaseUrl>> {
        let key = env_value(env, KEY_VAR);
        if key.is_none() && env_value(env, URL_VAR).is_none() {
            return None;
        }
        Some(base_url(env, URL_VAR, DEFAULT_BASE_URL).map(|url| {
            Self {
                service: Service::new(BackendName::Firecrawl, client, url, TIMEOUT)
                    .with_key(KEY_VAR, key.clone()),
                key,
            }
        }))
    }

    /// POST to the v2 path, falling back to v1 when the instance has no v2 API.
    async fn post(&self, endpoint: &str, body: &Value) -> Result<Value, WebError> {
        match self.post_once(&format!("/v2/{endpoint}"), body).await? {
            Ok(value) => Ok(value),
            Err(failure) if failure.status == 404 => {
                match self.post_once(&format!("/v1/{endpoint}"), body).await? {
                    Ok(value) => Ok(value),
                    Err(failure) => Err(self.failure(&failure)),
                }
            }
            Err(failure) => Err(self.failure(&failure)),
        }
    }

    async fn post_once(
        &self,
        path: &str,
        body: &Value,
    ) -> Result<Result<Value, super::service::Failure>, WebError> {
        let mut request = self.service.request(reqwest::Method::POST, path).json(body);
        if let Some(key) = &self.key {
            request = request.bearer_auth(key);
        }
        match self.service.send(request).await? {
            Ok(reply) => self.service.decode(&reply.body).map(Ok),
            Err(failure) => Ok(Err(failure)),
        }
    }

    /// Firecrawl's 403 means "website not supported", not a bad key (that is 401).
    fn failure(&self, failure: &super::service::Failure) -> WebError {
        if failure.status == 403 {
            return WebError::Service {
                backend: BackendName::Firecrawl.display_name(),
                status: 403,
                detail: self.service.detail(&failure.body),
            };
        }
        self.service.failure(failure)
    }

    async fn scrape_reporting(&self, url: &str, progress: &dyn ExtractProgress) -> PageResult {
        progress.started(url);
        let result = self.scrape(url).await;
        progress.finished(&result);
        result
    }

    async fn scrape(&self, url: &str) -> PageResult {
        let body = json!({ "url": url, "formats": ["markdown"], "onlyMainContent": true });
        let response = match self.post("scrape", &body).await {
            Ok(response) => response,
            Err(WebError::Unreachable { detail, .. }) if detail.starts_with("no answer") => {
                return PageResult::failed(
                    url,
                    format!(
                        "Firecrawl scrape timed out after {} s (the page may be too large or unresponsive)",
                        self.service.timeout_secs()
                    ),
                );
            }
            Err(error) => return PageResult::failed(url, error),
        };
        scrape_page(url, &response)
    }
}

/// A scrape response as a page. `success: false` or a failing target is the URL's error.
pub(crate) fn scrape_page(url: &str, response: &Value) -> PageResult {
    if response.get("success") == Some(&Value::Bool(false)) {
        let error = response.get("error").and_then(Value::as_str);
        return PageResult::failed(url, error.unwrap_or("Firecrawl could not scrape the page"));
    }
    let data = response
        .get("data")
        .filter(|d| d.is_object())
        .unwrap_or(response);
    let metadata = data.get("metadata");
    let meta = |key: &str| metadata.and_then(|m| m.get(key)).and_then(Value::as_str);
    let status = metadata
        .and_then(|m| m.get("statusCode"))
        .and_then(Value::as_u64)
        .unwrap_or(200);
    if status >= 400 {
        let reason = meta("error").map(|e| format!(" {e}")).unwrap_or_default();
        return PageResult::failed(url, format!("HTTP {status}{reason}"));
    }
    let final_url = meta("sourceURL")
        .or_else(|| meta("url"))
        .filter(|u| *u != url)
        .map(str::to_string);
    PageResult {
        url: url.to_string(),
        title: meta("title").unwrap_or_default().to_string(),
        content: data
            .get("markdown")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string(),
        final_url,
        content_type: meta("contentType").map(str::to_string),
        ..PageResult::default()
    }
}

/// Search results from any of the response shapes Firecrawl versions send.
pub(crate) fn search_items(response: &Value) -> Vec<Value> {
    let list = |v: Option<&Value>| {
        v.and_then(Value::as_array)
            .filter(|a| !a.is_empty())
            .cloned()
    };
    let data = response.get("data");
    list(data)
        .or_else(|| list(data.and_then(|d| d.get("web"))))
        .or_else(|| list(data.and_then(|d| d.get("results"))))
        .or_else(|| list(response.get("web")))
        .or_else(|| list(response.get("results")))
        .unwrap_or_default()
}

#[async_trait]
impl SearchBackend for Firecrawl {
    fn name(&self) -> BackendName {
        BackendName::Firecrawl
    }

    async fn search(&self, query: &str, limit: usize) -> Result<Vec<SearchHit>, WebError> {
        let body = json!({ "query": query, "limit": limit.clamp(1, 100) });
        let response = self.post("search", &body).await?;
        if response.get("success") == Some(&Value::Bool(false)) {
            return Err(WebError::Service {
                backend: BackendName::Firecrawl.display_name(),
                status: 200,
                detail: self.service.detail(&response.to_string()),
            });
        }
        let text = |item: &Value, key: &str| {
            item.get(key)
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string()
        };
        Ok(search_items(&response)
            .iter()
            .take(limit)
            .enumerate()
            .map(|(i, item)| SearchHit {
                title: text(item, "title"),
                url: text(item, "url"),
                description: text(item, "description"),
                position: i + 1,
            })
            .collect())
    }
}

#[async_trait]
impl ExtractBackend for Firecrawl {
    fn name(&self) -> BackendName {
        BackendName::Firecrawl
    }

    async fn extract(&self, urls: &[String], progress: &dyn ExtractProgress) -> Vec<PageResult> {
        // Collected first: a lazy `map` closure in the stream trips the `Send` check.
        let scrapes: Vec<_> = urls
            .iter()
            .map(|url| self.scrape_reporting(url, progress))
            .collect();
        futures::stream::iter(scrapes)
            .buffered(CONCURRENT_SCRAPES)
            .collect()
            .await
    }
}

#[cfg(test)]
#[path = "firecrawl_tests.rs"]
mod tests;
