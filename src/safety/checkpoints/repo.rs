//! One shadow repository: where it lives, how it is initialised, and its checkpoint refs.
//!
//! The repo for a work dir is `<root>/<16 hex digits>`, the FNV-1a hash of the canonical work
//! dir path (stable across builds and Rust versions). It is a bare git directory used with
//! `GIT_WORK_TREE`; `HERMES_WORKDIR` inside it records the work dir for listings. Each
//! checkpoint is a parentless commit named by a ref `refs/hermes/checkpoints/<10-digit number>`
//! (numbers only grow, so ref order is creation order even within one second). Parentless
//! commits keep ids stable when old checkpoints are dropped: trimming deletes refs only, and
//! `git gc --prune=now` (run by `prune`) frees the objects.
//!
//! Does not stage files (see `stage`) or touch the work tree.

use std::path::Path;
use std::path::PathBuf;

use super::error::CheckpointError;
use super::git::Git;

/// Prefix of every checkpoint ref.
pub(super) const REF_PREFIX: &str = "refs/hermes/checkpoints/";
/// File in the shadow repo holding the work dir path.
pub(super) const WORKDIR_FILE: &str = "HERMES_WORKDIR";
/// Characters of a commit hash shown as a checkpoint id.
pub(super) const SHORT_ID: usize = 10;
/// Longest label kept (characters).
const MAX_LABEL_CHARS: usize = 200;

/// Always left out of snapshots, on top of the work tree's own `.gitignore` files: dependency
/// and build caches (large, regenerable) and `.env` files (secrets stay out of HERMES_HOME).
/// `target/` is Cargo's build directory; `.git/` is always skipped by git itself.
const BUILTIN_EXCLUDES: &[&str] = &[
    ".git/",
    ".hg/",
    ".svn/",
    "node_modules/",
    "target/",
    ".venv/",
    "venv/",
    "__pycache__/",
    "*.pyc",
    "*.pyo",
    ".pytest_cache/",
    ".mypy_cache/",
    ".ruff_cache/",
    ".tox/",
    ".gradle/",
    ".next/",
    ".nuxt/",
    ".cache/",
    ".DS_Store",
    ".env",
    ".env.*",
];

/// One checkpoint ref, as read from the shadow repo.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Entry {
    pub refname: String,
    pub commit: String,
    pub tree: String,
    pub created_unix: u64,
    pub label: String,
}

impl Entry {
    pub fn short_id(&self) -> String {
        self.commit.chars().take(SHORT_ID).collect()
    }
}

/// The shadow repository of one (canonical) work dir.
#[derive(Debug, Clone)]
pub(super) struct ShadowRepo {
    pub dir: PathBuf,
    pub work_dir: PathBuf,
}

impl ShadowRepo {
    /// Where the repo for `work_dir` (already canonical) lives under `root`.
    pub fn locate(root: &Path, work_dir: &Path) -> Self {
        Self {
            dir: root.join(repo_name(work_dir)),
            work_dir: work_dir.to_path_buf(),
        }
    }

    pub fn exists(&self) -> bool {
        self.dir.join("HEAD").is_file()
    }

    /// Git on the repo and its work tree.
    pub fn git(&self) -> Git<'_> {
        Git::with_work_tree(&self.dir, &self.work_dir)
    }

    /// Creates the repo if needed and (re)writes `HERMES_WORKDIR` and `info/exclude` when they
    /// differ from what they should be. `root` is excluded when it lies inside the work dir.
    pub fn ensure(&self, root: &Path) -> Result<(), CheckpointError> {
        if !self.exists() {
            std::fs::create_dir_all(&self.dir)?;
            Git::bare(&self.dir).run(&["init", "--quiet", "--bare"])?;
        }
        let work_dir = self.work_dir.to_string_lossy().into_owned();
        write_if_changed(&self.dir.join(WORKDIR_FILE), &format!("{work_dir}\n"))?;
        let info = self.dir.join("info");
        std::fs::create_dir_all(&info)?;
        write_if_changed(&info.join("exclude"), &exclude_file(root, &self.work_dir))
    }

    /// Checkpoints, newest first.
    pub fn entries(&self) -> Result<Vec<Entry>, CheckpointError> {
        read_entries(&self.dir)
    }

    /// Commits `tree` as a new checkpoint labelled `label` and returns it.
    pub fn add(
        &self,
        tree: &str,
        label: &str,
        newest: Option<&Entry>,
    ) -> Result<Entry, CheckpointError> {
        let git = Git::bare(&self.dir);
        let label = clean_label(label);
        let commit = git.text(&["commit-tree", tree, "-m", &label])?;
        let number = newest
            .and_then(|e| e.refname.strip_prefix(REF_PREFIX))
            .and_then(|n| n.parse::<u64>().ok())
            .unwrap_or(0)
            + 1;
        let refname = format!("{REF_PREFIX}{number:010}");
        // The empty old value makes the update fail if another process took the number.
        git.run(&["update-ref", &refname, &commit, ""])?;
        let created = git.text(&["show", "-s", "--format=%ct", &commit])?;
        Ok(Entry {
            refname,
            commit,
            tree: tree.to_string(),
            created_unix: created.parse().unwrap_or(0),
            label,
        })
    }
}

/// Deletes all but the newest `keep` checkpoint refs of the repo at `dir`; returns how many
/// were dropped. Their objects stay until `git gc --prune=now`.
pub(super) fn trim(dir: &Path, keep: usize) -> Result<usize, CheckpointError> {
    let entries = read_entries(dir)?;
    let old = entries.get(keep..).unwrap_or_default();
    if old.is_empty() {
        return Ok(0);
    }
    let mut input = String::new();
    for entry in old {
        input.push_str(&format!("delete {}\n", entry.refname));
    }
    Git::bare(dir).run_with_input(&["update-ref", "--stdin"], Some(input.into_bytes()))?;
    Ok(old.len())
}

/// The checkpoints of the repo at `dir`, newest first.
pub(super) fn read_entries(dir: &Path) -> Result<Vec<Entry>, CheckpointError> {
    let out = Git::bare(dir).run(&[
        "for-each-ref",
        "--sort=-refname",
        "--format=%(refname)%00%(objectname)%00%(tree)%00%(committerdate:unix)%00%(contents:subject)",
        REF_PREFIX,
    ])?;
    let text = String::from_utf8_lossy(&out);
    let entries = text
        .lines()
        .filter_map(|line| {
            let mut parts = line.split('\0');
            Some(Entry {
                refname: parts.next()?.to_string(),
                commit: parts.next()?.to_string(),
                tree: parts.next()?.to_string(),
                created_unix: parts.next()?.parse().unwrap_or(0),
                label: parts.next().unwrap_or_default().to_string(),
            })
        })
        .collect();
    Ok(entries)
}

/// Resolves a user-given id: a number from 1 to `entries.len()` is an index (1 = newest);
/// anything else is a hash prefix (at least 4 hex digits) that must match exactly one commit.
pub(super) fn resolve<'e>(entries: &'e [Entry], id: &str) -> Result<&'e Entry, CheckpointError> {
    let id = id.trim();
    let unknown = || CheckpointError::UnknownCheckpoint { id: id.to_string() };
    if let Ok(index) = id.parse::<usize>()
        && (1..=entries.len()).contains(&index)
    {
        return entries.get(index - 1).ok_or_else(unknown);
    }
    if id.len() < 4 || !id.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(unknown());
    }
    let prefix = id.to_ascii_lowercase();
    let mut matches = entries.iter().filter(|e| e.commit.starts_with(&prefix));
    let first = matches.next().ok_or_else(unknown)?;
    if matches.any(|e| e.commit != first.commit) {
        return Err(unknown());
    }
    Ok(first)
}

/// The repo directory name for a canonical work dir: FNV-1a 64 of its path, 16 hex digits.
pub(super) fn repo_name(work_dir: &Path) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in work_dir.as_os_str().as_encoded_bytes() {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{hash:016x}")
}

/// Whether a directory name under the root is one of ours (only those are ever deleted).
pub(super) fn is_repo_name(name: &str) -> bool {
    name.len() == 16 && name.chars().all(|c| c.is_ascii_hexdigit())
}

/// One line, no control characters, at most `MAX_LABEL_CHARS`.
fn clean_label(label: &str) -> String {
    let one_line: String = label
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(MAX_LABEL_CHARS)
        .collect();
    let trimmed = one_line.trim();
    if trimmed.is_empty() {
        "checkpoint".to_string()
    } else {
        trimmed.to_string()
    }
}

fn exclude_file(root: &Path, work_dir: &Path) -> String {
    let mut out = String::from("# Written by hermes: never snapshotted, besides .gitignore.\n");
    for pattern in BUILTIN_EXCLUDES {
        out.push_str(pattern);
        out.push('\n');
    }
    let root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    if let Ok(rel) = root.strip_prefix(work_dir) {
        let rel = rel.to_string_lossy().replace('\\', "/");
        if !rel.is_empty() {
            out.push('/');
            out.push_str(&escape_pattern(&rel));
            out.push_str("/\n");
        }
    }
    out
}

/// Escapes gitignore pattern characters so `path` matches only itself.
fn escape_pattern(path: &str) -> String {
    let mut out = String::new();
    for c in path.chars() {
        if matches!(c, '*' | '?' | '[' | '\\' | '!' | '#' | ' ') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn write_if_changed(path: &Path, contents: &str) -> Result<(), CheckpointError> {
    if std::fs::read_to_string(path).ok().as_deref() != Some(contents) {
        std::fs::write(path, contents)?;
    }
    Ok(())
}
