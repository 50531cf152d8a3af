//! The `cronjob` tool, Hermes's schema (`cronjob_schema.json`, copied from 0.19 with hermes's
//! `profile` added) and result shapes: `create`, `list`, `update`, `pause`, `resume`,
//! `remove`, `run`. Every result also carries `scheduler`: whether a ticker is alive for this
//! home and, when none is, the command that starts one — so the agent never tells the user a
//! job is scheduled when nothing will fire it. `run` makes the job due and nudges this
//! process's scheduler: it fires at the next tick.
//!
//! What it does not do: run jobs. Invariants: a refusal is `{"success": false, "error": …}`;
//! jobs made here record this session as their `origin`.

use std::sync::Arc;
use std::sync::LazyLock;

use async_trait::async_trait;
use serde_json::Value;
use serde_json::json;

use crate::cron::CronError;
use crate::cron::CronHome;
use crate::cron::Job;
use crate::cron::ops;
use crate::cron::ops::IncludeDisabled;
use crate::cron::ops::JobUpdate;
use crate::cron::ops::NewJob;
use crate::cron::ops::SkillEdit;
use crate::cron::ticker;
use crate::model::ToolSchema;
use crate::tools::Concurrency;
use crate::tools::Tool;
use crate::tools::ToolContext;
use crate::tools::ToolOutput;

static SCHEMA: LazyLock<Value> = LazyLock::new(|| {
    serde_json::from_str(include_str!("cronjob_schema.json")).unwrap_or(Value::Null)
});

pub struct CronjobTool {
    home: Arc<CronHome>,
}

impl CronjobTool {
    pub fn new(home: Arc<CronHome>) -> Self {
        Self { home }
    }
}

#[async_trait]
impl Tool for CronjobTool {
    fn name(&self) -> &'static str {
        "cronjob"
    }

    fn toolset(&self) -> &'static str {
        "cronjob"
    }

    fn schema(&self) -> ToolSchema {
        ToolSchema {
            name: self.name().to_string(),
            description: SCHEMA["description"].as_str().unwrap_or("").to_string(),
            parameters: SCHEMA["parameters"].clone(),
        }
    }

    fn concurrency(&self) -> Concurrency {
        Concurrency::Sequential
    }

    fn preview(&self, args: &Value) -> String {
        let action = args["action"].as_str().unwrap_or("?");
        match (args["schedule"].as_str(), args["job_id"].as_str()) {
            (Some(schedule), _) => format!("{action} {schedule}"),
            (None, Some(id)) => format!("{action} {id}"),
            (None, None) => action.to_string(),
        }
    }

    async fn call(&self, args: Value, ctx: &ToolContext) -> ToolOutput {
        let home = Arc::clone(&self.home);
        let session = ctx.session_id.clone();
        let result = tokio::task::spawn_blocking(move || handle(&home, &args, &session)).await;
        match result {
            Ok(Ok(mut value)) => {
                value["scheduler"] =
                    json!(ticker::status(&self.home.paths, self.home.now()).describe());
                ToolOutput::ok(pretty(&value))
            }
            Ok(Err(value)) => ToolOutput::error(pretty(&value)),
            Err(e) => ToolOutput::error(pretty(&fail(format!("cronjob failed: {e}")))),
        }
    }
}

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

fn fail(message: impl Into<String>) -> Value {
    json!({"error": message.into(), "success": false})
}

fn text(args: &Value, key: &str) -> Option<String> {
    args.get(key).and_then(Value::as_str).map(str::to_string)
}

fn list_arg(args: &Value, key: &str) -> Option<Vec<String>> {
    match args.get(key)? {
        Value::String(s) => Some(vec![s.clone()]),
        Value::Array(items) => Some(
            items
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect(),
        ),
        _ => None,
    }
}

/// `model` is `{"model": …, "provider": …}` in the schema; a bare string is accepted too.
fn model_arg(args: &Value) -> (Option<String>, Option<String>) {
    let (model, provider) = match args.get("model") {
        Some(Value::String(m)) => (Some(m.clone()), None),
        Some(Value::Object(o)) => (
            o.get("model").and_then(Value::as_str).map(str::to_string),
            o.get("provider")
                .and_then(Value::as_str)
                .map(str::to_string),
        ),
        _ => (None, None),
    };
    (model, provider.or_else(|| text(args, "provider")))
}

fn skills_arg(args: &Value) -> Option<Vec<String>> {
    let mut list = list_arg(args, "skills");
    if let Some(single) = text(args, "skill") {
        list.get_or_insert_with(Vec::new).insert(0, single);
    }
    list
}

fn handle(home: &CronHome, args: &Value, session: &str) -> Result<Value, Value> {
    let action = args["action"].as_str().unwrap_or("").trim().to_lowercase();
    let cron_err = |e: CronError| match e {
        CronError::Ambiguous { reference, ids } => {
            let matches: Vec<Value> = ops::list(home, IncludeDisabled::Yes)
                .unwrap_or_default()
                .iter()
                .filter(|j| ids.iter().any(|id| id == j.id()))
                .map(|j| json!({"id": j.id(), "name": j.name(), "schedule": j.schedule_display(), "next_run_at": j.next_run_at()}))
                .collect();
            let error = CronError::Ambiguous { reference, ids }.to_string();
            json!({"success": false, "error": error, "matches": matches})
        }
        other => fail(other.to_string()),
    };
    match action.as_str() {
        "create" => {
            let Some(schedule) = text(args, "schedule").filter(|s| !s.trim().is_empty()) else {
                return Err(fail("schedule is required for create"));
            };
            let skills = skills_arg(args).unwrap_or_default();
            let no_agent = args["no_agent"].as_bool().unwrap_or(false);
            let prompt = text(args, "prompt").unwrap_or_default();
            if no_agent && text(args, "script").is_none_or(|s| s.trim().is_empty()) {
                return Err(fail(
                    "create with no_agent=True requires a script — the script is the job.",
                ));
            }
            if !no_agent && prompt.trim().is_empty() && skills.is_empty() {
                return Err(fail("create requires either prompt or at least one skill"));
            }
            let (model, provider) = model_arg(args);
            let job = ops::create(
                home,
                NewJob {
                    prompt,
                    schedule,
                    name: text(args, "name"),
                    repeat: args["repeat"].as_i64(),
                    deliver: text(args, "deliver"),
                    origin: Some(json!({"platform": "hermes", "chat_id": session})),
                    skills,
                    model,
                    provider,
                    base_url: text(args, "base_url"),
                    script: text(args, "script"),
                    no_agent,
                    context_from: list_arg(args, "context_from").unwrap_or_default(),
                    enabled_toolsets: list_arg(args, "enabled_toolsets").unwrap_or_default(),
                    workdir: text(args, "workdir"),
                    profile: text(args, "profile"),
                },
            )
            .map_err(cron_err)?;
            crate::cron::scheduler::nudge_local(&home.paths);
            let mut message = format!("Cron job '{}' created.", job.name());
            for target in crate::cron::delivery::targets(&job.deliver()) {
                if let crate::cron::delivery::Target::Unsupported(name) = target {
                    message.push(' ');
                    message.push_str(&crate::cron::delivery::unsupported_message(&name));
                }
            }
            Ok(json!({
                "success": true,
                "job_id": job.id(),
                "name": job.name(),
                "skill": job.skills().first(),
                "skills": job.skills(),
                "schedule": job.schedule_display(),
                "repeat": repeat_display(&job),
                "deliver": job.deliver(),
                "next_run_at": job.next_run_at(),
                "job": format_job(home, &job),
                "message": message,
            }))
        }
        "list" => {
            let include = match args["include_disabled"].as_bool() {
                Some(true) => IncludeDisabled::Yes,
                _ => IncludeDisabled::No,
            };
            let jobs: Vec<Value> = ops::list(home, include)
                .map_err(cron_err)?
                .iter()
                .map(|j| format_job(home, j))
                .collect();
            Ok(json!({"success": true, "count": jobs.len(), "jobs": jobs}))
        }
        "update" | "pause" | "resume" | "remove" | "run" | "run_now" | "trigger" => {
            let Some(reference) = text(args, "job_id").filter(|s| !s.trim().is_empty()) else {
                return Err(fail(format!("job_id is required for action '{action}'")));
            };
            let job = ops::find(home, &reference).map_err(cron_err)?;
            match action.as_str() {
                "remove" => {
                    let removed = ops::remove(home, job.id()).map_err(cron_err)?;
                    Ok(json!({
                        "success": true,
                        "message": format!("Cron job '{}' removed.", removed.name()),
                        "removed_job": {"id": removed.id(), "name": removed.name(), "schedule": removed.schedule_display()},
                    }))
                }
                "pause" => {
                    let reason = text(args, "reason");
                    let job = ops::pause(home, job.id(), reason.as_deref()).map_err(cron_err)?;
                    Ok(json!({"success": true, "job": format_job(home, &job)}))
                }
                "resume" => {
                    let job = ops::resume(home, job.id()).map_err(cron_err)?;
                    crate::cron::scheduler::nudge_local(&home.paths);
                    Ok(json!({"success": true, "job": format_job(home, &job)}))
                }
                "update" => {
                    let change = update_from(args)?;
                    let job = ops::update(home, job.id(), change).map_err(cron_err)?;
                    crate::cron::scheduler::nudge_local(&home.paths);
                    Ok(json!({"success": true, "job": format_job(home, &job)}))
                }
                _ => {
                    let job = ops::trigger(home, job.id()).map_err(cron_err)?;
                    crate::cron::scheduler::nudge_local(&home.paths);
                    let mut formatted = format_job(home, &job);
                    formatted["executed"] = json!(false);
                    formatted["queued"] = json!(true);
                    Ok(json!({
                        "success": true,
                        "job": formatted,
                        "message": format!("Cron job '{}' will run at the scheduler's next tick.", job.name()),
                    }))
                }
            }
        }
        _ => Err(fail(format!(
            "Unknown cron action '{}'",
            args["action"].as_str().unwrap_or("")
        ))),
    }
}

fn update_from(args: &Value) -> Result<JobUpdate, Value> {
    let (model, provider) = model_arg(args);
    let skills = match skills_arg(args) {
        Some(list) => SkillEdit::Set(list),
        None => SkillEdit::Keep,
    };
    let change = JobUpdate {
        prompt: text(args, "prompt"),
        schedule: text(args, "schedule"),
        name: text(args, "name"),
        repeat: args["repeat"].as_i64(),
        deliver: text(args, "deliver"),
        skills,
        model,
        provider,
        base_url: text(args, "base_url"),
        script: text(args, "script"),
        no_agent: args["no_agent"].as_bool(),
        context_from: list_arg(args, "context_from"),
        enabled_toolsets: list_arg(args, "enabled_toolsets"),
        workdir: text(args, "workdir"),
        profile: text(args, "profile"),
    };
    let empty = change.prompt.is_none()
        && change.schedule.is_none()
        && change.name.is_none()
        && change.repeat.is_none()
        && change.deliver.is_none()
        && change.skills == SkillEdit::Keep
        && change.model.is_none()
        && change.provider.is_none()
        && change.base_url.is_none()
        && change.script.is_none()
        && change.no_agent.is_none()
        && change.context_from.is_none()
        && change.enabled_toolsets.is_none()
        && change.workdir.is_none()
        && change.profile.is_none();
    if empty {
        return Err(fail("No updates provided."));
    }
    Ok(change)
}

/// Hermes's `_repeat_display`.
pub fn repeat_display(job: &Job) -> String {
    let completed = job.repeat_completed();
    match job.repeat_times() {
        None => "forever".into(),
        Some(1) if completed == 0 => "once".into(),
        Some(1) => "1/1".into(),
        Some(times) if completed > 0 => format!("{completed}/{times}"),
        Some(times) => format!("{times} times"),
    }
}

/// Hermes's `_format_job`, plus hermes's `schedule_words`, `profile` and `last_result`.
pub fn format_job(home: &CronHome, job: &Job) -> Value {
    let prompt = job.prompt();
    let preview = if prompt.chars().count() > 100 {
        format!("{}...", prompt.chars().take(100).collect::<String>())
    } else {
        prompt.to_string()
    };
    let skills = job.skills();
    let mut out = json!({
        "job_id": job.id(),
        "name": job.name(),
        "skill": skills.first(),
        "skills": skills,
        "prompt_preview": preview,
        "model": job.get("model"),
        "provider": job.get("provider"),
        "base_url": job.get("base_url"),
        "schedule": job.schedule_display(),
        "repeat": repeat_display(job),
        "deliver": job.deliver(),
        "next_run_at": job.next_run_at(),
        "last_run_at": job.last_run_at(),
        "last_status": job.get("last_status"),
        "last_delivery_error": job.get("last_delivery_error"),
        "enabled": job.enabled(),
        "state": job.state(),
        "paused_at": job.get("paused_at"),
        "paused_reason": job.get("paused_reason"),
    });
    if let Some(schedule) = job.schedule() {
        out["schedule_words"] = json!(crate::cron::next::describe(schedule, &home.zone));
    }
    for key in ["script", "workdir", "profile", "last_error"] {
        if let Some(value) = job.text(key) {
            out[key] = json!(value);
        }
    }
    if job.no_agent() {
        out["no_agent"] = json!(true);
    }
    let toolsets = job.enabled_toolsets();
    if !toolsets.is_empty() {
        out["enabled_toolsets"] = json!(toolsets);
    }
    out
}

#[cfg(test)]
#[path = "cronjob_tests.rs"]
mod tests;
