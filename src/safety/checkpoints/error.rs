//! Errors of the checkpoint store.
//!
//! A skipped snapshot (home directory, too many files) is not an error: `snapshot` reports it as
//! `SnapshotOutcome::Skipped`. Only operations that cannot proceed without a snapshot (`diff`,
//! `restore`) turn such a reason into `CheckpointError::Refused`.

use thiserror::Error;

#[derive(Debug, Error)]
pub enum CheckpointError {
    /// The `git` executable could not be started.
    #[error(
        "file checkpoints need git, which was not found on PATH: install git (e.g. `apt install git`, `brew install git`) or disable checkpoints (`checkpoints.enabled: false`)"
    )]
    GitMissing,
    /// `id` is neither a listed index nor a (unique) hash prefix of this directory's checkpoints.
    #[error("unknown checkpoint `{id}` (use `/rollback` to list them)")]
    UnknownCheckpoint { id: String },
    /// The working directory cannot be snapshotted, so the operation cannot run safely.
    #[error("{reason}")]
    Refused { reason: String },
    /// A git command failed.
    #[error("`{command}` failed: {stderr}")]
    Git { command: String, stderr: String },
    #[error(transparent)]
    Io(#[from] std::io::Error),
}
