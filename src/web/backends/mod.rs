//! The search and extract services behind `web_search` / `web_extract`, and the choice of one
//! per capability (`select`). Each backend speaks its service's documented HTTP format and
//! takes its base URL from the environment as well as its key, so it can be pointed at a
//! self-hosted instance (or a loopback fake in tests).
//!
//! Invariants: a backend never panics on a malformed response (it is a `WebError`); an API
//! key is sent only to its own service's base URL and never appears in an error.

pub mod native;

use async_trait::async_trait;

pub mod brave;
pub mod ddgs;
pub mod exa;
pub mod firecrawl;
pub mod parallel;
pub mod searxng;
pub mod select;
mod service;
pub mod tavily;

pub use select::BackendStatus;
pub use select::Capability;
pub use select::EnvLookup;
pub use select::ExtractChoice;
pub use select::SelectError;
pub use service::service_client;

/// The loopback fakes of the services (`tests/support/web_fakes`), shared with the
/// integration suite.
#[cfg(test)]
#[path = "../../../tests/support/web_fakes/mod.rs"]
pub(crate) mod fakes;
#[cfg(test)]
mod testing;

use super::PageResult;
use super::SearchHit;
use super::WebError;

/// The backends by Hermes's names (`web.backend` values), plus hermes's keyless `native`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BackendName {
    /// hermes's own fetch + readability extraction (extract only, no key).
    Native,
    /// DuckDuckGo's HTML results page (search only, no key).
    Ddgs,
    Searxng,
    BraveFree,
    Tavily,
    Exa,
    Firecrawl,
    Parallel,
}

impl BackendName {
    pub const ALL: [BackendName; 8] = [
        Self::Native,
        Self::Ddgs,
        Self::Searxng,
        Self::BraveFree,
        Self::Tavily,
        Self::Exa,
        Self::Firecrawl,
        Self::Parallel,
    ];

    /// The config spelling (`brave-free`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Native => "native",
            Self::Ddgs => "ddgs",
            Self::Searxng => "searxng",
            Self::BraveFree => "brave-free",
            Self::Tavily => "tavily",
            Self::Exa => "exa",
            Self::Firecrawl => "firecrawl",
            Self::Parallel => "parallel",
        }
    }

    /// The service's own name, as errors and `hermes tools` show it (Hermes's display names).
    pub fn display_name(self) -> &'static str {
        match self {
            Self::Native => "native",
            Self::Ddgs => "DuckDuckGo",
            Self::Searxng => "SearXNG",
            Self::BraveFree => "Brave Search",
            Self::Tavily => "Tavily",
            Self::Exa => "Exa",
            Self::Firecrawl => "Firecrawl",
            Self::Parallel => "Parallel",
        }
    }

    /// Whether the backend can serve `web_search` (`Search`) or `web_extract` (`Extract`).
    pub fn supports(self, capability: Capability) -> bool {
        match capability {
            Capability::Search => self != Self::Native,
            Capability::Extract => matches!(
                self,
                Self::Native | Self::Tavily | Self::Exa | Self::Firecrawl | Self::Parallel
            ),
        }
    }

    /// Parse a config value, case-insensitively; `None` for names hermes does not have.
    pub fn parse(value: &str) -> Option<Self> {
        let value = value.trim().to_ascii_lowercase();
        Self::ALL.into_iter().find(|b| b.as_str() == value)
    }
}

impl std::fmt::Display for BackendName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A service `web_search` can use.
#[async_trait]
pub trait SearchBackend: Send + Sync {
    fn name(&self) -> BackendName;
    /// Up to `limit` results, ranked, positions from 1.
    async fn search(&self, query: &str, limit: usize) -> Result<Vec<SearchHit>, WebError>;
}

/// Per-URL progress of an extraction, for the tool's live lines. Must not block.
pub trait ExtractProgress: Send + Sync {
    fn started(&self, url: &str);
    fn finished(&self, result: &PageResult);
}

/// A service `web_extract` can use.
#[async_trait]
pub trait ExtractBackend: Send + Sync {
    fn name(&self) -> BackendName;
    /// One result per URL, in input order; a URL that fails has `error` set, the others
    /// still succeed.
    async fn extract(&self, urls: &[String], progress: &dyn ExtractProgress) -> Vec<PageResult>;
}
