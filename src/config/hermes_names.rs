//! Hermes's names for settings hermes keeps under another key, applied to the typed config
//! after `load` has read hermes's own keys.
//!
//! - `model: <id>` (a plain string) is `model.default`; inside `model:`, `model`/`name` stand
//!   for `default` and `api_base` for `base_url`; top-level `provider`, `base_url`, `api_base`
//!   and `context_length` fill the `model.*` key when that is empty (Hermes's
//!   `_normalize_root_model_keys`).
//! - `agent.max_turns`, else a top-level `max_turns`, is `agent.max_iterations` (Hermes's CLI
//!   reads them in that order; 0 and null count as unset, as there).
//! - `agent.api_max_retries` counts attempts (Hermes: at least 1); `provider.max_retries`
//!   counts retries, so it becomes `attempts - 1`.
//! - `delegation.subagent_auto_approve: true` means `delegation.subagent_approvals: once`
//!   unless the latter is in the file.
//!
//! When a Hermes name and hermes's key are both in the file with different values, the Hermes
//! name wins (so both programs run with one value) and a warning names both. Never fails: a
//! Hermes name with a value of the wrong type is ignored with a warning.

use std::path::Path;

use serde_norway::Value;

use super::error::ConfigWarning;
use super::schema::Config;
use crate::util::yaml_lines;

/// The Hermes names read here beyond `known_keys::ALIASES` (for `config::used_keys`).
pub(super) const READ: &[&str] = &[
    "model.model",
    "model.name",
    "model.api_base",
    "provider",
    "base_url",
    "api_base",
    "context_length",
    "delegation.subagent_auto_approve",
];

pub(super) fn apply(
    text: &str,
    raw: &Value,
    path: &Path,
    config: &mut Config,
    warnings: &mut Vec<ConfigWarning>,
) {
    let mut names = Names {
        text,
        raw,
        path,
        warnings,
    };
    model_names(raw, config);
    let turns = names
        .count("agent.max_turns")
        .filter(|n| *n > 0)
        .map(|n| ("agent.max_turns", n))
        .or_else(|| {
            names
                .count("max_turns")
                .filter(|n| *n > 0)
                .map(|n| ("max_turns", n))
        });
    if let Some((name, turns)) = turns {
        names.conflict(name, "agent.max_iterations", u64::from(turns));
        config.agent.max_iterations = turns;
    }
    if let Some(attempts) = names.count("agent.api_max_retries") {
        let retries = attempts.max(1) - 1;
        names.conflict(
            "agent.api_max_retries",
            "provider.max_retries",
            u64::from(retries),
        );
        config.provider.max_retries = retries;
    }
    let auto_approve = names.get("delegation.subagent_auto_approve");
    if auto_approve.and_then(Value::as_bool) == Some(true)
        && names.get("delegation.subagent_approvals").is_none()
    {
        config.delegation.subagent_approvals = "once".into();
    }
}

/// Hermes's aliases around `model:` (fallbacks only: an explicit hermes key always stays).
fn model_names(raw: &Value, config: &mut Config) {
    let text_at = |v: Option<&Value>| {
        v.and_then(Value::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
    };
    let model = &mut config.model;
    let section = raw.get("model");
    if let Some(Value::String(id)) = section {
        model.default = id.trim().to_owned();
    }
    let inner = |key: &str| text_at(section.and_then(|m| m.get(key)));
    if model.default.is_empty()
        && let Some(id) = inner("model").or_else(|| inner("name"))
    {
        model.default = id;
    }
    if model.base_url.is_empty()
        && let Some(url) = inner("api_base")
            .or_else(|| text_at(raw.get("base_url")))
            .or_else(|| text_at(raw.get("api_base")))
    {
        model.base_url = url;
    }
    if model.provider.is_empty()
        && let Some(provider) = text_at(raw.get("provider"))
    {
        model.provider = provider;
    }
    if model.context_length == 0
        && let Some(length) = raw.get("context_length").and_then(Value::as_u64)
    {
        model.context_length = length;
    }
}

struct Names<'a> {
    text: &'a str,
    raw: &'a Value,
    path: &'a Path,
    warnings: &'a mut Vec<ConfigWarning>,
}

impl Names<'_> {
    /// The value at dotted `key`, unless absent or null.
    fn get(&self, key: &str) -> Option<&Value> {
        key.split('.')
            .try_fold(self.raw, |v, seg| v.get(seg))
            .filter(|v| !v.is_null())
    }

    /// A whole number at `key`; anything else is reported and ignored.
    fn count(&mut self, key: &str) -> Option<u32> {
        let value = self.get(key)?;
        match value.as_u64().and_then(|n| u32::try_from(n).ok()) {
            Some(n) => Some(n),
            None => {
                let shown = serde_norway::to_string(value)
                    .map(|s| s.trim_end().to_owned())
                    .unwrap_or_default();
                self.warn(
                    key,
                    format!("{key} must be a whole number, not {shown} — ignored"),
                );
                None
            }
        }
    }

    /// Warns when hermes's own `ours` is in the file with a value other than `effective`
    /// (what the Hermes name `name` gave).
    fn conflict(&mut self, name: &str, ours: &str, effective: u64) {
        let Some(own) = self.get(ours).and_then(Value::as_u64) else {
            return;
        };
        if own != effective {
            self.warn(
                ours,
                format!(
                    "{name} and {ours} are both set; hermes uses {name} (Hermes's name, so both \
                     programs agree: {ours} {effective}) — remove one of them"
                ),
            );
        }
    }

    fn warn(&mut self, key: &str, message: String) {
        let segments: Vec<&str> = key.split('.').collect();
        let mut warning = ConfigWarning::new(self.path, message);
        if let Some((line, column)) = yaml_lines::locate(self.text, &segments) {
            warning = warning.at(line, column);
        }
        self.warnings.push(warning);
    }
}

#[cfg(test)]
#[path = "hermes_names_tests.rs"]
mod tests;
