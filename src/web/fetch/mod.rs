//! The guarded GET behind the native `web_extract`: one URL to a [`FetchedPage`] (bytes,
//! content type, final URL) or a [`WebError`] that says what went wrong.
//!
//! How the SSRF guard is kept (see `docs/web-extraction.md`):
//! - the URL is checked by `guard::check_url` first (scheme, secrets, metadata names);
//! - a literal IP host is checked before connecting; a name is resolved by our own resolver
//!   ([`resolve::GuardedResolver`]), which checks every address and hands reqwest only
//!   checked ones, so the address connected to is the address checked (no DNS-rebinding
//!   window between a check and a second lookup);
//! - redirects are followed here, not by reqwest (at most [`MAX_REDIRECTS`]), and every hop
//!   goes through the same checks; a refused hop says it was a redirect;
//! - proxies from the environment are not used: through a proxy the guard could not see the
//!   address finally connected to.
//!
//! Limits: the whole fetch (every hop, and a body that never ends) gets `timeout`; the body
//! is read in chunks and abandoned past `max_bytes` (`TooLarge`). Images, audio, video,
//! fonts and archives are refused by their `Content-Type` before the body is read.
//! Not here: decoding the text and extracting it (`extract`).

pub mod charset;
mod resolve;

pub use resolve::checked_addrs;

use std::net::IpAddr;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use reqwest::Url;
use reqwest::header;

use super::WebError;
use super::guard;
use super::guard::PrivateAddresses;
use crate::config::WebConfig;
use crate::util::http;

/// Redirect hops followed at most.
pub const MAX_REDIRECTS: usize = 10;
/// The download cap: 10 MB.
pub const MAX_BYTES: u64 = 10 * 1024 * 1024;

/// A desktop browser's User-Agent: many sites serve bots a stub or a 403.
const USER_AGENT: &str = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) \
                          Chrome/131.0.0.0 Safari/537.36";
const ACCEPT: &str = "text/html,application/xhtml+xml,application/xml;q=0.9,application/pdf,\
                      text/plain;q=0.8,application/json;q=0.8,*/*;q=0.5";

/// What one fetch may do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FetchOptions {
    pub private: PrivateAddresses,
    /// The whole fetch, first byte sent to last byte read, redirects included.
    pub timeout: Duration,
    pub max_bytes: u64,
    pub max_redirects: usize,
    /// Exact `ip:port`s given as literal-IP URLs that may be fetched although private (a
    /// user's own server, the loopback test site). Only a literal IP in the URL matches: a
    /// name that resolves to one of these is still checked. Metadata addresses never match.
    pub trusted: Vec<SocketAddr>,
    /// Which bodies are read: documents for the web tools, anything for image downloads.
    pub bodies: Bodies,
}

/// What a fetch accepts as a response body.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Bodies {
    /// Text, HTML, JSON, PDF...: binary media types (images, audio, archives) are refused
    /// before their body is read.
    #[default]
    Documents,
    /// Any body (the caller decodes it, e.g. an image).
    Any,
}

impl Default for FetchOptions {
    fn default() -> Self {
        Self {
            private: PrivateAddresses::Refused,
            timeout: Duration::from_secs(30),
            max_bytes: MAX_BYTES,
            max_redirects: MAX_REDIRECTS,
            trusted: Vec::new(),
            bodies: Bodies::Documents,
        }
    }
}

impl FetchOptions {
    /// `web.timeout` (0 means the default) and the caller's private-address setting.
    pub fn from_config(web: &WebConfig, private: PrivateAddresses) -> Self {
        let seconds = if web.timeout == 0 { 30 } else { web.timeout };
        Self {
            private,
            timeout: Duration::from_secs(seconds),
            ..Self::default()
        }
    }
}

/// A page as it came off the wire (after redirects, content-encoding undone).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FetchedPage {
    pub final_url: Url,
    pub status: u16,
    /// The `Content-Type` header as sent, if any.
    pub content_type: Option<String>,
    pub body: Vec<u8>,
}

impl FetchedPage {
    /// The media type without parameters, lowercased (`text/html`).
    pub fn mime(&self) -> Option<String> {
        self.content_type.as_deref().map(mime_essence)
    }

    /// The header's `charset` parameter.
    pub fn charset(&self) -> Option<&str> {
        self.content_type
            .as_deref()
            .and_then(charset::charset_param)
    }
}

/// `text/html; charset=x` → `text/html`.
pub fn mime_essence(content_type: &str) -> String {
    content_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase()
}

/// A client bound to one [`FetchOptions`]: reuse it for many URLs (it pools connections).
#[derive(Clone)]
pub struct Fetcher {
    client: reqwest::Client,
    options: FetchOptions,
}

impl Fetcher {
    pub fn new(options: FetchOptions) -> Result<Self, WebError> {
        http::install_crypto_provider();
        let mut headers = header::HeaderMap::new();
        headers.insert(header::ACCEPT, header::HeaderValue::from_static(ACCEPT));
        headers.insert(
            header::ACCEPT_LANGUAGE,
            header::HeaderValue::from_static("en-US,en;q=0.9"),
        );
        let client = reqwest::Client::builder()
            .user_agent(USER_AGENT)
            .default_headers(headers)
            .redirect(reqwest::redirect::Policy::none())
            .no_proxy()
            .dns_resolver(Arc::new(resolve::GuardedResolver::new(options.private)))
            .connect_timeout(options.timeout)
            .build()
            .map_err(|e| WebError::Connect {
                host: "(client setup)".into(),
                detail: http::root_cause(&e),
            })?;
        Ok(Self { client, options })
    }

    pub fn options(&self) -> &FetchOptions {
        &self.options
    }

    /// GET `raw` under the guard, following redirects, within the timeout and the cap.
    pub async fn fetch(&self, raw: &str) -> Result<FetchedPage, WebError> {
        let url = guard::check_url(raw)?;
        let seconds = self.options.timeout.as_secs();
        tokio::time::timeout(self.options.timeout, self.follow(url))
            .await
            .unwrap_or(Err(WebError::Timeout { seconds }))
    }

    async fn follow(&self, mut url: Url) -> Result<FetchedPage, WebError> {
        let mut hop = 0;
        loop {
            let response = self
                .send(&url)
                .await
                .map_err(|e| if hop > 0 { redirected(&url, e) } else { e })?;
            let status = response.status();
            let location = response
                .headers()
                .get(header::LOCATION)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned);
            if let (true, Some(location)) = (status.is_redirection(), location) {
                if hop >= self.options.max_redirects {
                    return Err(WebError::TooManyRedirects {
                        limit: self.options.max_redirects,
                    });
                }
                let next = url.join(location.trim()).map_err(|e| WebError::BadUrl {
                    reason: format!("redirect to an unreadable address: {e}"),
                })?;
                guard::check_parsed(&location, &next).map_err(|e| redirected(&next, e))?;
                url = next;
                hop += 1;
                continue;
            }
            if !status.is_success() {
                return Err(WebError::Status {
                    status: status.as_u16(),
                    reason: status.canonical_reason().map(str::to_owned),
                });
            }
            return self.read(url, response).await;
        }
    }

    /// One request, after checking a literal IP host (names are checked by the resolver).
    async fn send(&self, url: &Url) -> Result<reqwest::Response, WebError> {
        let literal: Option<IpAddr> = match url.host() {
            Some(url::Host::Ipv4(ip)) => Some(ip.into()),
            Some(url::Host::Ipv6(ip)) => Some(ip.into()),
            Some(url::Host::Domain(_)) | None => None,
        };
        if let Some(ip) = literal {
            let port = url.port_or_known_default().unwrap_or(80);
            let private = if self.options.trusted.contains(&SocketAddr::new(ip, port)) {
                PrivateAddresses::Allowed
            } else {
                self.options.private
            };
            guard::check_addr(&ip.to_string(), ip, private)?;
        }
        self.client
            .get(url.clone())
            .send()
            .await
            .map_err(|e| map_error(&e, url, self.options.timeout))
    }

    async fn read(
        &self,
        final_url: Url,
        mut response: reqwest::Response,
    ) -> Result<FetchedPage, WebError> {
        let content_type = response
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        if let Some(ct) = content_type
            .as_deref()
            .filter(|ct| self.options.bodies == Bodies::Documents && is_binary(&mime_essence(ct)))
        {
            return Err(WebError::NotText {
                content_type: mime_essence(ct),
            });
        }
        let limit_mb = self.options.max_bytes / (1024 * 1024);
        if response
            .content_length()
            .is_some_and(|n| n > self.options.max_bytes)
        {
            return Err(WebError::TooLarge { limit_mb });
        }
        let status = response.status().as_u16();
        let mut body = Vec::new();
        while let Some(chunk) = response
            .chunk()
            .await
            .map_err(|e| map_error(&e, &final_url, self.options.timeout))?
        {
            if (body.len() + chunk.len()) as u64 > self.options.max_bytes {
                return Err(WebError::TooLarge { limit_mb });
            }
            body.extend_from_slice(&chunk);
        }
        Ok(FetchedPage {
            final_url,
            status,
            content_type,
            body,
        })
    }
}

/// Media types that are never text: refused before their body is downloaded.
/// (`application/octet-stream` is let through: servers send PDFs and text as it.)
fn is_binary(mime: &str) -> bool {
    const PREFIXES: &[&str] = &["image/", "audio/", "video/", "font/", "model/"];
    const TYPES: &[&str] = &[
        "application/zip",
        "application/gzip",
        "application/x-gzip",
        "application/x-tar",
        "application/x-7z-compressed",
        "application/x-rar-compressed",
        "application/vnd.rar",
        "application/x-bzip2",
        "application/x-xz",
        "application/zstd",
        "application/wasm",
        "application/x-msdownload",
        "application/x-executable",
        "application/x-sharedlib",
        "application/vnd.android.package-archive",
        "application/x-apple-diskimage",
        "application/vnd.ms-fontobject",
        "application/x-shockwave-flash",
    ];
    PREFIXES.iter().any(|p| mime.starts_with(p)) || TYPES.contains(&mime)
}

/// A hop's refusal or failure, worded as the redirect it was.
fn redirected(to: &Url, err: WebError) -> WebError {
    match err {
        WebError::Blocked { reason } => WebError::Blocked {
            reason: format!("redirect to {} refused: {reason}", to.as_str()),
        },
        other => other,
    }
}

/// A reqwest failure as a `WebError`: the guard's own refusal when the resolver refused, else
/// DNS, TLS, timeout or connection by what the error chain holds.
fn map_error(err: &reqwest::Error, url: &Url, timeout: Duration) -> WebError {
    let host = url.host_str().unwrap_or_default().to_string();
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(err);
    let mut tls = false;
    while let Some(e) = source {
        if let Some(refusal) = e.downcast_ref::<resolve::ResolveError>() {
            return refusal.0.clone();
        }
        let inner = e
            .downcast_ref::<std::io::Error>()
            .and_then(|io| io.get_ref());
        if let Some(refusal) = inner.and_then(|i| i.downcast_ref::<resolve::ResolveError>()) {
            return refusal.0.clone();
        }
        tls |= e.is::<rustls::Error>()
            || inner.is_some_and(<dyn std::error::Error + Send + Sync>::is::<rustls::Error>);
        source = e.source();
    }
    let detail = http::root_cause(err);
    if err.is_timeout() {
        WebError::Timeout {
            seconds: timeout.as_secs(),
        }
    } else if tls {
        WebError::Tls { host, detail }
    } else {
        WebError::Connect { host, detail }
    }
}

#[cfg(test)]
#[path = "mod_tests.rs"]
mod tests;
