//! The transport-level helpers every wire format uses: sending a request under the idle
//! watchdog and cancellation, reading error bodies, and turning reqwest failures into typed
//! `ProviderError`s that name the host ("connection refused to 127.0.0.1:1234"). The shared
//! client itself is built by `util::http`.
//!
//! There is deliberately no total request timeout: a long answer may stream for minutes. A
//! server that stops sending is caught by the idle watchdog instead (here for the response
//! head, in `sse` for the body). Nothing here logs or formats request headers, so API keys
//! never reach logs or error messages.

use std::time::Duration;

use futures::Stream;
use futures::StreamExt;
use tokio_util::sync::CancellationToken;

use super::ProviderError;
use super::retry::Failure;
use super::retry::classify_status;
use super::retry::parse_retry_after;
use super::sse::watchdog;
use crate::util::http::root_cause;

/// Error bodies are read up to this size; the rest is irrelevant for a message.
const ERROR_BODY_LIMIT: usize = 64 * 1024;

/// `host:port` of a URL, for error messages.
pub fn target_of(url: &str) -> String {
    match reqwest::Url::parse(url) {
        Ok(u) => match (u.host_str(), u.port_or_known_default()) {
            (Some(h), Some(p)) => format!("{h}:{p}"),
            (Some(h), None) => h.to_string(),
            _ => url.to_string(),
        },
        Err(_) => url.to_string(),
    }
}

/// Sends `request`, waiting at most `idle` for the response head. Returns the response only
/// for 2xx; other statuses become a classified `Failure` (with `Retry-After` when given).
pub async fn send(
    request: reqwest::RequestBuilder,
    target: &str,
    idle: Duration,
    cancel: &CancellationToken,
) -> Result<reqwest::Response, Failure> {
    let response = send_raw(request, target, idle, cancel).await?;
    if response.status().is_success() {
        return Ok(response);
    }
    Err(ErrorResponse::read(response, target, idle, cancel)
        .await?
        .into_failure())
}

/// Like `send` but hands back non-2xx responses too (for callers that inspect the body first).
pub async fn send_raw(
    request: reqwest::RequestBuilder,
    target: &str,
    idle: Duration,
    cancel: &CancellationToken,
) -> Result<reqwest::Response, ProviderError> {
    tokio::select! {
        biased;
        () = cancel.cancelled() => Err(ProviderError::Cancelled),
        sent = tokio::time::timeout(idle, request.send()) => match sent {
            Err(_elapsed) => Err(ProviderError::Hang { idle_secs: idle.as_secs() }),
            Ok(Err(e)) => Err(classify_reqwest(&e, target)),
            Ok(Ok(response)) => Ok(response),
        },
    }
}

/// A non-success response, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ErrorResponse {
    pub status: u16,
    pub retry_after: Option<Duration>,
    pub body: String,
    /// Where a redirect the client did not follow pointed (`Location`).
    pub redirect: Option<Redirect>,
}

/// A redirect the provider client stopped at (see `util::http::build_provider_client`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redirect {
    /// The endpoint that redirected (`host:port`).
    pub from: String,
    /// The `Location` it pointed to, without credentials or query.
    pub to: String,
}

impl ErrorResponse {
    pub async fn read(
        response: reqwest::Response,
        target: &str,
        idle: Duration,
        cancel: &CancellationToken,
    ) -> Result<Self, ProviderError> {
        let status = response.status().as_u16();
        let retry_after = response
            .headers()
            .get(reqwest::header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(parse_retry_after);
        let redirect = (300..400).contains(&status).then(|| Redirect {
            from: target.to_string(),
            to: response
                .headers()
                .get(reqwest::header::LOCATION)
                .and_then(|v| v.to_str().ok())
                .map_or_else(
                    || "(no Location header)".to_string(),
                    |l| shown_location(response.url(), l),
                ),
        });
        let body = read_body(response, target, idle, cancel, ERROR_BODY_LIMIT).await?;
        Ok(Self {
            status,
            retry_after,
            body,
            redirect,
        })
    }

    pub fn into_failure(self) -> Failure {
        let error = match &self.redirect {
            Some(redirect) => redirected(self.status, redirect),
            None => classify_status(self.status, self.retry_after, &self.body),
        };
        Failure {
            error,
            retry_after: self.retry_after,
        }
    }
}

/// The error for a redirect that was not followed: a 301/302/303 would turn the POST into a
/// GET, and a hop to another origin would carry the key there.
fn redirected(status: u16, redirect: &Redirect) -> ProviderError {
    ProviderError::BadResponse {
        message: format!(
            "the endpoint at {} redirected (HTTP {status}) to {}; hermes does not follow a redirect that changes the request's method or address — set model.base_url to the new address",
            redirect.from, redirect.to
        ),
    }
}

/// `Location` resolved against the request URL, with user info and query left out (they may
/// carry credentials).
fn shown_location(base: &reqwest::Url, location: &str) -> String {
    match base.join(location) {
        Ok(mut url) => {
            let _ = url.set_username("");
            let _ = url.set_password(None);
            url.set_query(None);
            url.to_string()
        }
        Err(_) => super::sse::excerpt(location, 120),
    }
}

/// An HTML page where an API answer was expected (a captive portal, a proxy's login or error
/// page, a web server at the wrong path), as one line naming the page's title.
pub fn html_page_error(target: &str, head: &str) -> Option<ProviderError> {
    let trimmed = head.trim_start_matches(['\u{feff}', ' ', '\t', '\r', '\n']);
    if !trimmed.starts_with('<') {
        return None;
    }
    let title = page_title(trimmed)
        .map(|t| format!(" titled \"{t}\""))
        .unwrap_or_default();
    Some(ProviderError::BadResponse {
        message: format!(
            "the server at {target} answered with an HTML page{title}, not an API response — a proxy or login page, or the wrong model.base_url?"
        ),
    })
}

fn page_title(html: &str) -> Option<String> {
    let lower = html.to_ascii_lowercase();
    let start = lower.find("<title")?;
    let open_end = start + lower[start..].find('>')? + 1;
    let close = open_end + lower[open_end..].find("</title")?;
    let title = html
        .get(open_end..close)?
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    (!title.is_empty()).then(|| super::sse::excerpt(&title, 80))
}

/// How many bytes of a body are looked at to tell an HTML page from SSE or JSON.
const SNIFF_LIMIT: usize = 16 * 1024;

/// The body of a 2xx streaming answer, refused with `html_page_error` when it is an HTML page
/// (by `Content-Type` or by its first bytes); otherwise the whole body, first chunk included.
pub async fn api_body_stream(
    response: reqwest::Response,
    target: &str,
    idle: Duration,
    cancel: &CancellationToken,
) -> Result<impl Stream<Item = Result<Vec<u8>, ProviderError>> + Send + 'static, ProviderError> {
    let is_html = response
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|ct| ct.to_ascii_lowercase().contains("html"));
    let mut body = Box::pin(body_stream(response, target));
    let first = tokio::select! {
        biased;
        () = cancel.cancelled() => return Err(ProviderError::Cancelled),
        next = tokio::time::timeout(idle, body.next()) => match next {
            Err(_elapsed) => return Err(ProviderError::Hang { idle_secs: idle.as_secs() }),
            Ok(Some(chunk)) => chunk?,
            Ok(None) => Vec::new(),
        },
    };
    let head = String::from_utf8_lossy(&first[..first.len().min(SNIFF_LIMIT)]).into_owned();
    if let Some(error) = html_page_error(target, &head) {
        return Err(error);
    }
    if is_html {
        return Err(ProviderError::BadResponse {
            message: format!(
                "the server at {target} answered with an HTML page, not an API response — a proxy or login page, or the wrong model.base_url?"
            ),
        });
    }
    Ok(futures::stream::iter([Ok(first)]).chain(body))
}

/// The response body as a byte stream with reqwest errors already classified.
pub fn body_stream(
    response: reqwest::Response,
    target: &str,
) -> impl Stream<Item = Result<Vec<u8>, ProviderError>> + Send + 'static {
    let target = target.to_string();
    response.bytes_stream().map(move |chunk| {
        chunk
            .map(|b| b.to_vec())
            .map_err(|e| classify_reqwest(&e, &target))
    })
}

/// Reads a whole body (lossy UTF-8) under the idle watchdog, keeping at most `limit` bytes.
pub async fn read_body(
    response: reqwest::Response,
    target: &str,
    idle: Duration,
    cancel: &CancellationToken,
    limit: usize,
) -> Result<String, ProviderError> {
    let mut stream = Box::pin(watchdog(
        body_stream(response, target),
        idle,
        cancel.clone(),
    ));
    let mut bytes = Vec::new();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk?;
        let room = limit.saturating_sub(bytes.len());
        bytes.extend_from_slice(&chunk[..chunk.len().min(room)]);
        if bytes.len() >= limit {
            break;
        }
    }
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// Maps a reqwest failure to `Transport` (or `Hang` for timeouts), naming `target`. Only a
/// failure before the provider answered says "could not reach the provider".
pub fn classify_reqwest(err: &reqwest::Error, target: &str) -> ProviderError {
    use std::io::ErrorKind;
    let io_kind = io_error_kind(err);
    let cause = root_cause(err);
    let message = match io_kind {
        _ if speaks_plain_http(&cause) => format!(
            "could not reach the provider: {target} speaks plain HTTP, not HTTPS — use http:// in model.base_url"
        ),
        Some(ErrorKind::ConnectionRefused) => {
            format!("could not reach the provider: connection refused to {target}")
        }
        Some(
            ErrorKind::ConnectionReset
            | ErrorKind::ConnectionAborted
            | ErrorKind::BrokenPipe
            | ErrorKind::UnexpectedEof,
        ) if err.is_body() || err.is_decode() => {
            format!("the connection to {target} was reset while the answer was streaming")
        }
        Some(
            ErrorKind::ConnectionReset
            | ErrorKind::ConnectionAborted
            | ErrorKind::BrokenPipe
            | ErrorKind::UnexpectedEof,
        ) => format!("the connection to {target} was reset before it answered"),
        _ if err.is_timeout() => {
            format!("could not reach the provider: timed out connecting to {target}")
        }
        _ if err.is_connect() => {
            format!("could not reach the provider: could not connect to {target}: {cause}")
        }
        _ if err.is_body() || err.is_decode() => {
            format!("the connection to {target} broke while reading the response: {cause}")
        }
        _ if err.is_redirect() => format!("{target} redirected too many times: {cause}"),
        _ => format!("the request to {target} failed: {cause}"),
    };
    ProviderError::Transport { message }
}

/// rustls's complaint when the other side answered a TLS hello with plain HTTP.
fn speaks_plain_http(cause: &str) -> bool {
    cause.contains("InvalidContentType") || cause.contains("invalid content type")
}

fn io_error_kind(err: &(dyn std::error::Error + 'static)) -> Option<std::io::ErrorKind> {
    let mut current: Option<&(dyn std::error::Error + 'static)> = Some(err);
    while let Some(e) = current {
        if let Some(io) = e.downcast_ref::<std::io::Error>() {
            return Some(io.kind());
        }
        current = e.source();
    }
    None
}

#[cfg(test)]
#[path = "http_tests.rs"]
mod tests;
