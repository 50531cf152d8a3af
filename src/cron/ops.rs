//! Job lifecycle on `jobs.json`, as Hermes's `cron/jobs.py`: create, update, pause, resume,
//! trigger (run at the next tick), remove, find by reference, and the scheduler's
//! bookkeeping around a run (advance the next run first, claim a one-shot, record the
//! result). Every change is one locked read-modify-write (`store`).
//!
//! What it does not do: decide what is due (`due`) or run anything. Invariants: a new job
//! has every key Hermes's `create_job` writes; a one-shot whose time has passed is refused; prompts
//! are checked by the scanner before they are stored.

use serde_json::Value;
use serde_json::json;

use super::CronError;
use super::Job;
pub use super::edit::JobUpdate;
pub use super::edit::SkillEdit;
pub use super::edit::update;
use super::home::CronHome;
use super::job::new_id;
use super::next;
use super::scan;
use super::schedule::parse_schedule;
use super::store::Edit;
use super::validate::check_profile;
use super::validate::check_script;
use super::validate::normalize_workdir;

/// What a new job is made of (the `cronjob` tool's and `hermes cron create`'s arguments).
#[derive(Debug, Clone, Default)]
pub struct NewJob {
    pub prompt: String,
    pub schedule: String,
    pub name: Option<String>,
    pub repeat: Option<i64>,
    pub deliver: Option<String>,
    pub origin: Option<Value>,
    pub skills: Vec<String>,
    pub model: Option<String>,
    pub provider: Option<String>,
    pub base_url: Option<String>,
    pub script: Option<String>,
    pub no_agent: bool,
    pub context_from: Vec<String>,
    pub enabled_toolsets: Vec<String>,
    pub workdir: Option<String>,
    pub profile: Option<String>,
}

/// How a run ended, for [`mark_run`].
#[derive(Debug, Clone, Default)]
pub struct RunRecord {
    pub succeeded: bool,
    pub error: Option<String>,
    pub delivery_error: Option<String>,
}

pub fn list(home: &CronHome, include_disabled: IncludeDisabled) -> Result<Vec<Job>, CronError> {
    let file = home.store.load()?;
    Ok(file
        .jobs
        .into_iter()
        .filter(|j| include_disabled == IncludeDisabled::Yes || j.enabled())
        .collect())
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IncludeDisabled {
    Yes,
    No,
}

/// Hermes's `resolve_job_ref`: an exact id, else a unique case-insensitive name.
pub fn resolve<'a>(jobs: &'a [Job], reference: &str) -> Result<&'a Job, CronError> {
    let wanted = reference.trim();
    if let Some(job) = jobs.iter().find(|j| j.id() == wanted) {
        return Ok(job);
    }
    let lower = wanted.to_lowercase();
    let matches: Vec<&Job> = jobs
        .iter()
        .filter(|j| j.name().to_lowercase() == lower)
        .collect();
    match matches.as_slice() {
        [] => Err(CronError::NotFound(wanted.to_string())),
        [one] => Ok(one),
        many => Err(CronError::Ambiguous {
            reference: wanted.to_string(),
            ids: many.iter().map(|j| j.id().to_string()).collect(),
        }),
    }
}

pub fn find(home: &CronHome, reference: &str) -> Result<Job, CronError> {
    let file = home.store.load()?;
    resolve(&file.jobs, reference).cloned()
}

pub fn create(home: &CronHome, new: NewJob) -> Result<Job, CronError> {
    let now = home.now();
    let prompt = new.prompt.trim().to_string();
    if let Some(blocked) = scan::scan_prompt(&prompt) {
        return Err(CronError::Invalid(blocked));
    }
    let schedule = parse_schedule(&new.schedule, now, &home.zone)?;
    let script = clean(new.script);
    if new.no_agent && script.is_none() {
        return Err(CronError::Invalid(
            "no_agent=True requires a script — with no agent and no script there is nothing \
             for the job to run."
                .into(),
        ));
    }
    if let Some(script) = &script {
        check_script(home, script)?;
    }
    let workdir = normalize_workdir(new.workdir.as_deref())?;
    let profile = check_profile(home, new.profile.as_deref())?;
    let kind = schedule.get("kind").and_then(Value::as_str).unwrap_or("");
    let repeat = match new.repeat.filter(|r| *r > 0) {
        None if kind == "once" => Some(1),
        other => other,
    };
    let next_run_at = next::compute_next_run(&schedule, None, now, &home.zone);
    if kind == "once" && next_run_at.is_none() {
        let run_at = schedule
            .get("run_at")
            .and_then(Value::as_str)
            .unwrap_or("?");
        return Err(CronError::Schedule(format!(
            "Requested one-shot time {run_at} is more than {}s in the past and cannot be \
             scheduled.",
            next::ONESHOT_GRACE_SECONDS
        )));
    }
    let skills = dedupe(new.skills);
    let label = [Some(prompt.as_str()), skills.first().map(String::as_str)]
        .into_iter()
        .flatten()
        .chain(script.as_deref().filter(|_| new.no_agent))
        .find(|s| !s.is_empty())
        .unwrap_or("cron job");
    let name = clean(new.name).unwrap_or_else(|| label.chars().take(50).collect::<String>());
    let deliver = clean(new.deliver).unwrap_or_else(|| {
        if new.origin.is_some() {
            "origin"
        } else {
            "local"
        }
        .to_string()
    });
    let display = schedule
        .get("display")
        .and_then(Value::as_str)
        .unwrap_or(&new.schedule)
        .to_string();
    let now_iso = home.zone.iso(now);
    let value = json!({
        "id": new_id(),
        "name": name.trim(),
        "prompt": prompt,
        "skills": skills,
        "skill": skills.first(),
        "model": clean(new.model),
        "provider": clean(new.provider),
        "provider_snapshot": Value::Null,
        "model_snapshot": Value::Null,
        "base_url": clean(new.base_url).map(|u| u.trim_end_matches('/').to_string()),
        "script": script,
        "no_agent": new.no_agent,
        "context_from": non_empty(new.context_from),
        "schedule": schedule,
        "schedule_display": display,
        "repeat": {"times": repeat, "completed": 0},
        "enabled": true,
        "state": "scheduled",
        "paused_at": Value::Null,
        "paused_reason": Value::Null,
        "created_at": now_iso,
        "next_run_at": next_run_at,
        "last_run_at": Value::Null,
        "last_status": Value::Null,
        "last_error": Value::Null,
        "last_delivery_error": Value::Null,
        "deliver": deliver,
        "origin": new.origin,
        "enabled_toolsets": non_empty(new.enabled_toolsets),
        "workdir": workdir,
    });
    let Value::Object(mut map) = value else {
        return Err(CronError::Invalid("job is not an object".into()));
    };
    if let Some(profile) = profile {
        map.insert("profile".into(), Value::String(profile));
    }
    let job = Job::from_map(map);
    let context = job.context_from();
    home.store.update(&now_iso, |file| {
        for reference in &context {
            if !file.jobs.iter().any(|j| j.id() == reference) {
                return Err(CronError::Invalid(format!(
                    "context_from job '{reference}' not found. Use cronjob(action='list') to \
                     see available job IDs."
                )));
            }
        }
        file.jobs.push(job.clone());
        Ok(Edit::changed(()))
    })?;
    Ok(job)
}

/// Pauses a job (Hermes's `pause_job`).
pub fn pause(home: &CronHome, reference: &str, reason: Option<&str>) -> Result<Job, CronError> {
    let now_iso = home.now_iso();
    edit_one(home, reference, |job| {
        job.set("enabled", Value::Bool(false));
        job.set_text("state", Some("paused"));
        job.set_text("paused_at", Some(&now_iso));
        job.set_text("paused_reason", reason);
        Ok(())
    })
}

/// Resumes a job, its next run computed from now (Hermes's `resume_job`).
pub fn resume(home: &CronHome, reference: &str) -> Result<Job, CronError> {
    let now = home.now();
    edit_one(home, reference, |job| {
        let schedule = job.schedule().cloned().unwrap_or_default();
        let next_run = next::compute_next_run(&schedule, None, now, &home.zone);
        if next_run.is_none() && job.schedule_kind() == Some("once") {
            let run_at = schedule
                .get("run_at")
                .and_then(Value::as_str)
                .unwrap_or("unknown");
            return Err(CronError::Schedule(format!(
                "Cannot resume: one-shot time {run_at} is in the past (grace window: {}s) and \
                 will never fire.",
                next::ONESHOT_GRACE_SECONDS
            )));
        }
        set_scheduled(job);
        job.set_text("next_run_at", next_run.as_deref());
        Ok(())
    })
}

/// Makes a job due at the next tick (Hermes's `trigger_job`).
pub fn trigger(home: &CronHome, reference: &str) -> Result<Job, CronError> {
    let now = home.now();
    edit_one(home, reference, |job| {
        set_scheduled(job);
        let schedule = job.schedule().cloned().unwrap_or_default();
        let now_iso = next::schedule_zone(&schedule, &home.zone).iso(now);
        job.set_text("next_run_at", Some(&now_iso));
        Ok(())
    })
}

/// Removes a job and its output directory; returns the removed job.
pub fn remove(home: &CronHome, reference: &str) -> Result<Job, CronError> {
    let removed = home.store.update(&home.now_iso(), |file| {
        let id = resolve(&file.jobs, reference)?.id().to_string();
        let position = file.jobs.iter().position(|j| j.id() == id);
        match position {
            Some(index) => Ok(Edit::changed(file.jobs.remove(index))),
            None => Err(CronError::NotFound(reference.to_string())),
        }
    })?;
    let dir = home.paths.output_dir.join(removed.id());
    if dir.is_dir() {
        std::fs::remove_dir_all(&dir).map_err(|e| CronError::io(&dir, e))?;
    }
    Ok(removed)
}

fn set_scheduled(job: &mut Job) {
    job.set("enabled", Value::Bool(true));
    job.set_text("state", Some("scheduled"));
    job.set("paused_at", Value::Null);
    job.set("paused_reason", Value::Null);
}

fn edit_one(
    home: &CronHome,
    reference: &str,
    change: impl FnOnce(&mut Job) -> Result<(), CronError>,
) -> Result<Job, CronError> {
    home.store.update(&home.now_iso(), |file| {
        let id = resolve(&file.jobs, reference)?.id().to_string();
        let Some(job) = file.jobs.iter_mut().find(|j| j.id() == id) else {
            return Err(CronError::NotFound(reference.to_string()));
        };
        change(job)?;
        Ok(Edit::changed(job.clone()))
    })
}

fn clean(value: Option<String>) -> Option<String> {
    value
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
}

pub(super) fn non_empty(list: Vec<String>) -> Value {
    let list: Vec<String> = list
        .into_iter()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect();
    if list.is_empty() {
        Value::Null
    } else {
        json!(list)
    }
}

pub(super) fn dedupe(list: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for item in list.into_iter().map(|s| s.trim().to_string()) {
        if !item.is_empty() && !out.contains(&item) {
            out.push(item);
        }
    }
    out
}

#[cfg(test)]
#[path = "ops_tests.rs"]
mod tests;
