//! Which `config.yaml` keys hermes reads, as one answer for `config show` (the keys it lists
//! as "kept, not used") and for the key-by-key table (`config::hermes_keys`, checked against
//! this by a test). Derived from the settable keys (`KNOWN_KEYS`), Hermes's names for them
//! (`ALIASES`, `config::hermes_names`) and the few keys other modules read from the raw file.
//! Pure; never reads a file.

use serde_norway::Value;

use super::hermes_keys::hermes_key;
use super::known_keys::{ALIASES, KNOWN_KEYS};

/// Keys read from the raw document rather than through `KNOWN_KEYS`: a key here covers
/// everything below it.
const READ_RAW: &[&str] = &[
    // safety::hooks parses the events and their commands.
    "hooks",
    // config::mcp_servers.
    "mcp_servers",
    // Named endpoints for `model.provider` (providers::registry).
    "providers",
    "custom_providers",
    // The Bedrock region (config::schema_providers).
    "bedrock.region",
    // Skills the loader leaves out (skills::catalog).
    "skills.disabled",
    // The toolset selection (config::toolsets).
    "toolsets",
    "platform_toolsets",
    "agent.disabled_toolsets",
];

/// Whether hermes reads `key` (dotted), or something inside it, or the subtree it is in.
pub fn is_used(key: &str) -> bool {
    let covers = |used: &str| {
        used == key
            || used
                .strip_prefix(key)
                .is_some_and(|rest| rest.starts_with('.'))
            || key
                .strip_prefix(used)
                .is_some_and(|rest| rest.starts_with('.'))
    };
    KNOWN_KEYS.iter().any(|k| covers(k.key))
        || ALIASES.iter().any(|(hermes_name, _)| covers(hermes_name))
        || super::hermes_names::READ.iter().any(|k| covers(k))
        || READ_RAW.iter().any(|k| covers(k))
}

/// Keys in a file that hermes does not read, grouped for `config show`.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct UnusedKeys {
    /// Hermes keys hermes keeps but does not use, per section (`None`: the top level), in
    /// file order.
    pub kept: Vec<(Option<String>, Vec<String>)>,
    /// Keys neither hermes nor Hermes 0.19 has (dotted; typos, newer Hermes keys, plugins).
    pub unknown: Vec<String>,
}

/// The top-level keys, and the keys inside the sections hermes uses, that hermes ignores.
pub fn unused_keys(raw: &Value) -> UnusedKeys {
    let mut out = UnusedKeys::default();
    let Value::Mapping(top) = raw else {
        return out;
    };
    let mut kept_top = Vec::new();
    for (name, value) in top {
        let Some(name) = name.as_str() else {
            continue;
        };
        if !is_used(name) {
            sort(name, name, &mut kept_top, &mut out.unknown);
            continue;
        }
        let Value::Mapping(section) = value else {
            continue;
        };
        let mut kept = Vec::new();
        for key in section.keys().filter_map(Value::as_str) {
            let dotted = format!("{name}.{key}");
            if !is_used(&dotted) {
                sort(&dotted, key, &mut kept, &mut out.unknown);
            }
        }
        if !kept.is_empty() {
            out.kept.push((Some(name.to_owned()), kept));
        }
    }
    if !kept_top.is_empty() {
        out.kept.insert(0, (None, kept_top));
    }
    out
}

fn sort(dotted: &str, shown: &str, kept: &mut Vec<String>, unknown: &mut Vec<String>) {
    if hermes_key(dotted).is_some() {
        kept.push(shown.to_owned());
    } else {
        unknown.push(dotted.to_owned());
    }
}

#[cfg(test)]
#[path = "used_keys_tests.rs"]
mod tests;
