//! SearXNG search through its JSON API: `GET {SEARXNG_URL}/search?q=&format=json&pageno=1`,
//! results sorted by SearXNG's `score` (highest first) and cut to the limit, as Python
//! Hermes does. Keyless; available when `SEARXNG_URL` is set. An instance without `json` in
//! `search.formats` answers 403, which is reported as that, not as a key problem.
//! Not here: categories, engines or language parameters.

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

pub const URL_VAR: &str = "SEARXNG_URL";
const TIMEOUT: Duration = Duration::from_secs(15);

pub struct Searxng {
    service: Service,
}

impl Searxng {
    /// `None` when `SEARXNG_URL` is not set (SearXNG has no default instance).
    pub fn from_env(
        env: &dyn Fn(&str) -> Option<String>,
        client: reqwest::Client,
    ) -> Option<Result<Self, BadBaseUrl>> {
        env_value(env, URL_VAR)?;
        Some(base_url(env, URL_VAR, "").map(|url| Self {
            service: Service::new(BackendName::Searxng, client, url, TIMEOUT),
        }))
    }
}

#[derive(Deserialize)]
struct Response {
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
    content: String,
    #[serde(default)]
    score: Option<f64>,
}

#[async_trait]
impl SearchBackend for Searxng {
    fn name(&self) -> BackendName {
        BackendName::Searxng
    }

    async fn search(&self, query: &str, limit: usize) -> Result<Vec<SearchHit>, WebError> {
        let request = self
            .service
            .get(
                "/search",
                &[("q", query), ("format", "json"), ("pageno", "1")],
            )
            .header(reqwest::header::ACCEPT, "application/json");
        let body = match self.service.send(request).await? {
            Ok(reply) => reply.body,
            Err(failure) if failure.status == 403 => {
                return Err(WebError::Service {
                    backend: BackendName::Searxng.display_name(),
                    status: 403,
                    detail: Some(
                        "JSON format not enabled in settings.yml (add `json` under \
                         search: formats:)"
                            .to_string(),
                    ),
                });
            }
            Err(failure) => return Err(self.service.failure(&failure)),
        };
        let response: Response = self.service.decode(&body)?;
        let mut results = response.results;
        // Stable: equal scores keep SearXNG's order.
        results.sort_by(|a, b| {
            let score = |h: &Hit| h.score.unwrap_or(0.0);
            score(b).total_cmp(&score(a))
        });
        Ok(results
            .into_iter()
            .take(limit)
            .enumerate()
            .map(|(i, hit)| SearchHit {
                title: hit.title,
                url: hit.url,
                description: hit.content,
                position: i + 1,
            })
            .collect())
    }
}

#[cfg(test)]
#[path = "searxng_tests.rs"]
mod tests;
