//! The web settings of `config.yaml`: `web:` (Hermes's keys `backend`, `search_backend`,
//! `extract_backend`, `extract_char_limit`, plus hermes's `allow_private_urls`, `cache_ttl`,
//! `cache_max_mb`, `timeout`) and the private-address opt-ins Hermes reads from
//! `security.allow_private_urls` and `browser.allow_private_urls`. Plain data: `web` and the
//! web tools interpret it (backend choice, SSRF guard, long-page cache).

use serde::Deserialize;
use serde::Serialize;

/// `web:` — which backends `web_search` / `web_extract` use and what a page may cost.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct WebConfig {
    /// Shared backend for both tools (`native`, `ddgs`, `searxng`, `brave-free`, `tavily`,
    /// `exa`, `firecrawl`, `parallel`); empty: auto-detect from the keys present.
    pub backend: String,
    /// Backend for `web_search` only; wins over `backend`.
    pub search_backend: String,
    /// Backend for `web_extract` only; wins over `backend`.
    pub extract_backend: String,
    /// Characters of one page sent to the model (Hermes clamps to 2,000–500,000).
    pub extract_char_limit: u64,
    /// Let `web_extract` fetch loopback, private, CGNAT and IPv6 link-local addresses; cloud
    /// metadata and the whole IPv4 link-local range they live in stay refused, as in Hermes. Unset: `security.allow_private_urls`, then `browser.allow_private_urls`.
    pub allow_private_urls: Option<bool>,
    /// Seconds a saved full page in `HERMES_HOME/cache/web/` is kept.
    pub cache_ttl: u64,
    /// The most the page cache may hold, in MB; the oldest entries go first.
    pub cache_max_mb: u64,
    /// Seconds one URL may take, connect to last byte.
    pub timeout: u64,
}

impl Default for WebConfig {
    fn default() -> Self {
        Self {
            backend: String::new(),
            search_backend: String::new(),
            extract_backend: String::new(),
            extract_char_limit: 15_000,
            allow_private_urls: None,
            cache_ttl: 7 * 24 * 3600,
            cache_max_mb: 200,
            timeout: 30,
        }
    }
}

impl WebConfig {
    /// Hermes's clamp of `extract_char_limit`.
    pub fn char_limit(&self) -> usize {
        clamp_char_limit(self.extract_char_limit)
    }
}

/// A per-page character budget clamped as Hermes does (2,000–500,000).
pub fn clamp_char_limit(limit: u64) -> usize {
    limit.clamp(2_000, 500_000) as usize
}

/// The `allow_private_urls` flag of a section that has one (`security:`, `browser:`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct PrivateUrlsFlag {
    pub allow_private_urls: bool,
}

/// Whether the web tools may reach private addresses, by Hermes's precedence: the
/// `HERMES_ALLOW_PRIVATE_URLS` environment value (`true/1/yes` or `false/0/no`), then
/// `web.allow_private_urls`, then `security.allow_private_urls`, then `browser.allow_private_urls`.
pub fn private_urls_allowed(
    env_value: Option<&str>,
    web: &WebConfig,
    security: bool,
    browser: bool,
) -> bool {
    match env_value.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
        Some("true" | "1" | "yes") => return true,
        Some("false" | "0" | "no") => return false,
        _ => {}
    }
    web.allow_private_urls.unwrap_or(security || browser)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hermes_keys_read_with_defaults() {
        let web: WebConfig =
            serde_norway::from_str("backend: searxng\nextract_char_limit: 900\n").unwrap();
        assert_eq!(web.backend, "searxng");
        assert_eq!(web.char_limit(), 2_000, "clamped up to Hermes's floor");
        assert_eq!(WebConfig::default().char_limit(), 15_000);
        assert_eq!(clamp_char_limit(9_000_000), 500_000);
    }

    #[test]
    fn private_urls_follow_hermes_precedence() {
        let mut web = WebConfig::default();
        assert!(!private_urls_allowed(None, &web, false, false));
        assert!(private_urls_allowed(None, &web, true, false));
        assert!(private_urls_allowed(None, &web, false, true));
        assert!(!private_urls_allowed(Some("no"), &web, true, true));
        assert!(private_urls_allowed(Some("1"), &web, false, false));
        web.allow_private_urls = Some(false);
        assert!(!private_urls_allowed(None, &web, true, true));
    }
}
