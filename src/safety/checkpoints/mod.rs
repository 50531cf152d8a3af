//! File checkpoints: snapshots of a working directory in a shadow git repository under
//! `HERMES_HOME/checkpoints/`, taken before the first file mutation of a turn, so `/rollback`
//! can list them, show the diff and restore one.
//!
//! Uses the `git` CLI (blocking; the engine calls it from `spawn_blocking`) with `GIT_DIR` set to
//! the shadow repo and `GIT_WORK_TREE` to the work dir, isolated from the user's git config.
//! The work dir's own repository (if any) is never read or written. A snapshot honours the work
//! tree's `.gitignore` files plus a built-in exclude list, leaves out files over
//! `max_file_bytes` and nested git repositories, and is skipped (not an error) for `/`, the
//! home directory, a directory inside the checkpoint root, or more than `max_files` files.
//!
//! Ids: every method taking an `id` accepts a number from 1 to the number of checkpoints
//! (1 = newest, as `list` numbers them) or a hash prefix of at least 4 hex digits.
//!
//! Invariants: restoring first snapshots the current state ("before rollback to <id>"), so a
//! rollback can itself be rolled back; files that were never snapshotted (ignored, too big,
//! untracked by the snapshots) are never overwritten or deleted. At most `max_snapshots`
//! checkpoints are kept per work dir. Calls on one store are serialised by a mutex; two hermes
//! processes snapshotting the same directory at the same instant may see a git lock error.
//!
//! Not here: deciding *when* to snapshot (the engine), slash-command and CLI argument parsing.

pub mod cli;
mod error;
mod git;
mod prune;
mod repo;
mod restore;
mod stage;

use std::path::Path;
use std::path::PathBuf;
use std::sync::Mutex;

pub use error::CheckpointError;
pub use prune::PruneOptions;
pub use prune::PruneReport;
pub use prune::RepoSummary;

use repo::Entry;
use repo::ShadowRepo;
use stage::Staged;

/// Limits of the store (see `checkpoints:` in config).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CheckpointSettings {
    /// Checkpoints kept per work dir (at least 1 is always kept).
    pub max_snapshots: u32,
    /// Files larger than this are left out of snapshots.
    pub max_file_bytes: u64,
    /// A work dir with more files than this (after ignores) is not snapshotted.
    pub max_files: usize,
}

impl CheckpointSettings {
    /// Settings from the `checkpoints:` config section (`max_files` is the default).
    pub fn from_config(config: &crate::config::CheckpointsConfig) -> Self {
        Self {
            max_snapshots: config.max_snapshots,
            max_file_bytes: config.max_file_size_mb.saturating_mul(1024 * 1024),
            ..Self::default()
        }
    }
}

impl Default for CheckpointSettings {
    fn default() -> Self {
        Self {
            max_snapshots: 50,
            max_file_bytes: 10 * 1024 * 1024,
            max_files: 50_000,
        }
    }
}

/// One checkpoint of a work dir.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checkpoint {
    /// Short commit hash (10 hex digits).
    pub id: String,
    pub created_unix: u64,
    /// What it was taken before, e.g. "before turn 3: write_file src/main.rs".
    pub label: String,
    /// Files that differ between this checkpoint and the next newer one (or the current work
    /// tree, for the newest): what the turn after it changed. Empty from `snapshot`.
    pub changed_files: Vec<String>,
}

impl Checkpoint {
    fn from_entry(entry: &Entry, changed_files: Vec<String>) -> Self {
        Self {
            id: entry.short_id(),
            created_unix: entry.created_unix,
            label: entry.label.clone(),
            changed_files,
        }
    }

    /// The protocol form (`Event::CheckpointList`), date as `YYYY-MM-DD HH:MM` UTC.
    pub fn info(&self) -> crate::protocol::CheckpointInfo {
        crate::protocol::CheckpointInfo {
            id: self.id.clone(),
            created: cli::format_utc(self.created_unix),
            label: self.label.clone(),
            changed_files: self.changed_files.clone(),
        }
    }
}

/// What `snapshot` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SnapshotOutcome {
    /// A new checkpoint.
    Created(Checkpoint),
    /// Nothing changed since the newest checkpoint, which is returned; no commit was made.
    Unchanged(Checkpoint),
    /// No snapshot was taken (home directory, too many files, …); not an error.
    Skipped { reason: String },
}

/// What `restore` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RestoreReport {
    /// The checkpoint restored.
    pub restored_to: Checkpoint,
    /// The snapshot of the state before the restore (restore it to undo the rollback).
    pub safety: Checkpoint,
    /// Files written back with the checkpoint's content (created or overwritten).
    pub restored: Vec<String>,
    /// Files deleted (created after the checkpoint).
    pub removed: Vec<String>,
    /// Files the checkpoint has but that were left alone: they exist now without being in
    /// the safety snapshot (ignored or over the size cap), so overwriting them could not be
    /// undone.
    pub kept: Vec<String>,
}

/// The shadow-git checkpoint service over all work dirs.
#[derive(Debug)]
pub struct CheckpointStore {
    root: PathBuf,
    settings: CheckpointSettings,
    home: Option<PathBuf>,
    lock: Mutex<()>,
}

impl CheckpointStore {
    /// A store keeping its repos under `root` (normally `HERMES_HOME/checkpoints`). Nothing is
    /// created until the first snapshot.
    pub fn new(root: PathBuf, settings: CheckpointSettings) -> Self {
        Self {
            root,
            settings,
            home: dirs::home_dir(),
            lock: Mutex::new(()),
        }
    }

    /// Uses `home` as the home directory that is never snapshotted (instead of the user's).
    pub fn with_home_dir(mut self, home: PathBuf) -> Self {
        self.home = Some(home);
        self
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn settings(&self) -> CheckpointSettings {
        self.settings
    }

    /// Snapshots `work_dir` now, labelled `label` (one line; control characters become spaces).
    pub fn snapshot(
        &self,
        work_dir: &Path,
        label: &str,
    ) -> Result<SnapshotOutcome, CheckpointError> {
        let _guard = self
            .lock
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        self.snapshot_locked(work_dir, label)
    }

    /// Checkpoints of `work_dir`, newest first, with the files each following turn changed.
    /// Empty when the directory has none.
    pub fn list(&self, work_dir: &Path) -> Result<Vec<Checkpoint>, CheckpointError> {
        let _guard = self
            .lock
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let Some(repo) = self.existing_repo(work_dir)? else {
            return Ok(Vec::new());
        };
        let entries = repo.entries()?;
        if entries.is_empty() {
            return Ok(Vec::new());
        }
        let current = match stage::stage(&repo, &self.settings)? {
            Staged::Tree(tree) => Some(tree),
            Staged::Skipped(_) => None,
        };
        let mut out = Vec::with_capacity(entries.len());
        let mut newer = current;
        for entry in &entries {
            let changed = match &newer {
                Some(newer) => restore::changed_files(&repo, &entry.commit, newer)?,
                None => Vec::new(),
            };
            out.push(Checkpoint::from_entry(entry, changed));
            newer = Some(entry.commit.clone());
        }
        Ok(out)
    }

    /// Unified diff from the current work tree to checkpoint `id`: what restoring it would
    /// change. Cut at 200 KB with a closing note; empty when nothing would change.
    pub fn diff(&self, work_dir: &Path, id: &str) -> Result<String, CheckpointError> {
        let _guard = self
            .lock
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let repo = self.repo_with_checkpoints(work_dir, id)?;
        let entries = repo.entries()?;
        let entry = repo::resolve(&entries, id)?;
        match stage::stage(&repo, &self.settings)? {
            Staged::Tree(tree) => restore::diff_text(&repo, &tree, &entry.commit),
            Staged::Skipped(reason) => Err(CheckpointError::Refused { reason }),
        }
    }

    /// Restores checkpoint `id`: snapshots the current state first ("before rollback to
    /// <id>"), then writes back every file that differs from the checkpoint and deletes files
    /// created after it. Files never snapshotted are left alone (see `RestoreReport::kept`).
    pub fn restore(&self, work_dir: &Path, id: &str) -> Result<RestoreReport, CheckpointError> {
        let _guard = self
            .lock
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let repo = self.repo_with_checkpoints(work_dir, id)?;
        let entries = repo.entries()?;
        let target = repo::resolve(&entries, id)?.clone();
        let label = format!("before rollback to {}", target.short_id());
        let safety = match self.snapshot_locked(&repo.work_dir, &label)? {
            SnapshotOutcome::Created(c) | SnapshotOutcome::Unchanged(c) => c,
            SnapshotOutcome::Skipped { reason } => return Err(CheckpointError::Refused { reason }),
        };
        let safety_entries = repo.entries()?;
        let safety_tree = repo::resolve(&safety_entries, &safety.id)?.tree.clone();
        let applied = restore::apply(&repo, &safety_tree, &target.commit)?;
        Ok(RestoreReport {
            restored_to: Checkpoint::from_entry(&target, Vec::new()),
            safety,
            restored: applied.restored,
            removed: applied.removed,
            kept: applied.kept,
        })
    }

    /// Every shadow repo under the root, sorted by work dir.
    pub fn repos(&self) -> Result<Vec<RepoSummary>, CheckpointError> {
        let _guard = self
            .lock
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        prune::repos(&self.root)
    }

    /// Removes repos whose work dir is gone (`missing_work_dirs`) or whose newest checkpoint is
    /// older than `older_than_days`, trims the others to `max_snapshots` and runs
    /// `git gc --prune=now` on them.
    pub fn prune(&self, options: PruneOptions) -> Result<PruneReport, CheckpointError> {
        let _guard = self
            .lock
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        prune::prune(&self.root, self.keep(), options)
    }

    fn keep(&self) -> usize {
        usize::try_from(self.settings.max_snapshots.max(1)).unwrap_or(usize::MAX)
    }

    fn snapshot_locked(
        &self,
        work_dir: &Path,
        label: &str,
    ) -> Result<SnapshotOutcome, CheckpointError> {
        let work_dir = std::fs::canonicalize(work_dir)?;
        if let Some(reason) = self.refusal(&work_dir) {
            return Ok(SnapshotOutcome::Skipped { reason });
        }
        let repo = ShadowRepo::locate(&self.root, &work_dir);
        repo.ensure(&self.root)?;
        let tree = match stage::stage(&repo, &self.settings)? {
            Staged::Tree(tree) => tree,
            Staged::Skipped(reason) => return Ok(SnapshotOutcome::Skipped { reason }),
        };
        let entries = repo.entries()?;
        let newest = entries.first();
        if let Some(newest) = newest.filter(|e| e.tree == tree) {
            return Ok(SnapshotOutcome::Unchanged(Checkpoint::from_entry(
                newest,
                Vec::new(),
            )));
        }
        let entry = repo.add(&tree, label, newest)?;
        repo::trim(&repo.dir, self.keep())?;
        Ok(SnapshotOutcome::Created(Checkpoint::from_entry(
            &entry,
            Vec::new(),
        )))
    }

    /// Why `work_dir` (canonical) must not be snapshotted, if it must not.
    fn refusal(&self, work_dir: &Path) -> Option<String> {
        if work_dir.parent().is_none() {
            return Some(format!(
                "{} is the filesystem root; no checkpoint taken",
                work_dir.display()
            ));
        }
        let home = self
            .home
            .as_deref()
            .map(|h| std::fs::canonicalize(h).unwrap_or_else(|_| h.to_path_buf()));
        if home
            .as_deref()
            .is_some_and(|home| home.starts_with(work_dir))
        {
            return Some(format!(
                "{} is the home directory or contains it; no checkpoint taken",
                work_dir.display()
            ));
        }
        let root = std::fs::canonicalize(&self.root).unwrap_or_else(|_| self.root.clone());
        if work_dir.starts_with(&root) {
            return Some(format!(
                "{} is inside the checkpoint store; no checkpoint taken",
                work_dir.display()
            ));
        }
        None
    }

    /// The repo of `work_dir` when it exists.
    fn existing_repo(&self, work_dir: &Path) -> Result<Option<ShadowRepo>, CheckpointError> {
        let work_dir = std::fs::canonicalize(work_dir)?;
        let repo = ShadowRepo::locate(&self.root, &work_dir);
        Ok(repo.exists().then_some(repo))
    }

    /// The repo of `work_dir`, or `UnknownCheckpoint { id }` when it has none.
    fn repo_with_checkpoints(
        &self,
        work_dir: &Path,
        id: &str,
    ) -> Result<ShadowRepo, CheckpointError> {
        self.existing_repo(work_dir)?
            .ok_or_else(|| CheckpointError::UnknownCheckpoint { id: id.to_string() })
    }
}

#[cfg(test)]
#[path = "checkpoints_tests.rs"]
mod tests;
