//! The HTTP plumbing every service backend shares: the base URL a backend was given, one
//! request with its timeout, the response read under a size cap, and a failed response turned
//! into a `WebError` (401/403 → `Unauthorized` naming the key's variable, 429 →
//! `RateLimited` with its Retry-After, other statuses → `Service` with a short detail,
//! transport → `Unreachable`, unreadable JSON → `BadResponse`).
//!
//! Not here: request shapes or result normalisation (each backend's own module), or which
//! backend runs (`select`). Invariants: a key is attached only to a request for a URL under
//! the backend's own base URL, and the client (`service_client`) follows no redirect that
//! leaves that origin or would resend the body; no error carries the key (details taken from a
//! response have it scrubbed) or more than `DETAIL_CHARS` of a body.

use std::time::Duration;

use serde::de::DeserializeOwned;

use super::BackendName;
use super::ExtractProgress;
use crate::util::http::ClientError;
use crate::web::PageResult;
use crate::web::WebError;

/// The most of a service's response read; a markdown extract of a huge page stays well under.
const MAX_RESPONSE_BYTES: usize = 32 * 1024 * 1024;
/// The most characters of a service's error text that reach an error.
const DETAIL_CHARS: usize = 200;

/// The client for the search/extract services: the process's shared rustls client that
/// follows only same-origin 307/308 redirects, so neither an auth header nor a body carrying
/// a key is ever sent to another host.
pub fn service_client() -> Result<reqwest::Client, ClientError> {
    crate::util::http::build_provider_client()
}

/// A trimmed, non-empty value of `name` from the lookup.
pub(crate) fn env_value(env: &dyn Fn(&str) -> Option<String>, name: &str) -> Option<String> {
    env(name)
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
}

/// A base URL from the environment (or the service's default), checked to be http(s) and
/// kept without a trailing `/`.
pub(crate) fn base_url(
    env: &dyn Fn(&str) -> Option<String>,
    var: &'static str,
    default: &str,
) -> Result<String, BadBaseUrl> {
    let raw = env_value(env, var).unwrap_or_else(|| default.to_string());
    let parsed = reqwest::Url::parse(&raw).map_err(|e| BadBaseUrl {
        var,
        detail: e.to_string(),
    })?;
    if !matches!(parsed.scheme(), "http" | "https") || parsed.host_str().is_none() {
        return Err(BadBaseUrl {
            var,
            detail: "not an http(s) URL".to_string(),
        });
    }
    Ok(raw.trim_end_matches('/').to_string())
}

/// A base URL variable that does not hold an http(s) URL.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{var} is not a usable URL: {detail}")]
pub struct BadBaseUrl {
    pub var: &'static str,
    pub detail: String,
}

/// One service endpoint set: where it lives, how long a call may take, and which variable
/// holds its key (for the 401 hint; `None` for keyless services).
#[derive(Clone)]
pub(crate) struct Service {
    pub backend: BackendName,
    client: reqwest::Client,
    base_url: String,
    timeout: Duration,
    key_var: Option<&'static str>,
    /// The key, kept only to scrub it from error details.
    key: Option<String>,
}

/// A response with a success status, its body read whole.
pub(crate) struct Reply {
    pub status: u16,
    pub body: String,
}

/// A response with an error status, before it is mapped (a backend may read a status its
/// own way first, e.g. SearXNG's 403).
pub(crate) struct Failure {
    pub status: u16,
    pub retry_after: Option<u64>,
    pub body: String,
}

impl Service {
    pub fn new(
        backend: BackendName,
        client: reqwest::Client,
        base_url: String,
        timeout: Duration,
    ) -> Self {
        Self {
            backend,
            client,
            base_url,
            timeout,
            key_var: None,
            key: None,
        }
    }

    /// The key this service is called with and the variable it came from.
    pub fn with_key(mut self, var: &'static str, key: Option<String>) -> Self {
        self.key_var = Some(var);
        self.key = key;
        self
    }

    pub fn timeout_secs(&self) -> u64 {
        self.timeout.as_secs()
    }

    /// A request for `path` under the base URL (the only URLs a key is attached to).
    pub fn request(&self, method: reqwest::Method, path: &str) -> reqwest::RequestBuilder {
        let url = format!("{}/{}", self.base_url, path.trim_start_matches('/'));
        self.client.request(method, url).timeout(self.timeout)
    }

    /// A GET for `path` with a query string (form-encoded, as services parse it).
    pub fn get(&self, path: &str, query: &[(&str, &str)]) -> reqwest::RequestBuilder {
        let mut encoded = form_urlencoded::Serializer::new(String::new());
        for (name, value) in query {
            encoded.append_pair(name, value);
        }
        let url = format!(
            "{}/{}?{}",
            self.base_url,
            path.trim_start_matches('/'),
            encoded.finish()
        );
        self.client
            .request(reqwest::Method::GET, url)
            .timeout(self.timeout)
    }

    /// Send and read the response: `Ok(Ok(reply))` on 2xx, `Ok(Err(failure))` on an error
    /// status, `Err` when the service could not be reached or read.
    pub async fn send(
        &self,
        request: reqwest::RequestBuilder,
    ) -> Result<Result<Reply, Failure>, WebError> {
        let mut response = request.send().await.map_err(|e| self.transport(&e))?;
        let status = response.status().as_u16();
        let retry_after = retry_after(response.headers());
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(|e| self.transport(&e))? {
            if body.len() + chunk.len() > MAX_RESPONSE_BYTES {
                return Err(WebError::BadResponse {
                    backend: self.backend.display_name(),
                    detail: format!(
                        "the response is larger than {} MB",
                        MAX_RESPONSE_BYTES / (1024 * 1024)
                    ),
                });
            }
            body.extend_from_slice(&chunk);
        }
        let body = String::from_utf8_lossy(&body).into_owned();
        if (200..300).contains(&status) {
            Ok(Ok(Reply { status, body }))
        } else {
            Ok(Err(Failure {
                status,
                retry_after,
                body,
            }))
        }
    }

    /// Send, map an error status the default way, and decode the JSON body.
    pub async fn json<T: DeserializeOwned>(
        &self,
        request: reqwest::RequestBuilder,
    ) -> Result<T, WebError> {
        match self.send(request).await? {
            Ok(reply) => self.decode(&reply.body),
            Err(failure) => Err(self.failure(&failure)),
        }
    }

    /// A body as the service's JSON.
    pub fn decode<T: DeserializeOwned>(&self, body: &str) -> Result<T, WebError> {
        serde_json::from_str(body).map_err(|e| WebError::BadResponse {
            backend: self.backend.display_name(),
            detail: format!("not the JSON it documents ({e})"),
        })
    }

    /// The default mapping of an error status.
    pub fn failure(&self, failure: &Failure) -> WebError {
        let backend = self.backend.display_name();
        match (failure.status, self.key_var) {
            (401 | 403, Some(var)) => WebError::Unauthorized {
                backend,
                status: failure.status,
                key_hint: var.to_string(),
            },
            (429, _) => WebError::RateLimited {
                backend,
                retry_after: failure.retry_after,
            },
            (status, _) => WebError::Service {
                backend,
                status,
                detail: self.detail(&failure.body),
            },
        }
    }

    /// A short, key-free detail from an error body: the service's own message when its JSON
    /// has one, else the start of a plain-text body; nothing from an HTML page.
    pub fn detail(&self, body: &str) -> Option<String> {
        let text = match serde_json::from_str::<serde_json::Value>(body) {
            Ok(value) => json_message(&value)?,
            Err(_) if body.trim_start().starts_with('<') => return None,
            Err(_) => body.to_string(),
        };
        let mut text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        if let Some(key) = self.key.as_deref().filter(|k| !k.is_empty()) {
            text = text.replace(key, "[key]");
        }
        if text.chars().count() > DETAIL_CHARS {
            text = text.chars().take(DETAIL_CHARS).collect::<String>() + "…";
        }
        (!text.is_empty()).then_some(text)
    }

    fn transport(&self, err: &reqwest::Error) -> WebError {
        let detail = if err.is_timeout() {
            format!("no answer within {} s", self.timeout.as_secs())
        } else {
            crate::util::http::root_cause(err)
        };
        WebError::Unreachable {
            backend: self.backend.display_name(),
            detail,
        }
    }
}

/// One result per requested URL, in request order: a service's results matched to the URLs
/// asked for (exactly, else ignoring a trailing `/`), a URL the service left out failed with
/// "extraction failed" as Hermes reports it. Each is reported to `progress`.
pub(crate) fn in_request_order(
    urls: &[String],
    mut found: Vec<PageResult>,
    progress: &dyn ExtractProgress,
) -> Vec<PageResult> {
    let loose = |u: &str| u.trim_end_matches('/').to_string();
    urls.iter()
        .map(|url| {
            let exact = found.iter().position(|r| &r.url == url);
            let position = exact.or_else(|| found.iter().position(|r| loose(&r.url) == loose(url)));
            let result = match position {
                Some(i) => {
                    let mut result = found.swap_remove(i);
                    if &result.url != url {
                        result.final_url = Some(std::mem::replace(&mut result.url, url.clone()));
                    }
                    result
                }
                None => PageResult::failed(url, "extraction failed"),
            };
            progress.finished(&result);
            result
        })
        .collect()
}

/// Every URL failed with the same error (the whole request failed).
pub(crate) fn all_failed(
    urls: &[String],
    error: &WebError,
    progress: &dyn ExtractProgress,
) -> Vec<PageResult> {
    urls.iter()
        .map(|url| {
            let result = PageResult::failed(url, error);
            progress.finished(&result);
            result
        })
        .collect()
}

/// The message in a service's JSON error body, wherever that service puts it: `error` (a
/// string, or an object with `message`/`detail`), `detail` (a string, or `{error}` as
/// Tavily sends), or `message`.
fn json_message(value: &serde_json::Value) -> Option<String> {
    let text = |v: &serde_json::Value| v.as_str().map(str::to_string);
    let nested = |v: &serde_json::Value| {
        text(v)
            .or_else(|| v.get("message").and_then(text))
            .or_else(|| v.get("detail").and_then(text))
            .or_else(|| v.get("error").and_then(text))
    };
    value
        .get("error")
        .and_then(nested)
        .or_else(|| value.get("detail").and_then(nested))
        .or_else(|| value.get("message").and_then(text))
}

/// Seconds to wait from `Retry-After` (seconds or an HTTP date), else from Brave's
/// `X-RateLimit-Reset` (seconds until the per-second window resets, first of a list).
fn retry_after(headers: &reqwest::header::HeaderMap) -> Option<u64> {
    let value = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    if let Some(raw) = value("retry-after") {
        let raw = raw.trim();
        if let Ok(seconds) = raw.parse::<u64>() {
            return Some(seconds);
        }
        if let Ok(date) = chrono::DateTime::parse_from_rfc2822(raw) {
            let wait = date.timestamp() - chrono::Utc::now().timestamp();
            return Some(wait.max(0).unsigned_abs());
        }
    }
    value("x-ratelimit-reset")
        .and_then(|raw| raw.split(',').next())
        .and_then(|first| first.trim().parse().ok())
}

#[cfg(test)]
#[path = "service_tests.rs"]
mod tests;
