//! Run outputs: `cron/output/<job>/<YYYY-mm-dd_HH-MM-SS>.md` (Hermes's names, in the
//! scheduler's zone), the newest `cron.output_retention` kept per job, and the latest one
//! read back for `context_from`.
//!
//! What it does not do: compose the document (`prompt`). Invariants: a file is written whole
//! (temp + rename, 0600); two runs in the same second never overwrite each other.

use std::path::Path;
use std::path::PathBuf;

use jiff::Timestamp;

use super::CronError;
use super::time::CronZone;
use crate::util::fs::FileMode;
use crate::util::fs::atomic_write;

/// Writes one run's document and prunes older ones beyond `keep`.
pub fn save(
    output_dir: &Path,
    job_id: &str,
    at: Timestamp,
    zone: &CronZone,
    document: &str,
    keep: Option<usize>,
) -> Result<PathBuf, CronError> {
    let dir = output_dir.join(job_id);
    let stamp = zone.zoned(at).strftime("%Y-%m-%d_%H-%M-%S").to_string();
    let mut path = dir.join(format!("{stamp}.md"));
    let mut n = 2;
    while path.exists() {
        path = dir.join(format!("{stamp}_{n}.md"));
        n += 1;
    }
    atomic_write(&path, document.as_bytes(), FileMode::Exactly(0o600))
        .map_err(|e| CronError::io(&path, e))?;
    if let Some(keep) = keep {
        prune(&dir, keep);
    }
    Ok(path)
}

/// The job's output files, newest first (by modification time, then name).
pub fn files(output_dir: &Path, job_id: &str) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(output_dir.join(job_id)) else {
        return Vec::new();
    };
    let mut found: Vec<(std::time::SystemTime, PathBuf)> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .map(|p| {
            let modified = std::fs::metadata(&p)
                .and_then(|m| m.modified())
                .unwrap_or(std::time::UNIX_EPOCH);
            (modified, p)
        })
        .collect();
    found.sort_by(|a, b| b.cmp(a));
    found.into_iter().map(|(_, p)| p).collect()
}

/// The newest output of a job, if it has one.
pub fn latest(output_dir: &Path, job_id: &str) -> Option<String> {
    files(output_dir, job_id)
        .first()
        .and_then(|p| std::fs::read_to_string(p).ok())
}

fn prune(dir: &Path, keep: usize) {
    let job_id = dir.file_name().map(|n| n.to_string_lossy().into_owned());
    let Some(parent) = dir.parent() else {
        return;
    };
    let Some(job_id) = job_id else {
        return;
    };
    for old in files(parent, &job_id).into_iter().skip(keep) {
        if let Err(e) = std::fs::remove_file(&old) {
            tracing::warn!(path = %old.display(), "could not prune cron output: {e}");
        }
    }
}
