//! Reads the top-level `mcp_servers:` mapping of `config.yaml` into `Vec<NamedMcpServer>`,
//! in file order, warning instead of failing.
//!
//! Each server is read on its own: an entry that is not a mapping, has a field of the wrong
//! type, or names neither or both of `command` and `url` is left out with one warning that
//! names the file, line and server; the other servers still load. Values are normalised
//! the way Hermes reads them before deserialising: `enabled` (and `tools.resources` /
//! `tools.prompts`) accept "boolish" words, a string `args` is split shell-style, numbers
//! and booleans in `args`, `env` and `headers` become strings, and a `null` field counts as
//! absent. Unknown keys are ignored with a warning ("did you mean"); Hermes keys hermes
//! does not implement get one "not supported yet" warning each. Two names whose tool prefix
//! would be the same (`my-api`, `my_api`) keep the first. Does not connect to anything,
//! and does not expand `${VAR}` (that happens when a server starts).

use std::collections::HashMap;
use std::path::Path;

use serde_norway::{Mapping, Value};

use super::error::ConfigWarning;
use super::schema::{McpServerConfig, NamedMcpServer};
use crate::util::mcp_names::mcp_name_part;
use crate::util::mcp_names::mcp_tool_name;
use crate::util::yaml_lines;

/// The keys of `mcp_servers.<name>` hermes reads (`parallel_safe` is an alias).
pub(super) const SERVER_KEYS: &[&str] = &[
    "command",
    "args",
    "env",
    "cwd",
    "url",
    "headers",
    "enabled",
    "timeout",
    "connect_timeout",
    "tools",
    "supports_parallel_tool_calls",
    "parallel_safe",
    "keepalive_interval",
    "sampling",
];

/// The keys of `mcp_servers.<name>.tools`.
pub(super) const TOOLS_KEYS: &[&str] = &["include", "exclude", "resources", "prompts"];

/// Hermes keys hermes does not implement yet: ignored with one informational warning.
pub(super) const NOT_SUPPORTED_KEYS: &[&str] = &[
    "transport",
    "lazy",
    "idle_timeout_seconds",
    "max_lifetime_seconds",
    "lifecycle",
    "trust",
    "auth",
    "oauth",
    "ssl_verify",
    "client_cert",
    "client_key",
    "identity_header",
    "skip_preflight",
    "strict_redirect_headers",
    "protocol",
    "elicitation",
    "description",
];

/// Reads `raw["mcp_servers"]`; `text` and `path` only serve to locate warnings.
pub(super) fn parse_mcp_servers(
    text: &str,
    raw: &Value,
    path: &Path,
    warnings: &mut Vec<ConfigWarning>,
) -> Vec<NamedMcpServer> {
    let entries = match raw.get("mcp_servers") {
        None | Some(Value::Null) => return Vec::new(),
        Some(Value::Mapping(entries)) => entries,
        Some(other) => {
            let mut warning = ConfigWarning::new(
                path,
                format!(
                    "mcp_servers: expected a mapping of server names to settings, found {} — \
                     no MCP servers loaded",
                    describe(other)
                ),
            );
            if let Some((line, column)) = key_position(text, &["mcp_servers"]) {
                warning = warning.at(line, column);
            }
            warnings.push(warning);
            return Vec::new();
        }
    };
    let mut servers: Vec<NamedMcpServer> = Vec::new();
    // Sanitised name → the first server that claimed it.
    let mut prefixes: HashMap<String, String> = HashMap::new();
    for (key, entry) in entries {
        let name = server_name(key);
        let site = Site {
            text,
            path,
            name: &name,
        };
        if name.is_empty() {
            warnings.push(site.warn(&[], "a server needs a non-empty name — skipped".into()));
            continue;
        }
        let Some(config) = read_server(&site, entry, warnings) else {
            continue;
        };
        let prefix = mcp_name_part(&name);
        if let Some(first) = prefixes.get(&prefix) {
            warnings.push(site.warn(
                &[],
                format!(
                    "its tools would be named like those of server {first} ({}*) — server \
                     {name} skipped; rename one of them",
                    mcp_tool_name(&name, "")
                ),
            ));
            continue;
        }
        prefixes.insert(prefix, name.clone());
        servers.push(NamedMcpServer { name, config });
    }
    servers
}

/// A server's name as Hermes sees it: YAML may read `123:` or `true:` as a non-string key.
pub(super) fn server_name(key: &Value) -> String {
    match key {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        _ => String::new(),
    }
}

/// Where warnings about one server point.
struct Site<'a> {
    text: &'a str,
    path: &'a Path,
    name: &'a str,
}

impl Site<'_> {
    /// `mcp_servers.<name>[.keys]: message`, at the line of the innermost key found.
    fn warn(&self, keys: &[&str], message: String) -> ConfigWarning {
        let mut segs = vec!["mcp_servers", self.name];
        segs.extend_from_slice(keys);
        let mut warning = ConfigWarning::new(self.path, format!("{}: {message}", segs.join(".")));
        let position = (2..=segs.len())
            .rev()
            .find_map(|n| key_position(self.text, &segs[..n]));
        if let Some((line, column)) = position {
            warning = warning.at(line, column);
        }
        warning
    }
}

/// 1-based line and column of the key at `segs` (the key itself, not its value).
fn key_position(text: &str, segs: &[&str]) -> Option<(usize, usize)> {
    let (line, _) = yaml_lines::locate(text, segs)?;
    let body = text.lines().nth(line - 1)?;
    Some((line, body.len() - body.trim_start().len() + 1))
}

fn read_server(
    site: &Site<'_>,
    entry: &Value,
    warnings: &mut Vec<ConfigWarning>,
) -> Option<McpServerConfig> {
    let skipped = format!("server {} skipped", site.name);
    let fields = match entry {
        Value::Mapping(fields) => fields,
        Value::Null => {
            warnings.push(site.warn(
                &[],
                format!("has no settings (it needs `command:` or `url:`) — {skipped}"),
            ));
            return None;
        }
        other => {
            warnings.push(site.warn(
                &[],
                format!(
                    "expected a mapping of settings, found {} — {skipped}",
                    describe(other)
                ),
            ));
            return None;
        }
    };
    let mut normalised = Mapping::new();
    let mut bad: Vec<(String, String)> = Vec::new();
    for (key, value) in fields {
        let Some(key) = key.as_str() else {
            warnings.push(site.warn(
                &[],
                format!("{} is not a setting name — ignored", describe(key)),
            ));
            continue;
        };
        if NOT_SUPPORTED_KEYS.contains(&key) {
            warnings.push(site.warn(&[key], "not supported by hermes yet — ignored".into()));
            continue;
        }
        if !SERVER_KEYS.contains(&key) {
            warnings.push(site.warn(&[key], unknown_key(key, SERVER_KEYS)));
            continue;
        }
        if value.is_null() {
            continue;
        }
        let value = match normalise(site, key, value, warnings) {
            Ok(value) => value,
            Err(cause) => {
                bad.push((key.to_owned(), cause.to_string()));
                continue;
            }
        };
        // One field at a time, so the warning can say which one is wrong.
        let mut single = Mapping::new();
        single.insert(Value::String(key.to_owned()), value.clone());
        if let Err(e) = serde_norway::from_value::<McpServerConfig>(Value::Mapping(single)) {
            bad.push((key.to_owned(), e.to_string()));
            continue;
        }
        normalised.insert(Value::String(key.to_owned()), value);
    }
    if let Some((key, cause)) = bad.first() {
        let others: Vec<&str> = bad[1..].iter().map(|(k, _)| k.as_str()).collect();
        let also = if others.is_empty() {
            String::new()
        } else {
            format!(" (also wrong: {})", others.join(", "))
        };
        warnings.push(site.warn(&[key], format!("{cause}{also} — {skipped}")));
        return None;
    }
    let config: McpServerConfig = match serde_norway::from_value(Value::Mapping(normalised)) {
        Ok(config) => config,
        Err(e) => {
            warnings.push(site.warn(&[], format!("{e} — {skipped}")));
            return None;
        }
    };
    if let Err(why) = config.endpoint() {
        warnings.push(site.warn(&[], format!("{why} — {skipped}")));
        return None;
    }
    Some(config)
}

/// One field as Hermes would read it; `Err` is why it cannot be read at all.
fn normalise(
    site: &Site<'_>,
    key: &str,
    value: &Value,
    warnings: &mut Vec<ConfigWarning>,
) -> Result<Value, ArgsError> {
    Ok(match key {
        "enabled" => Value::Bool(boolish_or_on(site, &[key], value, warnings)),
        "args" => match value {
            Value::String(line) => split_args(line)?,
            Value::Sequence(items) => Value::Sequence(items.iter().map(scalar_to_string).collect()),
            other => other.clone(),
        },
        "env" | "headers" => match value {
            Value::Mapping(map) => Value::Mapping(
                map.iter()
                    .map(|(k, v)| (scalar_to_string(k), scalar_to_string(v)))
                    .collect(),
            ),
            other => other.clone(),
        },
        "tools" => match value {
            Value::Mapping(map) => {
                let mut tools = Mapping::new();
                for (k, v) in map {
                    let Some(k) = k.as_str() else {
                        continue;
                    };
                    if !TOOLS_KEYS.contains(&k) {
                        warnings.push(site.warn(&["tools", k], unknown_key(k, TOOLS_KEYS)));
                        continue;
                    }
                    if v.is_null() {
                        continue;
                    }
                    let v = match k {
                        "resources" | "prompts" => {
                            Value::Bool(boolish_or_on(site, &["tools", k], v, warnings))
                        }
                        _ => v.clone(),
                    };
                    tools.insert(Value::String(k.to_owned()), v);
                }
                Value::Mapping(tools)
            }
            other => other.clone(),
        },
        _ => value.clone(),
    })
}

/// Hermes's "boolish": true/1/yes/on, false/0/no/off (any case), numbers by non-zero.
/// Anything else counts as on, with a warning.
fn boolish_or_on(
    site: &Site<'_>,
    keys: &[&str],
    value: &Value,
    warnings: &mut Vec<ConfigWarning>,
) -> bool {
    let parsed = match value {
        Value::Bool(b) => Some(*b),
        Value::Number(n) => n.as_f64().map(|f| f != 0.0),
        Value::String(s) => match s.trim().to_ascii_lowercase().as_str() {
            "true" | "1" | "yes" | "on" => Some(true),
            "false" | "0" | "no" | "off" => Some(false),
            _ => None,
        },
        _ => None,
    };
    parsed.unwrap_or_else(|| {
        warnings.push(site.warn(
            keys,
            format!("{} is not true or false — treated as true", describe(value)),
        ));
        true
    })
}

/// Why an `args` string cannot be read as a list of arguments.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum ArgsError {
    #[error("`{0}` looks like a list but is not one")]
    NotAList(String),
    #[error("cannot split `{0}` into arguments (unbalanced quotes?)")]
    Unbalanced(String),
}

/// `args` given as one string: a YAML/JSON list (`"[-y, pkg]"`) or a shell-style line.
fn split_args(line: &str) -> Result<Value, ArgsError> {
    if line.trim_start().starts_with('[') {
        return match serde_norway::from_str::<Value>(line) {
            Ok(Value::Sequence(items)) => Ok(Value::Sequence(
                items.iter().map(scalar_to_string).collect(),
            )),
            _ => Err(ArgsError::NotAList(line.to_owned())),
        };
    }
    shlex::split(line)
        .map(|words| Value::Sequence(words.into_iter().map(Value::String).collect()))
        .ok_or_else(|| ArgsError::Unbalanced(line.to_owned()))
}

/// Numbers and booleans as the strings YAML wrote them; anything else unchanged.
fn scalar_to_string(value: &Value) -> Value {
    match value {
        Value::Number(n) => Value::String(n.to_string()),
        Value::Bool(b) => Value::String(b.to_string()),
        other => other.clone(),
    }
}

fn unknown_key(key: &str, known: &[&str]) -> String {
    let nearest = known
        .iter()
        .map(|k| (strsim::levenshtein(key, k), *k))
        .filter(|(distance, _)| *distance <= 2)
        .min_by_key(|(distance, _)| *distance);
    match nearest {
        Some((_, k)) => format!("unknown key — ignored (did you mean {k}?)"),
        None => "unknown key — ignored".to_owned(),
    }
}

fn describe(value: &Value) -> String {
    match value {
        Value::Null => "nothing".into(),
        Value::Bool(b) => format!("`{b}`"),
        Value::Number(n) => format!("`{n}`"),
        Value::String(s) => format!("\"{s}\""),
        Value::Sequence(_) => "a list".into(),
        Value::Mapping(_) => "a mapping".into(),
        Value::Tagged(t) => format!("a value tagged `{}`", t.tag),
    }
}

#[cfg(test)]
#[path = "mcp_servers_tests.rs"]
mod tests;
