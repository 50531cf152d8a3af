//! Text for `hermes checkpoints list | prune` (and reusable lines for `/rollback`). The binary
//! only parses flags and prints what these return.
//!
//! Dates are UTC, `YYYY-MM-DD HH:MM` (`util::time`).

use std::path::Path;

use super::Checkpoint;
use super::CheckpointError;
use super::CheckpointStore;
use super::PruneOptions;
use super::RestoreReport;

/// Changed files listed per checkpoint before "(+N more)".
const MAX_FILES_SHOWN: usize = 10;

/// `hermes checkpoints list [DIR]`: with a work dir, its checkpoints (index, id, date, label,
/// changed files); without, one line per shadow repo.
pub fn list(store: &CheckpointStore, work_dir: Option<&Path>) -> Result<String, CheckpointError> {
    match work_dir {
        Some(dir) => list_dir(store, dir),
        None => list_repos(store),
    }
}

/// `hermes checkpoints prune`: what was removed and what the rest now takes on disk.
pub fn prune(store: &CheckpointStore, options: PruneOptions) -> Result<String, CheckpointError> {
    let report = store.prune(options)?;
    let mut out = String::new();
    for (repo, reason) in &report.removed {
        out.push_str(&format!("removed {} ({reason})\n", work_dir_label(repo)));
    }
    out.push_str(&format!(
        "removed {} repo(s), kept {}, dropped {} old checkpoint(s); {} -> {} on disk\n",
        report.removed.len(),
        report.kept,
        report.trimmed,
        human_size(report.bytes_before),
        human_size(report.bytes_after)
    ));
    Ok(out)
}

/// One checkpoint as listed: `  1  abcdef1234  2026-01-02 03:04  label`, then its changed
/// files indented on a second line (when there are any).
pub fn checkpoint_lines(index: usize, checkpoint: &Checkpoint) -> String {
    let mut out = format!(
        "{index:>3}  {}  {}  {}\n",
        checkpoint.id,
        format_utc(checkpoint.created_unix),
        checkpoint.label
    );
    if !checkpoint.changed_files.is_empty() {
        let shown: Vec<&str> = checkpoint
            .changed_files
            .iter()
            .take(MAX_FILES_SHOWN)
            .map(String::as_str)
            .collect();
        out.push_str(&format!("       changed: {}", shown.join(", ")));
        let more = checkpoint
            .changed_files
            .len()
            .saturating_sub(MAX_FILES_SHOWN);
        if more > 0 {
            out.push_str(&format!(" (+{more} more)"));
        }
        out.push('\n');
    }
    out
}

/// What a restore did, for `/rollback N`.
pub fn restore_summary(report: &RestoreReport) -> String {
    let mut out = format!(
        "restored checkpoint {} ({}): {} file(s) written, {} removed\n",
        report.restored_to.id,
        report.restored_to.label,
        report.restored.len(),
        report.removed.len()
    );
    for path in &report.restored {
        out.push_str(&format!("  restored {path}\n"));
    }
    for path in &report.removed {
        out.push_str(&format!("  removed  {path}\n"));
    }
    for path in &report.kept {
        out.push_str(&format!(
            "  kept     {path} (not in the snapshot of the current state)\n"
        ));
    }
    out.push_str(&format!(
        "undo with /rollback {} (snapshot of the state before this rollback)\n",
        report.safety.id
    ));
    out
}

fn list_dir(store: &CheckpointStore, dir: &Path) -> Result<String, CheckpointError> {
    let checkpoints = store.list(dir)?;
    if checkpoints.is_empty() {
        return Ok(format!("no checkpoints for {}\n", dir.display()));
    }
    let mut out = format!("checkpoints of {} (newest first):\n", dir.display());
    for (i, checkpoint) in checkpoints.iter().enumerate() {
        out.push_str(&checkpoint_lines(i + 1, checkpoint));
    }
    Ok(out)
}

fn list_repos(store: &CheckpointStore) -> Result<String, CheckpointError> {
    let repos = store.repos()?;
    if repos.is_empty() {
        return Ok(format!("no checkpoints yet ({})\n", store.root().display()));
    }
    let mut out = String::new();
    let mut total = 0;
    for repo in &repos {
        total += repo.disk_bytes;
        let newest = repo.newest_unix.map_or_else(|| "-".to_string(), format_utc);
        out.push_str(&format!(
            "{}  {} checkpoint(s)  newest {newest}  {}\n",
            work_dir_label(repo),
            repo.checkpoints,
            human_size(repo.disk_bytes)
        ));
    }
    out.push_str(&format!(
        "{} repo(s), {} in {}\n",
        repos.len(),
        human_size(total),
        store.root().display()
    ));
    Ok(out)
}

fn work_dir_label(repo: &super::RepoSummary) -> String {
    match &repo.work_dir {
        Some(dir) if repo.work_dir_exists => dir.display().to_string(),
        Some(dir) => format!("{} (missing)", dir.display()),
        None => format!("{} (unknown work dir)", repo.repo_dir.display()),
    }
}

/// `1.5 MB`-style sizes (1024-based).
pub fn human_size(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KB", "MB", "GB", "TB"];
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS.get(unit).copied().unwrap_or("TB"))
}

/// `YYYY-MM-DD HH:MM` in UTC for seconds since the epoch.
pub fn format_utc(unix_secs: u64) -> String {
    crate::util::time::format_minutes(i64::try_from(unix_secs).unwrap_or(i64::MAX / 2))
}

#[cfg(test)]
#[path = "cli_tests.rs"]
mod tests;
