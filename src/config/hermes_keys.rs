//! Every key of Python Hermes 0.19's `config.yaml` (`DEFAULT_CONFIG`, `_config_version` 33,
//! plus the few keys Hermes reads that its defaults leave out), and what hermes does with it:
//! honoured (and how), or kept but not used yet (and why). The data is `hermes_keys.tsv`
//! (one key a line, in the order of Hermes's default file), compiled in; this module parses
//! it and renders the Markdown table of `docs/configuration.md`, which a test keeps equal.
//!
//! Rows are a top-level key and, for sections hermes uses part of, one row per key inside it.
//! Invariants (tested): a row says "honoured" exactly when `config::used_keys` says hermes
//! reads that key; every key of Hermes's default file has a row; the data parses.

use std::sync::OnceLock;

const TABLE: &str = include_str!("hermes_keys.tsv");

/// What hermes does with a Hermes key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Support {
    /// hermes reads it; the text says how.
    Honoured(&'static str),
    /// Kept in the file untouched; the text says why hermes does not use it yet.
    NotYet(&'static str),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HermesKey {
    /// Dotted path: `agent` or `agent.max_turns`.
    pub key: &'static str,
    pub support: Support,
}

/// The rows, in table order. A malformed line is left out (a test fails on it).
pub fn hermes_keys() -> &'static [HermesKey] {
    static ROWS: OnceLock<Vec<HermesKey>> = OnceLock::new();
    ROWS.get_or_init(|| {
        data_lines()
            .filter_map(|line| parse_line(line).ok())
            .collect()
    })
}

/// The row for `key`, if Hermes has such a key.
pub fn hermes_key(key: &str) -> Option<&'static HermesKey> {
    hermes_keys().iter().find(|k| k.key == key)
}

fn data_lines() -> impl Iterator<Item = &'static str> {
    TABLE
        .lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
}

/// `KEY<TAB>honoured|not yet<TAB>text`; the error is the offending line.
fn parse_line(line: &'static str) -> Result<HermesKey, &'static str> {
    let mut fields = line.split('\t');
    let (Some(key), Some(status), Some(text), None) =
        (fields.next(), fields.next(), fields.next(), fields.next())
    else {
        return Err(line);
    };
    if key.is_empty() || text.trim().is_empty() {
        return Err(line);
    }
    let support = match status {
        "honoured" => Support::Honoured(text),
        "not yet" => Support::NotYet(text),
        _ => return Err(line),
    };
    Ok(HermesKey { key, support })
}

/// The Markdown table of `docs/configuration.md`.
pub fn markdown_table() -> String {
    let mut out = String::from("| Hermes key | hermes | How, or why not yet |\n|---|---|---|\n");
    for row in hermes_keys() {
        let (status, text) = match row.support {
            Support::Honoured(how) => ("honoured", how),
            Support::NotYet(why) => ("kept, not used yet", why),
        };
        let key = if row.key.contains('.') {
            format!("`{}`", row.key)
        } else {
            format!("**`{}`**", row.key)
        };
        out.push_str(&format!(
            "| {key} | {status} | {} |\n",
            text.replace('|', "\\|")
        ));
    }
    out
}

#[cfg(test)]
#[path = "hermes_keys_tests.rs"]
mod tests;
