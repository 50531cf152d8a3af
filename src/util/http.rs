//! The process's HTTP client: installing rustls's crypto provider and building the reqwest
//! client every HTTP user shares (providers, MCP over HTTP, voice, vision downloads).
//!
//! Not here: sending requests, the idle watchdog or mapping failures to provider errors
//! (`providers::http`). Invariants: there is no total request timeout (a long answer may
//! stream for minutes; only connecting is bounded), and nothing here logs request headers.

use std::time::Duration;

const CONNECT_TIMEOUT: Duration = Duration::from_secs(15);

/// The HTTP client could not be built (TLS backend or system configuration). Carries the
/// innermost cause's text rather than the `reqwest::Error`, so that setup errors stay
/// `Clone` and comparable (`ProviderSetupError` is).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("could not build the HTTP client: {message}")]
pub struct ClientError {
    pub message: String,
}

/// Installs rustls's `ring` crypto provider as the process default. Idempotent: a provider
/// installed earlier (by us or another crate) is kept.
pub fn install_crypto_provider() {
    // Err means a default is already installed, which is exactly what we want.
    let _ = rustls::crypto::ring::default_provider().install_default();
}

/// The client every HTTP user shares (connection pooling, HTTP/2).
pub fn build_client() -> Result<reqwest::Client, ClientError> {
    base_builder().build().map_err(|e| ClientError {
        message: root_cause(&e),
    })
}

/// The client for model providers. Like `build_client`, but redirects are followed only when
/// they keep the request as it is: a 307/308 within the same origin. A 301/302/303 would
/// turn the POST into a GET (ending in a puzzling 405), and a hop to another origin would
/// carry the key in headers reqwest does not strip (`x-api-key`, custom headers); those
/// stop, and the provider reports where the endpoint pointed.
pub fn build_provider_client() -> Result<reqwest::Client, ClientError> {
    base_builder()
        .redirect(reqwest::redirect::Policy::custom(provider_redirect))
        .build()
        .map_err(|e| ClientError {
            message: root_cause(&e),
        })
}

/// Redirect hops a provider request follows at most.
const MAX_PROVIDER_REDIRECTS: usize = 5;

fn provider_redirect(attempt: reqwest::redirect::Attempt<'_>) -> reqwest::redirect::Action {
    let keeps_request = matches!(attempt.status().as_u16(), 307 | 308);
    let same_origin = attempt
        .previous()
        .last()
        .is_some_and(|from| from.origin() == attempt.url().origin());
    if keeps_request && same_origin && attempt.previous().len() <= MAX_PROVIDER_REDIRECTS {
        attempt.follow()
    } else {
        attempt.stop()
    }
}

fn base_builder() -> reqwest::ClientBuilder {
    install_crypto_provider();
    reqwest::Client::builder()
        .connect_timeout(CONNECT_TIMEOUT)
        .tcp_keepalive(Duration::from_secs(30))
        .user_agent(concat!("hermes/", env!("CARGO_PKG_VERSION")))
}

/// The innermost error's message: reqwest's own `Display` can include the URL, the root
/// cause is the informative part ("Connection refused (os error 111)").
pub fn root_cause(err: &(dyn std::error::Error + 'static)) -> String {
    let mut current = err;
    while let Some(next) = current.source() {
        current = next;
    }
    current.to_string()
}
