//! Typed provider errors. Each carries what a user needs to act on it; `Display` is a single
//! line suitable for the status area or stderr. Never contains API keys or auth headers.

use std::time::Duration;

use crate::protocol::ErrorKind;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProviderError {
    #[error("the model returned an empty response (no text and no tool calls) — try again or switch model")]
    EmptyResponse,
    #[error("the provider stopped sending data for {idle_secs}s (stream idle timeout) — the server may be overloaded; try again or raise provider.stream_idle_timeout")]
    Hang { idle_secs: u64 },
    #[error("rate limited by the provider{} — wait and try again, or switch model", retry_hint(retry_after))]
    RateLimited { retry_after: Option<Duration> },
    #[error("authentication failed (HTTP {status}): {message} — check the API key in HERMES_HOME/.env or model.api_key")]
    Auth { status: u16, message: String },
    #[error("the conversation is too long for the model's context window: {message}")]
    ContextTooLong { message: String },
    #[error("could not reach the provider: {message}")]
    Transport { message: String },
    #[error("the provider sent a response hermes could not understand: {message}")]
    BadResponse { message: String },
    #[error("request cancelled")]
    Cancelled,
}

fn retry_hint(retry_after: &Option<Duration>) -> String {
    match retry_after {
        Some(d) => format!(" (retry after {}s)", d.as_secs()),
        None => String::new(),
    }
}

impl ProviderError {
    /// The protocol family of this error (`Cancelled` maps to `Internal`; the engine reports
    /// cancellation as an interrupted turn, not as an error).
    pub fn kind(&self) -> ErrorKind {
        match self {
            Self::EmptyResponse => ErrorKind::EmptyResponse,
            Self::Hang { .. } => ErrorKind::Hang,
            Self::RateLimited { .. } => ErrorKind::RateLimited,
            Self::Auth { .. } => ErrorKind::Auth,
            Self::ContextTooLong { .. } => ErrorKind::ContextTooLong,
            Self::Transport { .. } => ErrorKind::Transport,
            Self::BadResponse { .. } => ErrorKind::BadResponse,
            Self::Cancelled => ErrorKind::Internal,
        }
    }
}
