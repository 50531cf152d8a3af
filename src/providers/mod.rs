//! LLM providers: the `Provider` trait, the wire formats (OpenAI chat completions, Anthropic
//! Messages, OpenAI Responses, AWS Bedrock Converse), SSE parsing, retries with backoff and the
//! idle watchdog, the registry of provider profiles (every provider of Python Hermes 0.19,
//! `auto`, the user's own `providers:` entries), and the Nous Portal device-code login with
//! its token refresh (`nous_login*`).
//!
//! Providers know nothing about tools' behaviour, sessions or the UI. They turn a
//! `ChatRequest` into a `Completion`, reporting `StreamDelta`s as they arrive, and fail only
//! with a typed `ProviderError`.

pub mod anthropic;
pub mod anthropic_stream;
mod auto_detect;
pub mod aws_auth;
pub mod bedrock;
pub mod bedrock_stream;
pub mod capabilities;
pub mod config_check;
mod endpoint_rules;
pub mod error;
pub mod http;
pub mod image_blocks;
mod lossy_json;
pub mod nous_login;
mod nous_login_http;
pub mod nous_login_provider;
pub mod nous_login_refresh;
pub mod nous_login_token;
pub mod openai_chat;
pub mod openai_responses;
pub mod openai_stream;
pub mod output;
mod profiles;
pub mod prompt_cache;
pub mod registry;
mod resolve_build;
pub mod responses_stream;
pub mod retry;
mod select;
pub mod sse;
pub mod think;
pub mod types;
mod unsupported;
pub mod wire;

#[cfg(test)]
mod nous_login_test_support;
#[cfg(test)]
pub mod recording;
#[cfg(test)]
mod test_images;

pub use error::ProviderError;
pub use error::ProviderSetupError;
pub use profiles::is_provider_credential;
pub use registry::AuthScheme;
pub use registry::CredentialSources;
pub use registry::ProviderRequest;
pub use registry::ResolvedProvider;
pub use registry::Secret;
pub use registry::StoredLogin;
pub use registry::resolve;
pub use registry::resolve_request;
pub use registry::resolve_with;
pub use types::*;
pub use wire::ApiMode;
pub use wire::build;

use async_trait::async_trait;
use tokio_util::sync::CancellationToken;

/// Receives streaming deltas. Called from the provider's task; must not block.
pub type DeltaSink<'a> = &'a (dyn Fn(StreamDelta) + Send + Sync);

#[async_trait]
pub trait Provider: Send + Sync {
    /// Profile name (`openrouter`, `anthropic`, `custom`, …) for status lines.
    fn name(&self) -> &str;

    /// Run one API call. Retries (429/5xx/connection errors, one idle-hang retry) happen
    /// inside; the error returned is final. Cancelling `cancel` returns
    /// `ProviderError::Cancelled` promptly.
    async fn complete(
        &self,
        request: &ChatRequest,
        on_delta: DeltaSink<'_>,
        cancel: &CancellationToken,
    ) -> Result<Completion, ProviderError>;
}
