//! The user's own endpoints in `config.yaml`, read the way Hermes 0.19 reads them: the
//! top-level `providers:` mapping (`providers.<name>: {base_url|url|api, api_key, key_env,
//! api_mode|transport, default_model|model, context_length, max_output_tokens,
//! extra_headers, enabled}`), the older `custom_providers:` list (`- name: …, base_url: …`),
//! and `bedrock.region`.
//!
//! Plain data plus a lenient reader: camelCase spellings Hermes accepts (`baseUrl`, `apiKey`,
//! `keyEnv`, `apiKeyEnv`, `api_key_env`, `defaultModel`, …) are mapped; an entry without a
//! usable URL is not an endpoint (a `providers.<builtin>` block may only carry `enabled:`);
//! values of the wrong type are ignored, never fatal. Does not resolve keys or pick a provider
//! (that is `providers::registry`), and never prints a key: `Debug` masks `api_key` and the
//! header values.

use std::fmt;
use std::path::Path;

use serde_norway::{Mapping, Value};

use super::error::ConfigWarning;
use crate::util::yaml_lines;

/// `providers:`, `custom_providers:` and `bedrock:` as resolution needs them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProviderEndpoints {
    /// Usable entries: `providers:` first (file order), then `custom_providers:`.
    pub named: Vec<NamedProvider>,
    /// `providers.<name>` blocks with `enabled: false` (lower-cased names); resolving one of
    /// them is an error, as in Hermes.
    pub disabled: Vec<String>,
    /// `bedrock.region` (empty: from the AWS variables).
    pub bedrock_region: String,
}

/// Which list an entry came from; Hermes matches the two slightly differently.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum EntrySource {
    /// `providers.<key>`.
    #[default]
    Providers,
    /// An item of `custom_providers:`.
    CustomProviders,
}

/// One user-defined endpoint.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct NamedProvider {
    /// The `providers:` key, or a `custom_providers` item's `provider_key` (may be empty).
    pub key: String,
    /// The entry's `name:` (the key when absent).
    pub name: String,
    pub base_url: String,
    /// An inline key; `key_env` is tried first.
    pub api_key: String,
    /// The variable holding the key.
    pub key_env: String,
    /// `chat_completions`, `anthropic_messages`, `codex_responses`; empty: from the URL.
    pub api_mode: String,
    /// The model this endpoint serves, used when `model.default` is empty or names the entry.
    pub model: String,
    pub context_length: u64,
    pub max_output_tokens: u32,
    /// Sent with every request; values may be credentials.
    pub extra_headers: Vec<(String, String)>,
    pub source: EntrySource,
}

impl fmt::Debug for NamedProvider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let headers: Vec<&str> = self.extra_headers.iter().map(|(k, _)| k.as_str()).collect();
        f.debug_struct("NamedProvider")
            .field("key", &self.key)
            .field("name", &self.name)
            .field("base_url", &self.base_url)
            .field("api_key", &if self.api_key.is_empty() { "" } else { "***" })
            .field("key_env", &self.key_env)
            .field("api_mode", &self.api_mode)
            .field("model", &self.model)
            .field("context_length", &self.context_length)
            .field("max_output_tokens", &self.max_output_tokens)
            .field("extra_headers", &headers)
            .field("source", &self.source)
            .finish()
    }
}

/// Reads the three sections from the parsed file; `text` and `path` only place warnings.
pub(super) fn parse_provider_endpoints(
    text: &str,
    raw: &Value,
    path: &Path,
    warnings: &mut Vec<ConfigWarning>,
) -> ProviderEndpoints {
    let mut endpoints = ProviderEndpoints::default();
    let warn = |segs: &[&str], message: String| {
        let mut warning = ConfigWarning::new(path, format!("{}: {message}", segs.join(".")));
        if let Some((line, column)) = yaml_lines::locate(text, segs) {
            warning = warning.at(line, column);
        }
        warning
    };
    match raw.get("providers") {
        None | Some(Value::Null) => {}
        Some(Value::Mapping(entries)) => {
            for (key, entry) in entries {
                let key = scalar_text(key);
                let Value::Mapping(fields) = entry else {
                    warnings.push(warn(
                        &["providers", &key],
                        "expected a mapping of settings — ignored".into(),
                    ));
                    continue;
                };
                if !is_enabled(fields) {
                    endpoints.disabled.push(key.trim().to_lowercase());
                    continue;
                }
                if let Some(entry) = read_entry(fields, &key, EntrySource::Providers) {
                    endpoints.named.push(entry);
                } else if has_url_field(fields) {
                    warnings.push(warn(
                        &["providers", &key],
                        "its URL has no scheme or host — ignored".into(),
                    ));
                }
            }
        }
        Some(_) => warnings.push(warn(
            &["providers"],
            "expected a mapping of provider names to settings — ignored".into(),
        )),
    }
    match raw.get("custom_providers") {
        None | Some(Value::Null) => {}
        Some(Value::Sequence(items)) => {
            for (i, item) in items.iter().enumerate() {
                let Value::Mapping(fields) = item else {
                    continue;
                };
                let name = text_field(fields, &["name"]);
                if name.is_empty() {
                    continue;
                }
                match read_entry(fields, "", EntrySource::CustomProviders) {
                    Some(entry) if !duplicate(&endpoints.named, &entry) => {
                        endpoints.named.push(entry);
                    }
                    Some(_) => {}
                    None => warnings.push(warn(
                        &["custom_providers"],
                        format!("item {} (`{name}`) has no usable base_url — ignored", i + 1),
                    )),
                }
            }
        }
        Some(_) => warnings.push(warn(
            &["custom_providers"],
            "expected a list (each entry starts with `- `) — ignored".into(),
        )),
    }
    if let Some(Value::Mapping(bedrock)) = raw.get("bedrock") {
        endpoints.bedrock_region = text_field(bedrock, &["region"]);
    }
    endpoints
}

/// Hermes's dedup of the two lists: same `(name, base_url, model)` is one endpoint.
fn duplicate(named: &[NamedProvider], entry: &NamedProvider) -> bool {
    let id = |e: &NamedProvider| {
        (
            e.name.to_lowercase(),
            e.base_url.trim_end_matches('/').to_lowercase(),
            e.model.to_lowercase(),
        )
    };
    named.iter().any(|e| id(e) == id(entry))
}

fn read_entry(fields: &Mapping, key: &str, source: EntrySource) -> Option<NamedProvider> {
    let base_url = ["base_url", "baseUrl", "url", "api"]
        .iter()
        .map(|k| text_field(fields, &[k]))
        .find(|url| is_url(url))?;
    let name = match text_field(fields, &["name"]) {
        name if name.is_empty() => key.trim().to_string(),
        name => name,
    };
    let key = match source {
        EntrySource::Providers => key.trim().to_string(),
        EntrySource::CustomProviders => text_field(fields, &["provider_key"]),
    };
    Some(NamedProvider {
        key,
        name,
        base_url,
        api_key: text_field(fields, &["api_key", "apiKey"]),
        key_env: text_field(fields, &["key_env", "keyEnv", "api_key_env", "apiKeyEnv"]),
        api_mode: text_field(fields, &["api_mode", "apiMode", "transport"]),
        model: text_field(fields, &["default_model", "defaultModel", "model"]),
        context_length: number_field(fields, &["context_length", "contextLength"]),
        max_output_tokens: u32::try_from(number_field(
            fields,
            &["max_output_tokens", "max_tokens"],
        ))
        .unwrap_or(u32::MAX),
        extra_headers: headers(fields.get("extra_headers")),
        source,
    })
}

/// Hermes: enabled unless `enabled:` is `false` or a false-ish word.
fn is_enabled(fields: &Mapping) -> bool {
    match fields.get("enabled") {
        Some(Value::Bool(flag)) => *flag,
        Some(Value::String(word)) => !matches!(
            word.trim().to_lowercase().as_str(),
            "false" | "0" | "no" | "off"
        ),
        _ => true,
    }
}

fn has_url_field(fields: &Mapping) -> bool {
    ["base_url", "baseUrl", "url", "api"]
        .iter()
        .any(|k| !text_field(fields, &[k]).is_empty())
}

/// A URL with a scheme and a host, or one holding a `{placeholder}` (Hermes keeps those).
fn is_url(candidate: &str) -> bool {
    if candidate.is_empty() {
        return false;
    }
    if candidate.contains('{') && candidate.contains('}') {
        return true;
    }
    match candidate.split_once("://") {
        Some((scheme, rest)) => !scheme.is_empty() && !rest.is_empty() && !rest.starts_with('/'),
        None => false,
    }
}

/// The first of `keys` holding a string (or number), trimmed; empty when none does.
fn text_field(fields: &Mapping, keys: &[&str]) -> String {
    keys.iter()
        .filter_map(|k| fields.get(*k))
        .find_map(|v| match v {
            Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        })
        .unwrap_or_default()
}

fn number_field(fields: &Mapping, keys: &[&str]) -> u64 {
    keys.iter()
        .filter_map(|k| fields.get(*k))
        .find_map(|v| match v {
            Value::Number(n) => n.as_u64(),
            Value::String(s) => s.trim().parse().ok(),
            _ => None,
        })
        .unwrap_or(0)
}

/// `extra_headers`: string keys and values; `null` values are dropped (Hermes's
/// `normalize_extra_headers`).
fn headers(value: Option<&Value>) -> Vec<(String, String)> {
    let Some(Value::Mapping(map)) = value else {
        return Vec::new();
    };
    map.iter()
        .filter(|(_, v)| !v.is_null())
        .map(|(k, v)| (scalar_text(k), scalar_text(v)))
        .filter(|(k, _)| !k.is_empty())
        .collect()
}

fn scalar_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        _ => String::new(),
    }
}

#[cfg(test)]
#[path = "schema_providers_tests.rs"]
mod tests;
