//! The toolsets part of the protocol: the list `/tools` shows (`Event::Toolsets`) and the
//! requests that ask for it or switch one toolset (`Op::Toolsets`). Plain data, like the
//! rest of `protocol`; the engine reads and writes `config.yaml` for them.
//!
//! Invariants: `ToolsetList::toolsets` is in Hermes's `hermes tools` order (configurable
//! toolsets hermes has tools for, then MCP servers); `enabled` is what `config.yaml` says now,
//! which a running session's tools follow only from the next start (`applies`).

use serde::Deserialize;
use serde::Serialize;

/// `Op::Toolsets`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "request", rename_all = "snake_case")]
pub enum ToolsetsOp {
    /// Answered with `Event::Toolsets`.
    List,
    /// Enable or disable toolset `name` in config.yaml (as `hermes tools enable|disable`);
    /// answered with `Event::Toolsets` (the new state) or a warning `Notice`.
    Set { name: String, enabled: bool },
}

/// `Event::Toolsets`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolsetList {
    pub toolsets: Vec<ToolsetEntry>,
    /// When a change takes effect, for the user (e.g. "from the next start of hermes").
    pub applies: String,
    /// What the last `Set` did, for the user; empty for a plain `List`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub changed: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolsetEntry {
    /// The toolset's config name (`web`, `memory`, an MCP server's name).
    pub name: String,
    /// Hermes's label (`🔍 Web Search & Scraping`), or `MCP server` for a server.
    pub label: String,
    pub enabled: bool,
    /// Whether the running session offers this toolset's tools.
    pub in_session: bool,
    pub tools: Vec<ToolEntry>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolEntry {
    pub name: String,
    /// Why the tool cannot be offered even when its toolset is enabled (a missing key).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unavailable: Option<String>,
}
