//! What the web tools share for a session: the `web:` config, whether private addresses may be
//! fetched, the long-page cache, and the backends, chosen per call from the keys the session
//! has then (a key entered mid-session counts at once). The HTTP client for services and the
//! native extractor are built on first use, so a session that never reads the web pays
//! nothing for them.

use std::sync::Arc;
use std::sync::OnceLock;
use std::time::Duration;

use crate::config::WebConfig;
use crate::tools::ToolEnv;
use crate::tools::web_cache::PageCache;
use crate::web::WebError;
use crate::web::backends::ExtractBackend;
use crate::web::backends::SearchBackend;
use crate::web::backends::native::NativeExtract;
use crate::web::backends::select;
use crate::web::backends::select::ExtractChoice;
use crate::web::fetch::FetchOptions;
use crate::web::guard::PrivateAddresses;

pub struct WebSettings {
    pub config: WebConfig,
    pub private: PrivateAddresses,
    pub cache: PageCache,
    service_client: OnceLock<Result<reqwest::Client, String>>,
    native: OnceLock<Result<Arc<NativeExtract>, WebError>>,
}

impl std::fmt::Debug for WebSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WebSettings")
            .field("config", &self.config)
            .field("private", &self.private)
            .field("cache", &self.cache)
            .finish_non_exhaustive()
    }
}

impl WebSettings {
    pub fn new(
        config: WebConfig,
        private: PrivateAddresses,
        cache_dir: std::path::PathBuf,
    ) -> Self {
        let cache = PageCache {
            dir: cache_dir,
            ttl: Duration::from_secs(config.cache_ttl),
            max_bytes: config.cache_max_mb.saturating_mul(1024 * 1024),
        };
        Self {
            config,
            private,
            cache,
            service_client: OnceLock::new(),
            native: OnceLock::new(),
        }
    }

    fn client(&self) -> Result<reqwest::Client, String> {
        self.service_client
            .get_or_init(|| crate::web::backends::service_client().map_err(|e| e.to_string()))
            .clone()
    }

    /// The backend `web_search` uses now, or why there is none (for the model: what to set).
    pub fn search_backend(&self, env: &ToolEnv) -> Result<Box<dyn SearchBackend>, String> {
        let lookup = lookup(env);
        select::search_backend(&self.config, &lookup, &self.client()?).map_err(|e| e.to_string())
    }

    /// The backend `web_extract` uses now, or why there is none.
    pub fn extract_backend(&self, env: &ToolEnv) -> Result<Arc<dyn ExtractBackend>, String> {
        let lookup = lookup(env);
        match select::extract_backend(&self.config, &lookup, &self.client()?) {
            Ok(ExtractChoice::Service(backend)) => Ok(Arc::from(backend)),
            Ok(ExtractChoice::Native) => self
                .native
                .get_or_init(|| {
                    NativeExtract::new(FetchOptions::from_config(&self.config, self.private))
                        .map(Arc::new)
                })
                .clone()
                .map(|native| native as Arc<dyn ExtractBackend>)
                .map_err(|e| e.to_string()),
            Err(e) => Err(e.to_string()),
        }
    }
}

/// The session's variables (`.env` and secrets entered this session), then the process
/// environment; empty values count as unset.
pub fn lookup(env: &ToolEnv) -> impl Fn(&str) -> Option<String> + '_ {
    move |name: &str| {
        env.get(name)
            .or_else(|| std::env::var(name).ok())
            .filter(|v| !v.trim().is_empty())
    }
}
