//! The typed view of `config.yaml`, with Hermes's key names and defaults.
//!
//! Every section and field has a default, so a partial or empty file is valid; keys hermes
//! does not know are ignored here (and kept on rewrite by `config::edit`). Secrets normally
//! live in `.env`, not here; `model.api_key` exists because Hermes accepts it.

use serde::Deserialize;
use serde::Serialize;

pub use super::schema_code::*;
pub use super::schema_cron::*;
pub use super::schema_mcp::*;
pub use super::schema_memory::*;
pub use super::schema_providers::*;
pub use super::schema_sandbox::*;
pub use super::schema_vision::*;
pub use super::schema_voice::*;
pub use super::schema_web::*;

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Config {
    pub model: ModelConfig,
    pub terminal: TerminalConfig,
    pub agent: AgentConfig,
    pub provider: ProviderConfig,
    pub display: DisplayConfig,
    pub skills: SkillsConfig,
    pub compression: CompressionConfig,
    pub auxiliary: AuxiliaryConfig,
    pub approvals: ApprovalsConfig,
    /// Command patterns approved with "always" (Hermes's top-level `command_allowlist`).
    pub command_allowlist: Vec<String>,
    pub security: SecurityConfig,
    pub checkpoints: CheckpointsConfig,
    /// hermes's kernel sandbox for the agent's commands (not a Hermes key).
    pub sandbox: SandboxConfig,
    pub delegation: DelegationConfig,
    pub goals: GoalsConfig,
    pub voice: VoiceConfig,
    pub stt: SttConfig,
    pub tts: TtsConfig,
    pub vision: VisionConfig,
    /// `web:` — `web_search` / `web_extract` backends and page budget.
    pub web: WebConfig,
    /// `cron:` — scheduled jobs: delivery wrapping, script timeout, parallelism, retention.
    pub cron: CronConfig,
    /// `code_execution:` — the `execute_code` tool's mode, limits and interpreter.
    pub code_execution: CodeExecutionConfig,
    /// IANA zone (`Europe/Berlin`) the scheduler and the model's clock use; empty: the
    /// system's (`HERMES_TIMEZONE` wins).
    pub timezone: String,
    /// `browser:` — only its `allow_private_urls` so far (Hermes's legacy spelling).
    pub browser: PrivateUrlsFlag,
    pub prompt_caching: PromptCachingConfig,
    pub memory: MemoryConfig,
    pub tool_output: ToolOutputConfig,
    /// `read_file`'s cap without offset/limit (Hermes's key).
    pub file_read_max_chars: FileReadLimit,
    /// Shell hooks: event name → list of `{matcher, command, timeout}`. Kept raw here and
    /// validated by `safety::hooks` (unknown events get a "did you mean" warning there).
    #[serde(skip_serializing)]
    pub hooks: serde_norway::Value,
    /// Run configured hooks without asking for consent (like `--accept-hooks`).
    pub hooks_auto_accept: bool,
    /// `mcp_servers:`, in file order; entries that could not be read are left out with a
    /// warning (see `config::mcp_servers`).
    #[serde(skip)]
    pub mcp_servers: Vec<NamedMcpServer>,
    /// `toolsets`, `platform_toolsets.cli` and `agent.disabled_toolsets` (see
    /// `config::toolsets`).
    #[serde(skip)]
    pub toolsets: super::toolsets::ToolsetsConfig,
    /// `providers:`, `custom_providers:` and `bedrock.region` (see `config::schema_providers`).
    #[serde(skip)]
    pub provider_endpoints: ProviderEndpoints,
}

/// `file_read_max_chars`: the most `read_file` returns without offset/limit. hermes counts
/// bytes of the file (Hermes counts characters of its numbered output); unset, 256 KiB.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct FileReadLimit(pub u64);

impl Default for FileReadLimit {
    fn default() -> Self {
        Self(256 * 1024)
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ModelConfig {
    /// Model id, e.g. `anthropic/claude-sonnet-4` (OpenRouter) or `qwen2.5:7b` (Ollama).
    pub default: String,
    /// A provider of Hermes (`openrouter`, `anthropic`, `deepseek`, …, see docs/providers.md),
    /// a name under `providers:`, or `auto`/empty: infer from base_url and the keys present.
    pub provider: String,
    /// Endpoint base URL; overrides the profile's.
    pub base_url: String,
    /// API key; prefer the provider's variable in `.env`.
    pub api_key: String,
    /// `chat_completions`, `anthropic_messages`, `codex_responses` or `bedrock_converse`;
    /// empty means infer.
    pub api_mode: String,
    /// Context window in tokens; 0 means "use the profile's default".
    pub context_length: u64,
    /// Max output tokens per request; 0 means provider default.
    pub max_tokens: u32,
    /// Whether the model takes images (`auto`: decided from the provider and model name).
    pub vision: VisionSupport,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct TerminalConfig {
    pub backend: String,
    pub cwd: String,
    /// Foreground command timeout in seconds.
    pub timeout: u64,
    /// Variables `execute_code` scripts get although their names look secret (its scrubbing
    /// drops `*KEY*`, `*TOKEN*`, …); commands get the whole environment anyway.
    pub env_passthrough: Vec<String>,
}

impl Default for TerminalConfig {
    fn default() -> Self {
        Self {
            backend: "local".into(),
            cwd: ".".into(),
            timeout: 180,
            env_passthrough: Vec::new(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct AgentConfig {
    /// Most API calls for one user message: its turn plus the turns its subagents' results
    /// start. Hermes's name, `agent.max_turns` (or a top-level `max_turns`), is read too and
    /// wins (see `config::hermes_names`).
    pub max_iterations: u32,
}

impl Default for AgentConfig {
    fn default() -> Self {
        Self { max_iterations: 90 }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ProviderConfig {
    /// Seconds without a byte on a streaming response before it counts as hung.
    pub stream_idle_timeout: u64,
    /// Retries for 429, 5xx and connection errors.
    pub max_retries: u32,
}

impl Default for ProviderConfig {
    fn default() -> Self {
        Self {
            stream_idle_timeout: 60,
            max_retries: 3,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct DisplayConfig {
    /// What Enter does while the agent works: `interrupt` (Hermes's default), `queue` or
    /// `steer`. Unknown values behave as `interrupt`.
    pub busy_input_mode: String,
    /// The skin: a built-in (`default`, `ares`, `mono`, `slate`, `daylight`, `warm-lightmode`,
    /// `poseidon`, `sisyphus`, `charizard`) or `HERMES_HOME/skins/<name>.yaml`.
    pub skin: String,
    /// `auto` (detect the terminal background), `light` or `dark`.
    pub theme_mode: String,
}

impl Default for DisplayConfig {
    fn default() -> Self {
        Self {
            busy_input_mode: "interrupt".into(),
            skin: "default".into(),
            theme_mode: "auto".into(),
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct SkillsConfig {
    /// More directories of skills (`~` and `$VAR` expanded); a local skill of the same name
    /// wins.
    pub external_dirs: Vec<String>,
    /// Refuse `skill_manage` writes the injection scanner flags (Hermes's key, default
    /// off); off, such a write is made and reported as flagged.
    pub guard_agent_created: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CompressionConfig {
    pub enabled: bool,
    /// Fraction of the context window at which the middle of the conversation is summarised.
    pub threshold: f64,
    /// Messages at the start that are never summarised.
    pub protect_first_n: u32,
    /// Messages at the end that are never summarised.
    pub protect_last_n: u32,
}

impl Default for CompressionConfig {
    fn default() -> Self {
        Self {
            enabled: true,
            threshold: 0.50,
            protect_first_n: 3,
            protect_last_n: 20,
        }
    }
}

/// Hermes's `prompt_caching:`: the TTL of Anthropic-style cache breakpoints.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct PromptCachingConfig {
    /// `5m` (default) or `1h`; any other value means `5m`, as in Hermes.
    pub cache_ttl: String,
}

impl Default for PromptCachingConfig {
    fn default() -> Self {
        Self {
            cache_ttl: "5m".to_string(),
        }
    }
}

/// Models for side tasks (Hermes's `auxiliary.<task>`); empty fields mean "the main model".
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct AuxiliaryConfig {
    pub compression: AuxiliaryModel,
    /// The reviewer for `approvals.mode: smart`.
    pub approval: AuxiliaryModel,
    /// The judge of the `/goal` loop.
    pub goal_judge: AuxiliaryModel,
    /// Describes images for models that cannot see them (`vision_analyze`).
    pub vision: AuxiliaryModel,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct AuxiliaryModel {
    pub model: String,
    pub provider: String,
    pub base_url: String,
}

/// `approvals:` — how dangerous commands are approved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ApprovalsConfig {
    pub mode: ApprovalMode,
    /// Seconds to wait for an answer before denying.
    pub timeout: u64,
    /// Ring the terminal bell when a request arrives.
    pub bell: bool,
    /// Ask before `/reload-mcp` changes the tool list (Hermes's default: ask).
    pub mcp_reload_confirm: bool,
    /// Globs (fnmatch, case-insensitive) of commands that never run, YOLO included.
    pub deny: Vec<String>,
    /// What a scheduled job (nobody watching) does with a dangerous command.
    pub cron_mode: CronApprovalMode,
}

impl Default for ApprovalsConfig {
    fn default() -> Self {
        Self {
            mode: ApprovalMode::Manual,
            timeout: 60,
            bell: true,
            mcp_reload_confirm: true,
            deny: Vec::new(),
            cron_mode: CronApprovalMode::Deny,
        }
    }
}

/// `approvals.mode`: ask the user (`manual`), let the auxiliary model decide and ask only when
/// it escalates (`smart`), or run dangerous commands without asking (`off`; hardline commands
/// stay blocked).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ApprovalMode {
    Manual,
    Smart,
    Off,
}

/// A setting YAML may hold as a boolean or as a word (`off` → `false` in YAML 1.1).
#[derive(Deserialize)]
#[serde(untagged)]
pub(super) enum FlagOrText {
    Flag(bool),
    Text(String),
}

impl<'de> Deserialize<'de> for ApprovalMode {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // YAML 1.1 writers (PyYAML, i.e. Hermes) turn a bare `off` into `false`.
        match FlagOrText::deserialize(deserializer)? {
            FlagOrText::Flag(false) => Ok(Self::Off),
            FlagOrText::Flag(true) => Ok(Self::Manual),
            FlagOrText::Text(text) => match text.trim().to_ascii_lowercase().as_str() {
                "manual" | "" => Ok(Self::Manual),
                "smart" => Ok(Self::Smart),
                "off" | "false" | "no" => Ok(Self::Off),
                other => Err(serde::de::Error::custom(format!(
                    "unknown approvals mode `{other}`, expected manual, smart or off"
                ))),
            },
        }
    }
}

/// `security:`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct SecurityConfig {
    /// Mask API keys, tokens and private keys in tool output, logs and exports.
    pub redact_secrets: bool,
    /// Let the web tools reach loopback/private addresses (Hermes's key).
    pub allow_private_urls: bool,
}

impl Default for SecurityConfig {
    fn default() -> Self {
        Self {
            redact_secrets: true,
            allow_private_urls: false,
        }
    }
}

/// `checkpoints:` — snapshots of the working directory before a turn changes files.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct CheckpointsConfig {
    pub enabled: bool,
    /// Checkpoints kept per working directory; older ones are pruned.
    pub max_snapshots: u32,
    /// Files larger than this (MB) are left out of a snapshot.
    pub max_file_size_mb: u64,
}

impl Default for CheckpointsConfig {
    fn default() -> Self {
        Self {
            enabled: true,
            max_snapshots: 50,
            max_file_size_mb: 10,
        }
    }
}

/// `delegation:` — subagents started with `delegate_task`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct DelegationConfig {
    /// Children running at once; a larger batch is a tool error.
    pub max_concurrent_children: u32,
    /// How deep delegation may nest (1: only the main agent delegates; at most 3).
    pub max_spawn_depth: u32,
    /// Whether `role: orchestrator` children may delegate further.
    pub orchestrator_enabled: bool,
    /// A child's API-call budget when the call does not give one.
    pub max_iterations: u32,
    /// Stop a child with no activity for this long (0: never; at least 30).
    pub child_timeout_seconds: u64,
    /// A cheaper model for children (empty: the parent's).
    pub model: String,
    pub provider: String,
    pub base_url: String,
    /// What a child's approval request does: `ask` the user, `deny`, or allow `once`.
    pub subagent_approvals: String,
}

impl Default for DelegationConfig {
    fn default() -> Self {
        Self {
            max_concurrent_children: 3,
            max_spawn_depth: 1,
            orchestrator_enabled: true,
            max_iterations: 50,
            child_timeout_seconds: 0,
            model: String::new(),
            provider: String::new(),
            base_url: String::new(),
            subagent_approvals: "ask".into(),
        }
    }
}

/// `tool_output:` — how much of a tool's output reaches the model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ToolOutputConfig {
    /// Bytes of output kept per call; above it the head and tail are kept.
    pub max_bytes: u64,
}

impl Default for ToolOutputConfig {
    fn default() -> Self {
        Self { max_bytes: 50_000 }
    }
}

/// `goals:` — the `/goal` loop.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct GoalsConfig {
    /// Continuation turns before the loop pauses and asks for `/goal resume`.
    pub max_turns: u32,
}

impl Default for GoalsConfig {
    fn default() -> Self {
        Self { max_turns: 20 }
    }
}
