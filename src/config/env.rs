//! `.env` secrets: read with dotenvy's parser into a map, look keys up with the process
//! environment first (as Hermes's `load_dotenv(override=False)` does), and set one key by
//! rewriting the file in place.
//!
//! Never mutates the process environment: other code asks an `EnvLookup`. Deliberate
//! difference from Hermes: an *empty* process variable does not hide a `.env` value.
//! Invariant: `.env` is written atomically with mode 0600, also when it already existed,
//! and a rewrite keeps every other line (comments, blank lines, order) byte for byte.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use super::error::{ConfigError, ConfigWarning};
use super::home::HermesHome;
use crate::util::fs::{FileMode, atomic_write};
use crate::util::redact::{is_secret_name, register_known_secrets, register_named_secret};

/// Provider secrets Hermes keeps in `.env`; shown by name (never value) in `config show`,
/// and masked in logs.
pub const KNOWN_SECRET_VARS: &[&str] = &[
    "OPENROUTER_API_KEY",
    "OPENAI_API_KEY",
    "ANTHROPIC_API_KEY",
    "NOUS_API_KEY",
    "CUSTOM_API_KEY",
    "GOOGLE_API_KEY",
    "GEMINI_API_KEY",
    "DEEPSEEK_API_KEY",
    "XAI_API_KEY",
    "GROQ_API_KEY",
    "MISTRAL_API_KEY",
    "HF_TOKEN",
    "GITHUB_TOKEN",
    "FIRECRAWL_API_KEY",
    "ELEVENLABS_API_KEY",
    "VOICE_TOOLS_OPENAI_KEY",
    // Every provider profile's key variables (a test in `providers` keeps this complete).
    "GLM_API_KEY",
    "ZAI_API_KEY",
    "Z_AI_API_KEY",
    "KIMI_API_KEY",
    "KIMI_CODING_API_KEY",
    "KIMI_CN_API_KEY",
    "STEPFUN_API_KEY",
    "ARCEEAI_API_KEY",
    "GMI_API_KEY",
    "MINIMAX_API_KEY",
    "MINIMAX_CN_API_KEY",
    "ANTHROPIC_TOKEN",
    "CLAUDE_CODE_OAUTH_TOKEN",
    "DASHSCOPE_API_KEY",
    "ALIBABA_CODING_PLAN_API_KEY",
    "NVIDIA_API_KEY",
    "OPENCODE_ZEN_API_KEY",
    "OPENCODE_GO_API_KEY",
    "KILOCODE_API_KEY",
    "XIAOMI_API_KEY",
    "TOKENHUB_API_KEY",
    "OLLAMA_API_KEY",
    "AZURE_FOUNDRY_API_KEY",
    "DEEPINFRA_API_KEY",
    "FIREWORKS_API_KEY",
    "NOVITA_API_KEY",
    "UPSTAGE_API_KEY",
    "LM_API_KEY",
    "COPILOT_GITHUB_TOKEN",
    "GH_TOKEN",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN",
    "AWS_BEARER_TOKEN_BEDROCK",
];

const ENV_FILE_MODE: u32 = 0o600;

/// Reads `path` with dotenvy's parser (a leading byte order mark is dropped). A missing file
/// is an empty map; a line dotenvy rejects is skipped with a warning and the lines after it
/// are still read, as python-dotenv does.
pub fn read_dotenv(
    path: &Path,
) -> Result<(BTreeMap<String, String>, Vec<ConfigWarning>), ConfigError> {
    let text = match crate::util::fs::read_text(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok((BTreeMap::new(), Vec::new()));
        }
        Err(source) => return Err(ConfigError::io(path, source)),
    };
    let mut map = BTreeMap::new();
    let mut warnings = Vec::new();
    for item in dotenvy::from_read_iter(text.as_bytes()) {
        match item {
            Ok((key, value)) => {
                map.insert(key, value);
            }
            Err(dotenvy::Error::Io(source)) => return Err(ConfigError::io(path, source)),
            // The reader has moved past the bad line: carry on with the next one.
            Err(e) => warnings.push(parse_warning(path, &text, &e)),
        }
    }
    Ok((map, warnings))
}

/// dotenvy's own message quotes the offending line, which may hold a secret; ours names
/// only the line number.
fn parse_warning(path: &Path, text: &str, error: &dotenvy::Error) -> ConfigWarning {
    let dotenvy::Error::LineParse(bad, _) = error else {
        return ConfigWarning::new(path, format!("{error}; ignoring that line"));
    };
    let mut warning = ConfigWarning::new(path, "cannot parse this line; ignoring it");
    // dotenvy's column is not reliable across quoting styles, so report the line only.
    let needle = bad.trim_end();
    if let Some(offset) = text.find(needle).filter(|_| !needle.is_empty()) {
        warning.line = Some(text[..offset].matches('\n').count() + 1);
    }
    warning
}

type ProcessEnv = Arc<dyn Fn(&str) -> Option<String> + Send + Sync>;

/// Variable lookup: process environment, then `.env`.
#[derive(Clone)]
pub struct EnvLookup {
    process: ProcessEnv,
    dotenv: BTreeMap<String, String>,
}

impl std::fmt::Debug for EnvLookup {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Keys only: this type holds secrets.
        f.debug_struct("EnvLookup")
            .field("dotenv_keys", &self.dotenv.keys().collect::<Vec<_>>())
            .finish_non_exhaustive()
    }
}

impl EnvLookup {
    /// The real process environment over `home`'s `.env`. The secrets it holds
    /// ([`EnvLookup::registered_secret_values`]) join the process-wide registry of known
    /// secrets, so no output path can show them.
    pub fn load(home: &HermesHome) -> Result<(Self, Vec<ConfigWarning>), ConfigError> {
        let (dotenv, warnings) = read_dotenv(&home.env_path())?;
        let lookup = Self::new(Arc::new(|k| std::env::var(k).ok()), dotenv);
        register_known_secrets(lookup.registered_secret_values());
        Ok((lookup, warnings))
    }

    /// Any process-environment source over a `.env` map (tests pass a fixed map).
    pub fn new(process: ProcessEnv, dotenv: BTreeMap<String, String>) -> Self {
        Self { process, dotenv }
    }

    /// Two fixed maps: `process` first, then `dotenv`.
    pub fn from_maps(process: BTreeMap<String, String>, dotenv: BTreeMap<String, String>) -> Self {
        Self::new(Arc::new(move |k| process.get(k).cloned()), dotenv)
    }

    pub fn get(&self, key: &str) -> Option<String> {
        (self.process)(key)
            .filter(|v| !v.is_empty())
            .or_else(|| self.dotenv.get(key).cloned())
    }

    /// This lookup as a closure, for APIs taking `&dyn Fn(&str) -> Option<String>`.
    pub fn as_fn(&self) -> impl Fn(&str) -> Option<String> + '_ {
        move |key| self.get(key)
    }

    /// The `.env` entries (for names; values are secrets).
    pub fn dotenv(&self) -> &BTreeMap<String, String> {
        &self.dotenv
    }

    /// Values of known secret variables and every `.env` value, for log redaction.
    pub fn secret_values(&self) -> Vec<String> {
        let mut values: Vec<String> = KNOWN_SECRET_VARS
            .iter()
            .filter_map(|k| self.get(k))
            .chain(self.dotenv.values().cloned())
            .filter(|v| !v.trim().is_empty())
            .collect();
        values.sort();
        values.dedup();
        values
    }

    /// What [`EnvLookup::load`] puts in the process-wide registry: the values of the known key
    /// variables and of the `.env` entries whose names look secret (`GATEWAY_TOKEN`,
    /// `DB_PASSWORD`), but not every `.env` value — the registry masks everywhere, also on the
    /// screen, where a masked `HERMES_MODEL` or base URL would hide what hermes is doing.
    pub fn registered_secret_values(&self) -> Vec<String> {
        let mut values: Vec<String> = KNOWN_SECRET_VARS
            .iter()
            .filter_map(|k| self.get(k))
            .collect();
        for (name, value) in &self.dotenv {
            if is_secret_name(name) {
                values.push(value.clone());
            }
        }
        values.retain(|v| !v.trim().is_empty());
        values.sort();
        values.dedup();
        values
    }
}

/// Puts the secrets written in a config document (`model.api_key`, `providers.*.api_key`,
/// `mcp_servers.*.env`/`headers`, any other value under a secret-looking name) in the
/// process-wide registry of known secrets. Called when `config.yaml` is loaded.
pub fn register_config_secrets(raw: &serde_norway::Value) {
    use serde_norway::Value;
    match raw {
        Value::Mapping(map) => {
            for (key, value) in map {
                match (key.as_str(), value) {
                    (Some(name), Value::String(text)) => register_named_secret(name, text),
                    _ => register_config_secrets(value),
                }
            }
        }
        Value::Sequence(items) => items.iter().for_each(register_config_secrets),
        Value::Tagged(tagged) => register_config_secrets(&tagged.value),
        Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_) => {}
    }
}

/// Sets `key=value` in `home`'s `.env`: replaces the first assignment of `key` (keeping an
/// `export ` prefix), drops later duplicates, or appends; everything else is kept as is.
pub fn set_env_var(home: &HermesHome, key: &str, value: &str) -> Result<(), ConfigError> {
    set_env_var_at(&home.env_path(), key, value)
}

/// [`set_env_var`] on an explicit path.
pub fn set_env_var_at(path: &Path, key: &str, value: &str) -> Result<(), ConfigError> {
    validate_key(key)?;
    // dotenvy cannot read back a NUL or a carriage return.
    if value.contains(['\0', '\r']) {
        return Err(ConfigError::InvalidValue {
            key: key.to_owned(),
            message: format!("{key}: value contains a NUL byte or carriage return"),
        });
    }
    let old = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(ConfigError::io(path, e)),
    };
    let new = rewrite_env_text(&old, key, value);
    atomic_write(path, new.as_bytes(), FileMode::Exactly(ENV_FILE_MODE))
        .map_err(|e| ConfigError::io(path, e))
}

fn validate_key(key: &str) -> Result<(), ConfigError> {
    let mut chars = key.chars();
    let ok = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    if ok {
        Ok(())
    } else {
        Err(ConfigError::InvalidKey {
            key: key.to_owned(),
            reason: "variable names use letters, digits and '_' and do not start with a digit",
        })
    }
}

/// Pure text rewrite behind [`set_env_var_at`].
pub(crate) fn rewrite_env_text(old: &str, key: &str, value: &str) -> String {
    let newline = if old.contains("\r\n") { "\r\n" } else { "\n" };
    let assignment = format!("{key}={}", quote_env_value(value));
    let mut out = String::with_capacity(old.len() + assignment.len() + 1);
    let mut replaced = false;
    for line in old.split_inclusive('\n') {
        match assigned_key(line) {
            Some((export, k)) if k == key => {
                if !replaced {
                    out.push_str(export);
                    out.push_str(&assignment);
                    out.push_str(if line.ends_with('\n') { newline } else { "" });
                    replaced = true;
                }
            }
            _ => out.push_str(line),
        }
    }
    if !replaced {
        if !out.is_empty() && !out.ends_with('\n') {
            out.push_str(newline);
        }
        out.push_str(&assignment);
        out.push_str(newline);
    }
    out
}

/// `(export prefix, key)` when `line` assigns a variable.
fn assigned_key(line: &str) -> Option<(&str, &str)> {
    let trimmed = line.trim_start();
    let (export, rest) = match trimmed.strip_prefix("export ") {
        Some(rest) => ("export ", rest.trim_start()),
        None => ("", trimmed),
    };
    let end = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))?;
    let after = rest[end..].trim_start();
    after.starts_with('=').then(|| (export, &rest[..end]))
}

/// Plain when safe; single quotes (literal in dotenvy) when possible; else double quotes
/// with escapes (`$` escaped so dotenvy does not substitute).
fn quote_env_value(value: &str) -> String {
    let plain = value
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "_-./:+=@,~%^".contains(c));
    if plain {
        return value.to_owned();
    }
    if !value.contains('\'') && !value.contains('\n') {
        return format!("'{value}'");
    }
    let mut out = String::from("\"");
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '$' => out.push_str("\\$"),
            '\n' => out.push_str("\\n"),
            _ => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
#[path = "env_tests.rs"]
mod tests;
