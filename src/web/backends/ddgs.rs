//! DuckDuckGo search through its HTML endpoint (`html.duckduckgo.com/html/`): a form POST
//! of `q`, the results page parsed (title, link, snippet), ads dropped, DuckDuckGo's
//! `//duckduckgo.com/l/?uddg=` redirect links unwrapped to the real URL. Keyless; the default
//! search backend. `DDGS_BASE_URL` points it elsewhere (a loopback fake in tests).
//!
//! Python Hermes uses the `ddgs` package, which scrapes the same endpoint the same way; its
//! normalisation (`title`, `href` → `url`, `body` → `description`, positions from 1) is kept.
//! DuckDuckGo answers traffic it takes for a bot with HTTP 202 and an "anomaly" CAPTCHA page;
//! that is reported as such (`WebError::Challenge`), never as "no results".
//! Not here: retries or rotating engines (ddgs's multi-engine fallback).

use std::time::Duration;

use async_trait::async_trait;
use dom_query::Document;

use super::BackendName;
use super::SearchBackend;
use super::service::BadBaseUrl;
use super::service::Service;
use super::service::base_url;
use crate::web::SearchHit;
use crate::web::WebError;

pub const BASE_URL_VAR: &str = "DDGS_BASE_URL";
const DEFAULT_BASE_URL: &str = "https://html.duckduckgo.com";
/// Hermes caps a ddgs search at 30 s overall.
const TIMEOUT: Duration = Duration::from_secs(30);
/// The HTML endpoint serves its bot page to clients it does not know; this is the
/// User-Agent of a current desktop Firefox, as the `ddgs` package sends a browser's.
const USER_AGENT: &str = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0";

/// DuckDuckGo's HTML results.
pub struct Ddgs {
    service: Service,
}

impl Ddgs {
    pub fn from_env(
        env: &dyn Fn(&str) -> Option<String>,
        client: reqwest::Client,
    ) -> Result<Self, BadBaseUrl> {
        let url = base_url(env, BASE_URL_VAR, DEFAULT_BASE_URL)?;
        Ok(Self {
            service: Service::new(BackendName::Ddgs, client, url, TIMEOUT),
        })
    }
}

#[async_trait]
impl SearchBackend for Ddgs {
    fn name(&self) -> BackendName {
        BackendName::Ddgs
    }

    async fn search(&self, query: &str, limit: usize) -> Result<Vec<SearchHit>, WebError> {
        let form = form_urlencoded::Serializer::new(String::new())
            .append_pair("q", query)
            .append_pair("b", "")
            .append_pair("kl", "")
            .finish();
        let request = self
            .service
            .request(reqwest::Method::POST, "/html/")
            .header(reqwest::header::USER_AGENT, USER_AGENT)
            .header(reqwest::header::ACCEPT, "text/html,application/xhtml+xml")
            .header(
                reqwest::header::CONTENT_TYPE,
                "application/x-www-form-urlencoded",
            )
            .body(form);
        let reply = match self.service.send(request).await? {
            // 202 is how DuckDuckGo answers with its bot check.
            Ok(reply) if reply.status == 202 => return Err(challenge()),
            Ok(reply) => reply,
            Err(failure) if failure.status == 403 || is_anomaly(&failure.body) => {
                return Err(challenge());
            }
            Err(failure) => return Err(self.service.failure(&failure)),
        };
        parse_results(&reply.body, limit.max(1))
    }
}

fn challenge() -> WebError {
    WebError::Challenge {
        backend: BackendName::Ddgs.display_name(),
        detail: "it answered with its anomaly (CAPTCHA) page, as it does for traffic it takes \
                 for a bot; wait a few minutes, or set web.search_backend to another backend"
            .to_string(),
    }
}

/// The anomaly page's marks (its modal and challenge form).
fn is_anomaly(html: &str) -> bool {
    html.contains("anomaly-modal") || html.contains("id=\"challenge-form\"")
}

/// The hits of a results page, ads left out, at most `limit`.
pub(crate) fn parse_results(html: &str, limit: usize) -> Result<Vec<SearchHit>, WebError> {
    if is_anomaly(html) {
        return Err(challenge());
    }
    let document = Document::from(html);
    let results = document.select("div.result");
    if results.is_empty() {
        if document.select(".no-results").exists() {
            return Ok(Vec::new());
        }
        return Err(WebError::BadResponse {
            backend: BackendName::Ddgs.display_name(),
            detail: "the page has no results list (DuckDuckGo may have changed its layout)"
                .to_string(),
        });
    }
    let mut hits = Vec::new();
    for result in results.iter() {
        if hits.len() >= limit {
            break;
        }
        if result.has_class("result--ad") {
            continue;
        }
        let link = result.select("a.result__a").first();
        let Some(href) = link.attr("href") else {
            continue;
        };
        let Some(url) = real_url(&href) else {
            continue;
        };
        hits.push(SearchHit {
            title: squeeze(&link.text()),
            url,
            description: squeeze(&result.select(".result__snippet").first().text()),
            position: hits.len() + 1,
        });
    }
    Ok(hits)
}

/// The target of a result link: `//duckduckgo.com/l/?uddg=<encoded>` unwrapped, a
/// protocol-relative link given https, ad links (`duckduckgo.com/y.js`) dropped.
pub(crate) fn real_url(href: &str) -> Option<String> {
    let href = href.trim();
    let absolute = match href {
        h if h.starts_with("//") => format!("https:{h}"),
        h if h.starts_with('/') => format!("https://duckduckgo.com{h}"),
        h => h.to_string(),
    };
    let url = reqwest::Url::parse(&absolute).ok()?;
    let on_ddg = url
        .host_str()
        .is_some_and(|h| h == "duckduckgo.com" || h.ends_with(".duckduckgo.com"));
    if on_ddg && url.path() == "/y.js" {
        return None;
    }
    if on_ddg && url.path() == "/l/" {
        return url
            .query_pairs()
            .find(|(k, _)| k == "uddg")
            .map(|(_, v)| v.into_owned())
            .filter(|v| v.starts_with("http://") || v.starts_with("https://"));
    }
    matches!(url.scheme(), "http" | "https").then(|| url.to_string())
}

/// Whitespace runs as one space (the page's text is indented markup).
fn squeeze(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
#[path = "ddgs_tests.rs"]
mod tests;
