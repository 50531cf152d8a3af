//! `hermes tools enable|disable NAME…` (and the TUI's `/tools` toggles) as a library
//! function: Python Hermes's `_apply_toolset_change` + `_save_platform_tools` for the `cli`
//! platform, written into `config.yaml` in place.
//!
//! A toolset change rewrites `platform_toolsets.cli` as the sorted list of the enabled
//! toolsets plus the entries Hermes preserves (MCP server names and other non-configurable
//! names; not presets, not `no_mcp`), and takes re-enabled toolsets out of
//! `agent.disabled_toolsets`, exactly as Hermes saves it, so either program reads what the
//! other wrote. An MCP server name (not something `hermes tools` in Hermes accepts) is
//! switched through `agent.disabled_toolsets`, which Hermes honours too. The edit keeps
//! comments and unknown keys (`util::yaml_lines::set_list`), re-parses the result and falls
//! back to the YAML serializer (with `config.yaml.bak`) like `config set`. A malformed file
//! is never touched.

use std::collections::BTreeSet;
use std::path::PathBuf;

use serde_norway::{Mapping, Value};

use super::edit::{EditMethod, InPlaceError, render_string, write_edited};
use super::error::ConfigError;
use super::home::HermesHome;
use super::load::yaml_warning;
use super::toolset_catalog;
use super::toolset_selection::{DefaultMcp, enabled_toolsets};
use super::toolsets::{NO_MCP, PLATFORM};
use crate::util::yaml_lines::{self, LineEditError};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToolsetAction {
    Enable,
    Disable,
}

/// What `change_toolsets` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolsetsEditOutcome {
    pub path: PathBuf,
    pub method: EditMethod,
    /// The names changed, as given.
    pub changed: Vec<String>,
    /// Things the user should know (comments lost, where the old file went).
    pub notices: Vec<String>,
}

/// Names `hermes tools enable|disable` accepts: the configurable toolsets (not Discord's,
/// which belong to the discord platform), and configured MCP servers.
pub fn changeable_names(mcp_servers: &[String]) -> Vec<String> {
    toolset_catalog::configurable()
        .iter()
        .map(|l| l.name)
        .filter(|n| !matches!(*n, "discord" | "discord_admin"))
        .map(String::from)
        .chain(mcp_servers.iter().cloned())
        .collect()
}

/// Enables or disables `names` for the CLI in `HERMES_HOME/config.yaml`.
pub fn change_toolsets(
    home: &HermesHome,
    names: &[String],
    action: ToolsetAction,
) -> Result<ToolsetsEditOutcome, ConfigError> {
    let file = home.config_path();
    let old_text = match std::fs::read_to_string(&file) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(ConfigError::io(&file, e)),
    };
    let old_doc: Value = serde_norway::from_str(&old_text).map_err(|e| {
        ConfigError::Malformed(yaml_warning(
            &file,
            &e,
            "fix the file before `hermes tools`",
        ))
    })?;
    let loaded = super::load::parse(&old_text, &file);
    let config = &loaded.config.toolsets;
    let servers: Vec<String> = loaded
        .config
        .mcp_servers
        .iter()
        .filter(|s| s.config.enabled)
        .map(|s| s.name.clone())
        .collect();
    let all_servers: Vec<String> = loaded
        .config
        .mcp_servers
        .iter()
        .map(|s| s.name.clone())
        .collect();
    let valid = changeable_names(&all_servers);
    if let Some(unknown) = names.iter().find(|n| !valid.contains(n)) {
        return Err(ConfigError::UnknownToolset {
            name: unknown.clone(),
            valid: valid.join(", "),
        });
    }
    let (mcp_names, toolset_names): (Vec<&String>, Vec<&String>) =
        names.iter().partition(|n| all_servers.contains(n));

    let mut cli_list: Option<Vec<String>> = None;
    let mut disabled: Vec<String> = config.disabled.clone();
    if !toolset_names.is_empty() {
        let mut enabled = enabled_toolsets(config, &servers, DefaultMcp::Exclude);
        for name in &toolset_names {
            match action {
                ToolsetAction::Enable => enabled.insert((*name).clone()),
                ToolsetAction::Disable => enabled.remove(*name),
            };
        }
        let preserved: BTreeSet<String> = config
            .cli
            .iter()
            .flatten()
            .filter(|e| !toolset_catalog::is_configurable(e))
            .filter(|e| !(e.starts_with("hermes-") && toolset_catalog::get(e).is_some()))
            .filter(|e| e.as_str() != NO_MCP)
            .cloned()
            .collect();
        let newly_enabled: BTreeSet<&String> = enabled.difference(&preserved).collect();
        disabled.retain(|d| !newly_enabled.contains(d));
        cli_list = Some(enabled.union(&preserved).cloned().collect());
    }
    for name in mcp_names {
        match action {
            ToolsetAction::Enable => disabled.retain(|d| d != name),
            ToolsetAction::Disable if !disabled.contains(name) => disabled.push(name.clone()),
            ToolsetAction::Disable => {}
        }
    }
    let disabled_changed = disabled != config.disabled;

    let mut expected = old_doc;
    let mut edits: Vec<(Vec<&str>, Vec<String>)> = Vec::new();
    if let Some(list) = &cli_list {
        set_path(&mut expected, &["platform_toolsets", PLATFORM], list)?;
        edits.push((vec!["platform_toolsets", PLATFORM], list.clone()));
    }
    if disabled_changed {
        set_path(&mut expected, &["agent", "disabled_toolsets"], &disabled)?;
        edits.push((vec!["agent", "disabled_toolsets"], disabled.clone()));
    }
    let mut text = old_text.clone();
    let mut line_edit: Result<(), InPlaceError> = Ok(());
    for (path, items) in &edits {
        let rendered: Vec<String> = items.iter().map(|i| render_string(i)).collect();
        match yaml_lines::set_list(&text, path, &rendered) {
            Ok(next) => text = next,
            Err(err) => {
                let what = match err {
                    LineEditError::Unsupported(what) => what,
                    LineEditError::IsSection => "a section".to_string(),
                };
                line_edit = Err(InPlaceError::Unsupported {
                    what,
                    key: path.join("."),
                });
                break;
            }
        }
    }
    let line_edit = line_edit.and_then(|()| {
        if serde_norway::from_str::<Value>(&text).is_ok_and(|v| v == expected) {
            Ok(text)
        } else {
            Err(InPlaceError::ReadBack)
        }
    });
    home.ensure_dirs()?;
    let mut notices = Vec::new();
    let method = write_edited(&file, Some(&old_text), &expected, line_edit, &mut notices)?;
    Ok(ToolsetsEditOutcome {
        path: file,
        method,
        changed: names.to_vec(),
        notices,
    })
}

/// Sets `path` in a document to a list of strings, creating the sections on the way.
fn set_path(root: &mut Value, path: &[&str], items: &[String]) -> Result<(), ConfigError> {
    let mut node = root;
    for (depth, seg) in path.iter().enumerate() {
        if node.is_null() {
            *node = Value::Mapping(Mapping::new());
        }
        let Value::Mapping(map) = node else {
            return Err(ConfigError::InvalidKey {
                key: path.join("."),
                reason: "a parent of this key holds a value or a list, not a section",
            });
        };
        let slot = map
            .entry(Value::String((*seg).to_owned()))
            .or_insert(Value::Null);
        if depth + 1 == path.len() {
            *slot = Value::Sequence(items.iter().cloned().map(Value::String).collect());
            return Ok(());
        }
        node = slot;
    }
    Ok(())
}

#[cfg(test)]
#[path = "toolsets_edit_tests.rs"]
mod tests;
