//! The tool registry and the `Tool` trait every built-in tool implements.
//!
//! A tool gets its arguments as parsed JSON plus a `ToolContext` (working directory, limits,
//! cancellation, the command policy, and a `ToolHost` for progress lines and clarifying
//! questions). It returns a `ToolOutput` whose text is what the model sees. Tools never talk
//! to the UI directly and never panic on bad input: malformed arguments, binary files and
//! failing commands all come back as readable errors for the model.

pub mod args;
pub mod clarify;
pub mod context;
pub mod cronjob;
pub mod delegate;
pub mod execute_code;
pub mod mcp;
pub mod memory;
pub mod output;
pub mod patch;
pub mod process;
pub mod process_registry;
pub mod read_file;
pub mod registry;
pub mod sandboxed;
pub mod search;
pub mod session_search;
pub mod session_state;
pub mod skills;
pub mod terminal;
pub mod text_to_speech;
pub mod todo;
pub mod vision;
pub mod web_cache;
pub mod web_extract;
pub mod web_page_text;
pub mod web_search;
pub mod web_settings;
pub mod write_file;

#[cfg(test)]
pub(crate) mod test_support;

pub use context::*;
pub use registry::ToolRegistry;
pub use session_state::SessionTools;

use async_trait::async_trait;

use crate::model::ToolSchema;

/// How a tool may be scheduled alongside other calls from the same model response.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Concurrency {
    /// May run concurrently with other parallel-safe calls (read-only or independent).
    ParallelSafe,
    /// Runs alone, in order.
    Sequential,
    /// Never in parallel and never batched with others (e.g. `clarify`, which asks the user).
    Exclusive,
}

#[async_trait]
pub trait Tool: Send + Sync {
    /// The name the model calls (`terminal`, `read_file`, …), as Hermes.
    fn name(&self) -> &str;
    /// The toolset this tool belongs to (`terminal`, `file`, `todo`, `clarify`, …).
    fn toolset(&self) -> &str;
    /// The OpenAI function schema offered to the model.
    fn schema(&self) -> ToolSchema;
    fn concurrency(&self) -> Concurrency;
    /// One-line human summary of a call for the UI (`echo hi`, `src/main.rs:10`).
    fn preview(&self, args: &serde_json::Value) -> String;
    /// Run the call. Errors are returned as `ToolOutput::error`, not as `Err`, unless the
    /// failure is in the engine's plumbing itself.
    async fn call(&self, args: serde_json::Value, ctx: &ToolContext) -> ToolOutput;
}

/// What a tool call produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolOutput {
    /// The text the model sees.
    pub content: String,
    pub outcome: ToolOutcome,
    /// Images the model sees with the text (saved files; `vision_analyze` loads them).
    pub images: Vec<std::path::PathBuf>,
    /// The result as a program gets it (`execute_code` scripts): a JSON object in Hermes's
    /// shape for the tool (`{"content", "total_lines"}` for `read_file`, `{"output",
    /// "exit_code"}` for `terminal`, …). `None`: `content` is all there is.
    pub data: Option<serde_json::Value>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToolOutcome {
    Ok,
    Error,
    /// Refused by the command policy before running.
    Denied,
    Cancelled,
}

impl ToolOutput {
    pub fn ok(content: impl Into<String>) -> Self {
        Self {
            content: content.into(),
            outcome: ToolOutcome::Ok,
            images: Vec::new(),
            data: None,
        }
    }

    pub fn error(content: impl Into<String>) -> Self {
        Self {
            content: content.into(),
            outcome: ToolOutcome::Error,
            images: Vec::new(),
            data: None,
        }
    }

    pub fn denied(content: impl Into<String>) -> Self {
        Self {
            content: content.into(),
            outcome: ToolOutcome::Denied,
            images: Vec::new(),
            data: None,
        }
    }

    /// The same output with its program-facing result.
    pub fn with_data(mut self, data: serde_json::Value) -> Self {
        self.data = Some(data);
        self
    }

    pub fn cancelled(content: impl Into<String>) -> Self {
        Self {
            content: content.into(),
            outcome: ToolOutcome::Cancelled,
            images: Vec::new(),
            data: None,
        }
    }
}
