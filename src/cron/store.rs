//! `cron/jobs.json` on disk, in Hermes's format: `{"jobs": [...], "updated_at": "<iso>"}`,
//! indented by two, written to a temp file and renamed (mode 0600), every read-modify-write
//! made under an `flock` of `cron/.jobs.lock` — the lock Python Hermes takes — so the two
//! programs never lose each other's edits.
//!
//! Reading is as forgiving as Hermes's `load_jobs`: a UTF-8 BOM is skipped, raw control
//! characters inside strings are accepted, a bare list is read as the job list. A file that
//! is still not a job list is [`CronError::Corrupt`] and is never written over. Entries that
//! are not objects are kept as they are.
//!
//! What it does not do: interpret jobs (`ops`, `due`).

use std::path::Path;
use std::time::Duration;

use serde_json::Value;

use super::CronError;
use super::CronPaths;
use super::Job;
use crate::util::file_lock::FileLock;
use crate::util::fs::FileMode;
use crate::util::fs::atomic_write;

/// Hermes waits this long for the jobs lock before giving up.
const LOCK_TIMEOUT: Duration = Duration::from_secs(30);

/// The job list as read: the jobs and any entries that are not objects (kept untouched).
#[derive(Debug, Default, Clone)]
pub struct JobFile {
    pub jobs: Vec<Job>,
    pub others: Vec<Value>,
}

/// What an edit did: its result, and whether the file must be written.
pub struct Edit<T> {
    pub value: T,
    pub changed: bool,
}

impl<T> Edit<T> {
    pub fn changed(value: T) -> Self {
        Self {
            value,
            changed: true,
        }
    }

    pub fn unchanged(value: T) -> Self {
        Self {
            value,
            changed: false,
        }
    }
}

#[derive(Debug, Clone)]
pub struct JobStore {
    paths: CronPaths,
}

impl JobStore {
    pub fn new(paths: CronPaths) -> Self {
        Self { paths }
    }

    pub fn paths(&self) -> &CronPaths {
        &self.paths
    }

    /// The jobs as they are now (no lock: the file is only ever replaced whole).
    pub fn load(&self) -> Result<JobFile, CronError> {
        read_job_file(&self.paths.jobs_file)
    }

    /// Loads under the lock, applies `edit`, and writes the file back if it changed.
    /// `updated_at` is the time written into the file.
    pub fn update<T>(
        &self,
        updated_at: &str,
        edit: impl FnOnce(&mut JobFile) -> Result<Edit<T>, CronError>,
    ) -> Result<T, CronError> {
        std::fs::create_dir_all(&self.paths.cron_dir)
            .map_err(|e| CronError::io(&self.paths.cron_dir, e))?;
        let _lock = FileLock::acquire(&self.paths.jobs_lock, LOCK_TIMEOUT).map_err(|e| {
            CronError::Lock {
                path: self.paths.jobs_lock.clone(),
                reason: e.to_string(),
            }
        })?;
        let mut file = read_job_file(&self.paths.jobs_file)?;
        let result = edit(&mut file)?;
        if result.changed {
            write_job_file(&self.paths.jobs_file, &file, updated_at)?;
        }
        Ok(result.value)
    }
}

fn read_job_file(path: &Path) -> Result<JobFile, CronError> {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(JobFile::default()),
        Err(e) => return Err(CronError::io(path, e)),
    };
    let text = String::from_utf8_lossy(&bytes);
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    if text.trim().is_empty() {
        return Ok(JobFile::default());
    }
    let data: Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(first) => {
            serde_json::from_str(&escape_control_chars(text)).map_err(|_| CronError::Corrupt {
                path: path.to_path_buf(),
                reason: format!("line {} column {}: {first}", first.line(), first.column()),
            })?
        }
    };
    let list = match data {
        Value::Object(mut map) => match map.remove("jobs") {
            Some(Value::Array(items)) => items,
            None | Some(Value::Null) => Vec::new(),
            Some(other) => {
                return Err(CronError::Corrupt {
                    path: path.to_path_buf(),
                    reason: format!("\"jobs\" is {}, not a list", kind_of(&other)),
                });
            }
        },
        Value::Array(items) => items,
        other => {
            return Err(CronError::Corrupt {
                path: path.to_path_buf(),
                reason: format!("expected {{\"jobs\": [...]}}, got {}", kind_of(&other)),
            });
        }
    };
    let mut file = JobFile::default();
    for item in list {
        match item {
            Value::Object(map) => file.jobs.push(Job::from_map(map)),
            other => file.others.push(other),
        }
    }
    Ok(file)
}

fn write_job_file(path: &Path, file: &JobFile, updated_at: &str) -> Result<(), CronError> {
    let mut jobs: Vec<Value> = file.jobs.iter().cloned().map(Job::into_value).collect();
    jobs.extend(file.others.iter().cloned());
    let doc = serde_json::json!({"jobs": jobs, "updated_at": updated_at});
    let text = serde_json::to_string_pretty(&doc).map_err(|e| CronError::Invalid(e.to_string()))?;
    atomic_write(path, text.as_bytes(), FileMode::Exactly(0o600))
        .map_err(|e| CronError::io(path, e))
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// Python's `json.loads(strict=False)`: raw control characters inside strings are allowed.
fn escape_control_chars(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_string = false;
    let mut escaped = false;
    for c in text.chars() {
        if in_string {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            } else if u32::from(c) < 0x20 {
                out.push_str(&format!("\\u{:04x}", u32::from(c)));
                continue;
            }
        } else if c == '"' {
            in_string = true;
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
#[path = "store_tests.rs"]
mod tests;
