//! Resolving a model endpoint from config, the environment and the stored logins — for the
//! main model at start-up, the side tasks' models and `/model` switches — and building its
//! provider. Part of `bootstrap`; does no network I/O.

use super::ModelOverrides;
use super::apply_overrides;
use crate::config::Config;
use crate::config::HermesHome;
use crate::config::ModelConfig;
use crate::config::env::EnvLookup;
use crate::engine::session::ModelEndpoint;
use crate::engine::session::ModelSwitcher;
use crate::protocol::ModelSelection;
use crate::providers::CredentialSources;
use crate::providers::ProviderSetupError;
use crate::providers::nous_login_provider::LoginSources;
use crate::providers::registry;

/// `origin` says where the provider name came from, for errors.
pub(super) fn resolve_endpoint(
    model: &ModelConfig,
    origin: &str,
    config: &Config,
    env: &EnvLookup,
    client: &reqwest::Client,
    logins: &LoginSources,
) -> Result<ModelEndpoint, ProviderSetupError> {
    let lookup = env.as_fn();
    let request = registry::ProviderRequest {
        model,
        provider: &config.provider,
        endpoints: &config.provider_endpoints,
        origin,
    };
    let login = |provider: &str| logins.stored_login(provider);
    let sources = CredentialSources {
        env: &lookup,
        login: &login,
        active_login: logins.active_login(),
    };
    let mut resolved = registry::resolve_request(&request, &sources)?;
    // The key in use is a known secret from now on, whichever variable or login it came from.
    if let Some(key) = &resolved.api_key {
        crate::util::redact::register_known_secret(key.expose());
    }
    resolved.prompt_cache_ttl =
        crate::providers::prompt_cache::CacheTtl::from_config(&config.prompt_caching.cache_ttl);
    Ok(ModelEndpoint {
        provider: logins.wrap(
            &resolved,
            crate::providers::build(&resolved, client.clone()),
        ),
        provider_name: resolved.name.clone(),
        base_url: resolved.base_url.clone(),
        model: resolved.model.clone(),
        context_window: resolved.context_window,
        supports_vision: crate::providers::capabilities::supports_vision(
            model.vision,
            &resolved.model,
        ),
    })
}

/// Resolves `Op::SwitchModel` against the same config and environment the session started with.
pub(super) struct ConfigSwitcher {
    pub(super) home: HermesHome,
    pub(super) base: ModelConfig,
    pub(super) config: Config,
    pub(super) env: EnvLookup,
    pub(super) client: reqwest::Client,
}

impl ModelSwitcher for ConfigSwitcher {
    fn switch(&self, selection: &ModelSelection) -> Result<ModelEndpoint, ProviderSetupError> {
        let overrides = ModelOverrides {
            model: Some(selection.model.clone()),
            provider: selection.provider.clone(),
            base_url: selection.base_url.clone(),
        };
        let model = apply_overrides(&self.base, &overrides);
        // Re-read so a login made (or refreshed) since the session started is used.
        let logins = LoginSources::load(&self.home, &self.env.as_fn(), self.client.clone());
        resolve_endpoint(
            &model,
            "/model",
            &self.config,
            &self.env,
            &self.client,
            &logins,
        )
    }
}

/// The side tasks that may use their own model (`auxiliary.<task>`).
#[derive(Debug, Clone, Copy)]
pub(super) enum AuxTask {
    Compression,
    Approval,
    /// `delegation.model`/`provider`/`base_url`: the subagents' model.
    Delegation,
    GoalJudge,
    /// Describes images for a model that cannot see them.
    Vision,
}

/// The endpoint for an auxiliary task, or `None` to use the main model (empty settings, or
/// settings that do not resolve — then the user is told).
pub(super) fn auxiliary_endpoint(
    main: &ModelConfig,
    task: AuxTask,
    config: &Config,
    env: &EnvLookup,
    client: &reqwest::Client,
    logins: &LoginSources,
    notices: &mut Vec<String>,
) -> Option<ModelEndpoint> {
    let (aux, name, fallback) = match task {
        AuxTask::Compression => (
            config.auxiliary.compression.clone(),
            "auxiliary.compression",
            "summaries use the main model",
        ),
        AuxTask::Approval => (
            config.auxiliary.approval.clone(),
            "auxiliary.approval",
            "smart approvals use the main model",
        ),
        AuxTask::GoalJudge => (
            config.auxiliary.goal_judge.clone(),
            "auxiliary.goal_judge",
            "the goal judge uses the main model",
        ),
        AuxTask::Vision => (
            config.auxiliary.vision.clone(),
            "auxiliary.vision",
            "images reach only models that can see them",
        ),
        AuxTask::Delegation => (
            crate::config::AuxiliaryModel {
                model: config.delegation.model.clone(),
                provider: config.delegation.provider.clone(),
                base_url: config.delegation.base_url.clone(),
            },
            "delegation",
            "subagents use the main model",
        ),
    };
    if aux.model.trim().is_empty() {
        return None;
    }
    let non_empty = |s: &str| (!s.trim().is_empty()).then(|| s.trim().to_string());
    // Hermes's `auto` and `main` for a side task mean the main provider.
    let inherits = |p: &str| matches!(p.trim().to_ascii_lowercase().as_str(), "auto" | "main");
    let overrides = ModelOverrides {
        model: non_empty(&aux.model),
        provider: non_empty(&aux.provider).filter(|p| !inherits(p)),
        base_url: non_empty(&aux.base_url),
    };
    let origin = format!("{name}.provider");
    match resolve_endpoint(
        &apply_overrides(main, &overrides),
        &origin,
        config,
        env,
        client,
        logins,
    ) {
        Ok(endpoint) => Some(endpoint),
        Err(err) => {
            notices.push(format!("{name} is not usable ({err}); {fallback}"));
            None
        }
    }
}
