//! Which backend `web_search` and `web_extract` use, by Python Hermes's precedence
//! (`tools/web_tools.py` `_get_capability_backend`): `web.search_backend` /
//! `web.extract_backend` when it is available, then `web.backend`, then the first backend
//! whose keys are present in Hermes's order (tavily, exa, parallel, firecrawl, searxng,
//! brave-free, ddgs) that can serve the capability — and, where Hermes would fall back to
//! firecrawl, hermes's keyless defaults: `ddgs` for search, `native` for extract.
//!
//! Where hermes differs from Hermes, it says so rather than guessing: an unknown name is an
//! error listing the valid ones (Hermes ignores it); an explicitly chosen backend without its
//! key is an error naming the variable (Hermes fails later, at the call); a search-only
//! backend chosen for extract is Hermes's "search-only backend" error, with `native` among
//! the remedies, and `native` chosen for search is the mirror of it.
//!
//! Keys come from a lookup the caller gives (the session's `.env`, then the process
//! environment); nothing here reads the environment itself. `status` is what `hermes tools`
//! shows: per backend, what it can do and whether it is usable or why not.

use super::BackendName;
use super::ExtractBackend;
use super::SearchBackend;
use super::brave::Brave;
use super::ddgs::Ddgs;
use super::exa::Exa;
use super::firecrawl::Firecrawl;
use super::parallel::Parallel;
use super::searxng::Searxng;
use super::service::BadBaseUrl;
use super::service::env_value;
use super::tavily::Tavily;
use crate::config::schema::WebConfig;

/// The caller's variable lookup: `.env` values first, then the process environment.
pub type EnvLookup<'a> = &'a dyn Fn(&str) -> Option<String>;

/// What a backend is chosen for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Capability {
    Search,
    Extract,
}

impl Capability {
    /// The tool the capability serves, as errors name it.
    pub fn tool(self) -> &'static str {
        match self {
            Self::Search => "web_search",
            Self::Extract => "web_extract",
        }
    }

    /// The per-capability config key.
    pub fn config_key(self) -> &'static str {
        match self {
            Self::Search => "web.search_backend",
            Self::Extract => "web.extract_backend",
        }
    }
}

/// Hermes's auto-detect order (`_get_backend`'s candidates); `ddgs` needs nothing.
const AUTO_ORDER: [BackendName; 7] = [
    BackendName::Tavily,
    BackendName::Exa,
    BackendName::Parallel,
    BackendName::Firecrawl,
    BackendName::Searxng,
    BackendName::BraveFree,
    BackendName::Ddgs,
];

/// Why no backend could be chosen for a tool.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SelectError {
    #[error(
        "{key}: unknown backend {value:?}; valid backends are native, ddgs, searxng, brave-free, tavily, exa, firecrawl, parallel"
    )]
    UnknownBackend { key: &'static str, value: String },
    /// Hermes's wording, with hermes's keyless `native` among the remedies.
    #[error(
        "{} is a search-only backend and cannot extract URL content. Set web.extract_backend to native, firecrawl, tavily, exa, or parallel.",
        backend.display_name()
    )]
    SearchOnly { backend: BackendName },
    #[error(
        "native is an extract-only backend and cannot search. Set web.search_backend to ddgs, searxng, brave-free, tavily, exa, firecrawl, or parallel."
    )]
    ExtractOnly,
    /// The chosen backend lacks its key (or URL).
    #[error("{tool}: needs {needs} for backend {backend}")]
    Unavailable {
        tool: &'static str,
        backend: BackendName,
        needs: &'static str,
    },
    #[error("{tool}: {source} for backend {backend}")]
    BadBaseUrl {
        tool: &'static str,
        backend: BackendName,
        source: BadBaseUrl,
    },
}

/// What `web_extract` runs: hermes's own extractor (the caller builds it) or a service.
pub enum ExtractChoice {
    Native,
    Service(Box<dyn ExtractBackend>),
}

impl std::fmt::Debug for ExtractChoice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Native => f.write_str("Native"),
            Self::Service(backend) => write!(f, "Service({})", backend.name()),
        }
    }
}

/// The variables a backend needs before it is usable (`None`: none).
pub fn needs(backend: BackendName) -> Option<&'static str> {
    match backend {
        BackendName::Native | BackendName::Ddgs => None,
        BackendName::Searxng => Some(super::searxng::URL_VAR),
        BackendName::BraveFree => Some(super::brave::KEY_VAR),
        BackendName::Tavily => Some(super::tavily::KEY_VAR),
        BackendName::Exa => Some(super::exa::KEY_VAR),
        BackendName::Firecrawl => Some("FIRECRAWL_API_KEY or FIRECRAWL_API_URL"),
        BackendName::Parallel => Some(super::parallel::KEY_VAR),
    }
}

/// Whether the backend's keys (or URL) are present — Hermes's `_is_backend_available`.
pub fn is_available(backend: BackendName, env: EnvLookup<'_>) -> bool {
    let has = |name: &str| env_value(env, name).is_some();
    match backend {
        BackendName::Native | BackendName::Ddgs => true,
        BackendName::Firecrawl => has(super::firecrawl::KEY_VAR) || has(super::firecrawl::URL_VAR),
        other => needs(other).is_some_and(has),
    }
}

/// The backend `capability` uses under `web` with the keys `env` holds.
pub fn choose(
    capability: Capability,
    web: &WebConfig,
    env: EnvLookup<'_>,
) -> Result<BackendName, SelectError> {
    let specific = match capability {
        Capability::Search => &web.search_backend,
        Capability::Extract => &web.extract_backend,
    };
    let specific = configured(capability.config_key(), specific)?;
    let shared = configured("web.backend", &web.backend)?;
    let unavailable = |backend| SelectError::Unavailable {
        tool: capability.tool(),
        backend,
        needs: needs(backend).unwrap_or_default(),
    };
    if let Some(backend) = specific {
        check_capability(backend, capability)?;
        if is_available(backend, env) {
            return Ok(backend);
        }
        // Hermes falls through to web.backend; with none usable the explicit choice is what
        // the user must fix.
        return match shared {
            Some(shared) if shared.supports(capability) && is_available(shared, env) => Ok(shared),
            _ => Err(unavailable(backend)),
        };
    }
    if let Some(backend) = shared {
        check_capability(backend, capability)?;
        return if is_available(backend, env) {
            Ok(backend)
        } else {
            Err(unavailable(backend))
        };
    }
    let detected = AUTO_ORDER
        .into_iter()
        .find(|b| b.supports(capability) && is_available(*b, env));
    Ok(match (detected, capability) {
        (Some(backend), _) => backend,
        (None, Capability::Search) => BackendName::Ddgs,
        (None, Capability::Extract) => BackendName::Native,
    })
}

/// A config value as a backend name; empty means "not set".
fn configured(key: &'static str, value: &str) -> Result<Option<BackendName>, SelectError> {
    let value = value.trim();
    if value.is_empty() {
        return Ok(None);
    }
    BackendName::parse(value)
        .map(Some)
        .ok_or_else(|| SelectError::UnknownBackend {
            key,
            value: value.to_string(),
        })
}

fn check_capability(backend: BackendName, capability: Capability) -> Result<(), SelectError> {
    match capability {
        _ if backend.supports(capability) => Ok(()),
        Capability::Extract => Err(SelectError::SearchOnly { backend }),
        Capability::Search => Err(SelectError::ExtractOnly),
    }
}

/// The search backend `web_search` uses, ready to call. `client` should be
/// `service_client()` (no cross-origin redirects, so keys stay with their service).
pub fn search_backend(
    web: &WebConfig,
    env: EnvLookup<'_>,
    client: &reqwest::Client,
) -> Result<Box<dyn SearchBackend>, SelectError> {
    let backend = choose(Capability::Search, web, env)?;
    let made = Made {
        backend,
        tool: Capability::Search.tool(),
    };
    let client = client.clone();
    Ok(match backend {
        BackendName::Native => return Err(SelectError::ExtractOnly),
        BackendName::Ddgs => Box::new(made.built(Some(Ddgs::from_env(env, client)))?),
        BackendName::Searxng => Box::new(made.built(Searxng::from_env(env, client))?),
        BackendName::BraveFree => Box::new(made.built(Brave::from_env(env, client))?),
        BackendName::Tavily => Box::new(made.built(Tavily::from_env(env, client))?),
        BackendName::Exa => Box::new(made.built(Exa::from_env(env, client))?),
        BackendName::Firecrawl => Box::new(made.built(Firecrawl::from_env(env, client))?),
        BackendName::Parallel => Box::new(made.built(Parallel::from_env(env, client))?),
    })
}

/// What `web_extract` uses: `Native` (the caller builds hermes's extractor) or a service.
pub fn extract_backend(
    web: &WebConfig,
    env: EnvLookup<'_>,
    client: &reqwest::Client,
) -> Result<ExtractChoice, SelectError> {
    let backend = choose(Capability::Extract, web, env)?;
    let made = Made {
        backend,
        tool: Capability::Extract.tool(),
    };
    let client = client.clone();
    let service: Box<dyn ExtractBackend> = match backend {
        BackendName::Native => return Ok(ExtractChoice::Native),
        BackendName::Ddgs | BackendName::Searxng | BackendName::BraveFree => {
            return Err(SelectError::SearchOnly { backend });
        }
        BackendName::Tavily => Box::new(made.built(Tavily::from_env(env, client))?),
        BackendName::Exa => Box::new(made.built(Exa::from_env(env, client))?),
        BackendName::Firecrawl => Box::new(made.built(Firecrawl::from_env(env, client))?),
        BackendName::Parallel => Box::new(made.built(Parallel::from_env(env, client))?),
    };
    Ok(ExtractChoice::Service(service))
}

/// Turns a backend constructor's answer into a `SelectError` for the tool.
struct Made {
    backend: BackendName,
    tool: &'static str,
}

impl Made {
    fn built<T>(&self, made: Option<Result<T, BadBaseUrl>>) -> Result<T, SelectError> {
        match made {
            Some(Ok(backend)) => Ok(backend),
            Some(Err(source)) => Err(SelectError::BadBaseUrl {
                tool: self.tool,
                backend: self.backend,
                source,
            }),
            None => Err(SelectError::Unavailable {
                tool: self.tool,
                backend: self.backend,
                needs: needs(self.backend).unwrap_or_default(),
            }),
        }
    }
}

/// One backend as `hermes tools` shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BackendStatus {
    pub backend: BackendName,
    pub search: bool,
    pub extract: bool,
    /// `None` when usable; else what it needs ("needs TAVILY_API_KEY").
    pub unavailable: Option<String>,
    /// Whether `web_search` / `web_extract` would use it now.
    pub used_for_search: bool,
    pub used_for_extract: bool,
}

/// Every backend, in `BackendName::ALL` order, with what it can do, whether its keys are
/// present, and which tool uses it under `web` (a tool whose choice is an error uses none).
pub fn status(web: &WebConfig, env: EnvLookup<'_>) -> Vec<BackendStatus> {
    let search = choose(Capability::Search, web, env).ok();
    let extract = choose(Capability::Extract, web, env).ok();
    BackendName::ALL
        .into_iter()
        .map(|backend| BackendStatus {
            backend,
            search: backend.supports(Capability::Search),
            extract: backend.supports(Capability::Extract),
            unavailable: (!is_available(backend, env))
                .then(|| format!("needs {}", needs(backend).unwrap_or_default())),
            used_for_search: search == Some(backend),
            used_for_extract: extract == Some(backend),
        })
        .collect()
}

#[cfg(test)]
#[path = "select_tests.rs"]
mod tests;
