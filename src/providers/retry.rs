//! Error classification from HTTP status + body, exponential backoff with jitter, and the
//! retry driver every provider wraps its attempts in.
//!
//! Retried: 429 (`RateLimited`), 5xx and connection failures (`Transport`), up to
//! `max_retries` times; a `Hang` is retried once (it counts against the same budget, so
//! `max_retries: 0` disables it). Everything else (auth, context length, bad responses,
//! cancellation, empty responses) is final.
//!
//! Invariant — no duplicated output: a retry happens only while nothing has been delivered to
//! the caller's `on_delta` for this call. Once a delta went out, re-running the request would
//! show the user the same text twice, so the error is returned instead and the engine decides.
//! `Retry-After` wins over computed backoff; a server asking for more than `max_retry_after`
//! is not waited for (the `RateLimited` error carries the hint). Cancellation interrupts a
//! backoff sleep at once.

use std::future::Future;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering;
use std::time::Duration;

use tokio_util::sync::CancellationToken;

use super::Completion;
use super::ProviderError;
use super::sse::excerpt;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    pub max_retries: u32,
    /// First backoff delay; doubled per retry. Tests use milliseconds.
    pub base_delay: Duration,
    pub max_delay: Duration,
    /// Longest `Retry-After` hermes is willing to sleep through inside one call.
    pub max_retry_after: Duration,
}

impl RetryPolicy {
    pub fn new(max_retries: u32) -> Self {
        Self {
            max_retries,
            base_delay: Duration::from_secs(1),
            max_delay: Duration::from_secs(30),
            max_retry_after: Duration::from_secs(60),
        }
    }

    /// Delay before retry number `retry` (0-based). `None` means "do not retry": the server's
    /// `Retry-After` is longer than we will wait.
    pub fn backoff(&self, retry: u32, retry_after: Option<Duration>) -> Option<Duration> {
        if let Some(wait) = retry_after {
            return (wait <= self.max_retry_after).then_some(wait);
        }
        let exp = self
            .base_delay
            .saturating_mul(2u32.saturating_pow(retry.min(31)))
            .min(self.max_delay);
        // Jitter in [exp/2, exp] so many clients hitting one limit do not retry in lockstep.
        let half = exp / 2;
        Some(half + half.mul_f64(fastrand::f64()))
    }
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self::new(3)
    }
}

/// A failed attempt: the error plus a server `Retry-After` hint (which `Transport` errors
/// from 5xx responses cannot carry themselves).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub error: ProviderError,
    pub retry_after: Option<Duration>,
}

impl From<ProviderError> for Failure {
    fn from(error: ProviderError) -> Self {
        let retry_after = match &error {
            ProviderError::RateLimited { retry_after } => *retry_after,
            _ => None,
        };
        Self { error, retry_after }
    }
}

/// Runs `attempt` until it succeeds, fails finally, or the retry budget is spent.
/// `emitted` must be set by the caller's sink wrapper whenever a delta is delivered.
pub async fn run<T, F, Fut>(
    label: &str,
    policy: &RetryPolicy,
    cancel: &CancellationToken,
    emitted: &AtomicBool,
    mut attempt: F,
) -> Result<T, ProviderError>
where
    F: FnMut(u32) -> Fut,
    Fut: Future<Output = Result<T, Failure>>,
{
    let mut retries = 0u32;
    let mut hang_retried = false;
    loop {
        let failure = match attempt(retries).await {
            Ok(value) => return Ok(value),
            Err(failure) => failure,
        };
        let error = failure.error;
        if emitted.load(Ordering::SeqCst) || retries >= policy.max_retries || cancel.is_cancelled()
        {
            return Err(error);
        }
        let delay = match &error {
            ProviderError::Hang { .. } if !hang_retried => {
                hang_retried = true;
                // The idle timeout already waited; retry at once.
                Some(Duration::ZERO)
            }
            ProviderError::RateLimited { .. } | ProviderError::Transport { .. } => {
                policy.backoff(retries, failure.retry_after)
            }
            _ => None,
        };
        let Some(delay) = delay else {
            return Err(error);
        };
        retries += 1;
        tracing::warn!(
            provider = label,
            retry = retries,
            max_retries = policy.max_retries,
            delay_ms = delay.as_millis() as u64,
            error = %error,
            "provider call failed; retrying"
        );
        tokio::select! {
            biased;
            () = cancel.cancelled() => return Err(ProviderError::Cancelled),
            () = tokio::time::sleep(delay) => {}
        }
    }
}

/// Parses a `Retry-After` header given in seconds (fractions accepted). HTTP dates are not
/// supported and yield `None` (plain backoff applies).
pub fn parse_retry_after(value: &str) -> Option<Duration> {
    let secs: f64 = value.trim().parse().ok()?;
    (secs.is_finite() && secs >= 0.0).then(|| Duration::from_secs_f64(secs.min(86_400.0)))
}

/// Phrases servers use when the prompt does not fit the context window.
const CONTEXT_MARKERS: &[&str] = &[
    "context length",
    "context_length",
    "context window",
    "maximum context",
    "too many tokens",
    "prompt is too long",
    "input is too long",
    "reduce the length",
    "exceeds the context",
    "context_length_exceeded",
];

/// Maps a non-success HTTP response to a typed error.
pub fn classify_status(status: u16, retry_after: Option<Duration>, body: &str) -> ProviderError {
    let message = server_message(body);
    match status {
        401 | 403 => ProviderError::Auth { status, message },
        429 => ProviderError::RateLimited { retry_after },
        400 | 413 | 422 if mentions_context_length(body) => {
            ProviderError::ContextTooLong { message }
        }
        408 | 500..=599 => ProviderError::Transport {
            message: format!("HTTP {status} from the provider: {message}"),
        },
        _ => ProviderError::BadResponse {
            message: format!("HTTP {status}: {message}"),
        },
    }
}

pub fn mentions_context_length(body: &str) -> bool {
    let lower = body.to_lowercase();
    CONTEXT_MARKERS.iter().any(|m| lower.contains(m))
}

/// The human part of an error body (`error.message`, `error`, `message`, `detail`, or the raw
/// text), one line, at most 300 characters, with anything key-like redacted.
pub fn server_message(body: &str) -> String {
    let from_json = serde_json::from_str::<serde_json::Value>(body)
        .ok()
        .and_then(|v| {
            let pick = |v: &serde_json::Value| v.as_str().map(str::to_string);
            v.pointer("/error/message")
                .and_then(pick)
                .or_else(|| v.get("error").and_then(pick))
                .or_else(|| v.get("message").and_then(pick))
                .or_else(|| v.get("detail").and_then(pick))
        });
    let raw = from_json.unwrap_or_else(|| body.to_string());
    let one_line = raw.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.is_empty() {
        return "(empty response body)".to_string();
    }
    excerpt(&redact(&one_line), 300)
}

/// The debug line both wire formats log when a call ends.
pub fn log_outcome(provider: &str, what: &str, result: &Result<Completion, ProviderError>) {
    match result {
        Ok(c) => tracing::debug!(
            provider,
            tool_calls = c.tool_calls.len(),
            output_tokens = c.usage.output_tokens,
            "{what} done"
        ),
        Err(e) => tracing::debug!(provider, error = %e, "{what} failed"),
    }
}

/// Replaces anything that looks like a key or an auth header with `***` (the shared
/// redaction rules of `util::redact`).
pub fn redact(text: &str) -> String {
    crate::util::redact::redact(text, &[]).into_owned()
}

#[cfg(test)]
#[path = "retry_tests.rs"]
mod tests;
