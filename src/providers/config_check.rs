//! `config show`'s provider check: every place Hermes's config names a provider
//! (`model.provider`, `auxiliary.<task>.provider`, `delegation.provider`,
//! `fallback_providers[].provider`, `fallback_model.provider`) is looked up the way a turn
//! would look it up, and each name hermes cannot use gets one warning line — instead of
//! the first turn failing.
//!
//! Names only: missing keys and unreachable servers are not checked (that needs the
//! environment and the network). `auto`, `main` and empty mean "inherit" and are fine. Reads
//! the raw file for the auxiliary tasks hermes does not model, so a typo in any of Hermes's
//! 18 tasks is reported. No I/O.

use serde_norway::Value;

use super::ProviderSetupError;
use super::registry;
use super::select;
use crate::config::LoadedConfig;
use crate::config::schema::ProviderEndpoints;

/// One line per provider name in the config that hermes cannot use, in file order.
pub fn provider_warnings(loaded: &LoadedConfig) -> Vec<String> {
    let endpoints = &loaded.config.provider_endpoints;
    let mut named: Vec<(String, String)> = vec![(
        "model.provider".to_string(),
        loaded.config.model.provider.clone(),
    )];
    if let Some(Value::Mapping(tasks)) = loaded.raw.get("auxiliary") {
        for (task, settings) in tasks {
            if let (Some(task), Some(provider)) = (task.as_str(), text_at(settings, "provider")) {
                named.push((format!("auxiliary.{task}.provider"), provider));
            }
        }
    }
    named.push((
        "delegation.provider".to_string(),
        loaded.config.delegation.provider.clone(),
    ));
    for key in ["fallback_providers", "fallback_model"] {
        match loaded.raw.get(key) {
            Some(Value::Sequence(items)) => {
                for (i, item) in items.iter().enumerate() {
                    if let Some(provider) = text_at(item, "provider") {
                        named.push((format!("{key}[{i}].provider"), provider));
                    }
                }
            }
            Some(item @ Value::Mapping(_)) => {
                if let Some(provider) = text_at(item, "provider") {
                    named.push((format!("{key}.provider"), provider));
                }
            }
            _ => {}
        }
    }
    named
        .iter()
        .filter_map(|(origin, name)| check(name, origin, endpoints))
        .collect()
}

fn text_at(value: &Value, key: &str) -> Option<String> {
    value.get(key).and_then(Value::as_str).map(str::to_string)
}

/// Why `name` (from `origin`) cannot be used, if it cannot.
fn check(name: &str, origin: &str, endpoints: &ProviderEndpoints) -> Option<String> {
    let normalised = registry::normalise(name);
    let inherits = origin != "model.provider" && normalised == "main";
    if normalised.is_empty() || normalised == "auto" || inherits {
        return None;
    }
    // Hermes's auxiliary `codex` means openai-codex.
    let normalised = match normalised.as_str() {
        "codex" => "openai-codex".to_string(),
        _ => normalised,
    };
    if endpoints.disabled.contains(&normalised) {
        return Some(format!(
            "{origin}: {}",
            ProviderSetupError::Disabled {
                provider: normalised,
            }
        ));
    }
    match select::select(&normalised, origin, endpoints) {
        Ok(_) => None,
        Err(err) => Some(err.to_string()),
    }
}

#[cfg(test)]
#[path = "config_check_tests.rs"]
mod tests;
