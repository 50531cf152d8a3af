//! Where a job's result goes. `local` is the output file only; `origin` is the hermes session
//! or TUI that created the job: a live TUI shows it at once (through a [`DeliverySink`] the
//! engine provides), otherwise it waits in `cron/deliveries.jsonl` and is shown at the next
//! start. Messaging platforms (`telegram`, `discord:…`) need Hermes's gateway, which hermes
//! does not have: the run says so in `last_delivery_error` instead of pretending.
//!
//! What it does not do: render anything. Invariants: an inbox line is appended whole under
//! the inbox lock; reading the inbox empties it only after the lines were read.

use std::io::Write;
use std::path::Path;
use std::time::Duration;

use serde::Deserialize;
use serde::Serialize;

use super::CronError;
use crate::util::file_lock::FileLock;

/// One result to show the user.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Delivery {
    pub job_id: String,
    pub job_name: String,
    /// The text to show (wrapped per `cron.wrap_response`).
    pub text: String,
    /// The session that created the job (`origin.chat_id`), if known.
    #[serde(default)]
    pub origin_session: Option<String>,
    /// The run's output file.
    pub output_path: String,
    /// When the run finished (the scheduler's zone).
    pub at: String,
    #[serde(default)]
    pub failed: bool,
}

/// Receives deliveries for `origin` jobs.
pub trait DeliverySink: Send + Sync {
    fn deliver(&self, delivery: Delivery);
}

/// The file inbox used when no TUI is listening.
#[derive(Debug, Clone)]
pub struct Inbox {
    path: std::path::PathBuf,
}

impl Inbox {
    pub fn new(path: &Path) -> Self {
        Self {
            path: path.to_path_buf(),
        }
    }

    fn lock(&self) -> Result<FileLock, CronError> {
        let lock_path = self.path.with_extension("lock");
        FileLock::acquire(&lock_path, Duration::from_secs(5)).map_err(|e| CronError::Lock {
            path: lock_path,
            reason: e.to_string(),
        })
    }

    pub fn push(&self, delivery: &Delivery) -> Result<(), CronError> {
        if let Some(dir) = self.path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| CronError::io(dir, e))?;
        }
        let _lock = self.lock()?;
        let mut line =
            serde_json::to_string(delivery).map_err(|e| CronError::Invalid(e.to_string()))?;
        line.push('\n');
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.path)
            .map_err(|e| CronError::io(&self.path, e))?;
        file.write_all(line.as_bytes())
            .map_err(|e| CronError::io(&self.path, e))
    }

    /// Everything waiting, oldest first; the inbox is emptied. Unreadable lines are kept
    /// in `deliveries.jsonl.bad` rather than lost.
    pub fn take_all(&self) -> Result<Vec<Delivery>, CronError> {
        self.take_matching(|_| true)
    }

    /// The waiting deliveries `wanted` accepts, oldest first; the others stay.
    pub fn take_matching(
        &self,
        wanted: impl Fn(&Delivery) -> bool,
    ) -> Result<Vec<Delivery>, CronError> {
        if !self.path.exists() {
            return Ok(Vec::new());
        }
        let _lock = self.lock()?;
        let text = match std::fs::read_to_string(&self.path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(CronError::io(&self.path, e)),
        };
        let mut out = Vec::new();
        let mut rest = String::new();
        let mut bad = String::new();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            match serde_json::from_str::<Delivery>(line) {
                Ok(d) if wanted(&d) => out.push(d),
                Ok(_) => {
                    rest.push_str(line);
                    rest.push('\n');
                }
                Err(_) => {
                    bad.push_str(line);
                    bad.push('\n');
                }
            }
        }
        if !bad.is_empty() {
            let bad_path = self.path.with_extension("jsonl.bad");
            if let Ok(mut f) = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&bad_path)
            {
                let _ = f.write_all(bad.as_bytes());
            }
        }
        if out.is_empty() && bad.is_empty() {
            return Ok(out);
        }
        let written = if rest.is_empty() {
            std::fs::remove_file(&self.path)
        } else {
            crate::util::fs::atomic_write(
                &self.path,
                rest.as_bytes(),
                crate::util::fs::FileMode::Exactly(0o600),
            )
        };
        written.map_err(|e| CronError::io(&self.path, e))?;
        Ok(out)
    }
}

impl DeliverySink for Inbox {
    fn deliver(&self, delivery: Delivery) {
        if let Err(e) = self.push(&delivery) {
            tracing::warn!(
                "cron delivery for job {} kept only in its output file: {e}",
                delivery.job_id
            );
        }
    }
}

/// What each `deliver` target means here: `Ok(Target)` or the reason it cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    Local,
    Origin,
    Unsupported(String),
}

pub fn targets(deliver: &str) -> Vec<Target> {
    deliver
        .split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(|t| match t.to_lowercase().as_str() {
            "local" => Target::Local,
            "origin" => Target::Origin,
            _ => Target::Unsupported(t.to_string()),
        })
        .collect()
}

/// The `last_delivery_error` for a platform target hermes cannot reach.
pub fn unsupported_message(target: &str) -> String {
    format!(
        "'{target}' is a messaging platform; hermes has no messaging gateway, so this result \
         was not sent there (it is in the job's output file). Run the job under Python \
         Hermes's gateway for platform delivery, or use deliver='origin' or 'local'."
    )
}

#[cfg(test)]
#[path = "delivery_tests.rs"]
mod tests;
