//! `ToolRegistry`: the tools offered to the model, by name, in a stable order.
//!
//! `core()` holds the built-in core tools (terminal, process, read_file, write_file, patch,
//! search_files, todo, clarify); the session `register`s more (memory, session_search, skills,
//! delegate_task; MCP later).
//! Invariants: names are unique; `schemas()` and `names()` follow registration order, so the
//! tool list sent to the provider is byte-identical across the turns of a session.

use std::sync::Arc;

use crate::model::ToolSchema;
use crate::tools::Tool;
use crate::tools::clarify::ClarifyTool;
use crate::tools::patch::PatchTool;
use crate::tools::process::ProcessTool;
use crate::tools::read_file::ReadFileTool;
use crate::tools::search::SearchFilesTool;
use crate::tools::terminal::TerminalTool;
use crate::tools::todo::TodoTool;
use crate::tools::write_file::WriteFileTool;

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum RegistryError {
    #[error("a tool named {0} is already registered")]
    Duplicate(String),
}

#[derive(Clone, Default)]
pub struct ToolRegistry {
    tools: Vec<Arc<dyn Tool>>,
}

impl std::fmt::Debug for ToolRegistry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolRegistry")
            .field("tools", &self.names())
            .finish()
    }
}

impl ToolRegistry {
    /// An empty registry.
    pub fn new() -> Self {
        Self::default()
    }

    /// The built-in core tools.
    pub fn core() -> Self {
        let tools: Vec<Arc<dyn Tool>> = vec![
            Arc::new(TerminalTool),
            Arc::new(ProcessTool),
            Arc::new(ReadFileTool),
            Arc::new(WriteFileTool),
            Arc::new(PatchTool),
            Arc::new(SearchFilesTool),
            Arc::new(TodoTool),
            Arc::new(ClarifyTool),
        ];
        Self { tools }
    }

    /// Add a tool at the end; refuses a second tool with the same name.
    pub fn register(&mut self, tool: Arc<dyn Tool>) -> Result<(), RegistryError> {
        if self.get(tool.name()).is_some() {
            return Err(RegistryError::Duplicate(tool.name().to_string()));
        }
        self.tools.push(tool);
        Ok(())
    }

    /// The same registry without the tools named in `names` (a subagent's tools).
    pub fn without(&self, names: &[&str]) -> Self {
        Self {
            tools: self
                .tools
                .iter()
                .filter(|t| !names.contains(&t.name()))
                .cloned()
                .collect(),
        }
    }

    pub fn get(&self, name: &str) -> Option<Arc<dyn Tool>> {
        self.tools.iter().find(|t| t.name() == name).cloned()
    }

    pub fn names(&self) -> Vec<&str> {
        self.tools.iter().map(|t| t.name()).collect()
    }

    /// The schemas offered to the model, in registration order.
    pub fn schemas(&self) -> Vec<ToolSchema> {
        self.tools.iter().map(|t| t.schema()).collect()
    }

    pub fn tools(&self) -> &[Arc<dyn Tool>] {
        &self.tools
    }

    pub fn len(&self) -> usize {
        self.tools.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    /// Only the tools whose toolset is in `toolsets` (`--toolsets terminal,file`).
    pub fn filter_toolsets(&self, toolsets: &[&str]) -> Self {
        Self {
            tools: self
                .tools
                .iter()
                .filter(|t| toolsets.contains(&t.toolset()))
                .cloned()
                .collect(),
        }
    }

    /// Only the tools `keep(name, toolset)` accepts (a session's toolset selection).
    pub fn retain(&self, keep: impl Fn(&str, &str) -> bool) -> Self {
        Self {
            tools: self
                .tools
                .iter()
                .filter(|t| keep(t.name(), t.toolset()))
                .cloned()
                .collect(),
        }
    }

    /// The distinct toolset names, in first-appearance order.
    pub fn toolsets(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for t in &self.tools {
            if !out.contains(&t.toolset()) {
                out.push(t.toolset());
            }
        }
        out
    }
}

#[cfg(test)]
#[path = "registry_tests.rs"]
mod tests;
