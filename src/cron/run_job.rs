//! Running one due job, as Hermes's `run_job`: a no-agent job runs its script and its stdout
//! is the result (empty or `{"wakeAgent": false}`: silent; a failure is always an alert); an
//! agent job runs its pre-run script first (gate, then its output as context), assembles the
//! prompt, and hands it to the [`JobRunner`]. The result is the output document and the text
//! to deliver.
//!
//! What it does not do: bookkeeping, output files or delivery (`scheduler`). Invariants: it
//! never panics on a job's content; every failure becomes a result with its reason.

use std::path::PathBuf;
use std::sync::Arc;

use tokio_util::sync::CancellationToken;

use super::AgentRun;
use super::Job;
use super::JobRunner;
use super::home::CronHome;
use super::prompt;
use super::scripts;

/// What one run produced.
#[derive(Debug, Clone, Default)]
pub struct JobResult {
    pub succeeded: bool,
    /// The output document (`cron/output/<job>/…md`).
    pub document: String,
    /// The text to deliver; `None` when the run is silent.
    pub deliver: Option<String>,
    pub error: Option<String>,
    pub exit_reason: String,
    pub input_tokens: u64,
    pub output_tokens: u64,
}

const EMPTY_RESPONSE: &str =
    "Agent completed but produced empty response (model error, timeout, or misconfiguration)";

pub async fn run(
    home: &CronHome,
    runner: &Arc<dyn JobRunner>,
    job: &Job,
    cancel: CancellationToken,
) -> JobResult {
    let run_time = home
        .zone
        .zoned(home.now())
        .strftime("%Y-%m-%d %H:%M:%S")
        .to_string();
    let workdir = job.workdir().map(PathBuf::from);
    if job.no_agent() {
        return run_script_job(home, job, &run_time, workdir).await;
    }
    let script = match job.script() {
        Some(path) => {
            let result = scripts::run_script(
                &home.paths.scripts_dir,
                path,
                None,
                home.settings.script_timeout,
            )
            .await;
            if let Ok(out) = &result
                && !scripts::wakes_agent(out)
            {
                let document = format!(
                    "# Cron Job: {}\n\n**Job ID:** {}\n**Run Time:** {run_time}\n\nScript gate \
                     returned `wakeAgent=false` — agent skipped.\n",
                    job.name(),
                    job.id()
                );
                return silent(document, "script_gate");
            }
            Some(result)
        }
        None => None,
    };
    let Some(built) = prompt::build(job, script.as_ref(), &home.paths.output_dir) else {
        return silent(String::new(), "empty_script_output");
    };
    if let Some(dir) = &workdir
        && !dir.is_dir()
    {
        let error = format!(
            "workdir {} no longer exists; the job did not run (edit it with `hermes cron edit {} \
             --workdir DIR`)",
            dir.display(),
            job.id()
        );
        return failed(job, &run_time, error, "workdir_missing");
    }
    let (profile_home, profile) = profile_home(home, job);
    let stamp = home
        .zone
        .zoned(home.now())
        .strftime("%Y%m%d_%H%M%S")
        .to_string();
    let run = AgentRun {
        job: job.clone(),
        prompt: built.text,
        skills: job.skills(),
        has_injected_data: built.has_injected_data,
        home: profile_home,
        profile,
        workdir,
        toolsets: job.enabled_toolsets(),
        session_id: format!("cron_{}_{stamp}", job.id()),
        cancel,
    };
    let outcome = runner.run_agent(run).await;
    let response = outcome.final_response.trim().to_string();
    let error = outcome
        .error
        .clone()
        .or_else(|| response.is_empty().then(|| EMPTY_RESPONSE.to_string()));
    let mut result = match error {
        Some(error) => failed(job, &run_time, error, &outcome.exit_reason),
        None => JobResult {
            succeeded: true,
            document: prompt::agent_document(job, &run_time, &response, None),
            deliver: (!prompt::is_silent(&response)).then_some(response),
            error: None,
            exit_reason: outcome.exit_reason.clone(),
            ..JobResult::default()
        },
    };
    result.input_tokens = outcome.input_tokens;
    result.output_tokens = outcome.output_tokens;
    result
}

async fn run_script_job(
    home: &CronHome,
    job: &Job,
    run_time: &str,
    workdir: Option<PathBuf>,
) -> JobResult {
    let Some(script) = job.script() else {
        let error = "no_agent=True but no script is set for this job".to_string();
        return failed(job, run_time, error, "error");
    };
    let result = scripts::run_script(
        &home.paths.scripts_dir,
        script,
        workdir.as_deref(),
        home.settings.script_timeout,
    )
    .await;
    let name = job.name();
    match result {
        Err(output) => JobResult {
            succeeded: false,
            document: prompt::script_document(job, run_time, Some("script failed"), &output),
            deliver: Some(format!(
                "⚠ Cron watchdog '{name}' script failed\n\n{output}\n\nTime: {run_time}"
            )),
            error: Some(output),
            exit_reason: "script_failed".into(),
            ..JobResult::default()
        },
        Ok(output) if !scripts::wakes_agent(&output) => silent(
            prompt::script_document(job, run_time, Some("silent (wakeAgent=false)"), ""),
            "script_gate",
        ),
        Ok(output) if output.trim().is_empty() => silent(
            prompt::script_document(job, run_time, Some("silent (empty output)"), ""),
            "empty_script_output",
        ),
        Ok(output) => JobResult {
            succeeded: true,
            document: prompt::script_document(job, run_time, None, &output),
            deliver: Some(output),
            exit_reason: "completed".into(),
            ..JobResult::default()
        },
    }
}

fn silent(document: String, reason: &str) -> JobResult {
    JobResult {
        succeeded: true,
        document,
        deliver: None,
        exit_reason: reason.into(),
        ..JobResult::default()
    }
}

fn failed(job: &Job, run_time: &str, error: String, reason: &str) -> JobResult {
    JobResult {
        succeeded: false,
        document: prompt::agent_document(job, run_time, "", Some(&error)),
        deliver: Some(prompt::failure_summary(&job.name(), &error)),
        error: Some(error),
        exit_reason: if reason.is_empty() {
            "error".into()
        } else {
            reason.into()
        },
        ..JobResult::default()
    }
}

/// The home a job's session uses: its pinned profile's, else the scheduler's.
fn profile_home(home: &CronHome, job: &Job) -> (PathBuf, Option<String>) {
    let profiles = super::validate::profiles_root(&home.paths.home);
    match job.profile() {
        Some("default") => (
            profiles
                .parent()
                .map_or(home.paths.home.clone(), PathBuf::from),
            None,
        ),
        Some(name) => (profiles.join(name), Some(name.to_string())),
        None => {
            let current = home
                .paths
                .home
                .parent()
                .filter(|p| p.file_name().is_some_and(|n| n == "profiles"))
                .and_then(|_| home.paths.home.file_name())
                .map(|n| n.to_string_lossy().into_owned());
            (home.paths.home.clone(), current)
        }
    }
}
