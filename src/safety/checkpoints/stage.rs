//! Staging: make the shadow repo's index mirror the work tree and write it as a tree object.
//!
//! The files staged are those git would show for the work tree (tracked in the shadow index or
//! untracked, minus anything matched by `.gitignore` files, `info/exclude` or the built-in
//! list), minus files over the size cap, minus nested git repositories (their directories are
//! skipped whole). Symlinks are staged as links. The index is updated incrementally with
//! `update-index`, so unchanged files are recognised by their stat data and not re-read.
//!
//! Does not commit. Invariant: the work tree is only read, never written. If the incremental
//! update fails (an odd index/work-tree shape such as a directory replaced by a symlink), the
//! index is emptied and rebuilt once from scratch.

use std::collections::HashSet;

use super::CheckpointSettings;
use super::error::CheckpointError;
use super::git::join_nul;
use super::git::split_nul;
use super::git::work_path;
use super::repo::ShadowRepo;

/// The result of staging the work tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Staged {
    /// The work tree as a tree object (hash).
    Tree(String),
    /// The work tree cannot be snapshotted (e.g. too many files).
    Skipped(String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Start {
    /// Reuse the index of the previous snapshot (fast: stat data).
    Incremental,
    /// Start from an empty index.
    Fresh,
}

/// Stages the work tree of `repo` and returns its tree (or why it was skipped).
pub(super) fn stage(
    repo: &ShadowRepo,
    settings: &CheckpointSettings,
) -> Result<Staged, CheckpointError> {
    match stage_from(repo, settings, Start::Incremental) {
        Err(CheckpointError::Git { command, stderr }) => {
            tracing::debug!(%command, %stderr, "checkpoint staging failed; rebuilding the index");
            stage_from(repo, settings, Start::Fresh)
        }
        other => other,
    }
}

fn stage_from(
    repo: &ShadowRepo,
    settings: &CheckpointSettings,
    start: Start,
) -> Result<Staged, CheckpointError> {
    let git = repo.git();
    if start == Start::Fresh {
        git.run(&["read-tree", "--empty"])?;
    }
    let others = split_nul(&git.run(&["ls-files", "-z", "--others", "--exclude-standard"])?);
    if others.len() > settings.max_files {
        return Ok(Staged::Skipped(too_many(settings.max_files)));
    }
    let cached = split_nul(&git.run(&["ls-files", "-z", "--cached"])?);
    let ignored: HashSet<Vec<u8>> = if cached.is_empty() {
        HashSet::new()
    } else {
        split_nul(&git.run(&[
            "ls-files",
            "-z",
            "--cached",
            "--ignored",
            "--exclude-standard",
        ])?)
        .into_iter()
        .collect()
    };

    let mut keep: Vec<&[u8]> = Vec::new();
    let mut oversized = 0usize;
    for path in cached
        .iter()
        .filter(|p| !ignored.contains(*p))
        .chain(&others)
    {
        // `dir/` entries are nested repositories: never descended into.
        if path.ends_with(b"/") {
            continue;
        }
        let Ok(meta) = std::fs::symlink_metadata(work_path(&repo.work_dir, path)) else {
            continue;
        };
        if meta.file_type().is_symlink() {
            keep.push(path);
        } else if meta.is_file() {
            if meta.len() > settings.max_file_bytes {
                oversized += 1;
            } else {
                keep.push(path);
            }
        }
    }
    if keep.len() > settings.max_files {
        return Ok(Staged::Skipped(too_many(settings.max_files)));
    }
    if oversized > 0 {
        tracing::debug!(oversized, "checkpoint leaves out files over the size cap");
    }

    let kept: HashSet<&[u8]> = keep.iter().copied().collect();
    let drop: Vec<&[u8]> = cached
        .iter()
        .map(Vec::as_slice)
        .filter(|p| !kept.contains(p))
        .collect();
    if !drop.is_empty() {
        git.run_with_input(
            &["update-index", "-z", "--force-remove", "--stdin"],
            Some(join_nul(&drop)),
        )?;
    }
    if !keep.is_empty() {
        git.run_with_input(
            &[
                "update-index",
                "-z",
                "--add",
                "--remove",
                "--replace",
                "--stdin",
            ],
            Some(join_nul(&keep)),
        )?;
    }
    Ok(Staged::Tree(git.text(&["write-tree"])?))
}

fn too_many(max_files: usize) -> String {
    format!("the working directory has more than {max_files} files; no checkpoint taken")
}
