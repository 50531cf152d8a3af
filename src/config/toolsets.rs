//! The toolset keys of `config.yaml`, read as Python Hermes writes them: the top-level
//! `toolsets:` list, `platform_toolsets.<platform>` (hermes is the `cli` platform) and
//! `agent.disabled_toolsets`, with the warnings Hermes's `toolset_validation` gives for
//! names no toolset has.
//!
//! Read from the raw document (a YAML number as a name is read as text, as Hermes
//! normalises it); never fails. What a session offers from these is decided in
//! `config::toolset_selection`; writing them is `config::toolsets_edit`.

use std::path::Path;

use serde_norway::Value;

use super::error::ConfigWarning;
use super::schema::NamedMcpServer;
use super::toolset_catalog;
use crate::util::yaml_lines;

/// The platform hermes is, in `platform_toolsets`.
pub const PLATFORM: &str = "cli";

/// Hermes's sentinel in a platform's list: no MCP servers on this platform.
pub const NO_MCP: &str = "no_mcp";

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ToolsetsConfig {
    /// Top-level `toolsets:` (Hermes's default file has `[hermes-cli]`). As in Python
    /// Hermes, the CLI's selection is `platform_toolsets.cli`, not this; it is read to check
    /// its names.
    pub toolsets: Vec<String>,
    /// `platform_toolsets.cli` when it is a list; `None` means the `hermes-cli` preset.
    pub cli: Option<Vec<String>>,
    /// `agent.disabled_toolsets`: taken away from every session, whatever else says.
    pub disabled: Vec<String>,
}

/// A YAML scalar as a toolset name (`12306:` parses as a number).
fn name_of(value: &Value) -> Option<String> {
    match value {
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

fn names_of(value: Option<&Value>) -> Option<Vec<String>> {
    match value? {
        Value::Sequence(items) => Some(items.iter().filter_map(name_of).collect()),
        _ => None,
    }
}

/// Reads the three keys from `raw`; `mcp_servers` (already read) makes server names valid.
pub(super) fn parse_toolsets(
    text: &str,
    raw: &Value,
    path: &Path,
    mcp_servers: &[NamedMcpServer],
    warnings: &mut Vec<ConfigWarning>,
) -> ToolsetsConfig {
    let platforms = raw.get("platform_toolsets");
    let config = ToolsetsConfig {
        toolsets: names_of(raw.get("toolsets")).unwrap_or_default(),
        cli: names_of(platforms.and_then(|p| p.get(PLATFORM))),
        disabled: names_of(raw.get("agent").and_then(|a| a.get("disabled_toolsets")))
            .unwrap_or_default(),
    };
    let servers: Vec<&str> = mcp_servers.iter().map(|s| s.name.as_str()).collect();
    let valid = |name: &str| is_valid_name(name, &servers);
    let warn = |keys: &[&str], message: String| {
        let mut warning = ConfigWarning::new(path, message);
        if let Some((line, column)) = yaml_lines::locate(text, keys) {
            warning = warning.at(line, column);
        }
        warning
    };
    if let Some(Value::Mapping(map)) = platforms {
        let mut valid_count = 0;
        let mut any = false;
        for (platform, entry) in map {
            let Some(platform) = name_of(platform) else {
                continue;
            };
            let names = names_of(Some(entry))
                .or_else(|| name_of(entry).map(|n| vec![n]))
                .unwrap_or_default();
            for name in names {
                any = true;
                if valid(&name) {
                    valid_count += 1;
                    continue;
                }
                let suggestion = format!("hermes-{platform}");
                let hint = if valid(&suggestion) {
                    format!(" — did you mean '{suggestion}'?")
                } else {
                    String::new()
                };
                warnings.push(warn(
                    &["platform_toolsets", &platform],
                    format!(
                        "platform '{platform}' references unknown toolset '{name}'{hint} \
                         (valid: {})",
                        toolset_catalog::valid_names_hint()
                    ),
                ));
            }
        }
        if any && valid_count == 0 {
            warnings.push(warn(
                &["platform_toolsets"],
                "platform_toolsets resolves to zero valid toolsets — the agent will have no \
                 tools. Run `hermes tools` to reconfigure."
                    .to_string(),
            ));
        }
    }
    for (keys, names) in [
        (&["toolsets"][..], &config.toolsets),
        (&["agent", "disabled_toolsets"][..], &config.disabled),
    ] {
        for name in names.iter().filter(|n| !valid(n)) {
            warnings.push(warn(
                keys,
                format!(
                    "{} names unknown toolset '{name}' (valid: {})",
                    keys.join("."),
                    toolset_catalog::valid_names_hint()
                ),
            ));
        }
    }
    config
}

/// A name a toolset list may hold: a Hermes toolset, a configured MCP server (or its
/// `mcp-<server>` toolset), or the `no_mcp` sentinel.
pub fn is_valid_name(name: &str, mcp_servers: &[&str]) -> bool {
    name == NO_MCP
        || toolset_catalog::is_known(name)
        || mcp_servers.contains(&name)
        || name
            .strip_prefix("mcp-")
            .is_some_and(|server| mcp_servers.contains(&server))
}

#[cfg(test)]
#[path = "toolsets_tests.rs"]
mod tests;
