//! Typed provider errors. Each carries what a user needs to act on it; `Display` is a single
//! line suitable for the status area or stderr. Never contains API keys or auth headers.

use std::time::Duration;

use crate::protocol::ErrorKind;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProviderError {
    #[error(
        "the model returned an empty response (no text and no tool calls) — try again or switch model"
    )]
    EmptyResponse,
    #[error(
        "the provider stopped sending data for {idle_secs}s (stream idle timeout) — the server may be overloaded; try again or raise provider.stream_idle_timeout"
    )]
    Hang { idle_secs: u64 },
    #[error(
        "rate limited by the provider{} — wait and try again, or switch model",
        retry_hint(retry_after)
    )]
    RateLimited { retry_after: Option<Duration> },
    #[error(
        "authentication failed (HTTP {status}): {message} — check the API key in HERMES_HOME/.env or model.api_key"
    )]
    Auth { status: u16, message: String },
    /// Credentials that are read at request time (AWS) could not be found or used.
    #[error("no usable credentials: {message}")]
    Credentials { message: String },
    /// A stored login (`hermes login nous`) that could not be used; the message is one line
    /// saying what to run.
    #[error("{message}")]
    Login { message: String },
    #[error("the conversation is too long for the model's context window: {message}")]
    ContextTooLong { message: String },
    /// A network or server-side failure; the message is a whole sentence that says whether
    /// the provider was reached ("could not reach the provider: …" only when it was not).
    #[error("{message}")]
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
            Self::Auth { .. } | Self::Credentials { .. } | Self::Login { .. } => ErrorKind::Auth,
            Self::ContextTooLong { .. } => ErrorKind::ContextTooLong,
            Self::Transport { .. } => ErrorKind::Transport,
            Self::BadResponse { .. } => ErrorKind::BadResponse,
            Self::Cancelled => ErrorKind::Internal,
        }
    }
}

/// Why a provider could not be set up from the configuration (before any request is made).
/// Messages are one line, say what to change and where, and never contain a key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProviderSetupError {
    #[error(
        "no API key for provider `{provider}`: set {env_var} in HERMES_HOME/.env (default ~/.hermes/.env) or model.api_key in config.yaml"
    )]
    MissingKey { provider: String, env_var: String },
    #[error(
        "no model provider configured: set model.provider (and model.base_url for a local server) in config.yaml, or put a provider's key (OPENROUTER_API_KEY, ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY, DEEPSEEK_API_KEY, …) in HERMES_HOME/.env (default ~/.hermes/.env)"
    )]
    NoProvider,
    #[error(
        "unknown provider `{name}` in {origin}{}; known providers: {valid}, or a name under `providers:` in config.yaml",
        did_you_mean(suggestion)
    )]
    UnknownProvider {
        name: String,
        /// Where the name came from (`model.provider`, `--provider`, …).
        origin: String,
        suggestion: Option<String>,
        valid: String,
    },
    /// A provider Hermes has that needs something hermes does not do (an account login, a
    /// helper program).
    #[error("provider `{provider}` ({origin}) {why}; use {instead}")]
    Unsupported {
        provider: String,
        origin: String,
        why: String,
        instead: String,
    },
    #[error(
        "provider `{provider}` needs a login: run `hermes login {provider}` (or set NOUS_API_KEY in HERMES_HOME/.env)"
    )]
    NeedsLogin { provider: String },
    #[error(
        "provider `{provider}` is disabled in config.yaml (providers.{provider}.enabled: false)"
    )]
    Disabled { provider: String },
    #[error(
        "provider `{provider}` needs model.base_url (e.g. http://127.0.0.1:8080/v1 for llama-server, http://127.0.0.1:11434/v1 for Ollama)"
    )]
    MissingBaseUrl { provider: String },
    #[error(
        "provider `{provider}` has no default endpoint: set model.base_url in config.yaml or {env_var} in HERMES_HOME/.env"
    )]
    MissingEndpoint { provider: String, env_var: String },
    #[error(
        "invalid model.base_url `{}`: {reason}",
        crate::util::redact::strip_url_credentials(url)
    )]
    InvalidBaseUrl { url: String, reason: String },
    #[error(
        "unknown model.api_mode `{mode}`; valid modes: chat_completions, anthropic_messages, codex_responses, bedrock_converse"
    )]
    UnknownApiMode { mode: String },
    #[error(transparent)]
    HttpClient(#[from] crate::util::http::ClientError),
}

fn did_you_mean(suggestion: &Option<String>) -> String {
    match suggestion {
        Some(name) => format!(" (did you mean `{name}`?)"),
        None => String::new(),
    }
}

#[cfg(test)]
#[path = "error_tests.rs"]
mod tests;
