//! Comparing checkpoints and writing one back into the work tree.
//!
//! `apply` restores a checkpoint relative to a safety snapshot of the current state: files the
//! checkpoint has and the safety snapshot lacks or has differently are written (with
//! `git restore --source`, which also fixes the shadow index), files the safety snapshot has
//! and the checkpoint lacks are deleted (git removes directories left empty).
//!
//! Invariant: only paths in one of the two snapshots are touched, and a file that exists now
//! but is not in the safety snapshot (ignored, over the size cap, or otherwise never staged)
//! is never overwritten, so every change `apply` makes can be undone by restoring the safety
//! snapshot. Does not take the safety snapshot itself (the store does).

use super::error::CheckpointError;
use super::git::display;
use super::git::join_nul;
use super::git::split_nul;
use super::git::work_path;
use super::repo::ShadowRepo;

/// Byte cap on the diff text `diff` returns.
pub(super) const MAX_DIFF_BYTES: usize = 200 * 1024;

/// What `apply` did, as display paths.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Applied {
    pub restored: Vec<String>,
    pub removed: Vec<String>,
    pub kept: Vec<String>,
}

/// Paths that differ between two tree-ish objects (commits or trees).
pub(super) fn changed_files(
    repo: &ShadowRepo,
    older: &str,
    newer: &str,
) -> Result<Vec<String>, CheckpointError> {
    let out = repo.git().run(&[
        "diff-tree",
        "-r",
        "-z",
        "--name-only",
        "--no-renames",
        older,
        newer,
    ])?;
    Ok(split_nul(&out).iter().map(|p| display(p)).collect())
}

/// The unified diff turning `from` into `to`, cut at `MAX_DIFF_BYTES` with a closing note.
pub(super) fn diff_text(
    repo: &ShadowRepo,
    from: &str,
    to: &str,
) -> Result<String, CheckpointError> {
    let out = repo.git().run(&[
        "diff",
        "--no-color",
        "--no-ext-diff",
        "--no-textconv",
        from,
        to,
        "--",
    ])?;
    Ok(cap_text(&out, MAX_DIFF_BYTES))
}

/// `bytes` as text, cut at the last line break within `max` bytes, plus a note when cut.
pub(super) fn cap_text(bytes: &[u8], max: usize) -> String {
    if bytes.len() <= max {
        return String::from_utf8_lossy(bytes).into_owned();
    }
    let head = bytes.get(..max).unwrap_or(bytes);
    let cut = head
        .iter()
        .rposition(|b| *b == b'\n')
        .map_or(head.len(), |i| i + 1);
    let mut text = String::from_utf8_lossy(head.get(..cut).unwrap_or(head)).into_owned();
    text.push_str(&format!(
        "[diff cut: showing {} KB of {} KB]\n",
        cut / 1024,
        bytes.len().div_ceil(1024)
    ));
    text
}

/// Makes the work tree match checkpoint `target` (a commit), given `safety`, the tree of the
/// work tree as just snapshotted (and staged in the shadow index).
pub(super) fn apply(
    repo: &ShadowRepo,
    safety: &str,
    target: &str,
) -> Result<Applied, CheckpointError> {
    let git = repo.git();
    let out = git.run(&[
        "diff-tree",
        "-r",
        "-z",
        "--name-status",
        "--no-renames",
        safety,
        target,
    ])?;
    let fields = split_nul(&out);
    let mut applied = Applied::default();
    let mut paths: Vec<&[u8]> = Vec::new();
    for pair in fields.chunks(2) {
        let [status, path] = pair else { continue };
        let shown = display(path);
        match status.first() {
            Some(b'D') => {
                applied.removed.push(shown);
                paths.push(path);
            }
            Some(b'A') if std::fs::symlink_metadata(work_path(&repo.work_dir, path)).is_ok() => {
                applied.kept.push(shown);
            }
            _ => {
                applied.restored.push(shown);
                paths.push(path);
            }
        }
    }
    // Never run `git restore` without paths: there is nothing to do.
    if !paths.is_empty() {
        let source = format!("--source={target}");
        git.run_with_input(
            &[
                "restore",
                &source,
                "--staged",
                "--worktree",
                "--pathspec-from-file=-",
                "--pathspec-file-nul",
            ],
            Some(join_nul(&paths)),
        )?;
    }
    Ok(applied)
}
