//! The shell-hook allowlist: which (event, command) pairs the user consented to, and when.
//!
//! Stored as `shell-hooks-allowlist.json` in the active hermes home, in Hermes's shape:
//! `{"approvals": [{"event", "command", "approved_at", "script_mtime_at_approval"}]}` with
//! ISO-8601 UTC timestamps (`2026-04-17T10:00:00.123456Z`). The key is the exact command
//! string, not a hash of the script: edits to a consented script are trusted silently, and
//! `hermes hooks doctor` reports the mtime drift. A missing or corrupt file reads as empty
//! (corrupt: with a warning). Every write re-reads the file first and replaces it atomically
//! (mode 0600), keeping unknown keys and entries; concurrent writers are not locked against
//! each other, so the last one wins. It does not ask anyone anything; `HookRunner` does.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::{Map, Value};

use super::command;
use super::event::HookEvent;
use crate::config::home::HermesHome;
use crate::util::fs::{FileMode, atomic_write};
use crate::util::time::{civil_from_days, days_from_civil};

/// The allowlist's file name inside the hermes home.
pub const ALLOWLIST_FILENAME: &str = "shell-hooks-allowlist.json";
const APPROVALS: &str = "approvals";

/// Why the allowlist could not be saved.
#[derive(Debug, thiserror::Error)]
pub enum ConsentError {
    #[error("cannot write the hook allowlist {path}: {source}")]
    Write {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot encode the hook allowlist: {0}")]
    Encode(#[from] serde_json::Error),
}

/// One consented (event, command) pair.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConsentEntry {
    pub event: String,
    pub command: String,
    /// When consent was given (ISO-8601 UTC), if recorded.
    pub approved_at: Option<String>,
    /// The script's mtime when consent was given (ISO-8601 UTC), if it was found.
    pub script_mtime_at_approval: Option<String>,
}

/// The allowlist as loaded from (and saved to) one file.
#[derive(Debug, Clone)]
pub struct ConsentStore {
    path: PathBuf,
    doc: Map<String, Value>,
}

impl ConsentStore {
    /// `<home>/shell-hooks-allowlist.json` (profile-aware: the active home).
    pub fn path_in(home: &HermesHome) -> PathBuf {
        home.root().join(ALLOWLIST_FILENAME)
    }

    /// Loads the allowlist in `home`.
    pub fn load_from(home: &HermesHome) -> Self {
        Self::load(&Self::path_in(home))
    }

    /// Loads `path`; a missing file is empty, a corrupt one is empty with a warning.
    pub fn load(path: &Path) -> Self {
        Self {
            path: path.to_path_buf(),
            doc: read_doc(path),
        }
    }

    /// An empty allowlist for `path`, without reading it (a session with no hooks).
    pub fn empty(path: &Path) -> Self {
        Self {
            path: path.to_path_buf(),
            doc: Map::new(),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn is_allowed(&self, event: HookEvent, command: &str) -> bool {
        self.entry(event, command).is_some()
    }

    /// The record for this pair, if consented.
    pub fn entry(&self, event: HookEvent, command: &str) -> Option<ConsentEntry> {
        self.entries()
            .into_iter()
            .find(|e| e.event == event.as_str() && e.command == command)
    }

    /// Every well-formed record, in file order.
    pub fn entries(&self) -> Vec<ConsentEntry> {
        approvals(&self.doc).iter().filter_map(to_entry).collect()
    }

    /// Records consent for (event, command) now, with the script's current mtime, replacing
    /// any earlier record for the pair, and saves.
    pub fn allow(&mut self, event: HookEvent, command: &str) -> Result<(), ConsentError> {
        let cwd = std::env::current_dir().unwrap_or_default();
        let mtime = command::script_path(command, &cwd)
            .and_then(|p| command::mtime(&p))
            .map(format_iso);
        let mut record = Map::new();
        record.insert("event".into(), Value::from(event.as_str()));
        record.insert("command".into(), Value::from(command));
        record.insert(
            "approved_at".into(),
            Value::from(format_iso(SystemTime::now())),
        );
        record.insert(
            "script_mtime_at_approval".into(),
            mtime.map_or(Value::Null, Value::from),
        );
        self.update(|list| {
            list.retain(|e| !matches(e, Some(event.as_str()), command));
            list.push(Value::Object(record));
        })
    }

    /// Removes every record for `command` (any event) and saves; returns how many went.
    pub fn revoke(&mut self, command: &str) -> Result<usize, ConsentError> {
        let mut removed = 0;
        self.update(|list| {
            let before = list.len();
            list.retain(|e| !matches(e, None, command));
            removed = before - list.len();
        })?;
        Ok(removed)
    }

    /// Re-reads the file, applies `change` to the approvals list and writes it back.
    fn update(&mut self, change: impl FnOnce(&mut Vec<Value>)) -> Result<(), ConsentError> {
        let mut doc = read_doc(&self.path);
        let mut list = match doc.remove(APPROVALS) {
            Some(Value::Array(list)) => list,
            _ => Vec::new(),
        };
        change(&mut list);
        doc.insert(APPROVALS.into(), Value::Array(list));
        let mut bytes = serde_json::to_vec_pretty(&doc)?;
        bytes.push(b'\n');
        atomic_write(&self.path, &bytes, FileMode::Exactly(0o600)).map_err(|source| {
            ConsentError::Write {
                path: self.path.clone(),
                source,
            }
        })?;
        self.doc = doc;
        Ok(())
    }
}

fn read_doc(path: &Path) -> Map<String, Value> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Map::new(),
        Err(e) => {
            tracing::warn!(
                "cannot read the hook allowlist {}: {e}; treating it as empty",
                path.display()
            );
            return Map::new();
        }
    };
    let text = text.trim_start_matches('\u{feff}');
    if text.trim().is_empty() {
        return Map::new();
    }
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(doc)) => doc,
        Ok(_) => {
            tracing::warn!(
                "hook allowlist {} is not a JSON object; treating it as empty",
                path.display()
            );
            Map::new()
        }
        Err(e) => {
            tracing::warn!(
                "hook allowlist {} is corrupt ({e}); treating it as empty",
                path.display()
            );
            Map::new()
        }
    }
}

fn approvals(doc: &Map<String, Value>) -> &[Value] {
    match doc.get(APPROVALS) {
        Some(Value::Array(list)) => list,
        _ => &[],
    }
}

fn matches(entry: &Value, event: Option<&str>, command: &str) -> bool {
    entry.get("command").and_then(Value::as_str) == Some(command)
        && event.is_none_or(|ev| entry.get("event").and_then(Value::as_str) == Some(ev))
}

fn to_entry(value: &Value) -> Option<ConsentEntry> {
    let text = |key: &str| value.get(key).and_then(Value::as_str).map(str::to_owned);
    Some(ConsentEntry {
        event: text("event")?,
        command: text("command")?,
        approved_at: text("approved_at"),
        script_mtime_at_approval: text("script_mtime_at_approval"),
    })
}

/// ISO-8601 UTC as Python's `isoformat()` + `Z`: microseconds only when non-zero.
pub fn format_iso(time: SystemTime) -> String {
    let since = time.duration_since(UNIX_EPOCH).unwrap_or(Duration::ZERO);
    let secs = since.as_secs() as i64;
    let micros = since.subsec_micros();
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let (y, m, d) = civil_from_days(days);
    let clock = format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    );
    if micros == 0 {
        format!("{clock}Z")
    } else {
        format!("{clock}.{micros:06}Z")
    }
}

/// Microseconds since the epoch for `YYYY-MM-DDTHH:MM:SS[.fraction][Z|+00:00]` (UTC only).
pub fn parse_iso(text: &str) -> Option<i64> {
    let text = text.trim();
    let text = text
        .strip_suffix('Z')
        .or_else(|| text.strip_suffix("+00:00"))
        .unwrap_or(text);
    let (date, clock) = text.split_once(['T', ' '])?;
    let mut date_parts = date.splitn(3, '-').map(|p| p.parse::<i64>().ok());
    let (y, m, d) = (
        date_parts.next()??,
        date_parts.next()??,
        date_parts.next()??,
    );
    let (whole, fraction) = clock.split_once('.').unwrap_or((clock, ""));
    let mut clock_parts = whole.splitn(3, ':').map(|p| p.parse::<i64>().ok());
    let (hh, mm, ss) = (
        clock_parts.next()??,
        clock_parts.next()??,
        clock_parts.next()??,
    );
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) || hh > 23 || mm > 59 || ss > 60 {
        return None;
    }
    let micros = if fraction.is_empty() {
        0
    } else {
        if !fraction.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let padded: String = fraction.chars().chain("000000".chars()).take(6).collect();
        padded.parse::<i64>().ok()?
    };
    let secs = days_from_civil(y, m, d) * 86_400 + hh * 3600 + mm * 60 + ss;
    Some(secs * 1_000_000 + micros)
}

#[cfg(test)]
#[path = "consent_tests.rs"]
mod tests;
