//! Exa search and contents: `POST {EXA_BASE_URL}/search` (`query`, `numResults`,
//! `contents: {highlights: true}`) and `POST /contents` (`urls`, `text: true`), the key in
//! `x-api-key`, as the exa-py SDK Python Hermes uses sends them. Search highlights joined by
//! spaces are the description; contents `text` is the page, and a URL whose `statuses` entry
//! is an error (or that is missing) fails with Exa's tag and status.

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

pub const KEY_VAR: &str = "EXA_API_KEY";
pub const BASE_URL_VAR: &str = "EXA_BASE_URL";
const DEFAULT_BASE_URL: &str = "https://api.exa.ai";
const TIMEOUT: Duration = Duration::from_secs(60);

pub struct Exa {
    service: Service,
    key: String,
}

impl Exa {
    /// `None` without `EXA_API_KEY`.
    pub fn from_env(
        env: &dyn Fn(&str) -> Option<String>,
        client: reqwest::Client,
    ) -> Option<Result<Self, BadBaseUrl>> {
        let key = env_value(env, KEY_VAR)?;
        Some(base_url(env, BASE_URL_VAR, DEFAULT_BASE_URL).map(|url| {
            Self {
                service: Service::new(BackendName::Exa, client, url, TIMEOUT)
                    .with_key(KEY_VAR, Some(key.clone())),
                key,
            }
        }))
    }

    fn post(&self, path: &str, body: &serde_json::Value) -> reqwest::RequestBuilder {
        self.service
            .request(reqwest::Method::POST, path)
            .header("x-api-key", &self.key)
            .json(body)
    }

    async fn contents(&self, urls: &[String]) -> Result<Vec<PageResult>, WebError> {
        let body = json!({ "urls": urls, "text": true });
        let response: ContentsResponse = self.service.json(self.post("/contents", &body)).await?;
        let mut pages: Vec<PageResult> = response
            .results
            .into_iter()
            .map(|r| PageResult {
                url: r.url,
                title: r.title.unwrap_or_default(),
                content: r.text.unwrap_or_default(),
                ..PageResult::default()
            })
            .collect();
        pages.extend(
            response
                .statuses
                .into_iter()
                .filter(|s| s.status == "error")
                .map(|s| {
                    let error = s.error.unwrap_or_default();
                    let tag = error.tag.unwrap_or_else(|| "extraction failed".to_string());
                    let reason = match error.http_status_code {
                        Some(code) => format!("{tag} (HTTP {code})"),
                        None => tag,
                    };
                    PageResult::failed(&s.id, reason)
                }),
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
    title: Option<String>,
    #[serde(default)]
    url: Option<String>,
    #[serde(default)]
    highlights: Option<Vec<String>>,
}

#[derive(Deserialize)]
struct ContentsResponse {
    #[serde(default)]
    results: Vec<ContentsResult>,
    #[serde(default)]
    statuses: Vec<Status>,
}

#[derive(Deserialize)]
struct ContentsResult {
    #[serde(default)]
    url: String,
    #[serde(default)]
    title: Option<String>,
    #[serde(default)]
    text: Option<String>,
}

#[derive(Deserialize)]
struct Status {
    #[serde(default)]
    id: String,
    #[serde(default)]
    status: String,
    #[serde(default)]
    error: Option<StatusError>,
}

#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct StatusError {
    #[serde(default)]
    tag: Option<String>,
    #[serde(default)]
    http_status_code: Option<u16>,
}

#[async_trait]
impl SearchBackend for Exa {
    fn name(&self) -> BackendName {
        BackendName::Exa
    }

    async fn search(&self, query: &str, limit: usize) -> Result<Vec<SearchHit>, WebError> {
        let body = json!({
            "query": query,
            "numResults": limit.max(1),
            "contents": { "highlights": true },
        });
        let response: SearchResponse = self.service.json(self.post("/search", &body)).await?;
        Ok(response
            .results
            .into_iter()
            .take(limit)
            .enumerate()
            .map(|(i, r)| SearchHit {
                title: r.title.unwrap_or_default(),
                url: r.url.unwrap_or_default(),
                description: r.highlights.unwrap_or_default().join(" "),
                position: i + 1,
            })
            .collect())
    }
}

#[async_trait]
impl ExtractBackend for Exa {
    fn name(&self) -> BackendName {
        BackendName::Exa
    }

    async fn extract(&self, urls: &[String], progress: &dyn ExtractProgress) -> Vec<PageResult> {
        urls.iter().for_each(|url| progress.started(url));
        match self.contents(urls).await {
            Ok(pages) => in_request_order(urls, pages, progress),
            Err(error) => all_failed(urls, &error, progress),
        }
    }
}

#[cfg(test)]
#[path = "exa_tests.rs"]
mod tests;
