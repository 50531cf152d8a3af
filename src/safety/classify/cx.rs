//! What the rule modules share: the findings sink and the path context of one command.
//!
//! `Sink` collects findings (deduplicated by key and reason) and the `writes_files` flag.
//! `Cx` knows the `ShellContext` and the directory a `cd` earlier on the same command line
//! moved to, and turns a word into an absolute, lexically normalised path when it can. It
//! never touches the filesystem: symlinks are not resolved here (`paths::sensitive_write`
//! does that for the file tools). Invariant: `resolve` returns `None` rather than guessing
//! for relative paths when no `cd` is known, and for text holding unknown expansions.

use super::words::{Expand, Word};
use super::{Finding, ShellContext, Tier};

#[derive(Debug, Default)]
pub(super) struct Sink {
    pub findings: Vec<Finding>,
    pub writes_files: bool,
}

impl Sink {
    pub(super) fn add(&mut self, tier: Tier, key: &'static str, reason: String) {
        let duplicate = self
            .findings
            .iter()
            .any(|f| f.key == key && f.reason == reason);
        if !duplicate {
            self.findings.push(Finding { tier, key, reason });
        }
    }

    pub(super) fn hardline(&mut self, key: &'static str, reason: String) {
        self.add(Tier::Hardline, key, reason);
    }

    pub(super) fn dangerous(&mut self, key: &'static str, reason: String) {
        self.add(Tier::Dangerous, key, reason);
    }
}

pub(super) struct Cx<'a> {
    pub ctx: &'a ShellContext,
    pub expand: Expand,
    /// Set by `cd DIR` earlier on the same command line.
    pub cwd: Option<String>,
}

impl Cx<'_> {
    /// The absolute, `.`/`..`-normalised path a word names, when it can be known.
    pub(super) fn resolve(&self, word: &Word) -> Option<String> {
        let text = word.text.as_str();
        if word.dynamic && text.contains('$') {
            return None;
        }
        let joined = if text.starts_with('/') {
            text.to_string()
        } else {
            format!("{}/{text}", self.cwd.as_deref()?)
        };
        Some(normalize_abs(&joined))
    }

    /// `/home/dev/x` → `~/x` for messages.
    pub(super) fn display(&self, path: &str) -> String {
        tilde_form(path, &self.expand.home)
    }

    /// Follows `cd DIR` for the rest of the command line (`cd` alone goes home).
    pub(super) fn change_dir(&mut self, target: Option<&Word>) {
        self.cwd = match target {
            None => Some(self.expand.home.clone()),
            Some(w) if w.text == "-" => None,
            Some(w) => self.resolve(w),
        };
    }
}

/// `a//b/./c/../d` → `/a/b/d`; `..` at the top stays at the top.
pub(super) fn normalize_abs(path: &str) -> String {
    let parts = components(path);
    format!("/{}", parts.join("/"))
}

pub(super) fn components(path: &str) -> Vec<&str> {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            other => parts.push(other),
        }
    }
    parts
}

/// Replaces a leading home directory with `~`.
pub(super) fn tilde_form(path: &str, home: &str) -> String {
    if home == "/" {
        return path.to_string();
    }
    match path.strip_prefix(home) {
        Some("") => "~".to_string(),
        Some(rest) if rest.starts_with('/') => format!("~{rest}"),
        _ => path.to_string(),
    }
}

const DISK_PREFIXES: &[&str] = &[
    "sd", "nvme", "vd", "hd", "xvd", "mmcblk", "disk", "rdisk", "mapper/", "dm-", "md", "loop",
    "nbd",
];

/// `/dev/sda`, `/dev/nvme0n1p1`, `/dev/mapper/root`, `/dev/disk2`, …
pub(super) fn is_disk_device(path: &str) -> bool {
    path.strip_prefix("/dev/")
        .is_some_and(|dev| DISK_PREFIXES.iter().any(|p| dev.starts_with(p)))
}

/// Paths whose writes change nothing on disk.
pub(super) fn is_null_sink(path: &str) -> bool {
    matches!(
        path,
        "/dev/null" | "/dev/stdout" | "/dev/stderr" | "/dev/tty" | "/dev/zero" | "-"
    ) || path.starts_with("/dev/fd/")
        || path.starts_with("/dev/pts/")
        || path.starts_with("/proc/self/fd/")
}
