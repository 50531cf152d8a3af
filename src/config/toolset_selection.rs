//! Which toolsets a CLI session has, from `config.yaml`'s toolset keys, by Python Hermes
//! 0.19's rules (`hermes_cli/tools_config.py::_get_platform_tools` for the `cli` platform),
//! and the tool-level answer a session's registry is filtered by (`ToolSelection`).
//!
//! The rules, in order: a `platform_toolsets.cli` list naming configurable toolsets is
//! taken as written (a preset beside them adds the configurable toolsets it covers, minus
//! the default-off ones); otherwise the list's presets (default `hermes-cli`) are expanded
//! and mapped back to the configurable toolsets they cover, minus the default-off ones.
//! Non-configurable toolsets the preset covers are recovered; other names pass through; MCP
//! servers are all on unless the list names some (an allowlist) or has `no_mcp`;
//! `agent.disabled_toolsets` is taken away last. `--toolsets a,b` replaces all that for a
//! run (disabled toolsets still go). Pure; reads no environment, so Hermes's auto-enables
//! from credentials (`x_search` with xAI keys, `homeassistant` with `HASS_TOKEN`) are not
//! made — hermes has neither tool.

use std::collections::BTreeSet;

use super::toolset_catalog::{self, CLI_PRESET};
use super::toolsets::{NO_MCP, ToolsetsConfig};

/// Whether the globally enabled MCP servers join a list that names none of them
/// (`include_default_mcp_servers`; `hermes tools` edits without them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DefaultMcp {
    Include,
    Exclude,
}

/// The toolset keys enabled for the CLI: configurable toolset names, recovered and
/// passed-through names, and MCP server names. `mcp_servers` are the enabled servers.
pub fn enabled_toolsets(
    config: &ToolsetsConfig,
    mcp_servers: &[String],
    default_mcp: DefaultMcp,
) -> BTreeSet<String> {
    let names: Vec<String> = config
        .cli
        .clone()
        .unwrap_or_else(|| vec![CLI_PRESET.to_string()]);
    let configurable: BTreeSet<&str> = toolset_catalog::configurable()
        .iter()
        .map(|l| l.name)
        // Discord's toolsets are for the discord platform only.
        .filter(|n| !matches!(*n, "discord" | "discord_admin"))
        .collect();
    let default_off: BTreeSet<&str> = toolset_catalog::all()
        .iter()
        .filter(|d| d.default_off)
        .map(|d| d.name)
        .collect();
    let static_tools = |name: &str| toolset_catalog::resolve(name);
    let covered_by = |tools: &BTreeSet<&str>| -> BTreeSet<String> {
        configurable
            .iter()
            .filter(|k| {
                let own = static_tools(k);
                !own.is_empty() && own.is_subset(tools)
            })
            .filter(|k| !default_off.contains(*k))
            .map(ToString::to_string)
            .collect()
    };
    let mut enabled: BTreeSet<String> = BTreeSet::new();
    if names.iter().any(|n| configurable.contains(n.as_str())) {
        enabled.extend(
            names
                .iter()
                .filter(|n| configurable.contains(n.as_str()))
                .cloned(),
        );
        let mut composite = BTreeSet::new();
        for name in names
            .iter()
            .filter(|n| !toolset_catalog::is_configurable(n))
        {
            if toolset_catalog::get(name).is_some() {
                composite.extend(static_tools(name));
            }
        }
        if !composite.is_empty() {
            enabled.extend(covered_by(&composite));
        }
    } else {
        let mut tools = BTreeSet::new();
        for name in &names {
            tools.extend(static_tools(name));
        }
        enabled = covered_by(&tools);
    }
    recover_non_configurable(&mut enabled, &configurable, &default_off);
    let preset_names: BTreeSet<&str> = toolset_catalog::all()
        .iter()
        .filter(|d| d.name.starts_with("hermes-"))
        .map(|d| d.name)
        .collect();
    let passthrough: BTreeSet<&str> = names
        .iter()
        .map(String::as_str)
        .filter(|n| !toolset_catalog::is_configurable(n) && !preset_names.contains(n))
        .collect();
    let servers: BTreeSet<&str> = mcp_servers.iter().map(String::as_str).collect();
    let no_mcp = passthrough.contains(NO_MCP);
    let explicit_mcp: BTreeSet<&str> = if no_mcp {
        BTreeSet::new()
    } else {
        passthrough.intersection(&servers).copied().collect()
    };
    enabled.extend(
        passthrough
            .iter()
            .filter(|n| !servers.contains(*n) && **n != NO_MCP)
            .map(ToString::to_string),
    );
    let mcp: &BTreeSet<&str> = match default_mcp {
        DefaultMcp::Include if explicit_mcp.is_empty() && !no_mcp => &servers,
        _ => &explicit_mcp,
    };
    enabled.extend(mcp.iter().map(ToString::to_string));
    for disabled in &config.disabled {
        enabled.remove(disabled);
    }
    enabled
}

/// Leaf toolsets the preset lists whose tools no configurable toolset owns (`kanban`), as
/// Hermes recovers them so saving from `hermes tools` does not drop them.
fn recover_non_configurable(
    enabled: &mut BTreeSet<String>,
    configurable: &BTreeSet<&str>,
    default_off: &BTreeSet<&str>,
) {
    let universe = toolset_catalog::resolve(CLI_PRESET);
    let mut configurable_universe = BTreeSet::new();
    for key in configurable {
        configurable_universe.extend(toolset_catalog::resolve(key));
    }
    let mut claimed = BTreeSet::new();
    for key in enabled.iter() {
        claimed.extend(toolset_catalog::resolve(key));
    }
    for def in toolset_catalog::all() {
        let skip = configurable.contains(def.name)
            || def.configurable
            || def.name.starts_with("hermes-")
            || default_off.contains(def.name)
            || !def.includes.is_empty()
            || def.posture;
        if skip {
            continue;
        }
        let tools = toolset_catalog::resolve(def.name);
        if tools.is_empty()
            || !tools.is_subset(&universe)
            || tools.is_subset(&configurable_universe)
            || tools.is_subset(&claimed)
        {
            continue;
        }
        enabled.insert(def.name.to_string());
        claimed.extend(tools);
    }
}

/// What one session offers: tools by name (and MCP servers by name), after the toolset
/// keys or `--toolsets` and `agent.disabled_toolsets`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolSelection {
    /// The enabled toolset keys (MCP server names included); for `--toolsets`, as given.
    pub enabled: BTreeSet<String>,
    /// `agent.disabled_toolsets`.
    pub disabled: BTreeSet<String>,
    /// `all` / `*`: every tool.
    everything: bool,
    /// The tool names the enabled toolsets resolve to.
    tools: BTreeSet<String>,
    /// The tool names the disabled toolsets take away.
    removed: BTreeSet<String>,
}

impl ToolSelection {
    /// The session's selection from `config.yaml` (`mcp_servers`: the enabled servers).
    pub fn from_config(config: &ToolsetsConfig, mcp_servers: &[String]) -> Self {
        Self::new(
            enabled_toolsets(config, mcp_servers, DefaultMcp::Include),
            config,
        )
    }

    /// `--toolsets a,b`: exactly these toolsets for the run (Hermes's `hermes chat
    /// --toolsets`); `agent.disabled_toolsets` still applies.
    pub fn from_flag(names: &[String], config: &ToolsetsConfig) -> Self {
        Self::new(names.iter().cloned().collect(), config)
    }

    fn new(enabled: BTreeSet<String>, config: &ToolsetsConfig) -> Self {
        let everything = enabled.contains("all") || enabled.contains("*");
        let mut tools = BTreeSet::new();
        for name in &enabled {
            tools.extend(toolset_catalog::resolve(name).into_iter().map(String::from));
        }
        let disabled: BTreeSet<String> = config.disabled.iter().cloned().collect();
        let mut removed = BTreeSet::new();
        for name in &disabled {
            removed.extend(
                toolset_catalog::tools_removed_by_disabling(name)
                    .into_iter()
                    .map(String::from),
            );
        }
        Self {
            enabled,
            disabled,
            everything,
            tools,
            removed,
        }
    }

    /// Every tool, nothing disabled (tests, and sessions built without config).
    pub fn everything() -> Self {
        Self::new(
            BTreeSet::from(["all".to_string()]),
            &ToolsetsConfig::default(),
        )
    }

    /// Whether a tool named `tool` of hermes's toolset `toolset` is offered. MCP tools
    /// (`mcp-<server>`) go by their server; a tool Hermes's table does not list goes by its
    /// toolset's name.
    pub fn offers(&self, tool: &str, toolset: &str) -> bool {
        if let Some(server) = toolset.strip_prefix("mcp-") {
            return self.offers_mcp(server);
        }
        if self.disabled.contains(toolset) || self.removed.contains(tool) {
            return false;
        }
        let listed = toolset_catalog::toolsets_of(tool).next().is_some();
        self.everything || self.tools.contains(tool) || (!listed && self.enabled.contains(toolset))
    }

    /// Whether the MCP server `server`'s tools are offered (its name, or `mcp-<name>`).
    pub fn offers_mcp(&self, server: &str) -> bool {
        let toolset = format!("mcp-{server}");
        let named = |set: &BTreeSet<String>| set.contains(server) || set.contains(&toolset);
        !named(&self.disabled) && (self.everything || named(&self.enabled))
    }
}

#[cfg(test)]
#[path = "toolset_selection_tests.rs"]
mod tests;
