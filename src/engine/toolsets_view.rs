//! The toolsets as a user sees them — for `hermes tools list` and the TUI's `/tools`: each
//! configurable toolset hermes has tools for, whether `config.yaml` enables it, its tools and
//! why one cannot be offered (`unavailable_reason`), then the MCP servers. Also answers
//! `Op::Toolsets` for a session (`ToolsetsLink`), writing through `config::toolsets_edit`.
//!
//! It decides nothing about what a session offers (`config::toolset_selection` does) and
//! never connects to anything: MCP servers are listed by name, without their tools.

use std::collections::BTreeSet;
use std::sync::Arc;

use crate::config::Config;
use crate::config::HermesHome;
use crate::config::env::EnvLookup;
use crate::config::toolset_catalog;
use crate::config::toolset_selection::DefaultMcp;
use crate::config::toolset_selection::ToolSelection;
use crate::config::toolset_selection::enabled_toolsets;
use crate::config::toolsets_edit::ToolsetAction;
use crate::config::toolsets_edit::change_toolsets;
use crate::protocol::ToolEntry;
use crate::protocol::ToolsetEntry;
use crate::protocol::ToolsetList;

/// When a change made in `/tools` or with `hermes tools` takes effect.
pub const APPLIES: &str = "saved to config.yaml; applies to sessions started from now on (in a \
                           running app: switch with /tools, then /new)";

/// Why `tool` cannot be offered with this configuration even when its toolset is on, or
/// `None` when it can. The hook for tools that need a key or a backend (the web tools
/// answer here, e.g. "needs TAVILY_API_KEY for backend tavily").
pub fn unavailable_reason(config: &Config, env: &EnvLookup, tool: &str) -> Option<String> {
    use crate::web::backends::Capability;
    let web_choice = |capability: Capability| {
        let lookup = |name: &str| env.get(name).filter(|v| !v.trim().is_empty());
        crate::web::backends::select::choose(capability, &config.web, &lookup)
            .err()
            .map(|e| {
                let text = e.to_string();
                // The list already names the tool.
                match text.strip_prefix(&format!("{tool}: ")) {
                    Some(rest) => rest.to_string(),
                    None => text,
                }
            })
    };
    match tool {
        "memory" if !config.memory.memory_enabled && !config.memory.user_profile_enabled => {
            Some("memory.memory_enabled and memory.user_profile_enabled are both false".to_string())
        }
        "execute_code" if !cfg!(unix) => {
            Some("needs Unix domain sockets, which this platform does not have".to_string())
        }
        "execute_code" => super::spec_parts::code_settings(config, env)
            .err()
            .map(|why| why.to_string()),
        "web_search" => web_choice(Capability::Search),
        "web_extract" => web_choice(Capability::Extract),
        _ => None,
    }
}

/// The toolsets and their state. `hermes_tools` are every tool hermes has, as
/// `(name, toolset)`; `session` is the running session's selection (`None`: as configured).
pub fn toolset_list(
    config: &Config,
    env: &EnvLookup,
    hermes_tools: &[(String, String)],
    session: Option<&ToolSelection>,
) -> ToolsetList {
    let servers: Vec<String> = config
        .mcp_servers
        .iter()
        .filter(|s| s.config.enabled)
        .map(|s| s.name.clone())
        .collect();
    let enabled = enabled_toolsets(&config.toolsets, &servers, DefaultMcp::Include);
    let mut toolsets = Vec::new();
    for label in toolset_catalog::configurable() {
        if matches!(label.name, "discord" | "discord_admin") {
            continue;
        }
        let listed = toolset_catalog::get(label.name)
            .map(|d| d.tools.clone())
            .unwrap_or_default();
        // A toolset is hermes's when one of hermes's tools is in it (`browser` lists
        // `web_search` too, but hermes has no browser tool).
        if !hermes_tools
            .iter()
            .any(|(_, toolset)| toolset == label.name)
        {
            continue;
        }
        let ours: BTreeSet<&str> = hermes_tools
            .iter()
            .filter(|(name, toolset)| listed.contains(&name.as_str()) || toolset == label.name)
            .map(|(name, _)| name.as_str())
            .collect();
        let mut tools: Vec<ToolEntry> = Vec::new();
        for name in listed.iter().copied().chain(ours.iter().copied()) {
            if tools.iter().any(|t| t.name == name) {
                continue;
            }
            let unavailable = if ours.contains(name) {
                unavailable_reason(config, env, name)
            } else {
                Some("not in hermes yet".to_string())
            };
            tools.push(ToolEntry {
                name: name.to_string(),
                unavailable,
            });
        }
        let is_enabled = enabled.contains(label.name);
        let in_session = session.map_or(is_enabled, |s| {
            ours.iter().any(|tool| s.offers(tool, label.name))
        });
        toolsets.push(ToolsetEntry {
            name: label.name.to_string(),
            label: label.label.to_string(),
            enabled: is_enabled,
            in_session,
            tools,
        });
    }
    for server in &config.mcp_servers {
        let is_enabled = server.config.enabled && enabled.contains(&server.name);
        toolsets.push(ToolsetEntry {
            name: server.name.clone(),
            label: format!("MCP server (toolset mcp-{})", server.name),
            enabled: is_enabled,
            in_session: session.map_or(is_enabled, |s| s.offers_mcp(&server.name)),
            tools: Vec::new(),
        });
    }
    ToolsetList {
        toolsets,
        applies: APPLIES.to_string(),
        changed: String::new(),
    }
}

/// The configurable toolsets hermes has no tool for yet, for the end of `hermes tools list`.
pub fn not_in_hermes(hermes_tools: &[(String, String)]) -> Vec<&'static str> {
    toolset_catalog::configurable()
        .iter()
        .filter(|l| !matches!(l.name, "discord" | "discord_admin"))
        .filter(|l| !hermes_tools.iter().any(|(_, toolset)| toolset == l.name))
        .map(|l| l.name)
        .collect()
}

/// What a session needs to answer `Op::Toolsets`.
#[derive(Clone)]
pub struct ToolsetsLink {
    pub home: HermesHome,
    pub env: EnvLookup,
    /// Every tool hermes has, as `(name, toolset)`.
    pub hermes_tools: Arc<Vec<(String, String)>>,
    /// The session's own selection, for `in_session`.
    pub selection: Arc<ToolSelection>,
}

impl ToolsetsLink {
    /// Applies `change` (`Some((name, enabled))`) to config.yaml, then lists the toolsets
    /// as the file now says. Blocking (file I/O); run it off the session's task.
    pub fn answer(&self, change: Option<(&str, bool)>) -> Result<ToolsetList, String> {
        let mut changed = String::new();
        if let Some((name, enable)) = change {
            let action = if enable {
                ToolsetAction::Enable
            } else {
                ToolsetAction::Disable
            };
            let outcome = change_toolsets(&self.home, &[name.to_string()], action)
                .map_err(|e| e.to_string())?;
            let verb = if enable { "enabled" } else { "disabled" };
            changed = format!("{name} {verb}");
            for notice in outcome.notices {
                changed.push_str(" — ");
                changed.push_str(&notice);
            }
        }
        let loaded = crate::config::load::load(&self.home);
        let mut list = toolset_list(
            &loaded.config,
            &self.env,
            &self.hermes_tools,
            Some(&self.selection),
        );
        list.changed = changed;
        Ok(list)
    }
}

#[cfg(test)]
#[path = "toolsets_view_tests.rs"]
mod tests;
