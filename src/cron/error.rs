//! Errors of the cron service. Each names the file or the job it is about, so a message the
//! user sees ("cron/jobs.json line 4: …") says where to look.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum CronError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// `jobs.json` is not JSON (or not a job list); nothing was written over it.
    #[error(
        "{path} is not a valid job file ({reason}); fix or move it — hermes will not overwrite it"
    )]
    Corrupt { path: PathBuf, reason: String },
    #[error("{0}")]
    Schedule(String),
    /// A create/update argument that Hermes would refuse (relative workdir, script outside
    /// `scripts/`, unknown `context_from` job, ...).
    #[error("{0}")]
    Invalid(String),
    #[error("Job with ID or name '{0}' not found. Use cronjob(action='list') to inspect jobs.")]
    NotFound(String),
    #[error("Job name '{reference}' is ambiguous — matches {} jobs: {}. Use the job ID instead.", ids.len(), ids.join(", "))]
    Ambiguous { reference: String, ids: Vec<String> },
    #[error("cron ledger {path}: {source}")]
    Ledger {
        path: PathBuf,
        #[source]
        source: rusqlite::Error,
    },
    #[error("{path}: {reason}")]
    Lock { path: PathBuf, reason: String },
}

impl CronError {
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Self::Io {
            path: path.into(),
            source,
        }
    }
}
