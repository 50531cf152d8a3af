//! Which jobs are due now, as Hermes's `get_due_jobs`, with its repairs: records without an
//! id get one, unreadable `schedule`/`next_run_at`/`last_run_at` values are reset so one bad
//! record cannot stall its siblings, a missing next run is recovered, a recurring job missed
//! by more than its grace runs once and its next run moves to the future (a laptop waking
//! from a six-hour sleep runs a missed job once, not six times), and a one-shot is claimed
//! (`run_claim`) so two schedulers never both run it.
//!
//! hermes adds one repair: a cron job whose stored next run is not an instant its expression
//! fires at in its zone (written in another zone, or before a zone change) is recomputed
//! instead of fired — the time-zone drift Hermes users report.
//!
//! What it does not do: read or write the file (`store`), run anything. Invariants: pure in
//! `now`; the returned jobs are copies of the updated records.

use jiff::Timestamp;
use serde_json::Value;
use serde_json::json;

use super::Job;
use super::next;
use super::time::CronZone;

/// How long a one-shot's `run_claim` keeps other schedulers off it (Hermes's default TTL).
pub const RUN_CLAIM_TTL_SECONDS: i64 = 1800;

/// The result of a scan: the due jobs and whether the records changed (must be saved).
#[derive(Debug, Default)]
pub struct DueScan {
    pub due: Vec<Job>,
    pub changed: bool,
    /// What was repaired or skipped, for the log (`"job 'x': ..."`).
    pub notes: Vec<String>,
}

/// Scans `jobs` (updated in place) for what is due at `now`. `claimed_by` is this process
/// (`host:pid`) for one-shot claims; `in_flight` says whether a job runs in this process.
pub fn scan(
    jobs: &mut Vec<Job>,
    now: Timestamp,
    zone: &CronZone,
    claimed_by: &str,
    in_flight: &dyn Fn(&str) -> bool,
) -> DueScan {
    let mut out = DueScan::default();
    out.changed |= repair_records(jobs, zone);
    let mut remove: Vec<String> = Vec::new();
    for job in jobs.iter_mut() {
        if !job.enabled() {
            continue;
        }
        let kind = job.schedule_kind().unwrap_or("").to_string();
        if kind == "once" && fresh_claim(job, now, zone) {
            continue;
        }
        let schedule = job.schedule().cloned().unwrap_or_default();
        let next_text = match job.next_run_at() {
            Some(text) => text.to_string(),
            None => {
                let recovered = next::recoverable_oneshot(&schedule, now, job.last_run_at(), zone)
                    .or_else(|| {
                        matches!(kind.as_str(), "cron" | "interval")
                            .then(|| next::compute_next_run(&schedule, None, now, zone))
                            .flatten()
                    });
                let Some(recovered) = recovered else {
                    continue;
                };
                out.notes.push(format!(
                    "job '{}' had no next_run_at; recovered {recovered}",
                    job.name()
                ));
                job.set("next_run_at", Value::String(recovered.clone()));
                out.changed = true;
                recovered
            }
        };
        let Some(next_at) = zone.parse(&next_text) else {
            continue;
        };
        if kind == "cron" && drifted(&schedule, &next_text, next_at, zone) {
            if let Some(fixed) = next::compute_next_run(&schedule, None, now, zone) {
                out.notes.push(format!(
                    "job '{}': stored next run {next_text} is not a time its schedule fires at \
                     in its zone; recomputed {fixed}",
                    job.name()
                ));
                job.set("next_run_at", Value::String(fixed));
                out.changed = true;
            }
            continue;
        }
        if next_at > now {
            continue;
        }
        let late = now.as_second() - next_at.as_second();
        if matches!(kind.as_str(), "cron" | "interval")
            && late > next::grace_seconds(&schedule, now, zone)
            && let Some(fresh) = next::compute_next_run(&schedule, None, now, zone)
        {
            out.notes.push(format!(
                "job '{}' missed {next_text}; running once now, next run {fresh}",
                job.name()
            ));
            job.set("next_run_at", Value::String(fresh));
            out.changed = true;
        }
        if kind == "once" {
            if let Some(times) = job.repeat_times()
                && job.repeat_completed() >= times
            {
                if !in_flight(job.id()) {
                    remove.push(job.id().to_string());
                    out.changed = true;
                }
                continue;
            }
            let claim = json!({"at": zone.iso(now), "by": claimed_by});
            job.set("run_claim", claim);
            out.changed = true;
        }
        out.due.push(job.clone());
    }
    if !remove.is_empty() {
        jobs.retain(|job| !remove.iter().any(|id| id == job.id()));
    }
    out
}

/// Hermes's record repairs; true when something changed.
fn repair_records(jobs: &mut [Job], zone: &CronZone) -> bool {
    let mut changed = false;
    for job in jobs.iter_mut() {
        if job.text("id").is_none() {
            let id = job
                .0
                .remove("job_id")
                .and_then(|v| v.as_str().map(str::to_string))
                .filter(|s| !s.trim().is_empty())
                .unwrap_or_else(super::job::new_id);
            job.set("id", Value::String(id));
            changed = true;
        }
        if !job.get("schedule").is_some_and(Value::is_object) {
            job.set("schedule", json!({}));
            changed = true;
        }
        for key in ["next_run_at", "last_run_at"] {
            let bad = match job.get(key) {
                None | Some(Value::Null) => false,
                Some(Value::String(text)) => zone.parse(text).is_none(),
                Some(_) => true,
            };
            if bad {
                job.0.remove(key);
                changed = true;
            }
        }
    }
    changed
}

fn fresh_claim(job: &Job, now: Timestamp, zone: &CronZone) -> bool {
    let Some(at) = job
        .get("run_claim")
        .and_then(|c| c.get("at"))
        .and_then(Value::as_str)
        .and_then(|t| zone.parse(t))
    else {
        return false;
    };
    let age = now.as_second() - at.as_second();
    (0..RUN_CLAIM_TTL_SECONDS).contains(&age)
}

/// A stored cron time is drifted when it was written with another offset than the job's
/// zone has at that instant *and* is not a time the expression fires at there. (A time
/// written by `trigger` carries the zone's own offset, so a manual run is never mistaken.)
fn drifted(
    schedule: &serde_json::Map<String, Value>,
    stored: &str,
    next_at: Timestamp,
    zone: &CronZone,
) -> bool {
    let job_zone = next::schedule_zone(schedule, zone);
    let offset = job_zone.zoned(next_at).strftime("%:z").to_string();
    let stored = stored.trim();
    let same_offset = stored.ends_with(&offset) || (offset == "+00:00" && stored.ends_with('Z'));
    if same_offset {
        return false;
    }
    let Some(cron) = schedule
        .get("expr")
        .and_then(Value::as_str)
        .and_then(|e| next::parse_cron(e).ok())
    else {
        return false;
    };
    // Seconds are not part of a cron time; a stored time with seconds is still the minute's.
    let minute = Timestamp::from_second(next_at.as_second() - next_at.as_second().rem_euclid(60))
        .unwrap_or(next_at);
    !next::is_cron_instant(&cron, minute, &job_zone.tz)
}

#[cfg(test)]
#[path = "due_tests.rs"]
mod tests;
