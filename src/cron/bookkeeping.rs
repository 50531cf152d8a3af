//! The scheduler's writes around one run, as Hermes's `advance_next_run`, `claim_dispatch`
//! and `mark_job_run`: a recurring job's next run moves forward *before* it runs (so a crash
//! loop cannot fire it again and again), a limited one-shot is counted before it runs (so it
//! fires at most `repeat.times` times), and the result is recorded after.
//!
//! What it does not do: run the job or write the ledger (`ledger`). Invariants: each function
//! is one locked read-modify-write; a job removed meanwhile is not an error.

use serde_json::Value;
use serde_json::json;

use super::CronError;
use super::home::CronHome;
use super::next;
use super::ops::RunRecord;
use super::store::Edit;

/// Moves a recurring job's next run past now; true when it moved.
pub fn advance_next_run(home: &CronHome, id: &str) -> Result<bool, CronError> {
    let now = home.now();
    home.store.update(&home.zone.iso(now), |file| {
        let Some(job) = file.jobs.iter_mut().find(|j| j.id() == id) else {
            return Ok(Edit::unchanged(false));
        };
        if !matches!(job.schedule_kind(), Some("cron" | "interval")) {
            return Ok(Edit::unchanged(false));
        }
        let schedule = job.schedule().cloned().unwrap_or_default();
        let now_iso = home.zone.iso(now);
        match next::compute_next_run(&schedule, Some(&now_iso), now, &home.zone) {
            Some(fresh) if job.next_run_at() != Some(fresh.as_str()) => {
                job.set("next_run_at", Value::String(fresh));
                Ok(Edit::changed(true))
            }
            _ => Ok(Edit::unchanged(false)),
        }
    })
}

/// Counts a limited one-shot's dispatch before it runs; false when its limit was reached
/// (the job is then removed).
pub fn claim_dispatch(home: &CronHome, id: &str) -> Result<bool, CronError> {
    home.store.update(&home.now_iso(), |file| {
        let Some(index) = file.jobs.iter().position(|j| j.id() == id) else {
            return Ok(Edit::unchanged(false));
        };
        let job = &mut file.jobs[index];
        if job.schedule_kind() != Some("once") {
            return Ok(Edit::unchanged(true));
        }
        let Some(times) = job.repeat_times() else {
            return Ok(Edit::unchanged(true));
        };
        let completed = job.repeat_completed();
        if completed >= times {
            file.jobs.remove(index);
            return Ok(Edit::changed(false));
        }
        job.set(
            "repeat",
            json!({"times": times, "completed": completed + 1}),
        );
        Ok(Edit::changed(true))
    })
}

/// Records a finished run (Hermes's `mark_job_run`); returns whether the job still exists.
pub fn mark_run(home: &CronHome, id: &str, record: &RunRecord) -> Result<bool, CronError> {
    let now = home.now();
    let now_iso = home.zone.iso(now);
    home.store.update(&now_iso, |file| {
        let Some(index) = file.jobs.iter().position(|j| j.id() == id) else {
            return Ok(Edit::unchanged(false));
        };
        let job = &mut file.jobs[index];
        job.set_text("last_run_at", Some(&now_iso));
        job.set_text(
            "last_status",
            Some(if record.succeeded { "ok" } else { "error" }),
        );
        let error = (!record.succeeded)
            .then_some(record.error.as_deref())
            .flatten();
        job.set_text("last_error", error);
        job.set_text("last_delivery_error", record.delivery_error.as_deref());
        job.set("fire_claim", Value::Null);
        if job.get("run_claim").is_some_and(|c| !c.is_null()) {
            job.set("run_claim", Value::Null);
        }
        let kind = job.schedule_kind().unwrap_or("").to_string();
        if job.get("repeat").is_some_and(Value::is_object) {
            let times = job.repeat_times();
            let mut completed = job.repeat_completed();
            let preclaimed = kind == "once" && times.is_some() && completed > 0;
            if !preclaimed {
                completed += 1;
                job.set("repeat", json!({"times": times, "completed": completed}));
            }
            if times.is_some_and(|t| completed >= t) {
                file.jobs.remove(index);
                return Ok(Edit::changed(false));
            }
        }
        let schedule = job.schedule().cloned().unwrap_or_default();
        let next_run = next::compute_next_run(&schedule, Some(&now_iso), now, &home.zone);
        job.set_text("next_run_at", next_run.as_deref());
        if next_run.is_none() {
            if matches!(kind.as_str(), "cron" | "interval") {
                job.set_text("state", Some("error"));
                if job.text("last_error").is_none() {
                    job.set_text(
                        "last_error",
                        Some("Failed to compute next run for recurring schedule"),
                    );
                }
            } else {
                job.set("enabled", Value::Bool(false));
                job.set_text("state", Some("completed"));
            }
        } else if job.state() != "paused" {
            job.set_text("state", Some("scheduled"));
        }
        Ok(Edit::changed(true))
    })
}
