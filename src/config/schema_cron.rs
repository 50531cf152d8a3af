//! The scheduled-task settings of `config.yaml`: `cron:` (Hermes's keys `wrap_response`,
//! `script_timeout_seconds`, `max_parallel_jobs`, `output_retention`), the
//! top-level `timezone` the scheduler computes in, and `approvals.cron_mode` (what an
//! unattended job does with a dangerous command). Plain data: `cron` interprets it.

use serde::Deserialize;
use serde::Serialize;

/// `cron:` — how scheduled jobs run and deliver.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct CronConfig {
    /// Wrap delivered output in the `Cronjob Response: <name>` header and the footer.
    pub wrap_response: bool,
    /// Seconds a job's script may run (`HERMES_CRON_SCRIPT_TIMEOUT` wins).
    pub script_timeout_seconds: Option<u64>,
    /// Due jobs run at most this many at once (`HERMES_CRON_MAX_PARALLEL` wins); unset or 0:
    /// unbounded.
    pub max_parallel_jobs: Option<u64>,
    /// Output files kept per job under `cron/output/<job>/`; 0 or less keeps all.
    pub output_retention: i64,
}

impl Default for CronConfig {
    fn default() -> Self {
        Self {
            wrap_response: true,
            script_timeout_seconds: None,
            max_parallel_jobs: None,
            output_retention: 50,
        }
    }
}

/// `approvals.cron_mode`: a dangerous command in a job nobody watches is refused with a
/// message the agent can act on (`deny`, the default) or run (`approve`).
/// Only the word `approve` (any case) approves: a typo must not open the gate.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase", from = "String")]
pub enum CronApprovalMode {
    #[default]
    Deny,
    Approve,
}

impl From<String> for CronApprovalMode {
    fn from(text: String) -> Self {
        if text.trim().eq_ignore_ascii_case("approve") {
            Self::Approve
        } else {
            Self::Deny
        }
    }
}
