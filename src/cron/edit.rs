//! Changing a job, as Hermes's `update_job`: only the fields given change; a new schedule
//! recomputes the next run (a one-shot whose time has passed is refused); skills are set,
//! added to or removed from; the prompt is checked by the scanner first. One locked
//! read-modify-write of `jobs.json`.
//!
//! What it does not do: pause, resume or run jobs (`ops`).

use serde_json::Value;
use serde_json::json;

use super::CronError;
use super::Job;
use super::home::CronHome;
use super::next;
use super::ops::dedupe;
use super::ops::non_empty;
use super::ops::resolve;
use super::scan;
use super::schedule::parse_schedule;
use super::store::Edit;
use super::validate::check_profile;
use super::validate::check_script;
use super::validate::normalize_workdir;

/// How an update changes the skill list.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum SkillEdit {
    #[default]
    Keep,
    Set(Vec<String>),
    Change {
        add: Vec<String>,
        remove: Vec<String>,
    },
}

/// The fields an update changes; `None` leaves a field as it is, `Some("")` clears text.
#[derive(Debug, Clone, Default)]
pub struct JobUpdate {
    pub prompt: Option<String>,
    pub schedule: Option<String>,
    pub name: Option<String>,
    pub repeat: Option<i64>,
    pub deliver: Option<String>,
    pub skills: SkillEdit,
    pub model: Option<String>,
    pub provider: Option<String>,
    pub base_url: Option<String>,
    pub script: Option<String>,
    pub no_agent: Option<bool>,
    pub context_from: Option<Vec<String>>,
    pub enabled_toolsets: Option<Vec<String>>,
    pub workdir: Option<String>,
    pub profile: Option<String>,
}

pub fn update(home: &CronHome, reference: &str, change: JobUpdate) -> Result<Job, CronError> {
    let now = home.now();
    let now_iso = home.zone.iso(now);
    if let Some(prompt) = &change.prompt
        && let Some(blocked) = scan::scan_prompt(prompt)
    {
        return Err(CronError::Invalid(blocked));
    }
    let schedule = change
        .schedule
        .as_deref()
        .map(|s| parse_schedule(s, now, &home.zone))
        .transpose()?;
    let workdir = change
        .workdir
        .as_deref()
        .map(|w| normalize_workdir(Some(w)))
        .transpose()?;
    let profile = change
        .profile
        .as_deref()
        .map(|p| check_profile(home, Some(p)))
        .transpose()?;
    if let Some(script) = change.script.as_deref().filter(|s| !s.trim().is_empty()) {
        check_script(home, script)?;
    }
    home.store.update(&now_iso, |file| {
        let id = resolve(&file.jobs, reference)?.id().to_string();
        let known: Vec<String> = file.jobs.iter().map(|j| j.id().to_string()).collect();
        let Some(job) = file.jobs.iter_mut().find(|j| j.id() == id) else {
            return Err(CronError::NotFound(reference.to_string()));
        };
        if let Some(list) = &change.context_from
            && let Some(missing) = list.iter().find(|r| !known.contains(r))
        {
            return Err(CronError::Invalid(format!(
                "context_from job '{missing}' not found. Use cronjob(action='list') to see \
                 available job IDs."
            )));
        }
        let script_after = match &change.script {
            Some(script) => Some(script.trim())
                .filter(|s| !s.is_empty())
                .map(str::to_string),
            None => job.script().map(str::to_string),
        };
        if change.no_agent == Some(true) && script_after.is_none() {
            return Err(CronError::Invalid(
                "Cannot set no_agent=True on a job without a script. Set `script` in the same \
                 update, or on the job first."
                    .into(),
            ));
        }
        apply_update(job, &change, workdir, profile);
        if let Some(schedule) = schedule {
            let display = schedule.get("display").cloned().unwrap_or(Value::Null);
            let kind = schedule
                .get("kind")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
            let run_at = schedule
                .get("run_at")
                .and_then(Value::as_str)
                .map(str::to_string);
            let next_run = next::compute_next_run(&schedule, None, now, &home.zone);
            job.set("schedule", Value::Object(schedule));
            job.set("schedule_display", display);
            if job.state() != "paused" {
                if kind == "once" && next_run.is_none() {
                    return Err(CronError::Schedule(format!(
                        "Requested one-shot time {} is more than {}s in the past and cannot \
                         be scheduled.",
                        run_at.unwrap_or_default(),
                        next::ONESHOT_GRACE_SECONDS
                    )));
                }
                job.set_text("next_run_at", next_run.as_deref());
            }
        }
        Ok(Edit::changed(job.clone()))
    })
}

fn apply_update(
    job: &mut Job,
    change: &JobUpdate,
    workdir: Option<Option<String>>,
    profile: Option<Option<String>>,
) {
    let text_fields = [
        ("prompt", &change.prompt),
        ("model", &change.model),
        ("provider", &change.provider),
        ("script", &change.script),
    ];
    for (key, value) in text_fields {
        if let Some(value) = value {
            let value = value.trim();
            let stored = (!value.is_empty() || key == "prompt").then_some(value);
            job.set_text(key, stored);
        }
    }
    if let Some(name) = change
        .name
        .as_deref()
        .map(str::trim)
        .filter(|n| !n.is_empty())
    {
        job.set_text("name", Some(name));
    }
    if let Some(deliver) = change
        .deliver
        .as_deref()
        .map(str::trim)
        .filter(|d| !d.is_empty())
    {
        job.set_text("deliver", Some(deliver));
    }
    if let Some(url) = &change.base_url {
        let url = url.trim().trim_end_matches('/');
        job.set_text("base_url", (!url.is_empty()).then_some(url));
    }
    if let Some(repeat) = change.repeat {
        let completed = job.repeat_completed();
        let times = (repeat > 0).then_some(repeat);
        job.set("repeat", json!({"times": times, "completed": completed}));
    }
    if let Some(no_agent) = change.no_agent {
        job.set("no_agent", Value::Bool(no_agent));
    }
    if let Some(list) = &change.context_from {
        job.set("context_from", non_empty(list.clone()));
    }
    if let Some(list) = &change.enabled_toolsets {
        job.set("enabled_toolsets", non_empty(list.clone()));
    }
    if let Some(workdir) = workdir {
        job.set_text("workdir", workdir.as_deref());
    }
    match profile {
        Some(Some(profile)) => job.set_text("profile", Some(&profile)),
        Some(None) => {
            job.0.remove("profile");
        }
        None => {}
    }
    let skills = match &change.skills {
        SkillEdit::Keep => None,
        SkillEdit::Set(list) => Some(dedupe(list.clone())),
        SkillEdit::Change { add, remove } => {
            let mut list = job.skills();
            list.retain(|s| !remove.contains(s));
            list.extend(add.iter().cloned());
            Some(dedupe(list))
        }
    };
    if let Some(skills) = skills {
        job.set(
            "skill",
            skills.first().cloned().map_or(Value::Null, Value::String),
        );
        job.set("skills", json!(skills));
    }
}
