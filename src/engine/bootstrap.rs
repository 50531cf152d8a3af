//! Starting a session from configuration: resolve the provider, build the tool registry and
//! command policy, assemble the system prompt, and spawn the session actor.
//!
//! This is the one place that turns `config` + `.env` (and the logins in `auth.json`) into a
//! running engine; frontends receive only the resulting `SessionHandle`. It does no network
//! I/O (the provider is contacted on the first turn, and a stored login that needs a refresh
//! is refreshed then, on the session's task), so start-up stays fast and offline-safe.

use std::path::Path;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::SystemTime;
use std::time::UNIX_EPOCH;

use super::compress::CompressionSettings;
use super::compress::Enabled;
use super::delegation::DelegationSettings;
use super::delegation::DelegationSpec;
use super::delegation::SubagentApprovals;
use super::prompt::PromptEnvironment;
use super::prompt::SoulSource;
use super::prompt::build_system_prompt;
use super::prompt::format_utc;
use super::prompt::load_soul;
use super::session::BusyInputMode;
use super::session::ModelEndpoint;
use super::session::SessionSpec;
use super::session::new_session_id;
use super::session::spawn_session;
use super::session_spec::GoalSettings;
use super::spec_parts::ResumeError;
use super::spec_parts::ResumeTarget;
use super::spec_parts::SafetyInputs;
use super::spec_parts::apply_toolsets;
use super::spec_parts::build_tools;
use super::spec_parts::load_resumed;
use super::spec_parts::open_store;
use super::spec_parts::prompt_sections;
use super::spec_parts::safety_spec;
use super::spec_parts::session_toolsets;
use super::spec_parts::skill_loader;
use super::spec_parts::skills_overview;
use crate::config::ApprovalMode;
use crate::config::Config;
use crate::config::HermesHome;
use crate::config::ModelConfig;
use crate::config::env::EnvLookup;
use crate::knowledge::discovery::SubdirContext;
use crate::protocol::SessionHandle;
use crate::providers::ProviderSetupError;
use crate::providers::nous_login_provider::LoginSources;
use crate::safety::YoloMode;
use crate::tools::ToolLimits;

#[path = "bootstrap_endpoint.rs"]
mod endpoint;
use endpoint::AuxTask;
use endpoint::ConfigSwitcher;
use endpoint::auxiliary_endpoint;
use endpoint::resolve_endpoint;

/// Command-line overrides of `model.*` for one run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ModelOverrides {
    pub model: Option<String>,
    pub provider: Option<String>,
    pub base_url: Option<String>,
}

pub struct StartOptions<'a> {
    pub home: &'a HermesHome,
    /// `--accept-hooks`: run configured shell hooks without asking for consent.
    pub accept_hooks: crate::safety::hooks::AcceptHooks,
    pub config: &'a Config,
    pub env: &'a EnvLookup,
    pub overrides: ModelOverrides,
    pub yolo: YoloMode,
    /// The directory hermes was started in; `terminal.cwd` is resolved against it.
    pub launch_dir: PathBuf,
    /// Continue a stored session instead of starting a new one.
    pub resume: Option<ResumeTarget>,
    /// How the stored session ends when the session stops (`cli_close` for the app,
    /// `agent_close` for `-z`, as Hermes records them).
    pub exit_reason: crate::store::EndReason,
    /// `--toolsets a,b`: the run's toolsets instead of `platform_toolsets.cli`.
    pub toolsets: Option<Vec<String>>,
    /// Who the session is for: a person, or a cron job nobody watches.
    pub purpose: SessionPurpose,
    /// The stored session's id, instead of a new random one (cron names its sessions).
    pub session_id: Option<String>,
}

/// Who a session serves.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum SessionPurpose {
    /// The TUI: finished jobs' results are shown to it.
    #[default]
    Interactive,
    /// One headless run (`-z`): it may schedule jobs, but is not where results are shown.
    Headless,
    /// A scheduled job: approvals follow `approvals.cron_mode`, and the cronjob, clarify
    /// and messaging tools are not offered (a job cannot make jobs or ask questions).
    Cron(crate::config::CronApprovalMode),
}

/// Toolsets a cron session never gets (Hermes's `disabled_toolsets` for cron runs).
const CRON_DISABLED_TOOLSETS: [&str; 3] = ["cronjob", "messaging", "clarify"];

pub struct StartedSession {
    pub handle: SessionHandle,
    /// Things the user should know about start-up (e.g. SOUL.md unreadable).
    pub notices: Vec<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error(transparent)]
    Provider(#[from] ProviderSetupError),
    #[error("working directory {path} (terminal.cwd) is not usable: {reason}")]
    WorkingDirectory { path: String, reason: String },
    #[error(transparent)]
    Resume(#[from] ResumeError),
}

pub fn start_session(options: StartOptions<'_>) -> Result<StartedSession, StartError> {
    let config = options.config;
    let model_config = apply_overrides(&config.model, &options.overrides);
    let client = crate::util::http::build_provider_client().map_err(ProviderSetupError::from)?;
    let logins = LoginSources::load(options.home, &options.env.as_fn(), client.clone());
    let origin = match options.overrides.provider {
        Some(_) => "--provider",
        None => "model.provider",
    };
    let endpoint = resolve_endpoint(&model_config, origin, config, options.env, &client, &logins)?;
    let cwd = resolve_cwd(&config.terminal.cwd, &options.launch_dir)?;
    let mut notices = Vec::new();
    let store = open_store(options.home, &mut notices);
    let resumed = match &options.resume {
        Some(target) => Some(load_resumed(store.as_ref(), target)?),
        None => None,
    };
    let skills = skill_loader(options.home, &config.skills, options.env, &mut notices);
    let memory = crate::knowledge::MemorySettings::from_config(&config.memory);
    let selection = session_toolsets(config, options.toolsets.as_deref(), &mut notices);
    let web = super::spec_parts::web_settings(options.home, config, options.env);
    let mut built = build_tools(options.home, store.as_ref(), &skills, &memory, &web);
    let cron = super::cron_link::CronLink::for_home(crate::cron::CronHome::open(
        options.home,
        config,
        options.env,
    ));
    let _ = built.register(Arc::new(crate::tools::cronjob::CronjobTool::new(
        Arc::clone(&cron.home),
    )));
    let mut tools = super::spec_parts::with_execute_code(
        apply_toolsets(&built, &selection),
        &selection,
        config,
        options.env,
    );
    if matches!(options.purpose, SessionPurpose::Cron(_)) {
        tools = tools.retain(|_, toolset| !CRON_DISABLED_TOOLSETS.contains(&toolset));
    }
    let tools = Arc::new(tools);
    let toolsets_link = crate::engine::toolsets_view::ToolsetsLink {
        home: options.home.clone(),
        env: options.env.clone(),
        hermes_tools: Arc::new(super::spec_parts::hermes_tools(&built)),
        selection: Arc::new(selection.clone()),
    };
    let (skills_index, slash_commands) = skills_overview(&skills, &tools, &mut notices);
    let (soul, source) = load_soul(&options.home.soul_path());
    if let SoulSource::DefaultAfterError(why) = source {
        notices.push(format!(
            "could not use SOUL.md ({why}); using the built-in identity"
        ));
    }
    let tool_names: Vec<String> = tools.names().iter().map(ToString::to_string).collect();
    let started_at = format_utc(
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0),
    );
    let mut sections = prompt_sections(options.home, &cwd, &memory, &mut notices);
    sections.push(skills_index);
    let built_prompt = build_system_prompt(
        &soul,
        &PromptEnvironment {
            cwd: &cwd,
            tool_names: &tool_names,
            sections: &sections,
            started_at: &started_at,
        },
    );
    // A resumed session keeps the prompt it was started with, byte for byte, so provider
    // caches stay valid and the model sees what it saw before.
    let (session_id, system_prompt, resumed) = match resumed {
        Some((row, resumed)) => (
            row.id,
            row.system_prompt
                .filter(|p| !p.is_empty())
                .unwrap_or(built_prompt),
            Some(resumed),
        ),
        None => (
            options.session_id.clone().unwrap_or_else(new_session_id),
            built_prompt,
            None,
        ),
    };
    let cwd_for_discovery = cwd.clone();
    let bytes = |n: u64, floor: usize| usize::try_from(n).unwrap_or(usize::MAX).max(floor);
    let limits = ToolLimits {
        terminal_timeout: std::time::Duration::from_secs(config.terminal.timeout.max(1)),
        // `tool_output.max_bytes` and `file_read_max_chars` (Hermes's keys).
        max_output_bytes: bytes(config.tool_output.max_bytes, 1_024),
        max_read_bytes: bytes(config.file_read_max_chars.0, 1_024),
    };
    let summariser = auxiliary_endpoint(
        &model_config,
        AuxTask::Compression,
        config,
        options.env,
        &client,
        &logins,
        &mut notices,
    );
    let smart = match config.approvals.mode {
        ApprovalMode::Smart => Some(
            auxiliary_endpoint(
                &model_config,
                AuxTask::Approval,
                config,
                options.env,
                &client,
                &logins,
                &mut notices,
            )
            .unwrap_or_else(|| endpoint.clone()),
        ),
        ApprovalMode::Manual | ApprovalMode::Off => None,
    };
    let delegation_endpoint = auxiliary_endpoint(
        &model_config,
        AuxTask::Delegation,
        config,
        options.env,
        &client,
        &logins,
        &mut notices,
    );
    let goal_judge = auxiliary_endpoint(
        &model_config,
        AuxTask::GoalJudge,
        config,
        options.env,
        &client,
        &logins,
        &mut notices,
    );
    let describer = auxiliary_endpoint(
        &model_config,
        AuxTask::Vision,
        config,
        options.env,
        &client,
        &logins,
        &mut notices,
    )
    .map(|e| crate::engine::images::Describer {
        provider: e.provider,
        model: e.model,
    });
    let mut safety = safety_spec(SafetyInputs {
        home: options.home,
        config,
        env: options.env,
        accept_hooks: options.accept_hooks,
        notices: &mut notices,
        smart,
    });
    safety.unattended = match options.purpose {
        SessionPurpose::Cron(mode) => Some(mode),
        SessionPurpose::Interactive | SessionPurpose::Headless => None,
    };
    let mcp = crate::engine::McpLaunch {
        servers: config
            .mcp_servers
            .iter()
            .filter(|s| selection.offers_mcp(&s.name))
            .cloned()
            .collect(),
        selection: Some(Arc::new(selection)),
        config_path: options.home.config_path(),
        media_dir: options.home.images_dir(),
        http: Some(client.clone()),
    };
    let switcher = Arc::new(ConfigSwitcher {
        home: options.home.clone(),
        base: model_config.clone(),
        config: config.clone(),
        env: options.env.clone(),
        client,
    });
    let spec = SessionSpec {
        session_id,
        max_tokens: (model_config.max_tokens > 0).then_some(model_config.max_tokens),
        endpoint,
        tools,
        yolo: options.yolo,
        system_prompt,
        cwd,
        limits,
        max_iterations: config.agent.max_iterations.max(1),
        busy_input: BusyInputMode::default(),
        switcher: Some(switcher),
        store,
        resumed,
        skills: Some(skills),
        compression: compression_settings(&config.compression),
        summariser,
        tool_env: Arc::new(crate::tools::ToolEnv::new(options.env.dotenv().clone())),
        env_file: Some(options.home.env_path()),
        slash_commands,
        discovery: Some(Arc::new(SubdirContext::new(cwd_for_discovery))),
        safety,
        delegation: DelegationSpec {
            settings: delegation_settings(&config.delegation, delegation_endpoint),
            depth: 0,
            subagent_id: None,
            parent_session_id: None,
        },
        goals: GoalSettings {
            max_turns: config.goals.max_turns.max(1),
            judge: goal_judge,
        },
        vision: crate::engine::images::VisionSettings::from_config(&config.vision, describer),
        mcp: Some(mcp),
        toolsets: Some(toolsets_link),
        cron: match options.purpose {
            SessionPurpose::Interactive => Some(cron),
            SessionPurpose::Headless | SessionPurpose::Cron(_) => None,
        },
        exit_reason: options.exit_reason,
    };
    Ok(StartedSession {
        handle: spawn_session(spec),
        // Printed before any event, so redacted here as the event sink redacts notices.
        notices: notices
            .iter()
            .map(|n| crate::util::redact::redact(n, &[]).into_owned())
            .collect(),
    })
}

fn delegation_settings(
    config: &crate::config::DelegationConfig,
    endpoint: Option<ModelEndpoint>,
) -> DelegationSettings {
    DelegationSettings {
        max_concurrent: usize::try_from(config.max_concurrent_children.max(1)).unwrap_or(3),
        max_depth: config.max_spawn_depth.clamp(1, 3),
        orchestrator_enabled: config.orchestrator_enabled,
        approvals: match config
            .subagent_approvals
            .trim()
            .to_ascii_lowercase()
            .as_str()
        {
            "deny" => SubagentApprovals::Deny,
            "once" => SubagentApprovals::Once,
            _ => SubagentApprovals::Ask,
        },
        endpoint,
        max_iterations: config.max_iterations.max(1),
        // 0 is off; anything shorter than 30 s would stop children mid-thought.
        child_timeout: (config.child_timeout_seconds > 0)
            .then(|| std::time::Duration::from_secs(config.child_timeout_seconds.max(30))),
    }
}

fn compression_settings(config: &crate::config::CompressionConfig) -> CompressionSettings {
    CompressionSettings {
        enabled: if config.enabled {
            Enabled::Yes
        } else {
            Enabled::No
        },
        threshold: config.threshold.clamp(0.05, 0.95),
        protect_first_n: usize::try_from(config.protect_first_n).unwrap_or(3),
        protect_last_n: usize::try_from(config.protect_last_n).unwrap_or(20),
    }
}

/// Flags win over the file. A `--provider` without `--base-url` drops the file's base URL,
/// which belongs to the file's provider.
fn apply_overrides(model: &ModelConfig, overrides: &ModelOverrides) -> ModelConfig {
    let mut model = model.clone();
    if let Some(provider) = &overrides.provider {
        if overrides.base_url.is_none() && !provider.eq_ignore_ascii_case(&model.provider) {
            model.base_url.clear();
            model.api_mode.clear();
        }
        model.provider.clone_from(provider);
    }
    if let Some(base_url) = &overrides.base_url {
        model.base_url.clone_from(base_url);
    }
    if let Some(name) = &overrides.model {
        model.default.clone_from(name);
    }
    model
}

fn resolve_cwd(configured: &str, launch_dir: &Path) -> Result<PathBuf, StartError> {
    let configured = configured.trim();
    let path = if configured.is_empty() || configured == "." {
        launch_dir.to_path_buf()
    } else if let Some(rest) = configured.strip_prefix("~/") {
        dirs::home_dir().unwrap_or_default().join(rest)
    } else {
        launch_dir.join(configured)
    };
    match std::fs::metadata(&path) {
        Ok(meta) if meta.is_dir() => Ok(path),
        Ok(_) => Err(StartError::WorkingDirectory {
            path: path.display().to_string(),
            reason: "not a directory".into(),
        }),
        Err(err) => Err(StartError::WorkingDirectory {
            path: path.display().to_string(),
            reason: err.to_string(),
        }),
    }
}

#[cfg(test)]
#[path = "bootstrap_tests.rs"]
mod tests;
