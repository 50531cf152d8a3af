//! Loads `config.yaml` into the typed `Config`, degrading instead of failing.
//!
//! Missing file: defaults, no warning. Unparseable YAML: defaults plus one warning naming
//! `path:line:column` and the cause. A section with a bad value (e.g. `timeout: abc`): the
//! other sections load normally, and within the bad section every field that is fine on
//! its own is kept; each dropped field gets a warning. Never writes. Invariant: `load`
//! always returns a usable `Config`.

use std::marker::PhantomData;
use std::path::{Path, PathBuf};

use serde::de::{DeserializeOwned, DeserializeSeed, IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_norway::{Mapping, Value};

use super::error::ConfigWarning;
use super::home::HermesHome;
use super::schema::Config;
use crate::util::yaml_lines;

/// The effective configuration and what was wrong with the file, if anything.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadedConfig {
    pub config: Config,
    pub warnings: Vec<ConfigWarning>,
    pub path: PathBuf,
    /// Whether the file exists.
    pub exists: bool,
    /// The parsed document (`Null` when missing or unparseable); holds keys hermes does
    /// not model, for `config get`.
    pub raw: Value,
}

/// Also puts the secrets the file holds in the process-wide registry of known secrets
/// (`env::register_config_secrets`), so no output path can show them.
pub fn load(home: &HermesHome) -> LoadedConfig {
    let loaded = load_path(&home.config_path());
    super::env::register_config_secrets(&loaded.raw);
    loaded
}

pub fn load_path(path: &Path) -> LoadedConfig {
    match crate::util::fs::read_text(path) {
        Ok(text) => parse(&text, path),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => LoadedConfig {
            config: Config::default(),
            warnings: Vec::new(),
            path: path.to_path_buf(),
            exists: false,
            raw: Value::Null,
        },
        Err(e) => LoadedConfig {
            config: Config::default(),
            warnings: vec![ConfigWarning::new(
                path,
                format!("cannot read: {e} — using defaults"),
            )],
            path: path.to_path_buf(),
            exists: true,
            raw: Value::Null,
        },
    }
}

/// Parses config text; `path` is only used in warnings.
pub fn parse(text: &str, path: &Path) -> LoadedConfig {
    let mut loaded = LoadedConfig {
        config: Config::default(),
        warnings: Vec::new(),
        path: path.to_path_buf(),
        exists: true,
        raw: Value::Null,
    };
    // A byte order mark would read as a second YAML document (Windows editors write one).
    let text = crate::util::fs::strip_bom(text);
    let raw: Value = match serde_norway::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            loaded
                .warnings
                .push(yaml_warning(path, &e, "using defaults"));
            return loaded;
        }
    };
    match &raw {
        Value::Null => {}
        Value::Mapping(_) => {
            let config = &mut loaded.config;
            let w = &mut loaded.warnings;
            // `model: <id>` (a plain string) is handled with Hermes's other names below.
            if !matches!(raw.get("model"), Some(Value::String(_))) {
                config.model = section(text, &raw, path, "model", w);
            }
            config.terminal = section(text, &raw, path, "terminal", w);
            config.agent = section(text, &raw, path, "agent", w);
            // A top-level `provider: <name>` is Hermes's stale spelling of `model.provider`.
            if !matches!(raw.get("provider"), Some(Value::String(_))) {
                config.provider = section(text, &raw, path, "provider", w);
            }
            config.display = section(text, &raw, path, "display", w);
            config.skills = section(text, &raw, path, "skills", w);
            config.compression = section(text, &raw, path, "compression", w);
            config.auxiliary = section(text, &raw, path, "auxiliary", w);
            config.approvals = section(text, &raw, path, "approvals", w);
            config.command_allowlist = section(text, &raw, path, "command_allowlist", w);
            config.security = section(text, &raw, path, "security", w);
            config.checkpoints = section(text, &raw, path, "checkpoints", w);
            config.sandbox = section(text, &raw, path, "sandbox", w);
            config.delegation = section(text, &raw, path, "delegation", w);
            config.goals = section(text, &raw, path, "goals", w);
            config.voice = section(text, &raw, path, "voice", w);
            config.stt = section(text, &raw, path, "stt", w);
            config.tts = section(text, &raw, path, "tts", w);
            config.vision = section(text, &raw, path, "vision", w);
            config.web = section(text, &raw, path, "web", w);
            config.cron = section(text, &raw, path, "cron", w);
            config.code_execution = section(text, &raw, path, "code_execution", w);
            config.timezone = section(text, &raw, path, "timezone", w);
            config.browser = section(text, &raw, path, "browser", w);
            config.prompt_caching = section(text, &raw, path, "prompt_caching", w);
            config.memory = section(text, &raw, path, "memory", w);
            config.tool_output = section(text, &raw, path, "tool_output", w);
            config.file_read_max_chars = section(text, &raw, path, "file_read_max_chars", w);
            config.hooks = raw.get("hooks").cloned().unwrap_or(Value::Null);
            config.hooks_auto_accept = section(text, &raw, path, "hooks_auto_accept", w);
            config.mcp_servers = super::mcp_servers::parse_mcp_servers(text, &raw, path, w);
            config.toolsets =
                super::toolsets::parse_toolsets(text, &raw, path, &config.mcp_servers, w);
            super::hermes_names::apply(text, &raw, path, config, w);
            warn_unsupported(text, path, config, w);
            config.provider_endpoints =
                super::schema_providers::parse_provider_endpoints(text, &raw, path, w);
        }
        _ => loaded.warnings.push(ConfigWarning::new(
            path,
            "the top level is not a mapping of settings — using defaults",
        )),
    }
    loaded.raw = raw;
    loaded
}

/// Values hermes cannot honour where carrying on silently would surprise the user.
fn warn_unsupported(text: &str, path: &Path, config: &Config, warnings: &mut Vec<ConfigWarning>) {
    let backend = config.terminal.backend.trim();
    if !backend.is_empty() && !backend.eq_ignore_ascii_case("local") {
        let mut warning = ConfigWarning::new(
            path,
            format!(
                "terminal.backend `{backend}` is not supported by hermes: commands run locally, \
                 on this machine"
            ),
        );
        if let Some((line, column)) = yaml_lines::locate(text, &["terminal", "backend"]) {
            warning = warning.at(line, column);
        }
        warnings.push(warning);
    }
}

/// Formats a serde_norway error as `cause (key.path) — fallback`, with its location.
pub(crate) fn yaml_warning(
    path: &Path,
    error: &serde_norway::Error,
    fallback: &str,
) -> ConfigWarning {
    let location = error.location();
    let mut message = error.to_string();
    if let Some(loc) = &location {
        let suffix = format!(" at line {} column {}", loc.line(), loc.column());
        message = message.replacen(&suffix, "", 1);
    }
    // serde_norway prefixes type errors with the key path; hermes puts it after the cause.
    if let Some((key, cause)) = message.split_once(": ")
        && !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_alphanumeric() || "_-.[]".contains(c))
    {
        message = format!("{cause} ({key})");
    }
    let warning = ConfigWarning::new(path, format!("{message} — {fallback}"));
    match location {
        Some(loc) => warning.at(loc.line(), loc.column()),
        None => warning,
    }
}

/// Deserializes one top-level section, keeping what is valid when part of it is not.
fn section<T: DeserializeOwned + Default>(
    text: &str,
    raw: &Value,
    path: &Path,
    name: &'static str,
    warnings: &mut Vec<ConfigWarning>,
) -> T {
    // The parsed tree first: parsing the whole text again for each of ~25 sections cost
    // ~1 ms per section on Hermes's 744-line default config, before the first frame.
    match raw.get(name) {
        None => return T::default(),
        Some(section @ Value::Mapping(_)) => {
            if let Ok(value) = serde_norway::from_value::<T>(section.clone()) {
                return value;
            }
        }
        Some(_) => {}
    }
    // Anything else goes through the text, whose errors carry a line and column (and which
    // reads a scalar as whatever type the field asks for, as it always did).
    let seed = SectionSeed::<T> {
        name,
        _marker: PhantomData,
    };
    let first_error = match seed.deserialize(serde_norway::Deserializer::from_str(text)) {
        Ok(value) => return value.unwrap_or_default(),
        Err(e) => e,
    };
    let Some(Value::Mapping(fields)) = raw.get(name) else {
        warnings.push(yaml_warning(
            path,
            &first_error,
            &format!("using defaults for {name}"),
        ));
        return T::default();
    };
    let mut kept = Mapping::new();
    let mut dropped = Vec::new();
    for (key, value) in fields {
        let mut single = Mapping::new();
        single.insert(key.clone(), value.clone());
        match serde_norway::from_value::<T>(Value::Mapping(single)) {
            Ok(_) => {
                kept.insert(key.clone(), value.clone());
            }
            Err(e) => dropped.push((key.as_str().unwrap_or("?").to_owned(), e)),
        }
    }
    if dropped.is_empty() {
        // The fields are fine one by one but not together; keep nothing from this section.
        warnings.push(yaml_warning(
            path,
            &first_error,
            &format!("using defaults for {name}"),
        ));
        return T::default();
    }
    for (i, (key, error)) in dropped.iter().enumerate() {
        let fallback = format!("using the default for {name}.{key}");
        if i == 0 {
            warnings.push(yaml_warning(path, &first_error, &fallback));
            continue;
        }
        // Errors from a Value carry neither path nor location; add both.
        let mut warning = ConfigWarning::new(path, format!("{error} ({name}.{key}) — {fallback}"));
        if let Some((line, column)) = yaml_lines::locate(text, &[name, key.as_str()]) {
            warning = warning.at(line, column);
        }
        warnings.push(warning);
    }
    serde_norway::from_value(Value::Mapping(kept)).unwrap_or_default()
}

/// Deserializes only the top-level entry `name` (as `Option<T>`), skipping the rest.
struct SectionSeed<T> {
    name: &'static str,
    _marker: PhantomData<T>,
}

impl<'de, T: Deserialize<'de>> DeserializeSeed<'de> for SectionSeed<T> {
    type Value = Option<T>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Option<T>, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de, T: Deserialize<'de>> Visitor<'de> for SectionSeed<T> {
    type Value = Option<T>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a mapping of settings")
    }

    fn visit_unit<E>(self) -> Result<Option<T>, E> {
        Ok(None)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Option<T>, A::Error> {
        let mut found = None;
        while let Some(key) = map.next_key::<Value>()? {
            if key.as_str() == Some(self.name) {
                found = map.next_value::<Option<T>>()?;
            } else {
                map.next_value::<IgnoredAny>()?;
            }
        }
        Ok(found)
    }
}

#[cfg(test)]
#[path = "load_tests.rs"]
mod tests;
