//! Brave Search (the free "Data for Search" tier) through its web search API:
//! `GET {BRAVE_SEARCH_BASE_URL}/res/v1/web/search?q=&count=` with `X-Subscription-Token`,
//! `count` clamped to Brave's 1–20, results from `web.results`. Search only. Brave answers a
//! bad token with 422 `SUBSCRIPTION_TOKEN_INVALID` as well as 401; both are a key problem.
//! Its descriptions carry `<strong>` highlight markup, which is dropped.

use std::time::Duration;

use async_trait::async_trait;
use serde::Deserialize;

use super::BackendName;
use super::SearchBackend;
use super::service::BadBaseUrl;
use super::service::Service;
use super::service::base_url;
use super::service::env_value;
use crate::web::SearchHit;
use crate::web::WebError;

pub const KEY_VAR: &str = "BRAVE_SEARCH_API_KEY";
pub const BASE_URL_VAR: &str = "BRAVE_SEARCH_BASE_URL";
const DEFAULT_BASE_URL: &str = "https://api.search.brave.com";
const TIMEOUT: Duration = Duration::from_secs(15);

pub struct Brave {
    service: Service,
    key: String,
}

impl Brave {
    /// `None` without `BRAVE_SEARCH_API_KEY`.
    pub fn from_env(
        env: &dyn Fn(&str) -> Option<String>,
        client: reqwest::Client,
    ) -> Option<Result<Self, BadBaseUrl>> {
        let key = env_value(env, KEY_VAR)?;
        Some(base_url(env, BASE_URL_VAR, DEFAULT_BASE_URL).map(|url| {
            Self {
                service: Service::new(BackendName::BraveFree, client, url, TIMEOUT)
                    .with_key(KEY_VAR, Some(key.clone())),
                key,
            }
        }))
    }
}

#[derive(Deserialize)]
struct Response {
    #[serde(default)]
    web: Option<Web>,
}

#[derive(Deserialize)]
struct Web {
    #[serde(default)]
    results: Vec<Hit>,
}

#[derive(Deserialize)]
struct Hit {
    #[serde(default)]
    title: String,
    #[serde(default)]
    url: String,
    #[serde(default)]
    description: String,
}

#[async_trait]
impl SearchBackend for Brave {
    fn name(&self) -> BackendName {
        BackendName::BraveFree
    }

    async fn search(&self, query: &str, limit: usize) -> Result<Vec<SearchHit>, WebError> {
        let count = limit.clamp(1, 20).to_string();
        let request = self
            .service
            .get("/res/v1/web/search", &[("q", query), ("count", &count)])
            .header("X-Subscription-Token", &self.key)
            .header(reqwest::header::ACCEPT, "application/json");
        let body = match self.service.send(request).await? {
            Ok(reply) => reply.body,
            Err(failure) if failure.status == 422 && failure.body.contains("TOKEN_INVALID") => {
                return Err(WebError::Unauthorized {
                    backend: BackendName::BraveFree.display_name(),
                    status: 422,
                    key_hint: KEY_VAR.to_string(),
                });
            }
            Err(failure) => return Err(self.service.failure(&failure)),
        };
        let response: Response = self.service.decode(&body)?;
        let results = response.web.map(|w| w.results).unwrap_or_default();
        Ok(results
            .into_iter()
            .take(limit)
            .enumerate()
            .map(|(i, hit)| SearchHit {
                title: hit.title,
                url: hit.url,
                description: hit
                    .description
                    .replace("<strong>", "")
                    .replace("</strong>", ""),
                position: i + 1,
            })
            .collect())
    }
}

#[cfg(test)]
#[path = "brave_tests.rs"]
mod tests;
