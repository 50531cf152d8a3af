//! The execution ledger `cron/executions.db`, Hermes's schema (`cron/executions.py`): one
//! row per attempt, written *before* the attempt runs (`claimed`), then `running`, then
//! `completed` or `failed` exactly once. A later scheduler marks rows whose owner process is
//! provably gone (pid and `/proc` start time) as `unknown` — never `completed`, and never
//! retried. hermes adds nullable columns `exit_reason`, `duration_ms`, `input_tokens` and
//! `output_tokens` (Python Hermes ignores them). WAL, `synchronous=FULL`; terminal rows are
//! pruned to the newest 1000.
//!
//! What it does not do: decide what runs. Invariants: a terminal row is never rewritten.

use std::path::Path;
use std::path::PathBuf;

use rusqlite::Connection;
use rusqlite::OptionalExtension;
use rusqlite::params;

use super::CronError;

const MAX_TERMINAL: i64 = 1000;
pub const UNKNOWN_MESSAGE: &str = "Scheduler restarted after this execution's owner exited \
before a durable terminal state; whether side effects ran is unknown.";

/// One ledger row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Execution {
    pub id: String,
    pub job_id: String,
    pub source: String,
    pub pid: i64,
    pub status: String,
    pub claimed_at: String,
    pub started_at: Option<String>,
    pub finished_at: Option<String>,
    pub error: Option<String>,
    pub exit_reason: Option<String>,
    pub duration_ms: Option<i64>,
    pub input_tokens: Option<i64>,
    pub output_tokens: Option<i64>,
}

/// How an attempt ended, for [`Ledger::finish`].
#[derive(Debug, Clone, Default)]
pub struct Finish {
    pub succeeded: bool,
    pub error: Option<String>,
    pub exit_reason: Option<String>,
    pub duration_ms: i64,
    pub input_tokens: u64,
    pub output_tokens: u64,
}

pub struct Ledger {
    path: PathBuf,
    conn: Connection,
    /// This process's ledger identity (Hermes's `_PROCESS_ID`).
    process_id: String,
}

impl Ledger {
    pub fn open(path: &Path) -> Result<Self, CronError> {
        let wrap = |source| CronError::Ledger {
            path: path.to_path_buf(),
            source,
        };
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| CronError::io(dir, e))?;
        }
        let conn = Connection::open(path).map_err(wrap)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))
            .map_err(wrap)?;
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(wrap)?;
        conn.pragma_update(None, "synchronous", "FULL")
            .map_err(wrap)?;
        conn.execute_batch(
            "CREATE TABLE IF NOT EXISTS executions (
               id TEXT PRIMARY KEY,
               job_id TEXT NOT NULL,
               source TEXT NOT NULL,
               process_id TEXT NOT NULL,
               pid INTEGER NOT NULL,
               process_started_at INTEGER,
               status TEXT NOT NULL CHECK(status IN
                 ('claimed','running','completed','failed','unknown')),
               claimed_at TEXT NOT NULL,
               started_at TEXT,
               finished_at TEXT,
               error TEXT
             );
             CREATE INDEX IF NOT EXISTS idx_executions_job_claimed
               ON executions(job_id, claimed_at DESC, id DESC);
             CREATE INDEX IF NOT EXISTS idx_executions_status_claimed
               ON executions(status, claimed_at DESC, id DESC);",
        )
        .map_err(wrap)?;
        let mut have: Vec<String> = Vec::new();
        {
            let mut stmt = conn
                .prepare("SELECT name FROM pragma_table_info('executions')")
                .map_err(wrap)?;
            let rows = stmt
                .query_map([], |r| r.get::<_, String>(0))
                .map_err(wrap)?;
            for name in rows.flatten() {
                have.push(name);
            }
        }
        for (column, kind) in [
            ("exit_reason", "TEXT"),
            ("duration_ms", "INTEGER"),
            ("input_tokens", "INTEGER"),
            ("output_tokens", "INTEGER"),
        ] {
            if !have.iter().any(|h| h == column) {
                conn.execute_batch(&format!(
                    "ALTER TABLE executions ADD COLUMN {column} {kind}"
                ))
                .map_err(wrap)?;
            }
        }
        Ok(Self {
            path: path.to_path_buf(),
            conn,
            process_id: uuid::Uuid::new_v4().simple().to_string(),
        })
    }

    fn wrap(&self, source: rusqlite::Error) -> CronError {
        CronError::Ledger {
            path: self.path.clone(),
            source,
        }
    }

    /// Records an attempt before it runs; returns its id.
    pub fn claim(&self, job_id: &str, source: &str, now_iso: &str) -> Result<String, CronError> {
        let id = uuid::Uuid::new_v4().simple().to_string();
        let pid = std::process::id();
        self.conn
            .execute(
                "INSERT INTO executions (id, job_id, source, process_id, pid, \
                 process_started_at, status, claimed_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, \
                 'claimed', ?7)",
                params![
                    id,
                    job_id,
                    source,
                    self.process_id,
                    pid,
                    process_start_time(pid),
                    now_iso
                ],
            )
            .map_err(|e| self.wrap(e))?;
        Ok(id)
    }

    pub fn mark_running(&self, id: &str, now_iso: &str) -> Result<bool, CronError> {
        let n = self
            .conn
            .execute(
                "UPDATE executions SET status='running', started_at=?1 WHERE id=?2 AND \
                 status='claimed'",
                params![now_iso, id],
            )
            .map_err(|e| self.wrap(e))?;
        Ok(n == 1)
    }

    /// Writes the terminal state once; a row already terminal is left alone.
    pub fn finish(&self, id: &str, now_iso: &str, result: &Finish) -> Result<bool, CronError> {
        let status = if result.succeeded {
            "completed"
        } else {
            "failed"
        };
        let error = (!result.succeeded).then(|| {
            result
                .error
                .clone()
                .unwrap_or_else(|| "unknown failure".into())
        });
        let n = self
            .conn
            .execute(
                "UPDATE executions SET status=?1, finished_at=?2, error=?3, exit_reason=?4, \
                 duration_ms=?5, input_tokens=?6, output_tokens=?7 WHERE id=?8 AND status IN \
                 ('claimed','running')",
                params![
                    status,
                    now_iso,
                    error,
                    result.exit_reason,
                    result.duration_ms,
                    i64::try_from(result.input_tokens).unwrap_or(i64::MAX),
                    i64::try_from(result.output_tokens).unwrap_or(i64::MAX),
                    id
                ],
            )
            .map_err(|e| self.wrap(e))?;
        self.prune()?;
        Ok(n == 1)
    }

    /// Marks attempts whose owner died as `unknown`; returns how many.
    pub fn recover(&self, now_iso: &str) -> Result<usize, CronError> {
        let rows: Vec<(String, String, i64, Option<i64>)> = {
            let mut stmt = self
                .conn
                .prepare(
                    "SELECT id, process_id, pid, process_started_at FROM executions WHERE \
                     status IN ('claimed','running')",
                )
                .map_err(|e| self.wrap(e))?;
            let mapped = stmt
                .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
                .map_err(|e| self.wrap(e))?;
            mapped.flatten().collect()
        };
        let mut changed = 0;
        for (id, process_id, pid, started) in rows {
            if process_id == self.process_id || owner_is_live(pid, started) {
                continue;
            }
            changed += self
                .conn
                .execute(
                    "UPDATE executions SET status='unknown', finished_at=?1, error=?2 WHERE \
                     id=?3 AND status IN ('claimed','running')",
                    params![now_iso, UNKNOWN_MESSAGE, id],
                )
                .map_err(|e| self.wrap(e))?;
        }
        if changed > 0 {
            self.prune()?;
        }
        Ok(changed)
    }

    /// Newest first; `job_id` filters; at most `limit` (1–500).
    pub fn list(&self, job_id: Option<&str>, limit: usize) -> Result<Vec<Execution>, CronError> {
        let limit = limit.clamp(1, 500) as i64;
        let mut stmt = self
            .conn
            .prepare(
                "SELECT id, job_id, source, pid, status, claimed_at, started_at, finished_at, \
                 error, exit_reason, duration_ms, input_tokens, output_tokens FROM executions \
                 WHERE (?1 IS NULL OR job_id = ?1) ORDER BY claimed_at DESC, id DESC LIMIT ?2",
            )
            .map_err(|e| self.wrap(e))?;
        let rows = stmt
            .query_map(params![job_id, limit], |r| {
                Ok(Execution {
                    id: r.get(0)?,
                    job_id: r.get(1)?,
                    source: r.get(2)?,
                    pid: r.get(3)?,
                    status: r.get(4)?,
                    claimed_at: r.get(5)?,
                    started_at: r.get(6)?,
                    finished_at: r.get(7)?,
                    error: r.get(8)?,
                    exit_reason: r.get(9)?,
                    duration_ms: r.get(10)?,
                    input_tokens: r.get(11)?,
                    output_tokens: r.get(12)?,
                })
            })
            .map_err(|e| self.wrap(e))?;
        Ok(rows.flatten().collect())
    }

    pub fn latest(&self, job_id: &str) -> Result<Option<Execution>, CronError> {
        Ok(self.list(Some(job_id), 1)?.into_iter().next())
    }

    /// Whether a job has an attempt in flight (claimed or running).
    pub fn in_flight(&self, job_id: &str) -> Result<bool, CronError> {
        self.conn
            .query_row(
                "SELECT 1 FROM executions WHERE job_id=?1 AND status IN ('claimed','running') \
                 LIMIT 1",
                params![job_id],
                |_| Ok(()),
            )
            .optional()
            .map(|found| found.is_some())
            .map_err(|e| self.wrap(e))
    }

    fn prune(&self) -> Result<(), CronError> {
        self.conn
            .execute(
                "DELETE FROM executions WHERE id IN (SELECT id FROM executions WHERE status IN \
                 ('completed','failed','unknown') ORDER BY claimed_at DESC, id DESC LIMIT -1 \
                 OFFSET ?1)",
                params![MAX_TERMINAL],
            )
            .map(|_| ())
            .map_err(|e| self.wrap(e))
    }
}

/// Field 22 of `/proc/<pid>/stat` (start time in clock ticks), as Hermes records it.
pub fn process_start_time(pid: u32) -> Option<i64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) may contain spaces; fields resume after its ')'.
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(19)?.parse().ok()
}

/// Whether the process that claimed a row still runs (the same pid *and* start time). When
/// that cannot be told (no `/proc`), it is assumed alive: an unproven death must not rewrite
/// state.
fn owner_is_live(pid: i64, started_at: Option<i64>) -> bool {
    let Ok(pid) = u32::try_from(pid) else {
        return false;
    };
    if !Path::new("/proc/self").exists() {
        return true;
    }
    if !Path::new(&format!("/proc/{pid}")).exists() {
        return false;
    }
    match started_at {
        None => pid == std::process::id(),
        Some(started) => process_start_time(pid) == Some(started),
    }
}

#[cfg(test)]
#[path = "ledger_tests.rs"]
mod tests;
