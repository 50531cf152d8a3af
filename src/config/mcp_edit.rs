//! `hermes mcp add` / `hermes mcp remove` as library functions: add or delete one entry of
//! `mcp_servers:` in `config.yaml`.
//!
//! Edits are made in the text (with `util::yaml_lines`' line model), keeping comments, order and
//! every other key byte for byte: `add` appends the server block at the end of a
//! block-style `mcp_servers:` (matching its indentation) or appends a new `mcp_servers:`
//! section to the file; `remove` deletes the
//! server's lines, and the `mcp_servers:` line too when no server is left (as Hermes drops
//! the empty key). The result is re-parsed and only accepted if the document equals the old
//! one with exactly that change; otherwise (flow style, odd indentation) the old file is saved
//! as `config.yaml.bak` and the file is rewritten by the YAML serializer, with a notice. Only
//! the settings that differ from the defaults are written. A malformed file is never
//! touched. Writes are atomic. Does not connect to or validate the server beyond its name
//! and transport (see `tools::mcp`).

use std::path::{Path, PathBuf};

use serde_norway::{Mapping, Value};

use super::edit::{EditMethod, InPlaceError, render_string};
use super::error::{ConfigError, ConfigWarning};
use super::home::HermesHome;
use super::load::yaml_warning;
use super::mcp_servers::server_name;
use super::schema::McpServerConfig;
use crate::util::mcp_names::mcp_name_part;
use crate::util::yaml_lines::{self, block_end, indent_unit, newline_of, rebuild, split_lines};

const MAX_NAME_CHARS: usize = 64;

/// What `add_mcp_server` / `remove_mcp_server` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct McpEditOutcome {
    pub path: PathBuf,
    pub method: EditMethod,
    /// Things the user should know (comments lost, where the old file went).
    pub notices: Vec<String>,
}

/// Adds `mcp_servers.<name>` with the settings of `server` that differ from the defaults.
pub fn add_mcp_server(
    home: &HermesHome,
    name: &str,
    server: &McpServerConfig,
) -> Result<McpEditOutcome, ConfigError> {
    validate_mcp_server_name(name)?;
    if let Err(why) = server.endpoint() {
        return Err(ConfigError::InvalidValue {
            key: format!("mcp_servers.{name}"),
            message: format!("mcp_servers.{name} {why}"),
        });
    }
    let file = home.config_path();
    let old = read_config(&file, "hermes mcp add")?;
    let mut expected = old.doc.clone();
    let servers = servers_mut(&mut expected, &file)?;
    if servers.keys().any(|k| server_name(k) == name) {
        return Err(ConfigError::McpServerExists {
            name: name.to_owned(),
            path: file,
        });
    }
    if let Some(clash) = servers
        .keys()
        .map(server_name)
        .find(|n| mcp_name_part(n) == mcp_name_part(name))
    {
        return Err(ConfigError::InvalidMcpServerName {
            name: name.to_owned(),
            reason: format!(
                "its tools would be named like those of the configured server {clash}; \
                 choose another name"
            ),
        });
    }
    let body = minimal_server_mapping(server);
    servers.insert(Value::String(name.to_owned()), Value::Mapping(body.clone()));
    let line_edit = insert_server(&old.text, name, &body);
    write(home, &file, &old, &expected, line_edit)
}

/// Removes `mcp_servers.<name>`, and `mcp_servers:` itself when it was the last server.
pub fn remove_mcp_server(home: &HermesHome, name: &str) -> Result<McpEditOutcome, ConfigError> {
    let file = home.config_path();
    let old = read_config(&file, "hermes mcp remove")?;
    let mut expected = old.doc.clone();
    let servers = servers_mut(&mut expected, &file)?;
    let Some(key) = servers.keys().find(|k| server_name(k) == name).cloned() else {
        let names: Vec<String> = servers.keys().map(server_name).collect();
        return Err(ConfigError::McpServerNotFound {
            name: name.to_owned(),
            path: file,
            configured: if names.is_empty() {
                "none".to_owned()
            } else {
                names.join(", ")
            },
        });
    };
    servers.shift_remove(&key);
    let now_empty = servers.is_empty();
    if now_empty && let Value::Mapping(top) = &mut expected {
        top.shift_remove("mcp_servers");
    }
    let line_edit = delete_server(&old.text, name);
    write(home, &file, &old, &expected, line_edit)
}

/// Names are what `hermes mcp add` accepts: 1–64 ASCII letters, digits, `-` and `_`.
/// (`config.yaml` may hold other names; they load, and `remove` finds them.)
pub fn validate_mcp_server_name(name: &str) -> Result<(), ConfigError> {
    let invalid = |reason: String| ConfigError::InvalidMcpServerName {
        name: name.to_owned(),
        reason,
    };
    if name.is_empty() {
        return Err(invalid("it is empty".into()));
    }
    if let Some(bad) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || *c == '-' || *c == '_'))
    {
        return Err(invalid(format!(
            "{bad:?} is not allowed; use letters, digits, '-' and '_'"
        )));
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(invalid(format!(
            "it is longer than {MAX_NAME_CHARS} characters"
        )));
    }
    Ok(())
}

/// `server` as a YAML mapping without the settings equal to `McpServerConfig::default()`'s
/// (nested `tools:` settings too), so the file says only what the user chose.
pub(crate) fn minimal_server_mapping(server: &McpServerConfig) -> Mapping {
    let as_mapping = |config: &McpServerConfig| match serde_norway::to_value(config) {
        Ok(Value::Mapping(map)) => map,
        _ => Mapping::new(),
    };
    let mut map = as_mapping(server);
    strip_defaults(&mut map, &as_mapping(&McpServerConfig::default()));
    map
}

fn strip_defaults(map: &mut Mapping, defaults: &Mapping) {
    let keys: Vec<Value> = map.keys().cloned().collect();
    for key in keys {
        let Some(default) = defaults.get(&key) else {
            continue;
        };
        let drop = match (map.get_mut(&key), default) {
            (Some(Value::Mapping(inner)), Value::Mapping(inner_default)) => {
                strip_defaults(inner, inner_default);
                inner.is_empty()
            }
            (Some(value), default) => value == default,
            (None, _) => false,
        };
        if drop {
            map.shift_remove(&key);
        }
    }
}

/// The file as it was: its text (empty when missing) and its parsed document.
struct OldConfig {
    text: String,
    doc: Value,
    exists: bool,
}

fn read_config(file: &Path, command: &str) -> Result<OldConfig, ConfigError> {
    let (text, exists) = match std::fs::read_to_string(file) {
        Ok(text) => (text, true),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => (String::new(), false),
        Err(e) => return Err(ConfigError::io(file, e)),
    };
    let fix_first = format!("fix the file before `{command}`");
    let doc: Value = serde_norway::from_str(&text)
        .map_err(|e| ConfigError::Malformed(yaml_warning(file, &e, &fix_first)))?;
    match doc {
        Value::Null | Value::Mapping(_) => Ok(OldConfig { text, doc, exists }),
        _ => Err(ConfigError::Malformed(ConfigWarning::new(
            file,
            format!("the top level is not a mapping of settings — {fix_first}"),
        ))),
    }
}

/// `doc["mcp_servers"]` as a mapping, created when absent or null.
fn servers_mut<'d>(doc: &'d mut Value, file: &Path) -> Result<&'d mut Mapping, ConfigError> {
    if doc.is_null() {
        *doc = Value::Mapping(Mapping::new());
    }
    let Value::Mapping(top) = doc else {
        return Err(ConfigError::Malformed(ConfigWarning::new(
            file,
            "the top level is not a mapping of settings",
        )));
    };
    let slot = top
        .entry(Value::String("mcp_servers".into()))
        .or_insert(Value::Null);
    if slot.is_null() {
        *slot = Value::Mapping(Mapping::new());
    }
    match slot {
        Value::Mapping(servers) => Ok(servers),
        _ => Err(ConfigError::InvalidValue {
            key: "mcp_servers".into(),
            message: format!(
                "{}: mcp_servers is not a mapping of server names to settings; fix it first",
                file.display()
            ),
        }),
    }
}

/// Checks the line edit against `expected`, falls back to the serializer, and writes.
fn write(
    home: &HermesHome,
    file: &Path,
    old: &OldConfig,
    expected: &Value,
    line_edit: Result<String, InPlaceError>,
) -> Result<McpEditOutcome, ConfigError> {
    let line_edit = line_edit.and_then(|text| match serde_norway::from_str::<Value>(&text) {
        Ok(doc) if same_document(&doc, expected) => Ok(text),
        _ => Err(InPlaceError::ReadBack),
    });
    home.ensure_dirs()?;
    let mut notices = Vec::new();
    let old_text = old.exists.then_some(old.text.as_str());
    let method = super::edit::write_edited(file, old_text, expected, line_edit, &mut notices)?;
    Ok(McpEditOutcome {
        path: file.to_path_buf(),
        method,
        notices,
    })
}

/// An empty file reads as null; removing the last key leaves an empty mapping.
fn same_document(read: &Value, expected: &Value) -> bool {
    let empty = |v: &Value| v.is_null() || matches!(v, Value::Mapping(m) if m.is_empty());
    read == expected || (empty(read) && empty(expected))
}

/// The line of `mcp_servers:` split at the value `locate` found (1-based `column`): the
/// key with its colon, the value without a trailing comment, and the comment, if any.
fn split_key_line(line: &str, column: usize) -> (&str, &str, Option<&str>) {
    let at = column.saturating_sub(1).min(line.len());
    let (Some(key), Some(after)) = (line.get(..at), line.get(at..)) else {
        return (line, "", None);
    };
    let key = key.trim_end();
    if after.starts_with('#') {
        return (key, "", Some(after.trim_end()));
    }
    match after.find(" #") {
        Some(hash) => (key, after[..hash].trim(), Some(after[hash..].trim())),
        None => (key, after.trim(), None),
    }
}

/// The text with `name`'s block added under `mcp_servers:`.
fn insert_server(text: &str, name: &str, body: &Mapping) -> Result<String, InPlaceError> {
    let lines = split_lines(text);
    let newline = newline_of(text);
    let unit = indent_unit(&lines);
    let Some((line, column)) = yaml_lines::locate(text, &["mcp_servers"]) else {
        // No `mcp_servers:` yet: a new section at the end.
        let mut out = text.to_owned();
        if !out.is_empty() && !out.ends_with('\n') {
            out.push_str(newline);
        }
        out.push_str("mcp_servers:");
        out.push_str(newline);
        out.push_str(&render_block(name, body, unit, unit, newline)?);
        return Ok(out);
    };
    let at = line - 1;
    let (key, value, comment) = split_key_line(lines[at].text, column);
    let header = match value {
        "" => None,
        // An empty flow mapping or null becomes a block header, keeping the comment.
        "{}" | "~" | "null" => Some(match comment {
            Some(comment) => format!("{key} {comment}"),
            None => key.to_owned(),
        }),
        _ => return Err(InPlaceError::FlowStyle),
    };
    let end = block_end(&lines, at);
    let children: Vec<usize> = (at + 1..end).filter(|&j| lines[j].is_content()).collect();
    let parent_indent = lines[at].indent;
    let child_indent = children
        .first()
        .map_or(parent_indent + unit, |&j| lines[j].indent);
    if child_indent <= parent_indent {
        return Err(InPlaceError::Indentation);
    }
    let step = child_indent - parent_indent;
    let block = render_block(name, body, child_indent, step, newline)?;
    let after = children.last().copied().unwrap_or(at);
    Ok(rebuild(
        &lines,
        |j| if j == at { header.clone() } else { None },
        Some((Some(after), block, newline)),
    ))
}

/// `name:` at `indent`, then the settings one `step` deeper, as the serializer writes them
/// (its two-space levels scaled to `step` when nothing multi-line makes that unsafe).
fn render_block(
    name: &str,
    body: &Mapping,
    indent: usize,
    step: usize,
    newline: &str,
) -> Result<String, InPlaceError> {
    let yaml = serde_norway::to_string(body).map_err(InPlaceError::Yaml)?;
    let scalable = body.get("sampling").is_none() && !yaml.contains('|') && !yaml.contains('>');
    let mut out = format!("{}{}:{newline}", " ".repeat(indent), render_string(name));
    for line in yaml.lines() {
        let own = line.len() - line.trim_start_matches(' ').len();
        let own = if scalable { own / 2 * step } else { own };
        out.push_str(&" ".repeat(indent + step + own));
        out.push_str(line.trim_start_matches(' '));
        out.push_str(newline);
    }
    Ok(out)
}

/// The text without `name`'s lines (and without `mcp_servers:` when nothing is left).
fn delete_server(text: &str, name: &str) -> Result<String, InPlaceError> {
    let lines = split_lines(text);
    let not_found = || InPlaceError::NotFound(name.to_owned());
    let (line, _) = yaml_lines::locate(text, &["mcp_servers", name]).ok_or_else(not_found)?;
    let (parent_line, parent_column) =
        yaml_lines::locate(text, &["mcp_servers"]).ok_or_else(not_found)?;
    let (start, parent) = (line - 1, parent_line - 1);
    let indent = lines[start].indent;
    let end = block_end(&lines, start);
    // Keep what follows the last setting unless it is a comment indented into the server.
    let mut cut = (start..end)
        .rev()
        .find(|&j| lines[j].is_content())
        .map_or(start + 1, |j| j + 1);
    for (j, l) in lines.iter().enumerate().take(end).skip(cut) {
        if l.is_comment() && l.indent > indent {
            cut = j + 1;
        } else if !l.is_blank() {
            break;
        }
    }
    let mut removed: Vec<usize> = (start..cut).collect();
    let parent_end = block_end(&lines, parent);
    let servers_left =
        (parent + 1..parent_end).any(|j| lines[j].is_content() && !removed.contains(&j));
    let (_, value, _) = split_key_line(lines[parent].text, parent_column);
    if !servers_left && value.is_empty() {
        removed.push(parent);
    }
    let kept: Vec<usize> = (0..lines.len()).filter(|j| !removed.contains(j)).collect();
    let mut out = String::with_capacity(text.len());
    for (k, &j) in kept.iter().enumerate() {
        let next = kept.get(k + 1).copied();
        // A blank line before the removed lines goes too when a blank line (or the end of
        // the file) follows them, so the gap does not double.
        let gap_after = next.map_or(j + 1 < lines.len(), |n| n > j + 1);
        if gap_after && lines[j].is_blank() && next.is_none_or(|n| lines[n].is_blank()) {
            continue;
        }
        out.push_str(lines[j].text);
        out.push_str(lines[j].eol);
    }
    Ok(out)
}

#[cfg(test)]
#[path = "mcp_edit_tests.rs"]
mod tests;
