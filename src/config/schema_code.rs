//! `code_execution:` — the `execute_code` tool's settings (Hermes's keys `mode`, `timeout`,
//! `max_tool_calls`, plus hermes's `python`). Plain data: `tools::execute_code` interprets it.

use serde::Deserialize;
use serde::Serialize;

/// `code_execution:` — where scripts run and how far.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct CodeExecutionConfig {
    /// `project`: the session's working directory and the project's interpreter; `strict`: an
    /// isolated temp directory.
    pub mode: CodeExecutionMode,
    /// Seconds a script may run before it is stopped (SIGTERM, then SIGKILL 5 s later).
    pub timeout: u64,
    /// Tool calls one script may make.
    pub max_tool_calls: u64,
    /// The interpreter to use; empty: the active virtualenv/conda env's in `project` mode,
    /// else the first `python3` on PATH.
    pub python: String,
}

impl Default for CodeExecutionConfig {
    fn default() -> Self {
        Self {
            mode: CodeExecutionMode::Project,
            timeout: 300,
            max_tool_calls: 50,
            python: String::new(),
        }
    }
}

/// `code_execution.mode`. Anything but `strict` (any case) is `project`, Hermes's default and
/// its fallback for an unknown value.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", from = "String")]
pub enum CodeExecutionMode {
    #[default]
    Project,
    Strict,
}

impl From<String> for CodeExecutionMode {
    fn from(text: String) -> Self {
        if text.trim().eq_ignore_ascii_case("strict") {
            Self::Strict
        } else {
            Self::Project
        }
    }
}

impl CodeExecutionMode {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Project => "project",
            Self::Strict => "strict",
        }
    }
}
