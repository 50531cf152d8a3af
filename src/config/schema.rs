//! The typed view of `config.yaml`, with Hermes's key names and defaults.
//!
//! Every section and field has a default, so a partial or empty file is valid; keys hermes
//! does not know are ignored here (and kept on rewrite by `config::edit`). Secrets normally
//! live in `.env`, not here; `model.api_key` exists because Hermes accepts it.

use serde::Deserialize;
use serde::Serialize;

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
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ModelConfig {
    /// Model id, e.g. `anthropic/claude-sonnet-4` (OpenRouter) or `qwen2.5:7b` (Ollama).
    pub default: String,
    /// Provider profile: `openrouter`, `openai`, `anthropic`, `nous`, `custom`. Empty means
    /// "infer from base_url / available keys".
    pub provider: String,
    /// Endpoint base URL; overrides the profile's.
    pub base_url: String,
    /// API key; prefer the provider's variable in `.env`.
    pub api_key: String,
    /// `chat_completions` or `anthropic_messages`; empty means infer.
    pub api_mode: String,
    /// Context window in tokens; 0 means "use the profile's default".
    pub context_length: u64,
    /// Max output tokens per request; 0 means provider default.
    pub max_tokens: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct TerminalConfig {
    pub backend: String,
    pub cwd: String,
    /// Foreground command timeout in seconds.
    pub timeout: u64,
}

impl Default for TerminalConfig {
    fn default() -> Self {
        Self {
            backend: "local".into(),
            cwd: ".".into(),
            timeout: 180,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct AgentConfig {
    /// Most API calls in one turn.
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
}

impl Default for DisplayConfig {
    fn default() -> Self {
        Self {
            busy_input_mode: "interrupt".into(),
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct SkillsConfig {
    /// More directories of skills (`~` and `$VAR` expanded); a local skill of the same name
    /// wins.
    pub external_dirs: Vec<String>,
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

/// Models for side tasks (Hermes's `auxiliary.<task>`); empty fields mean "the main model".
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct AuxiliaryConfig {
    pub compression: AuxiliaryModel,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct AuxiliaryModel {
    pub model: String,
    pub provider: String,
    pub base_url: String,
}
