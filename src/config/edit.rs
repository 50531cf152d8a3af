//! `hermes config set KEY VALUE` as a library function (`show`/`get` are in `view`).
//!
//! `set` validates known keys against the schema, then edits `config.yaml` in place with
//! the line editor, keeping comments, order and unknown keys; it re-parses the result and
//! only accepts it if the document equals the old one with just that key changed. When the
//! line editor cannot do that, it saves `config.yaml.bak` and rewrites the file with the YAML
//! serializer (comments lost), and says so. Writes are atomic. Does not touch `.env`
//! (see `config::env`).

use std::path::PathBuf;

use serde_norway::{Mapping, Value};

use super::error::ConfigError;
use super::home::HermesHome;
use super::load::yaml_warning;
use crate::util::fs::{FileMode, atomic_write};
use crate::util::yaml_lines::{self, LineEditError};

pub(super) use super::known_keys::{ALIASES, FieldKind, KNOWN_KEYS, KnownKey, SECTIONS};

/// How `config set` wrote the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EditMethod {
    /// Only the key's line changed (or lines were inserted); the rest is byte-identical.
    InPlace,
    /// Rewritten by the YAML serializer; comments and formatting were lost.
    Reserialized,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetOutcome {
    pub path: PathBuf,
    pub method: EditMethod,
    /// Things the user should know (unknown key, secret in config, comments lost).
    pub notices: Vec<String>,
}

/// Sets `key` (dotted, e.g. `terminal.timeout`) to `value` in `config.yaml`.
pub fn config_set(home: &HermesHome, key: &str, value: &str) -> Result<SetOutcome, ConfigError> {
    let path = split_key(key)?;
    if path.len() == 1 && SECTIONS.contains(&path[0]) {
        return Err(ConfigError::IsSection {
            key: key.to_owned(),
            example: KNOWN_KEYS
                .iter()
                .find(|k| k.key.starts_with(&format!("{key}.")))
                .map_or_else(|| format!("{key}.<name>"), |k| k.key.to_owned()),
        });
    }
    let mut notices = Vec::new();
    let scalar = match known(key) {
        Some(known) => render_known(known, value)?,
        // MCP servers are a map of user-chosen names; `hermes mcp add` checks a whole entry.
        None if path[0] == "mcp_servers" => {
            notices.push(format!(
                "{key} saved as text; `hermes mcp test {}` checks the server",
                path.get(1).copied().unwrap_or("NAME")
            ));
            render_unknown(value)
        }
        None => {
            notices.push(format!(
                "{key} is not a key hermes uses yet; saved for Hermes compatibility"
            ));
            render_unknown(value)
        }
    };
    if known(key).is_some_and(|k| k.kind == FieldKind::Secret) {
        notices.push(format!(
            "{key} is stored in plain text in config.yaml; prefer the provider's variable in .env \
             (e.g. OPENROUTER_API_KEY)"
        ));
    }
    let file = home.config_path();
    let old_text = match std::fs::read_to_string(&file) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(ConfigError::io(&file, e)),
    };
    let old_doc: Value = serde_norway::from_str(&old_text).map_err(|e| {
        ConfigError::Malformed(yaml_warning(&file, &e, "fix the file before `config set`"))
    })?;
    let new_leaf: Value = serde_norway::from_str(&scalar).unwrap_or(Value::String(value.into()));
    if let Some(name) = shadowing_names(&old_doc, key).first() {
        notices.push(format!(
            "{name} is also in the file and wins over {key} (it is Hermes's name for it); \
             set {name} instead"
        ));
    }
    let mut expected = old_doc;
    set_path(&mut expected, &path, new_leaf, key)?;

    let line_edit = match yaml_lines::set_scalar(&old_text, &path, &scalar) {
        Ok(text) if serde_norway::from_str::<Value>(&text).is_ok_and(|v| v == expected) => Ok(text),
        Ok(_) => Err(InPlaceError::ReadBack),
        Err(LineEditError::IsSection) => {
            return Err(ConfigError::IsSection {
                key: key.to_owned(),
                example: format!("{key}.<name>"),
            });
        }
        Err(LineEditError::Unsupported(what)) => Err(InPlaceError::Unsupported {
            what,
            key: key.to_owned(),
        }),
    };
    home.ensure_dirs()?;
    let method = write_edited(&file, Some(&old_text), &expected, line_edit, &mut notices)?;
    Ok(SetOutcome {
        path: file,
        method,
        notices,
    })
}

/// Why the line editor could not edit `config.yaml` in place (then the file is rewritten by
/// the YAML serializer); the text goes into the notice that says so.
#[derive(Debug, thiserror::Error)]
pub(super) enum InPlaceError {
    #[error("the edited file did not read back as expected")]
    ReadBack,
    #[error("it uses {what} at {key}")]
    Unsupported { what: String, key: String },
    #[error("mcp_servers is written in flow style")]
    FlowStyle,
    #[error("mcp_servers has unexpected indentation")]
    Indentation,
    #[error("could not find mcp_servers.{0} line by line")]
    NotFound(String),
    #[error("cannot write YAML: {0}")]
    Yaml(#[source] serde_norway::Error),
}

/// Writes the line editor's text, or — when it could not edit in place (`Err(reason)`) —
/// `expected` through the YAML serializer, after saving `old_text` (when there was a file) as
/// `config.yaml.bak` and saying so in `notices`. Atomic; 0600 for a new file, as `.env`-like
/// values (tokens in `mcp_servers`, `model.api_key`) may be in it.
pub(super) fn write_edited(
    file: &std::path::Path,
    old_text: Option<&str>,
    expected: &Value,
    line_edit: Result<String, InPlaceError>,
    notices: &mut Vec<String>,
) -> Result<EditMethod, ConfigError> {
    let (text, method) = match line_edit {
        Ok(text) => (text, EditMethod::InPlace),
        Err(reason) => {
            let backup = file.with_extension("yaml.bak");
            if let Some(old_text) = old_text {
                atomic_write(&backup, old_text.as_bytes(), FileMode::KeepOr(0o600))
                    .map_err(|e| ConfigError::io(&backup, e))?;
            }
            notices.push(format!(
                "could not edit {} in place ({reason}); rewrote it with a YAML serializer, so \
                 comments and formatting were not kept (old file saved as {})",
                file.display(),
                backup.display()
            ));
            let text =
                serde_norway::to_string(expected).map_err(|source| ConfigError::Serialize {
                    path: file.to_path_buf(),
                    source,
                })?;
            (text, EditMethod::Reserialized)
        }
    };
    atomic_write(file, text.as_bytes(), FileMode::KeepOr(0o600))
        .map_err(|e| ConfigError::io(file, e))?;
    Ok(method)
}

/// The key hermes knows `key` as: itself, or the hermes key a Hermes name stands for.
pub(super) fn canonical(key: &str) -> &str {
    ALIASES
        .iter()
        .find(|(hermes_name, _)| *hermes_name == key)
        .map_or(key, |(_, ours)| ours)
}

/// A settable key (a Hermes name resolves to the hermes key it stands for).
pub(super) fn known(key: &str) -> Option<&'static KnownKey> {
    let key = canonical(key);
    KNOWN_KEYS.iter().find(|k| k.key == key)
}

/// The Hermes names of `key` that are set in `doc` and so win over it.
fn shadowing_names<'a>(doc: &Value, key: &str) -> Vec<&'a str> {
    ALIASES
        .iter()
        .filter(|(hermes_name, ours)| *ours == key && *hermes_name != key)
        .map(|(hermes_name, _)| *hermes_name)
        .filter(|name| {
            name.split('.')
                .try_fold(doc, |v, seg| v.get(seg))
                .is_some_and(|v| !v.is_null())
        })
        .collect()
}

pub(super) fn split_key(key: &str) -> Result<Vec<&str>, ConfigError> {
    let invalid = |reason| ConfigError::InvalidKey {
        key: key.to_owned(),
        reason,
    };
    let parts: Vec<&str> = key.split('.').collect();
    if parts.iter().any(|p| p.is_empty()) {
        return Err(invalid("use dotted names like terminal.timeout"));
    }
    let ok = |p: &&str| {
        p.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    };
    if !parts.iter().all(ok) {
        return Err(invalid("key names use letters, digits, '_' and '-'"));
    }
    Ok(parts)
}

fn render_known(known: &KnownKey, value: &str) -> Result<String, ConfigError> {
    let unit = match known.kind {
        FieldKind::Text | FieldKind::Secret => return Ok(render_string(value)),
        FieldKind::Bool => {
            return match value.trim().to_ascii_lowercase().as_str() {
                "true" | "yes" | "on" => Ok("true".to_string()),
                "false" | "no" | "off" => Ok("false".to_string()),
                _ => Err(ConfigError::InvalidValue {
                    key: known.key.to_owned(),
                    message: format!("{} must be true or false", known.key),
                }),
            };
        }
        FieldKind::Fraction => {
            return match value.trim().parse::<f64>() {
                Ok(f) if (0.0..=1.0).contains(&f) => Ok(f.to_string()),
                _ => Err(ConfigError::InvalidValue {
                    key: known.key.to_owned(),
                    message: format!("{} must be a number from 0 to 1 (e.g. 0.5)", known.key),
                }),
            };
        }
        FieldKind::Decimal => {
            return match value.trim().parse::<f64>() {
                Ok(f) if f.is_finite() && f >= 0.0 && f <= known.max as f64 => Ok(f.to_string()),
                _ => Err(ConfigError::InvalidValue {
                    key: known.key.to_owned(),
                    message: format!("{} must be a number from 0 to {}", known.key, known.max),
                }),
            };
        }
        FieldKind::List => {
            let items: Vec<String> = value
                .split(',')
                .map(str::trim)
                .filter(|item| !item.is_empty())
                .map(double_quote)
                .collect();
            return Ok(format!("[{}]", items.join(", ")));
        }
        FieldKind::Seconds => " of seconds",
        FieldKind::Tokens => " of tokens",
        FieldKind::Count => "",
    };
    let invalid = |message: String| ConfigError::InvalidValue {
        key: known.key.to_owned(),
        message,
    };
    let n: u64 = value
        .trim()
        .parse()
        .map_err(|_| invalid(format!("{} must be a whole number{unit}", known.key)))?;
    if n > known.max {
        return Err(invalid(format!(
            "{} must be at most {}",
            known.key, known.max
        )));
    }
    Ok(n.to_string())
}

/// A YAML scalar that reads back as exactly the string `value`.
pub(crate) fn render_string(value: &str) -> String {
    let plain = plain_safe(value)
        && matches!(serde_norway::from_str::<Value>(value), Ok(Value::String(s)) if s == value);
    if plain {
        value.to_owned()
    } else {
        double_quote(value)
    }
}

/// Unknown keys: a plain scalar stays plain so `true`/`5` keep their YAML type, as in
/// Hermes's `config set`; anything else is quoted as a string.
fn render_unknown(value: &str) -> String {
    let scalar = matches!(
        serde_norway::from_str::<Value>(value),
        Ok(Value::String(_) | Value::Bool(_) | Value::Number(_))
    );
    if plain_safe(value) && scalar {
        value.to_owned()
    } else {
        double_quote(value)
    }
}

fn plain_safe(value: &str) -> bool {
    let Some(first) = value.chars().next() else {
        return false;
    };
    !"-?:,[]{}#&*!|>'\"%@`".contains(first)
        && value.trim() == value
        && !value.chars().any(char::is_control)
        && !value.contains(": ")
        && !value.contains(" #")
        && !value.ends_with(':')
}

fn double_quote(value: &str) -> String {
    let mut out = String::from("\"");
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Sets `path` in a document, creating sections; the `model: <id>` shorthand becomes
/// `model: {default: <id>}` first.
fn set_path(root: &mut Value, path: &[&str], leaf: Value, key: &str) -> Result<(), ConfigError> {
    let mut node = root;
    for (depth, seg) in path.iter().enumerate() {
        if node.is_null() {
            *node = Value::Mapping(Mapping::new());
        }
        if depth == 1
            && path[0] == "model"
            && let Value::String(id) = node
        {
            let mut m = Mapping::new();
            m.insert("default".into(), Value::String(std::mem::take(id)));
            *node = Value::Mapping(m);
        }
        let Value::Mapping(map) = node else {
            return Err(ConfigError::InvalidKey {
                key: key.to_owned(),
                reason: "a parent of this key holds a value or a list, not a section",
            });
        };
        let slot = map
            .entry(Value::String((*seg).to_owned()))
            .or_insert(Value::Null);
        if depth + 1 == path.len() {
            if matches!(slot, Value::Mapping(m) if !m.is_empty()) {
                return Err(ConfigError::IsSection {
                    key: key.to_owned(),
                    example: format!("{key}.<name>"),
                });
            }
            *slot = leaf;
            return Ok(());
        }
        node = slot;
    }
    Ok(())
}

#[cfg(test)]
#[path = "edit_tests.rs"]
mod tests;
