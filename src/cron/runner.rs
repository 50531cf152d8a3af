//! The seam between the scheduler (here) and the agent (the engine): a due job that needs a
//! model is described as an [`AgentRun`] and handed to a [`JobRunner`], which runs it in a
//! fresh session and reports an [`AgentOutcome`]. The scheduler never knows how sessions are
//! built; the engine never knows about `jobs.json`.

use std::path::PathBuf;

use async_trait::async_trait;
use tokio_util::sync::CancellationToken;

use super::Job;

/// One agent run for a job.
#[derive(Debug, Clone)]
pub struct AgentRun {
    pub job: Job,
    /// The prompt assembled so far (cron hint, script output, `context_from`, the task). The
    /// runner loads `skills` from the profile's catalog and wraps this with
    /// `cron::prompt::with_skills`, then scans the result with `cron::scan::scan_assembled`.
    pub prompt: String,
    /// The job's skills, in order.
    pub skills: Vec<String>,
    /// Whether script output or another job's output was put into `prompt` (selects the
    /// looser scan, as Hermes does).
    pub has_injected_data: bool,
    /// The profile home the run uses (its `config.yaml`, `.env`, skills, memories).
    pub home: PathBuf,
    /// The profile name, `None` for the root profile.
    pub profile: Option<String>,
    /// The working directory; `None`: detached (no context files, the scheduler's cwd).
    pub workdir: Option<PathBuf>,
    /// The job's `enabled_toolsets`; empty: the `cron` platform's toolsets. `cronjob`,
    /// `clarify` and messaging are never offered to a cron session.
    pub toolsets: Vec<String>,
    /// The stored session's id (`cron_<job>_<YYYYmmdd_HHMMSS>`, as Hermes names them).
    pub session_id: String,
    /// Cancelled when hermes shuts down or the job's time budget runs out.
    pub cancel: CancellationToken,
}

/// How an agent run ended.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AgentOutcome {
    /// The final assistant text ("" when there was none).
    pub final_response: String,
    /// Why the run failed (provider error, session could not start, cancelled), if it did.
    pub error: Option<String>,
    /// How the turn ended (`completed`, `max_iterations`, `interrupted`, `error`, …).
    pub exit_reason: String,
    pub input_tokens: u64,
    pub output_tokens: u64,
}

#[async_trait]
pub trait JobRunner: Send + Sync {
    async fn run_agent(&self, run: AgentRun) -> AgentOutcome;
}
