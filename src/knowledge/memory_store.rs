//! Persistent memory (spec-002a §4): two bounded stores under `HERMES_HOME/memories/`,
//! `MEMORY.md` (the agent's notes, 2,200 chars) and `USER.md` (the user profile, 1,375 chars),
//! each a list of entries joined by `"\n§\n"`.
//!
//! [`MemoryStore`] is the live side used by the `memory` tool: add / replace / remove by
//! unique substring, with the exact over-limit error of the spec, exact duplicates accepted
//! without being added, and content flagged by the injection scanner (strict scope) refused.
//! Every mutation re-reads the file under an exclusive `flock` on `<FILE>.lock` (the same lock
//! file Hermes uses, so a Python session and this one exclude each other), then writes
//! atomically (temp + rename). Readers need no lock.
//!
//! The frozen side for the system prompt is `memory_snapshot::MemorySnapshot`.
//!
//! Invariants: limits count characters (Unicode scalar values) of the joined file, delimiters
//! included; a file that cannot be read is never overwritten; entries are trimmed, non-empty
//! and unique.

use std::path::Path;
use std::path::PathBuf;
use std::time::Duration;

use crate::knowledge::file_lock::FileLock;
use crate::knowledge::injection;
use crate::knowledge::injection::Finding;
use crate::knowledge::injection::ScanScope;
use crate::util::fs::FileMode;
use crate::util::fs::atomic_write;

/// Separates entries in the memory files.
pub const ENTRY_DELIMITER: &str = "\n§\n";
/// Default `memory.memory_char_limit`.
pub const MEMORY_CHAR_LIMIT: usize = 2_200;
/// Default `memory.user_char_limit`.
pub const USER_CHAR_LIMIT: usize = 1_375;
/// How long a mutation waits for another session's lock before giving up.
pub const DEFAULT_LOCK_TIMEOUT: Duration = Duration::from_secs(10);

/// Which store.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MemoryTarget {
    /// `MEMORY.md`: environment facts, conventions, things learned.
    Memory,
    /// `USER.md`: who the user is and how they like to work.
    User,
}

impl MemoryTarget {
    /// From the tool's `target` argument (`"memory"` or `"user"`).
    pub fn parse(text: &str) -> Option<Self> {
        match text.trim() {
            "memory" => Some(Self::Memory),
            "user" => Some(Self::User),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Memory => "memory",
            Self::User => "user",
        }
    }

    pub fn file_name(self) -> &'static str {
        match self {
            Self::Memory => "MEMORY.md",
            Self::User => "USER.md",
        }
    }
}

/// Character limits per store (`memory.memory_char_limit`, `memory.user_char_limit`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemoryLimits {
    pub memory_chars: usize,
    pub user_chars: usize,
}

impl Default for MemoryLimits {
    fn default() -> Self {
        Self {
            memory_chars: MEMORY_CHAR_LIMIT,
            user_chars: USER_CHAR_LIMIT,
        }
    }
}

impl MemoryLimits {
    pub fn for_target(&self, target: MemoryTarget) -> usize {
        match target {
            MemoryTarget::Memory => self.memory_chars,
            MemoryTarget::User => self.user_chars,
        }
    }
}

/// Why a memory operation was refused. `Display` is the text the model sees.
#[derive(Debug, thiserror::Error)]
pub enum MemoryError {
    #[error("Content cannot be empty.")]
    EmptyContent,
    #[error("old_text cannot be empty.")]
    EmptyOldText,
    #[error("{}", .0.refusal())]
    Blocked(Finding),
    /// The exact error of spec-002a §4.4.
    #[error(
        "Memory at {}/{} chars. Adding this entry ({entry_chars} chars) would exceed the limit. Replace or remove existing entries first.",
        thousands(*current),
        thousands(*limit)
    )]
    OverLimit {
        current: usize,
        limit: usize,
        entry_chars: usize,
        entries: Vec<String>,
    },
    #[error(
        "Replacement would put memory at {}/{} chars, over the limit. Shorten the new content, or remove other entries first.",
        thousands(*new_total),
        thousands(*limit)
    )]
    ReplaceOverLimit {
        new_total: usize,
        current: usize,
        limit: usize,
        entries: Vec<String>,
    },
    #[error(
        "No entry matched '{old_text}'. Check current_entries and retry with text from the entry you mean."
    )]
    NoMatch {
        old_text: String,
        current: usize,
        limit: usize,
        entries: Vec<String>,
    },
    #[error("Multiple entries matched '{old_text}'. Be more specific.")]
    Ambiguous {
        old_text: String,
        /// One-line previews of the matching entries.
        matches: Vec<String>,
    },
    #[error(
        "Timed out after {} s waiting for the memory lock {} (another session is writing); try again.",
        .waited.as_secs(),
        .path.display()
    )]
    LockTimeout { path: PathBuf, waited: Duration },
    #[error("Memory file {}: {source}", .path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

impl MemoryError {
    /// The live entries to show with the error, when the model needs them to recover.
    pub fn current_entries(&self) -> Option<&[String]> {
        match self {
            Self::OverLimit { entries, .. }
            | Self::ReplaceOverLimit { entries, .. }
            | Self::NoMatch { entries, .. } => Some(entries),
            _ => None,
        }
    }

    /// `used/limit` with thousands separators (`2,100/2,200`), where it applies.
    pub fn usage(&self) -> Option<String> {
        match self {
            Self::OverLimit { current, limit, .. }
            | Self::ReplaceOverLimit { current, limit, .. }
            | Self::NoMatch { current, limit, .. } => {
                Some(format!("{}/{}", thousands(*current), thousands(*limit)))
            }
            _ => None,
        }
    }
}

/// The live state after a successful operation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemoryUpdate {
    pub target: MemoryTarget,
    /// `Entry added.`, `Entry already exists (no duplicate added).`, …
    pub message: &'static str,
    /// Whether the file was written.
    pub changed: bool,
    pub entries: Vec<String>,
    pub chars: usize,
    pub limit: usize,
}

impl MemoryUpdate {
    /// `67% — 1,474/2,200 chars`.
    pub fn usage(&self) -> String {
        format!(
            "{}% — {}/{} chars",
            percent(self.chars, self.limit),
            thousands(self.chars),
            thousands(self.limit)
        )
    }
}

/// Messages of successful operations.
pub const MSG_ADDED: &str = "Entry added.";
pub const MSG_DUPLICATE: &str = "Entry already exists (no duplicate added).";
pub const MSG_REPLACED: &str = "Entry replaced.";
pub const MSG_REMOVED: &str = "Entry removed.";
pub const MSG_READ: &str =
    "Current entries (live; the system prompt shows the snapshot from session start).";

/// The live memory files of one `HERMES_HOME`.
#[derive(Debug, Clone)]
pub struct MemoryStore {
    dir: PathBuf,
    limits: MemoryLimits,
    lock_timeout: Duration,
}

impl MemoryStore {
    pub fn new(memories_dir: PathBuf) -> Self {
        Self {
            dir: memories_dir,
            limits: MemoryLimits::default(),
            lock_timeout: DEFAULT_LOCK_TIMEOUT,
        }
    }

    pub fn with_limits(mut self, limits: MemoryLimits) -> Self {
        self.limits = limits;
        self
    }

    pub fn with_lock_timeout(mut self, timeout: Duration) -> Self {
        self.lock_timeout = timeout;
        self
    }

    pub fn path(&self, target: MemoryTarget) -> PathBuf {
        self.dir.join(target.file_name())
    }

    /// The live entries (no lock needed: writes are atomic renames).
    pub fn read(&self, target: MemoryTarget) -> Result<MemoryUpdate, MemoryError> {
        let entries = read_entries(&self.path(target))?;
        Ok(self.update(target, MSG_READ, false, entries))
    }

    /// Append `content` as a new entry.
    pub fn add(&self, target: MemoryTarget, content: &str) -> Result<MemoryUpdate, MemoryError> {
        let content = checked_content(content)?;
        let limit = self.limits.for_target(target);
        self.mutate(target, |entries| {
            if entries.iter().any(|e| e == content) {
                return Ok(Outcome::Unchanged(MSG_DUPLICATE));
            }
            let current = joined_chars(entries);
            let mut next = entries.to_vec();
            next.push(content.to_string());
            if joined_chars(&next) > limit {
                return Err(MemoryError::OverLimit {
                    current,
                    limit,
                    entry_chars: content.chars().count(),
                    entries: entries.to_vec(),
                });
            }
            Ok(Outcome::Write(next, MSG_ADDED))
        })
    }

    /// Replace the one entry containing `old_text` with `content`.
    pub fn replace(
        &self,
        target: MemoryTarget,
        old_text: &str,
        content: &str,
    ) -> Result<MemoryUpdate, MemoryError> {
        let content = checked_content(content)?;
        let limit = self.limits.for_target(target);
        self.mutate(target, |entries| {
            let index = find_unique(entries, old_text, limit)?;
            let mut next = entries.to_vec();
            next[index] = content.to_string();
            // Replacing with an entry that already exists elsewhere merges the two.
            dedup(&mut next);
            let new_total = joined_chars(&next);
            if new_total > limit {
                return Err(MemoryError::ReplaceOverLimit {
                    new_total,
                    current: joined_chars(entries),
                    limit,
                    entries: entries.to_vec(),
                });
            }
            Ok(Outcome::Write(next, MSG_REPLACED))
        })
    }

    /// Remove the one entry containing `old_text`.
    pub fn remove(
        &self,
        target: MemoryTarget,
        old_text: &str,
    ) -> Result<MemoryUpdate, MemoryError> {
        let limit = self.limits.for_target(target);
        self.mutate(target, |entries| {
            let index = find_unique(entries, old_text, limit)?;
            let mut next = entries.to_vec();
            next.remove(index);
            Ok(Outcome::Write(next, MSG_REMOVED))
        })
    }

    /// Lock, re-read the file, apply `op`, write when it asks to.
    fn mutate(
        &self,
        target: MemoryTarget,
        op: impl FnOnce(&[String]) -> Result<Outcome, MemoryError>,
    ) -> Result<MemoryUpdate, MemoryError> {
        let path = self.path(target);
        std::fs::create_dir_all(&self.dir).map_err(|source| MemoryError::Io {
            path: self.dir.clone(),
            source,
        })?;
        let lock_file = lock_path(&path);
        let _lock = FileLock::acquire(&lock_file, self.lock_timeout).map_err(|source| {
            if source.kind() == std::io::ErrorKind::TimedOut {
                MemoryError::LockTimeout {
                    path: lock_file.clone(),
                    waited: self.lock_timeout,
                }
            } else {
                MemoryError::Io {
                    path: lock_file.clone(),
                    source,
                }
            }
        })?;
        let entries = read_entries(&path)?;
        match op(&entries)? {
            Outcome::Unchanged(message) => Ok(self.update(target, message, false, entries)),
            Outcome::Write(next, message) => {
                atomic_write(&path, serialize(&next).as_bytes(), FileMode::KeepOr(0o600)).map_err(
                    |source| MemoryError::Io {
                        path: path.clone(),
                        source,
                    },
                )?;
                Ok(self.update(target, message, true, next))
            }
        }
    }

    fn update(
        &self,
        target: MemoryTarget,
        message: &'static str,
        changed: bool,
        entries: Vec<String>,
    ) -> MemoryUpdate {
        MemoryUpdate {
            target,
            message,
            changed,
            chars: joined_chars(&entries),
            limit: self.limits.for_target(target),
            entries,
        }
    }
}

enum Outcome {
    Unchanged(&'static str),
    Write(Vec<String>, &'static str),
}

/// `content` trimmed, or why it cannot be stored (empty, or flagged by the strict scan).
fn checked_content(content: &str) -> Result<&str, MemoryError> {
    let content = content.trim();
    if content.is_empty() {
        return Err(MemoryError::EmptyContent);
    }
    match injection::scan_with(content, ScanScope::Strict) {
        Some(finding) => Err(MemoryError::Blocked(finding)),
        None => Ok(content),
    }
}

/// Index of the entry containing `old_text`; several distinct matches are an error.
fn find_unique(entries: &[String], old_text: &str, limit: usize) -> Result<usize, MemoryError> {
    let needle = old_text.trim();
    if needle.is_empty() {
        return Err(MemoryError::EmptyOldText);
    }
    let matches: Vec<usize> = (0..entries.len())
        .filter(|&i| entries[i].contains(needle))
        .collect();
    match matches.as_slice() {
        [] => Err(MemoryError::NoMatch {
            old_text: needle.to_string(),
            current: joined_chars(entries),
            limit,
            entries: entries.to_vec(),
        }),
        [only] => Ok(*only),
        many => Err(MemoryError::Ambiguous {
            old_text: needle.to_string(),
            matches: many.iter().map(|&i| preview(&entries[i])).collect(),
        }),
    }
}

/// The first line of an entry, at most 80 characters, `...` when cut.
fn preview(entry: &str) -> String {
    let flat = entry.replace('\n', " ");
    let mut out: String = flat.chars().take(80).collect();
    if flat.chars().count() > 80 {
        out.push_str("...");
    }
    out
}

fn lock_path(file: &Path) -> PathBuf {
    let mut name = file.as_os_str().to_os_string();
    name.push(".lock");
    PathBuf::from(name)
}

/// Entries of a memory file: split on the delimiter, trimmed, empty ones and duplicates
/// dropped (first kept). A missing file is empty; any other read error is an error.
pub(crate) fn read_entries(path: &Path) -> Result<Vec<String>, MemoryError> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(parse_entries(&text)),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(source) => Err(MemoryError::Io {
            path: path.to_path_buf(),
            source,
        }),
    }
}

/// Parse the text of a memory file into entries.
pub fn parse_entries(text: &str) -> Vec<String> {
    let mut entries: Vec<String> = text
        .split(ENTRY_DELIMITER)
        .map(str::trim)
        .filter(|e| !e.is_empty())
        .map(str::to_string)
        .collect();
    dedup(&mut entries);
    entries
}

fn dedup(entries: &mut Vec<String>) {
    let mut seen = std::collections::HashSet::new();
    entries.retain(|e| seen.insert(e.clone()));
}

pub(crate) fn serialize(entries: &[String]) -> String {
    entries.join(ENTRY_DELIMITER)
}

/// Characters of the entries as stored (delimiters included).
pub fn joined_chars(entries: &[String]) -> usize {
    if entries.is_empty() {
        return 0;
    }
    entries.iter().map(|e| e.chars().count()).sum::<usize>()
        + ENTRY_DELIMITER.chars().count() * (entries.len() - 1)
}

pub(crate) fn percent(used: usize, limit: usize) -> usize {
    if limit == 0 {
        return 0;
    }
    (used * 100 / limit).min(100)
}

pub use crate::util::digits::thousands;

#[cfg(test)]
#[path = "memory_store_tests.rs"]
mod tests;
