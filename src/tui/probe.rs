//! Network checks for onboarding: finding model servers on 127.0.0.1 and testing a chosen
//! provider before it is saved.
//!
//! `probe_local_servers` asks the usual local ports (llama-server 8080, Ollama 11434,
//! LM Studio 1234, vLLM 8000) for `GET /v1/models` concurrently, each under a short timeout,
//! and keeps the ones that answer with an OpenAI-style model list. `test_connection` asks the
//! chosen endpoint for `GET {base}/models` with its key and turns every failure into one
//! actionable line for the user.
//!
//! Invariants: probes only ever contact 127.0.0.1 and never go through a proxy; the API key
//! only travels in a request header and never appears in an error message. This module does
//! not save anything (see `overlays::onboarding::save_choice`) and does not retry.

use std::error::Error as _;
use std::time::Duration;

use futures::future::join_all;
use serde::Deserialize;

use super::overlays::onboarding::ProviderChoice;
use super::overlays::onboarding::hosted_base_url;

/// Servers looked for on 127.0.0.1, with their usual ports.
pub const DEFAULT_LOCAL_PORTS: [(&str, u16); 4] = [
    ("llama-server", 8080),
    ("Ollama", 11434),
    ("LM Studio", 1234),
    ("vLLM", 8000),
];

/// How long each local port gets to answer.
pub const LOCAL_PROBE_TIMEOUT: Duration = Duration::from_millis(300);

const ANTHROPIC_VERSION: &str = "2023-06-01";

/// A model server found on this machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocalServer {
    /// `Ollama`, `LM Studio`, …
    pub name: String,
    /// `http://127.0.0.1:11434/v1`
    pub base_url: String,
    /// Model ids from its `/v1/models`, in the server's order.
    pub models: Vec<String>,
}

impl LocalServer {
    /// `Ollama at http://127.0.0.1:11434/v1 (3 models)`
    pub fn label(&self) -> String {
        let n = self.models.len();
        let plural = if n == 1 { "" } else { "s" };
        format!("{} at {} ({n} model{plural})", self.name, self.base_url)
    }
}

#[derive(Deserialize)]
struct ModelList {
    data: Vec<ModelEntry>,
}

#[derive(Deserialize)]
struct ModelEntry {
    id: String,
}

/// Probes [`DEFAULT_LOCAL_PORTS`].
pub async fn probe_local_servers(timeout: Duration) -> Vec<LocalServer> {
    probe_ports(&DEFAULT_LOCAL_PORTS, timeout).await
}

/// Probes `ports` on 127.0.0.1 concurrently; the result keeps the order of `ports`.
pub async fn probe_ports(ports: &[(&str, u16)], timeout: Duration) -> Vec<LocalServer> {
    let Ok(client) = client(timeout, Proxy::Never) else {
        return Vec::new();
    };
    let probes = ports.iter().map(|&(name, port)| {
        let client = client.clone();
        async move {
            let base_url = format!("http://127.0.0.1:{port}/v1");
            let response = client.get(format!("{base_url}/models")).send().await.ok()?;
            if !response.status().is_success() {
                return None;
            }
            // Something else on the port (not a model server) fails to parse and is skipped.
            let list: ModelList = response.json().await.ok()?;
            Some(LocalServer {
                name: name.to_owned(),
                base_url,
                models: list.data.into_iter().map(|m| m.id).collect(),
            })
        }
    });
    join_all(probes).await.into_iter().flatten().collect()
}

/// Checks that `choice` works: `GET {base}/models` with its key must succeed. For a custom
/// server that lists models, the chosen model must be among them. Errors are one line.
pub async fn test_connection(choice: &ProviderChoice, timeout: Duration) -> Result<(), String> {
    let base = choice
        .base_url
        .as_deref()
        .or_else(|| hosted_base_url(&choice.provider))
        .ok_or_else(|| format!("no base URL is known for provider {:?}", choice.provider))?;
    let base = base.trim_end_matches('/');
    let url = format!("{base}/models");
    let parsed =
        reqwest::Url::parse(&url).map_err(|e| format!("{base} is not a valid URL: {e}"))?;
    let host = match (parsed.host_str(), parsed.port_or_known_default()) {
        (Some(h), Some(p)) => format!("{h}:{p}"),
        (Some(h), None) => h.to_owned(),
        (None, _) => return Err(format!("{base} has no host name")),
    };
    let loopback = matches!(parsed.host_str(), Some("127.0.0.1" | "localhost" | "[::1]"));
    let proxy = if loopback {
        Proxy::Never
    } else {
        Proxy::System
    };
    let client = client(timeout, proxy)?;
    let mut request = client.get(parsed);
    if let Some(key) = choice.api_key.as_deref().filter(|k| !k.is_empty()) {
        request = if choice.provider == "anthropic" {
            request
                .header("x-api-key", key)
                .header("anthropic-version", ANTHROPIC_VERSION)
        } else {
            request.bearer_auth(key)
        };
    }
    let response = request
        .send()
        .await
        .map_err(|e| describe_send_error(&e, &host, base, timeout))?;
    let status = response.status();
    if !status.is_success() {
        return Err(describe_status(status.as_u16(), &url));
    }
    if choice.provider == "custom" {
        check_model_listed(response, &choice.model, base).await?;
    }
    Ok(())
}

async fn check_model_listed(
    response: reqwest::Response,
    model: &str,
    base: &str,
) -> Result<(), String> {
    // A server whose list does not parse still answered; only a clear miss is an error.
    let Ok(list) = response.json::<ModelList>().await else {
        return Ok(());
    };
    let ids: Vec<String> = list.data.into_iter().map(|m| m.id).collect();
    if ids.is_empty() || ids.iter().any(|id| id == model) {
        return Ok(());
    }
    let mut shown = ids.iter().take(5).cloned().collect::<Vec<_>>().join(", ");
    if ids.len() > 5 {
        shown.push_str(", …");
    }
    Err(format!(
        "{base} does not serve model {model:?}; it has: {shown}"
    ))
}

/// Whether requests may use the system proxy settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Proxy {
    /// Loopback: a proxy could only get in the way.
    Never,
    System,
}

fn client(timeout: Duration, proxy: Proxy) -> Result<reqwest::Client, String> {
    // reqwest is built without a TLS crypto provider and panics if none is installed; the
    // binary installs ring at startup, and this keeps tests and other callers safe too.
    // Err only means a provider is already installed.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let mut builder = reqwest::Client::builder()
        .timeout(timeout)
        .connect_timeout(timeout)
        .user_agent(concat!("hermes/", env!("CARGO_PKG_VERSION")));
    if proxy == Proxy::Never {
        builder = builder.no_proxy();
    }
    builder
        .build()
        .map_err(|e| format!("cannot set up an HTTP client: {e}"))
}

fn describe_status(status: u16, url: &str) -> String {
    match status {
        401 | 403 => format!("the key was rejected (HTTP {status}); check it and try again"),
        404 => {
            format!("{url} was not found (HTTP 404); check the base URL (it usually ends in /v1)")
        }
        429 => {
            "the server is rate limiting requests (HTTP 429); wait a moment and retry".to_owned()
        }
        500..=599 => format!("the server had an error (HTTP {status}); try again later"),
        _ => format!("unexpected answer HTTP {status} from {url}"),
    }
}

fn describe_send_error(
    error: &reqwest::Error,
    host: &str,
    base: &str,
    timeout: Duration,
) -> String {
    let chain = error_chain(error);
    let io_kind = io_error_kind(error);
    if io_kind == Some(std::io::ErrorKind::ConnectionRefused) {
        return format!("nothing is listening at {host}; is the server running? ({base})");
    }
    if error.is_timeout() || io_kind == Some(std::io::ErrorKind::TimedOut) {
        return format!(
            "no answer from {host} within {:.1}s; check the URL and your network",
            timeout.as_secs_f64()
        );
    }
    let lower = chain.to_lowercase();
    if lower.contains("dns") || lower.contains("lookup") || lower.contains("resolve") {
        return format!("cannot find the host {host}; check the URL and your network");
    }
    if lower.contains("certificate") || lower.contains("tls") {
        return format!("secure connection to {host} failed: {chain}");
    }
    format!("could not reach {host}: {chain}")
}

fn io_error_kind(error: &reqwest::Error) -> Option<std::io::ErrorKind> {
    let mut source = error.source();
    while let Some(e) = source {
        if let Some(io) = e.downcast_ref::<std::io::Error>() {
            return Some(io.kind());
        }
        source = e.source();
    }
    None
}

/// The innermost error's message (reqwest's outer messages repeat the URL).
fn error_chain(error: &reqwest::Error) -> String {
    let mut last: &dyn std::error::Error = error;
    while let Some(next) = last.source() {
        last = next;
    }
    last.to_string()
        .lines()
        .next()
        .unwrap_or_default()
        .to_owned()
}

#[cfg(test)]
#[path = "probe_tests.rs"]
mod tests;
