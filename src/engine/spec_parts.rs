//! The knowledge side of starting a session: open the session store, build the tool registry
//! (core tools plus memory and session search), gather the frozen system-prompt sections
//! (memory snapshot, project context file), and load a stored session to resume.
//!
//! Everything here runs once per session start, before the first frame of work; failures
//! degrade (no store, no memory section) with a notice instead of stopping hermes.

use std::path::Path;
use std::path::PathBuf;
use std::sync::Arc;

use super::guard::HookSetup;
use super::guard::SafetySpec;
use super::guard::SmartApprover;
use super::session::ResumedSession;
use crate::config::Config;
use crate::config::HermesHome;
use crate::config::SkillsConfig;
use crate::config::env::EnvLookup;
use crate::knowledge::context_files;
use crate::knowledge::memory_settings::MemorySettings;
use crate::knowledge::memory_snapshot::MemorySnapshot;
use crate::protocol::SlashCommandInfo;
use crate::protocol::StatusUpdate;
use crate::safety::approvals::ApprovalSettings;
use crate::safety::checkpoints::CheckpointSettings;
use crate::safety::checkpoints::CheckpointStore;
use crate::safety::classify::ShellContext;
use crate::safety::hooks::AcceptHooks;
use crate::safety::hooks::ConsentStore;
use crate::safety::hooks::parse_hooks;
use crate::skills::Availability;
use crate::skills::bundled::sync_bundled;
use crate::skills::catalog::SkillLoader;
use crate::skills::invoke::slash_names;
use crate::store::SessionRow;
use crate::store::SessionStore;
use crate::tools::memory::MemoryTool;
use crate::tools::registry::ToolRegistry;
use crate::tools::session_search::SessionSearchTool;
use crate::tools::skills::SkillManageTool;
use crate::tools::skills::SkillViewTool;
use crate::tools::skills::SkillsListTool;
use crate::tools::web_extract::WebExtractTool;
use crate::tools::web_search::WebSearchTool;
use crate::tools::web_settings::WebSettings;
use crate::util::redact::RedactSecrets;
use crate::util::redact::Redactor;
use crate::web::guard::PrivateAddresses;

/// Which stored session to continue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResumeTarget {
    /// An id, a unique id prefix, or a title (`--resume X`, `/resume X`).
    Session(String),
    /// The CLI session used most recently (`--continue`; Hermes's rule, see `store::resume`).
    MostRecent,
}

#[derive(Debug, thiserror::Error)]
pub enum ResumeError {
    #[error("there is no session history: state.db could not be opened")]
    NoStore,
    #[error("no session matches {0:?} (hermes sessions list shows them)")]
    NotFound(String),
    #[error("no previous CLI session found to continue")]
    NothingToContinue,
    #[error("could not read the session history: {0}")]
    Store(#[source] crate::store::StoreError),
}

/// Open `HERMES_HOME/state.db`; on failure, run without persistence and say why.
pub fn open_store(home: &HermesHome, notices: &mut Vec<String>) -> Option<Arc<SessionStore>> {
    let path = home.state_db_path();
    match SessionStore::open(&path) {
        Ok(store) => {
            notices.extend(store.schema_notice().map(str::to_string));
            Some(Arc::new(store))
        }
        Err(err) => {
            notices.push(format!(
                "session history is off for this run: {err} — sessions will not be saved"
            ));
            None
        }
    }
}

pub fn build_tools(
    home: &HermesHome,
    store: Option<&Arc<SessionStore>>,
    skills: &Arc<SkillLoader>,
    memory: &MemorySettings,
    web: &Arc<WebSettings>,
) -> ToolRegistry {
    let mut tools = ToolRegistry::core();
    // Names are unique by construction, so registration cannot collide. With both memory
    // stores switched off there is no memory tool at all.
    if memory.any_enabled() {
        let _ = tools.register(Arc::new(MemoryTool::with_settings(
            home.memories_dir(),
            *memory,
        )));
    }
    if let Some(store) = store {
        let _ = tools.register(Arc::new(SessionSearchTool::new(Arc::clone(store))));
    }
    let _ = tools.register(Arc::new(SkillsListTool::new(Arc::clone(skills))));
    let _ = tools.register(Arc::new(SkillViewTool::new(Arc::clone(skills))));
    let _ = tools.register(Arc::new(SkillManageTool::new(Arc::clone(skills))));
    let _ = tools.register(Arc::new(crate::tools::delegate::DelegateTaskTool));
    let _ = tools.register(Arc::new(
        crate::tools::text_to_speech::TextToSpeechTool::new(home.clone()),
    ));
    let _ = tools.register(Arc::new(crate::tools::vision::VisionAnalyzeTool::new(
        home.clone(),
        web.private,
    )));
    let _ = tools.register(Arc::new(WebSearchTool::new(Arc::clone(web))));
    let _ = tools.register(Arc::new(WebExtractTool::new(Arc::clone(web))));
    tools
}

/// The web tools' settings: `web:`, the private-address opt-ins (Hermes's precedence) and the
/// page cache under `HERMES_HOME/cache/web`.
pub fn web_settings(home: &HermesHome, config: &Config, env: &EnvLookup) -> Arc<WebSettings> {
    let private = crate::config::private_urls_allowed(
        env.get("HERMES_ALLOW_PRIVATE_URLS").as_deref(),
        &config.web,
        config.security.allow_private_urls,
        config.browser.allow_private_urls,
    );
    Arc::new(WebSettings::new(
        config.web.clone(),
        PrivateAddresses::from(private),
        crate::tools::web_cache::cache_dir(home.root()),
    ))
}

/// How this session would run `execute_code` scripts, or why it cannot (no usable Python).
pub fn code_settings(
    config: &Config,
    env: &EnvLookup,
) -> Result<
    crate::tools::execute_code::CodeSettings,
    crate::tools::execute_code::python::PythonMissing,
> {
    let lookup = |name: &str| env.get(name);
    let python = crate::tools::execute_code::python::find(&config.code_execution, &lookup)?;
    let timezone = env
        .get("HERMES_TIMEZONE")
        .filter(|z| !z.trim().is_empty())
        .unwrap_or_else(|| config.timezone.clone());
    Ok(crate::tools::execute_code::CodeSettings {
        mode: config.code_execution.mode,
        timeout: std::time::Duration::from_secs(config.code_execution.timeout.max(1)),
        max_tool_calls: config.code_execution.max_tool_calls,
        python,
        env_passthrough: config.terminal.env_passthrough.clone(),
        timezone,
    })
}

/// `execute_code` added to `tools` when the selection offers it and a Python is found; it
/// is built last because its description lists the script tools the session has.
pub fn with_execute_code(
    mut tools: ToolRegistry,
    selection: &crate::config::toolset_selection::ToolSelection,
    config: &Config,
    env: &EnvLookup,
) -> ToolRegistry {
    if !cfg!(unix) || !selection.offers("execute_code", "code_execution") {
        return tools;
    }
    match code_settings(config, env) {
        Ok(settings) => {
            let names: Vec<String> = tools.names().iter().map(ToString::to_string).collect();
            let tool = crate::tools::execute_code::ExecuteCodeTool::new(settings, &names);
            let _ = tools.register(Arc::new(tool));
        }
        Err(why) => tracing::info!(%why, "execute_code is not offered"),
    }
    tools
}

/// The tools of a built registry that the session's toolset selection offers (Hermes's
/// `platform_toolsets.cli`, `--toolsets`, `agent.disabled_toolsets`; see
/// `config::toolset_selection`). Applied once, at session start, so the tool list stays
/// byte-identical for the session's provider cache.
pub fn apply_toolsets(
    tools: &ToolRegistry,
    selection: &crate::config::toolset_selection::ToolSelection,
) -> ToolRegistry {
    tools.retain(|name, toolset| selection.offers(name, toolset))
}

/// Every tool hermes has, as `(name, toolset)`, from a registry `build_tools` made: with the
/// tools that depend on settings (memory, with both stores off; session search, without a
/// store) added, for `hermes tools` and `/tools`.
pub fn hermes_tools(built: &ToolRegistry) -> Vec<(String, String)> {
    let mut tools: Vec<(String, String)> = built
        .tools()
        .iter()
        .map(|t| (t.name().to_string(), t.toolset().to_string()))
        .collect();
    for (name, toolset) in [
        ("memory", "memory"),
        ("session_search", "session_search"),
        ("execute_code", "code_execution"),
    ] {
        if !tools.iter().any(|(n, _)| n == name) {
            tools.push((name.to_string(), toolset.to_string()));
        }
    }
    tools
}

/// The session's toolset selection: `--toolsets` when given (unknown names get a notice,
/// as Hermes warns), else `config.yaml`'s keys (their warnings came with the config).
pub fn session_toolsets(
    config: &crate::config::Config,
    flag: Option<&[String]>,
    notices: &mut Vec<String>,
) -> crate::config::toolset_selection::ToolSelection {
    use crate::config::toolset_selection::ToolSelection;
    let servers: Vec<String> = config
        .mcp_servers
        .iter()
        .filter(|s| s.config.enabled)
        .map(|s| s.name.clone())
        .collect();
    match flag {
        Some(names) => {
            let known: Vec<&str> = config.mcp_servers.iter().map(|s| s.name.as_str()).collect();
            let unknown: Vec<&str> = names
                .iter()
                .map(String::as_str)
                .filter(|n| !crate::config::toolsets::is_valid_name(n, &known))
                .collect();
            if !unknown.is_empty() {
                notices.push(format!(
                    "--toolsets: unknown toolset(s) {} (valid: {})",
                    unknown.join(", "),
                    crate::config::toolset_catalog::valid_names_hint()
                ));
            }
            ToolSelection::from_flag(names, &config.toolsets)
        }
        None => ToolSelection::from_config(&config.toolsets, &servers),
    }
}

/// Seed the bundled skills (never overwriting the user's edits) and set up the loader the
/// skill tools and slash commands share.
pub fn skill_loader(
    home: &HermesHome,
    config: &SkillsConfig,
    env: &EnvLookup,
    notices: &mut Vec<String>,
) -> Arc<SkillLoader> {
    let report = sync_bundled(&home.skills_dir());
    for error in &report.errors {
        notices.push(format!("bundled skills: {error}"));
    }
    let env = env.clone();
    let mut loader = SkillLoader::new(home.skills_dir());
    loader.external_dirs = config.external_dirs.iter().map(PathBuf::from).collect();
    loader.bundles_dir = Some(home.root().join("skill-bundles"));
    loader.env = Arc::new(move |key| env.get(key));
    loader.agent_writes = if config.guard_agent_created {
        crate::skills::catalog::AgentWrites::RefuseFlagged
    } else {
        crate::skills::catalog::AgentWrites::FlagFlagged
    };
    Arc::new(loader)
}

/// The tools and toolsets of `tools`, which decide a skill's `fallback_for_*` /
/// `requires_*` conditions (as Hermes derives them from the session's tool names).
pub fn tool_availability(tools: &ToolRegistry) -> Availability {
    Availability::new(&tools.names(), &tools.toolsets())
}

/// The tool availability a session started now would have, for `hermes skills list`: the
/// registered tools, plus session search, which a session has whenever `state.db` opens.
pub fn default_availability(
    home: &HermesHome,
    skills: &Arc<SkillLoader>,
    memory: &crate::knowledge::MemorySettings,
) -> Availability {
    let web = Arc::new(WebSettings::new(
        crate::config::WebConfig::default(),
        PrivateAddresses::Refused,
        crate::tools::web_cache::cache_dir(home.root()),
    ));
    let tools = build_tools(home, None, skills, memory, &web);
    let mut names = tools.names();
    let mut toolsets = tools.toolsets();
    names.push("session_search");
    toolsets.push("session_search");
    Availability::new(&names, &toolsets)
}

/// The skills index for the prompt (skills whose tool conditions `tools` meets) and the
/// skills' slash commands, from one catalog load; skill warnings become notices.
pub fn skills_overview(
    loader: &SkillLoader,
    tools: &ToolRegistry,
    notices: &mut Vec<String>,
) -> (String, Vec<SlashCommandInfo>) {
    let mut loader = loader.clone();
    loader.availability = tool_availability(tools);
    let catalog = loader.load();
    for warning in catalog.warnings() {
        notices.push(format!("skill: {warning}"));
    }
    let commands = slash_names(&catalog)
        .into_iter()
        .map(|(name, description)| SlashCommandInfo { name, description })
        .collect();
    // As in Hermes, the index (which tells the model to call skill_view) is only there
    // when a skills tool is.
    let has_skill_tools = ["skills_list", "skill_view", "skill_manage"]
        .iter()
        .any(|name| tools.get(name).is_some());
    let index = if has_skill_tools {
        catalog.render_index_for_prompt()
    } else {
        String::new()
    };
    (index, commands)
}

/// Frozen system-prompt sections: the memory snapshot (of the stores switched on) and the
/// project context file.
pub fn prompt_sections(
    home: &HermesHome,
    cwd: &Path,
    memory: &MemorySettings,
    notices: &mut Vec<String>,
) -> Vec<String> {
    let memory = MemorySnapshot::load_with(&home.memories_dir(), memory).render_for_prompt();
    let project = context_files::load_project_context(cwd);
    notices.extend(project.notes.iter().cloned());
    vec![memory, context_files::render_for_prompt(&project)]
}

/// Find and load the session to resume, as Hermes does: the target (or, for `--continue`,
/// the CLI session used most recently), moved on to where compression continued it; the
/// session is re-opened (`ended_at` and `end_reason` cleared).
pub fn load_resumed(
    store: Option<&Arc<SessionStore>>,
    target: &ResumeTarget,
) -> Result<(SessionRow, ResumedSession), ResumeError> {
    let store = store.ok_or(ResumeError::NoStore)?;
    let store_err = ResumeError::Store;
    let asked = match target {
        ResumeTarget::Session(key) => {
            store
                .get_session(key)
                .map_err(store_err)?
                .ok_or_else(|| ResumeError::NotFound(key.clone()))?
                .id
        }
        ResumeTarget::MostRecent => store
            .most_recent_session(&crate::store::Source::Cli)
            .map_err(store_err)?
            .ok_or(ResumeError::NothingToContinue)?,
    };
    let id = store.resume_target(&asked).map_err(store_err)?;
    store.reopen_session(&id).map_err(store_err)?;
    let row = store
        .session(&id)
        .map_err(store_err)?
        .ok_or_else(|| ResumeError::NotFound(id.clone()))?;
    let history = store.load_history(&row.id).map_err(store_err)?;
    let usage = row.usage();
    let status = StatusUpdate {
        // The engine counts whole prompts; the store, Hermes's uncached part.
        input_tokens: usage.input + usage.cache_read + usage.cache_write,
        output_tokens: usage.output,
        cache_read_tokens: usage.cache_read,
        cache_write_tokens: usage.cache_write,
        reasoning_tokens: usage.reasoning,
        api_calls: usage.api_calls,
        cost_usd: usage.cost_usd,
        ..StatusUpdate::default()
    };
    let resumed = ResumedSession {
        history,
        status,
        title: row.title.clone(),
        // A goal that cannot be read must not stop the resume: it is reported instead.
        goal: crate::engine::goals::persist::load(store, &row.id),
    };
    Ok((row, resumed))
}

use crate::config::SandboxConfig;
use crate::safety::sandbox::NetworkAccess;
use crate::safety::sandbox::Sandbox;
use crate::safety::sandbox::SandboxMode;
use crate::safety::sandbox::SandboxSettings;
use crate::safety::sandbox::Support;

/// What the session's safety settings are built from.
pub struct SafetyInputs<'a> {
    pub home: &'a HermesHome,
    pub config: &'a crate::config::Config,
    pub env: &'a EnvLookup,
    pub accept_hooks: AcceptHooks,
    /// Where problems with `hooks:` are reported.
    pub notices: &'a mut Vec<String>,
    /// The reviewer model for `approvals.mode: smart`, when that mode is on.
    pub smart: Option<super::session::ModelEndpoint>,
}

/// Approval rules from `approvals:` and `command_allowlist`, where "always" answers are
/// saved, and the checkpoint store when `checkpoints.enabled`.
pub fn safety_spec(inputs: SafetyInputs<'_>) -> SafetySpec {
    let config = inputs.config;
    let user_home = dirs::home_dir().unwrap_or_else(|| PathBuf::from("/"));
    let (specs, warnings) = parse_hooks(&config.hooks);
    for warning in warnings {
        inputs.notices.push(format!("hooks: {warning}"));
    }
    let hooks = (!specs.is_empty()).then(|| HookSetup {
        specs,
        consent: ConsentStore::load_from(inputs.home),
        accept: AcceptHooks::resolve(inputs.accept_hooks, &|key| inputs.env.get(key), config),
    });
    let shell = ShellContext {
        home: user_home,
        hermes_home: inputs.home.root().to_path_buf(),
    };
    let sandbox = sandbox_for(&config.sandbox, &shell, inputs.notices);
    SafetySpec {
        unattended: None,
        sandbox: Arc::new(sandbox),
        approvals: ApprovalSettings {
            mode: config.approvals.mode,
            timeout: std::time::Duration::from_secs(config.approvals.timeout.clamp(1, 3_600)),
            allowlist: config.command_allowlist.clone(),
            deny: config.approvals.deny.clone(),
        },
        shell,
        smart: inputs.smart.map(|endpoint| SmartApprover {
            provider: endpoint.provider,
            model: endpoint.model,
        }),
        home: Some(inputs.home.clone()),
        checkpoints: config.checkpoints.enabled.then(|| {
            Arc::new(CheckpointStore::new(
                inputs.home.root().join("checkpoints"),
                CheckpointSettings::from_config(&config.checkpoints),
            ))
        }),
        hooks,
        redactor: Redactor::new(
            RedactSecrets::from(config.security.redact_secrets),
            inputs.env.secret_values(),
        ),
        agent: "main".to_string(),
    }
}

/// The session's sandbox from `sandbox:`, with the kernel probed; problems (an unknown mode,
/// a relative root, a kernel without Landlock) become start-up notices.
fn sandbox_for(config: &SandboxConfig, shell: &ShellContext, notices: &mut Vec<String>) -> Sandbox {
    let mode = SandboxMode::parse(&config.mode).unwrap_or_else(|| {
        notices.push(format!(
            "sandbox.mode `{}` is not workspace-write, read-only or off; using workspace-write",
            config.mode
        ));
        SandboxMode::WorkspaceWrite
    });
    let mut writable_roots = Vec::new();
    for root in &config.writable_roots {
        let path = crate::util::paths::resolve_path(std::path::Path::new(""), root);
        if path.is_absolute() {
            writable_roots.push(path);
        } else {
            notices.push(format!(
                "sandbox.writable_roots: `{root}` is not an absolute path; left out"
            ));
        }
    }
    let settings = SandboxSettings {
        mode,
        network: if config.network {
            NetworkAccess::Allowed
        } else {
            NetworkAccess::Denied
        },
        writable_roots,
    };
    let support = if mode == SandboxMode::Off {
        Support::Unavailable {
            reason: "sandbox.mode is off".to_string(),
        }
    } else {
        Support::probe()
    };
    let sandbox = Sandbox::new(settings, support, shell.clone());
    notices.extend(sandbox.start_notice());
    sandbox
}

#[cfg(test)]
#[path = "spec_parts_tests.rs"]
mod tests;
