//! The scheduled-jobs part of the protocol: the requests `/cron` sends (`Op::Cron`) and what
//! comes back (`Event::Cron`): the job list the jobs overlay and the status bar show, and a
//! finished job's result delivered to this session. Plain data; the engine reads and writes
//! `cron/jobs.json` for them.
//!
//! Invariants: times are already in the scheduler's zone for display (`next_run`), with the
//! instant beside them (`next_run_unix`) so a frontend can say "in 12 min" without a clock
//! library; `scheduler` is the sentence that says whether anything will fire the jobs.

use serde::Deserialize;
use serde::Serialize;

/// `Op::Cron`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "request", rename_all = "snake_case")]
pub enum CronOp {
    /// Answered with `Event::Cron(CronEvent::Jobs)`.
    List,
    /// A new job (as `hermes cron create`), delivered to this session.
    Add {
        schedule: String,
        prompt: String,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        skills: Vec<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
    },
    Pause {
        job: String,
    },
    Resume {
        job: String,
    },
    /// Make the job due now: it runs at the scheduler's next tick.
    Run {
        job: String,
    },
    Remove {
        job: String,
    },
}

/// `Event::Cron`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CronEvent {
    /// The jobs now (after a request, at start, and whenever `jobs.json` changes).
    Jobs(CronJobs),
    /// A job finished and its result is for this session (or waited for the next start).
    Delivered(CronDelivery),
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CronJobs {
    pub jobs: Vec<CronJobView>,
    /// Whether a scheduler is alive for this home, and what to run when none is.
    pub scheduler: String,
    pub scheduler_alive: bool,
    /// What the request did ("Paused 'digest'"), empty for a plain list.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub changed: String,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CronJobView {
    pub id: String,
    pub name: String,
    /// As written (`every 2h`, `0 9 * * 1-5`).
    pub schedule: String,
    /// In words (`every 2 hours`, `At 09:00 on Monday through Friday`).
    pub schedule_words: String,
    /// The next run in the scheduler's zone (`2026-12-03 09:00`), if any.
    #[serde(default)]
    pub next_run: Option<String>,
    #[serde(default)]
    pub next_run_unix: Option<i64>,
    /// `scheduled`, `paused`, `completed`, `error`.
    pub state: String,
    /// `ok` / `error` after a run.
    #[serde(default)]
    pub last_status: Option<String>,
    #[serde(default)]
    pub last_error: Option<String>,
    #[serde(default)]
    pub last_run: Option<String>,
    pub deliver: String,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CronDelivery {
    pub job_id: String,
    pub job_name: String,
    /// The delivered text (wrapped per `cron.wrap_response`).
    pub text: String,
    pub failed: bool,
    /// When the run finished, in the scheduler's zone.
    pub at: String,
    pub output_path: String,
}
