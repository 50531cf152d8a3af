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
        let body = read_body(response, target, idle, cancel, ERROR_BODY_LIMIT).await?;
        Ok(Self {
            status,
            retry_after,
            body,
        })
    }

    pub fn into_failure(self) -> Failure {
        Failure {
            error: classify_status(self.status, self.retry_after, &self.body),
            retry_after: self.retry_after,
        }
    }
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

/// Maps a reqwest failure to `Transport` (or `Hang` for timeouts), naming `target`.
pub fn classify_reqwest(err: &reqwest::Error, target: &str) -> ProviderError {
    use std::io::ErrorKind;
    let io_kind = io_error_kind(err);
    let message = match io_kind {
        Some(ErrorKind::ConnectionRefused) => format!("connection refused to {target}"),
        Some(
            ErrorKind::ConnectionReset
            | ErrorKind::ConnectionAborted
            | ErrorKind::BrokenPipe
            | ErrorKind::UnexpectedEof,
        ) => format!("connection reset by {target}"),
        _ if err.is_timeout() => format!("timed out connecting to {target}"),
        _ if err.is_connect() => format!("could not connect to {target}: {}", root_cause(err)),
        _ if err.is_body() || err.is_decode() => {
            format!(
                "the connection to {target} broke while reading the response: {}",
                root_cause(err)
            )
        }
        _ => format!("request to {target} failed: {}", root_cause(err)),
    };
    ProviderError::Transport { message }
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
