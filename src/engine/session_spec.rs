//! What a session is started with: the model endpoint, tools, limits, store, safety and
//! the rest of `SessionSpec`, plus the small types it is made of. Plain data; the actor in
//! `session.rs` owns the behaviour.

use std::path::PathBuf;
use std::sync::Arc;

use super::guard::SafetySpec;
use super::session::ResumedSession;
use crate::knowledge::discovery::SubdirContext;
use crate::protocol::ModelSelection;
use crate::protocol::SlashCommandInfo;
use crate::protocol::Yolo;
use crate::providers::Provider;
use crate::skills::catalog::SkillLoader;
use crate::store::SessionStore;
use crate::tools::ToolLimits;
use crate::tools::registry::ToolRegistry;

/// What a user message does while a turn is running (`display.busy_input_mode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BusyInputMode {
    /// Stop the running turn and answer the new message (Hermes's default).
    #[default]
    Interrupt,
    /// Run the message after the current turn.
    Queue,
    /// Deliver the message into the running turn at the next tool boundary.
    Steer,
}

/// The model endpoint a session talks to.
#[derive(Clone)]
pub struct ModelEndpoint {
    pub provider: Arc<dyn Provider>,
    pub provider_name: String,
    pub base_url: String,
    pub model: String,
    pub context_window: u64,
    /// Whether the model sees images (`model.vision`, else the known text-only families).
    pub supports_vision: bool,
}

impl ModelEndpoint {
    /// The route calls through this endpoint are accounted under (`session_model_usage`).
    pub fn billing_route(&self) -> crate::store::BillingRoute {
        crate::store::BillingRoute {
            model: self.model.clone(),
            provider: self.provider_name.clone(),
            base_url: self.base_url.clone(),
        }
    }
}

/// Builds a new endpoint for `Op::SwitchModel`.
pub trait ModelSwitcher: Send + Sync {
    fn switch(
        &self,
        selection: &ModelSelection,
    ) -> Result<ModelEndpoint, crate::providers::ProviderSetupError>;
}

pub struct SessionSpec {
    pub session_id: String,
    pub endpoint: ModelEndpoint,
    pub tools: Arc<ToolRegistry>,
    /// Whether terminal commands run without approval; `Op::SetYolo` changes it.
    pub yolo: Yolo,
    pub system_prompt: String,
    pub cwd: PathBuf,
    pub limits: ToolLimits,
    pub max_iterations: u32,
    pub max_tokens: Option<u32>,
    pub busy_input: BusyInputMode,
    pub switcher: Option<Arc<dyn ModelSwitcher>>,
    /// Where the conversation is saved; `None` keeps it in memory only.
    pub store: Option<Arc<SessionStore>>,
    /// A stored session to continue (`--resume`, `--continue`).
    pub resumed: Option<ResumedSession>,
    /// Skills, for `Op::SlashCommand`.
    pub skills: Option<Arc<SkillLoader>>,
    /// Variables the session's commands see on top of the process environment (`.env`,
    /// secrets entered for skills).
    pub tool_env: Arc<crate::tools::ToolEnv>,
    /// Where secrets the user enters are saved (`HERMES_HOME/.env`); `None` keeps them in
    /// memory for this session.
    pub env_file: Option<std::path::PathBuf>,
    /// When and how to compress the conversation.
    pub compression: super::compress::CompressionSettings,
    /// `auxiliary.compression`: the model that writes summaries, when not the main one.
    pub summariser: Option<ModelEndpoint>,
    /// The skills' slash commands, announced in `SessionInfo`.
    pub slash_commands: Vec<SlashCommandInfo>,
    /// Context files of subdirectories, appended to tool results as the agent reaches them.
    pub discovery: Option<Arc<SubdirContext>>,
    /// Approvals, checkpoints, hooks and redaction.
    pub safety: SafetySpec,
    /// Subagents: limits, and where this session sits in the tree.
    pub delegation: super::delegation::DelegationSpec,
    /// The `/goal` loop: its budget and judge.
    pub goals: GoalSettings,
    /// Image budget, embed cap and the describer for text-only models.
    pub vision: super::images::VisionSettings,
    /// MCP servers to connect; `None`: no MCP in this session (subagents, tests).
    pub mcp: Option<McpLaunch>,
    /// `/tools`: listing and switching toolsets in config.yaml; `None`: not offered
    /// (subagents, tests).
    pub toolsets: Option<super::toolsets_view::ToolsetsLink>,
    /// `/cron` and finished jobs' results; `None`: not offered (subagents, cron runs, tests).
    pub cron: Option<std::sync::Arc<super::cron_link::CronLink>>,
    /// How the stored session ends when the session stops (`Op::Shutdown`): `cli_close` for
    /// the app, `agent_close` for a one-shot run or a subagent, as Hermes records them.
    pub exit_reason: crate::store::EndReason,
}

/// What a session needs to run its MCP servers.
#[derive(Clone)]
pub struct McpLaunch {
    /// `mcp_servers:` as loaded at start (the servers the toolset selection offers).
    pub servers: Vec<crate::config::schema::NamedMcpServer>,
    /// The session's toolset selection, which `/reload-mcp` applies to the servers it
    /// re-reads; `None`: every server.
    pub selection: Option<std::sync::Arc<crate::config::toolset_selection::ToolSelection>>,
    /// config.yaml, re-read by `/reload-mcp`.
    pub config_path: PathBuf,
    /// Where images and blobs from MCP results are saved.
    pub media_dir: PathBuf,
    pub http: Option<reqwest::Client>,
}

/// `goals.max_turns` and `auxiliary.goal_judge`.
#[derive(Clone)]
pub struct GoalSettings {
    /// Continuation turns before the goal pauses (at least 1).
    pub max_turns: u32,
    /// The judge's model; `None` uses the session's current model.
    pub judge: Option<ModelEndpoint>,
}

impl Default for GoalSettings {
    fn default() -> Self {
        Self {
            max_turns: 20,
            judge: None,
        }
    }
}
