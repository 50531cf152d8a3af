//! Housekeeping over all shadow repos: summaries for `hermes checkpoints list` and
//! `hermes checkpoints prune`.
//!
//! Only directories under the root named like a shadow repo (16 hex digits) are considered;
//! anything else there is left alone. Removing a repo deletes only its shadow directory, never
//! the work dir. Repos that survive are trimmed to `max_snapshots` and garbage-collected
//! (`git gc --prune=now`), which is what frees the objects of dropped checkpoints.

use std::path::Path;
use std::path::PathBuf;
use std::time::SystemTime;
use std::time::UNIX_EPOCH;

use super::error::CheckpointError;
use super::git::Git;
use super::repo;

/// One shadow repo, for listings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RepoSummary {
    /// The shadow repo directory (`HERMES_HOME/checkpoints/<hash>`).
    pub repo_dir: PathBuf,
    /// The work dir it snapshots; `None` when the repo does not record it (broken or foreign).
    pub work_dir: Option<PathBuf>,
    /// Whether that work dir still exists.
    pub work_dir_exists: bool,
    pub checkpoints: usize,
    /// Creation time of the newest checkpoint (seconds since the epoch).
    pub newest_unix: Option<u64>,
    /// Bytes on disk under `repo_dir`.
    pub disk_bytes: u64,
}

/// What `prune` removes besides trimming and gc.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PruneOptions {
    /// Remove repos whose work dir no longer exists (or is unknown).
    pub missing_work_dirs: bool,
    /// Remove repos whose newest checkpoint is older than this many days (repos without any
    /// checkpoint count as old).
    pub older_than_days: Option<u64>,
}

impl Default for PruneOptions {
    fn default() -> Self {
        Self {
            missing_work_dirs: true,
            older_than_days: None,
        }
    }
}

/// What `prune` did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PruneReport {
    /// Repos deleted, with why ("work dir missing", "older than N days").
    pub removed: Vec<(RepoSummary, String)>,
    /// Repos kept (trimmed and garbage-collected).
    pub kept: usize,
    /// Checkpoints dropped from kept repos because they exceeded `max_snapshots`.
    pub trimmed: usize,
    pub bytes_before: u64,
    pub bytes_after: u64,
}

/// Every shadow repo under `root`, sorted by work dir.
pub(super) fn repos(root: &Path) -> Result<Vec<RepoSummary>, CheckpointError> {
    let read = match std::fs::read_dir(root) {
        Ok(read) => read,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e.into()),
    };
    let mut out = Vec::new();
    for item in read {
        let item = item?;
        let name = item.file_name().to_string_lossy().into_owned();
        let dir = item.path();
        if !repo::is_repo_name(&name) || !dir.join("HEAD").is_file() {
            continue;
        }
        out.push(summary(&dir)?);
    }
    out.sort_by(|a, b| (&a.work_dir, &a.repo_dir).cmp(&(&b.work_dir, &b.repo_dir)));
    Ok(out)
}

/// Removes stale repos, trims the others to `keep` checkpoints and garbage-collects them.
pub(super) fn prune(
    root: &Path,
    keep: usize,
    options: PruneOptions,
) -> Result<PruneReport, CheckpointError> {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let mut report = PruneReport::default();
    for summary in repos(root)? {
        report.bytes_before += summary.disk_bytes;
        if let Some(reason) = removal_reason(&summary, options, now) {
            std::fs::remove_dir_all(&summary.repo_dir)?;
            report.removed.push((summary, reason));
            continue;
        }
        report.trimmed += repo::trim(&summary.repo_dir, keep)?;
        let git = Git::bare(&summary.repo_dir);
        git.run(&["reflog", "expire", "--expire=now", "--all"])?;
        git.run(&["gc", "--prune=now", "--quiet"])?;
        report.kept += 1;
        report.bytes_after += dir_size(&summary.repo_dir);
    }
    Ok(report)
}

pub(super) fn removal_reason(
    summary: &RepoSummary,
    options: PruneOptions,
    now: u64,
) -> Option<String> {
    if options.missing_work_dirs && !summary.work_dir_exists {
        return Some("work dir missing".to_string());
    }
    let days = options.older_than_days?;
    let cutoff = now.saturating_sub(days.saturating_mul(86_400));
    match summary.newest_unix {
        Some(newest) if newest >= cutoff => None,
        Some(_) => Some(format!("older than {days} days")),
        None => Some("no checkpoints".to_string()),
    }
}

fn summary(dir: &Path) -> Result<RepoSummary, CheckpointError> {
    let work_dir = std::fs::read_to_string(dir.join(repo::WORKDIR_FILE))
        .ok()
        .map(|s| s.trim_end_matches(['\n', '\r']).to_string())
        .filter(|s| !s.is_empty())
        .map(PathBuf::from);
    let entries = repo::read_entries(dir)?;
    Ok(RepoSummary {
        repo_dir: dir.to_path_buf(),
        work_dir_exists: work_dir.as_deref().is_some_and(Path::is_dir),
        work_dir,
        checkpoints: entries.len(),
        newest_unix: entries.iter().map(|e| e.created_unix).max(),
        disk_bytes: dir_size(dir),
    })
}

/// Total size of the files under `dir` (symlinks not followed; unreadable parts count as 0).
pub(super) fn dir_size(dir: &Path) -> u64 {
    let mut total = 0;
    let mut stack = vec![dir.to_path_buf()];
    while let Some(current) = stack.pop() {
        let Ok(read) = std::fs::read_dir(&current) else {
            continue;
        };
        for item in read.flatten() {
            let Ok(meta) = item.metadata() else { continue };
            if meta.is_dir() {
                stack.push(item.path());
            } else {
                total += meta.len();
            }
        }
    }
    total
}
