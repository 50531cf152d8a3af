//! Input history for the composer: the prompts the user sent, recalled with ↑/↓ and persisted
//! across sessions in `HERMES_HOME/tui_history`.
//!
//! File format: one entry per line, each a JSON string (so multi-line entries survive), oldest
//! first. Lines that do not parse are skipped; an unreadable file loads as empty history.
//!
//! This module does no I/O on its own schedule: the app loads once at start-up and saves off the
//! UI task via `snapshot` + `save_entries` (in `spawn_blocking`). Two sessions saving the same
//! file race; the last writer wins, which costs at most the other session's new entries.
//!
//! Invariants: at most `MAX_ENTRIES` entries; no entry is empty or whitespace-only; no two
//! consecutive entries are equal; while navigating, `nav.index < entries.len()`.

use std::path::Path;
use std::path::PathBuf;

/// The history file's name under `HERMES_HOME`.
pub const HISTORY_FILE: &str = "tui_history";
/// The most entries kept (oldest dropped first).
pub const MAX_ENTRIES: usize = 1000;

#[derive(Debug, Clone, PartialEq, Eq)]
struct Nav {
    /// The entry currently shown.
    index: usize,
    /// What the user had typed before pressing ↑, given back at the end.
    draft: String,
}

/// Sent prompts plus the ↑/↓ navigation cursor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputHistory {
    path: PathBuf,
    entries: Vec<String>,
    nav: Option<Nav>,
    /// The draft `newer` handed back when navigation ended (it returns a borrow).
    returned_draft: String,
}

impl InputHistory {
    /// Empty history that will be saved to `path`.
    pub fn new(path: PathBuf) -> Self {
        Self {
            path,
            entries: Vec::new(),
            nav: None,
            returned_draft: String::new(),
        }
    }

    /// The default history path under a `HERMES_HOME` directory.
    pub fn default_path(hermes_home: &Path) -> PathBuf {
        hermes_home.join(HISTORY_FILE)
    }

    /// Loads `path`. A missing, unreadable or non-UTF-8 file gives empty history; corrupt
    /// lines are skipped. Never panics.
    pub fn load(path: &Path) -> Self {
        let mut history = Self::new(path.to_path_buf());
        if let Ok(text) = std::fs::read_to_string(path) {
            for entry in parse_entries(&text) {
                history.push(entry);
            }
        }
        history
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Entries, oldest first.
    pub fn entries(&self) -> &[String] {
        &self.entries
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Records a sent prompt and ends any navigation. Empty entries and repeats of the newest
    /// entry are ignored.
    pub fn push(&mut self, entry: impl Into<String>) {
        self.nav = None;
        let entry = entry.into();
        if entry.trim().is_empty() || self.entries.last() == Some(&entry) {
            return;
        }
        self.entries.push(entry);
        if self.entries.len() > MAX_ENTRIES {
            let excess = self.entries.len() - MAX_ENTRIES;
            self.entries.drain(..excess);
        }
    }

    /// Steps back one entry. The first step remembers `current_draft` for `newer` to return.
    /// `None` when there is nothing older (the caller keeps what it shows).
    pub fn older(&mut self, current_draft: &str) -> Option<&str> {
        let index = match &mut self.nav {
            None => {
                let index = self.entries.len().checked_sub(1)?;
                self.nav = Some(Nav {
                    index,
                    draft: current_draft.to_owned(),
                });
                index
            }
            Some(nav) => {
                nav.index = nav.index.checked_sub(1)?;
                nav.index
            }
        };
        self.entries.get(index).map(String::as_str)
    }

    /// Steps forward one entry; past the newest it returns the saved draft and navigation
    /// ends. `None` when not navigating.
    pub fn newer(&mut self) -> Option<&str> {
        let nav = self.nav.as_mut()?;
        if nav.index + 1 < self.entries.len() {
            nav.index += 1;
            let index = nav.index;
            return self.entries.get(index).map(String::as_str);
        }
        self.returned_draft = self.nav.take().map(|nav| nav.draft)?;
        Some(&self.returned_draft)
    }

    /// Whether ↑ has been pressed since the last push/reset.
    pub fn is_navigating(&self) -> bool {
        self.nav.is_some()
    }

    /// Ends navigation without restoring the draft (the user edited a recalled entry, which is
    /// now their draft).
    pub fn reset_navigation(&mut self) {
        self.nav = None;
    }

    /// Saves synchronously. The app should prefer `snapshot` + `save_entries` off the UI task.
    pub fn save(&self) -> std::io::Result<()> {
        save_entries(&self.path, &self.entries)
    }

    /// What `save_entries` needs, cloned so it can move to a blocking task.
    pub fn snapshot(&self) -> (PathBuf, Vec<String>) {
        (self.path.clone(), self.entries.clone())
    }
}

/// Parses the file format: one JSON string per line; other lines are skipped.
pub fn parse_entries(text: &str) -> Vec<String> {
    text.lines()
        .filter(|line| !line.trim().is_empty())
        .filter_map(|line| serde_json::from_str::<String>(line).ok())
        .collect()
}

/// Writes `entries` (the newest `MAX_ENTRIES`) to `path` atomically: a sibling temp file,
/// then rename. The file is private (0600 on Unix) because prompts can hold secrets.
pub fn save_entries(path: &Path, entries: &[String]) -> std::io::Result<()> {
    let skip = entries.len().saturating_sub(MAX_ENTRIES);
    let mut body = String::new();
    for entry in &entries[skip..] {
        let line = serde_json::to_string(entry).map_err(std::io::Error::other)?;
        body.push_str(&line);
        body.push('\n');
    }
    // A temp name of its own per write (not per process): a save started when a prompt was
    // sent and the one at quit may overlap, and a shared temp file made the second rename fail.
    crate::util::fs::atomic_write(
        path,
        body.as_bytes(),
        crate::util::fs::FileMode::Exactly(0o600),
    )
}

#[cfg(test)]
#[path = "history_tests.rs"]
mod tests;
