//! The web service: search backends, page fetching behind an SSRF guard, and main-content
//! extraction to markdown. The `web_search` / `web_extract` tools (in `tools`) wrap it; this
//! module knows nothing of tool calls, the model or the cache under `HERMES_HOME`.
//!
//! - `guard`: which addresses and URLs may be fetched (private ranges, cloud metadata,
//!   secrets in URLs), applied after DNS resolution and on every redirect hop.
//! - `fetch`: the guarded HTTP fetch (pinned to the checked address, download cap, timeouts,
//!   charset decoding) that returns a `FetchedPage`.
//! - `extract`: a fetched document to clean text (HTML main content → markdown, plain text,
//!   JSON, PDF).
//! - `backends`: the search and extract services (DuckDuckGo HTML, SearXNG, Brave, Tavily, Exa,
//!   Firecrawl, Parallel) and the native extractor, and which one a capability uses.
//!
//! Invariants: nothing here panics on hostile input; every failure is a `WebError` whose text
//! says what happened in words a user or model can act on; no API key appears in an error.

pub mod backends;
mod error;
pub mod extract;
pub mod fetch;
pub mod guard;

pub use error::WebError;

/// One search result, as Hermes's `data.web[]` entries.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SearchHit {
    pub title: String,
    pub url: String,
    pub description: String,
    /// 1-based rank.
    pub position: usize,
}

/// One extracted page, as Hermes's `results[]` entries: `error` set means `content` is empty.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct PageResult {
    /// The URL asked for (Hermes reports the requested URL, not the final one).
    pub url: String,
    pub title: String,
    /// The page's clean text (markdown for HTML), whole; the tool truncates.
    pub content: String,
    pub error: Option<String>,
    /// Where the fetch ended after redirects, when it differs from `url`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub final_url: Option<String>,
    /// What the page was (`text/html`, `application/pdf`, …), for the UI.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content_type: Option<String>,
}

impl PageResult {
    /// A failed URL with its reason.
    pub fn failed(url: &str, error: impl std::fmt::Display) -> Self {
        Self {
            url: url.to_string(),
            error: Some(error.to_string()),
            ..Self::default()
        }
    }
}
