//! `WebError`: why a search or a page fetch failed, worded for the user and the model (what
//! happened and, where there is one, what to do). Never carries an API key or a response body
//! longer than a short hint.

/// A failed web request. `Display` is the one line the tool result and the UI show.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WebError {
    /// The SSRF guard or the secret check refused the URL before or during the fetch.
    #[error("blocked: {reason}")]
    Blocked { reason: String },
    #[error("not a web address: {reason}")]
    BadUrl { reason: String },
    #[error("DNS lookup for {host} failed: {detail}")]
    Dns { host: String, detail: String },
    #[error("could not connect to {host}: {detail}")]
    Connect { host: String, detail: String },
    #[error("TLS handshake with {host} failed: {detail}")]
    Tls { host: String, detail: String },
    #[error("timed out after {seconds} s")]
    Timeout { seconds: u64 },
    /// A non-success HTTP status from a page (403, 404, 500, …).
    #[error("HTTP {status}{}", reason.as_deref().map(|r| format!(" {r}")).unwrap_or_default())]
    Status { status: u16, reason: Option<String> },
    #[error("larger than the {limit_mb} MB download cap")]
    TooLarge { limit_mb: u64 },
    #[error("not a text document ({content_type})")]
    NotText { content_type: String },
    #[error("more than {limit} redirects")]
    TooManyRedirects { limit: usize },
    #[error("the page has no readable text")]
    Empty,
    /// A search/extract service refused the key (401/403).
    #[error("{backend} rejected the API key (HTTP {status}); check {key_hint}")]
    Unauthorized {
        backend: &'static str,
        status: u16,
        key_hint: String,
    },
    #[error("{backend} is rate limiting (HTTP 429){}", retry_after.map(|s| format!("; retry after {s} s")).unwrap_or_default())]
    RateLimited {
        backend: &'static str,
        retry_after: Option<u64>,
    },
    /// A service answered with something that is not its documented format.
    #[error("{backend} sent a response hermes could not read: {detail}")]
    BadResponse {
        backend: &'static str,
        detail: String,
    },
    /// A service answered with an error status other than 401/403/429.
    #[error("{backend} answered HTTP {status}{}", detail.as_deref().map(|d| format!(": {d}")).unwrap_or_default())]
    Service {
        backend: &'static str,
        status: u16,
        detail: Option<String>,
    },
    /// A transport failure reaching a service (its DNS, connection or TLS).
    #[error("could not reach {backend}: {detail}")]
    Unreachable {
        backend: &'static str,
        detail: String,
    },
    /// A PDF without a text layer (a scan, or pages that are only images).
    #[error("the PDF has no text layer (scanned or image-only pages; it would need OCR)")]
    PdfNoText,
    /// A PDF the reader could not parse (damaged, encrypted, or a feature it lacks).
    #[error("could not read the PDF: {detail}")]
    BadPdf { detail: String },
    /// A service answered with a bot check (DuckDuckGo's anomaly/CAPTCHA page) instead of
    /// results.
    #[error("{backend} refused the search: {detail}")]
    Challenge {
        backend: &'static str,
        detail: String,
    },
}
