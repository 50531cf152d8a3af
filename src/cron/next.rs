//! When a schedule fires next, how late it may still catch up, and how it reads in words.
//!
//! Cron expressions are matched on wall-clock time in the job's zone (the `timezone` the
//! schedule recorded, else the configured one), then mapped to instants with the zone's
//! rules: a wall time skipped by a spring-forward runs at the first instant after the gap; a
//! wall time that happens twice at a fall-back runs once (the first), unless the hour field
//! is `*`, when both hours run as classic cron does. Intervals are elapsed time, untouched by
//! DST. What it does not do: decide whether a job is due (`due`).
//!
//! Invariants: every function is pure in `now`; a schedule that cannot be read yields `None`
//! (the caller reports it), never a panic.

use chrono::TimeZone as _;
use croner::Cron;
use jiff::SignedDuration;
use jiff::Timestamp;
use jiff::civil::DateTime;
use jiff::tz::AmbiguousOffset;
use jiff::tz::TimeZone;
use serde_json::Map;
use serde_json::Value;

use super::time::CronZone;

/// One-shot jobs created slightly late still fire within this window (Hermes's value).
pub const ONESHOT_GRACE_SECONDS: i64 = 120;
const MIN_GRACE_SECONDS: i64 = 120;
const MAX_GRACE_SECONDS: i64 = 7200;
/// How far around a wall time an offset change can move it; bounds the search.
const OFFSET_SLACK: SignedDuration = SignedDuration::from_hours(3);

pub fn parse_cron(expr: &str) -> Result<Cron, croner::errors::CronError> {
    croner::parser::CronParser::new().parse(expr.trim())
}

/// The zone a schedule computes in: its recorded `timezone`, else `zone`.
pub fn schedule_zone(schedule: &Map<String, Value>, zone: &CronZone) -> CronZone {
    schedule
        .get("timezone")
        .and_then(Value::as_str)
        .and_then(CronZone::named)
        .unwrap_or_else(|| zone.clone())
}

/// Hermes's `compute_next_run`: the next run after `last_run_at` (or `now`), as stored text.
/// A one-shot has a next run only until it has run, and only within its grace window.
pub fn compute_next_run(
    schedule: &Map<String, Value>,
    last_run_at: Option<&str>,
    now: Timestamp,
    zone: &CronZone,
) -> Option<String> {
    match schedule.get("kind").and_then(Value::as_str)? {
        "once" => recoverable_oneshot(schedule, now, last_run_at, zone),
        "interval" => {
            let minutes = schedule.get("minutes").and_then(Value::as_i64)?;
            let base = last_run_at.and_then(|t| zone.parse(t)).unwrap_or(now);
            let next = base.checked_add(SignedDuration::from_mins(minutes)).ok()?;
            Some(zone.iso(next))
        }
        "cron" => {
            let expr = schedule.get("expr").and_then(Value::as_str)?;
            let cron = parse_cron(expr).ok()?;
            let job_zone = schedule_zone(schedule, zone);
            let base = last_run_at.and_then(|t| zone.parse(t)).unwrap_or(now);
            let next = next_cron(&cron, base, &job_zone.tz)?;
            Some(job_zone.iso(next))
        }
        _ => None,
    }
}

/// The one-shot's `run_at` while it has not run and is no more than the grace window old.
pub fn recoverable_oneshot(
    schedule: &Map<String, Value>,
    now: Timestamp,
    last_run_at: Option<&str>,
    zone: &CronZone,
) -> Option<String> {
    if last_run_at.is_some_and(|t| !t.trim().is_empty()) {
        return None;
    }
    let text = schedule.get("run_at").and_then(Value::as_str)?;
    let run_at = zone.parse(text)?;
    let oldest = now
        .checked_sub(SignedDuration::from_secs(ONESHOT_GRACE_SECONDS))
        .ok()?;
    (run_at >= oldest).then(|| text.to_string())
}

/// The first instant strictly after `after` at which `cron` fires in `tz`.
pub fn next_cron(cron: &Cron, after: Timestamp, tz: &TimeZone) -> Option<Timestamp> {
    let hour_is_wildcard = cron
        .pattern
        .to_string()
        .split_whitespace()
        .nth(1)
        .is_some_and(|field| field.starts_with('*'));
    let start = after
        .to_zoned(tz.clone())
        .datetime()
        .checked_sub(OFFSET_SLACK)
        .ok()?;
    let mut cursor = to_chrono(start)?;
    let mut best: Option<Timestamp> = None;
    // Wall times are visited in order; instants are not monotone in a fold, so keep the
    // smallest candidate until the wall clock is safely past it.
    for _ in 0..5000 {
        let found = cron.find_next_occurrence(&cursor, false).ok()?;
        let wall = from_chrono(found)?;
        if let Some(best) = best {
            let best_wall = best.to_zoned(tz.clone()).datetime();
            if wall > best_wall.checked_add(OFFSET_SLACK).ok()? {
                break;
            }
        }
        for candidate in instants_of(wall, tz, hour_is_wildcard) {
            if candidate > after && best.is_none_or(|b| candidate < b) {
                best = Some(candidate);
            }
        }
        cursor = found;
    }
    best
}

/// Whether `at` is an instant `cron` really fires at in `tz` (not a drifted stored time).
pub fn is_cron_instant(cron: &Cron, at: Timestamp, tz: &TimeZone) -> bool {
    at.checked_sub(SignedDuration::from_secs(1))
        .ok()
        .and_then(|before| next_cron(cron, before, tz))
        == Some(at)
}

fn instants_of(wall: DateTime, tz: &TimeZone, hour_is_wildcard: bool) -> Vec<Timestamp> {
    let ambiguous = tz.to_ambiguous_timestamp(wall);
    match ambiguous.offset() {
        AmbiguousOffset::Unambiguous { offset } => {
            offset.to_timestamp(wall).ok().into_iter().collect()
        }
        AmbiguousOffset::Gap { after, .. } => {
            // `after`'s offset reads the wall time as an instant before the transition; the
            // transition itself is the first instant after the gap.
            let Ok(probe) = after.to_timestamp(wall) else {
                return Vec::new();
            };
            tz.following(probe)
                .next()
                .map(|t| t.timestamp())
                .into_iter()
                .collect()
        }
        AmbiguousOffset::Fold { before, after } => {
            let mut out: Vec<Timestamp> = before.to_timestamp(wall).ok().into_iter().collect();
            if hour_is_wildcard {
                out.extend(after.to_timestamp(wall).ok());
            }
            out
        }
    }
}

fn to_chrono(wall: DateTime) -> Option<chrono::DateTime<chrono::Utc>> {
    chrono::Utc
        .with_ymd_and_hms(
            i32::from(wall.year()),
            u32::try_from(wall.month()).ok()?,
            u32::try_from(wall.day()).ok()?,
            u32::try_from(wall.hour()).ok()?,
            u32::try_from(wall.minute()).ok()?,
            u32::try_from(wall.second()).ok()?,
        )
        .single()
}

fn from_chrono(at: chrono::DateTime<chrono::Utc>) -> Option<DateTime> {
    use chrono::Datelike as _;
    use chrono::Timelike as _;
    jiff::civil::DateTime::new(
        i16::try_from(at.year()).ok()?,
        i8::try_from(at.month()).ok()?,
        i8::try_from(at.day()).ok()?,
        i8::try_from(at.hour()).ok()?,
        i8::try_from(at.minute()).ok()?,
        i8::try_from(at.second()).ok()?,
        0,
    )
    .ok()
}

/// Hermes's `_compute_grace_seconds`: half the period, clamped to 120 s – 2 h.
pub fn grace_seconds(schedule: &Map<String, Value>, now: Timestamp, zone: &CronZone) -> i64 {
    let clamp = |period: i64| (period / 2).clamp(MIN_GRACE_SECONDS, MAX_GRACE_SECONDS);
    match schedule.get("kind").and_then(Value::as_str) {
        Some("interval") => {
            let minutes = schedule.get("minutes").and_then(Value::as_i64).unwrap_or(1);
            clamp(minutes.saturating_mul(60))
        }
        Some("cron") => {
            let job_zone = schedule_zone(schedule, zone);
            let period = schedule
                .get("expr")
                .and_then(Value::as_str)
                .and_then(|expr| parse_cron(expr).ok())
                .and_then(|cron| {
                    let first = next_cron(&cron, now, &job_zone.tz)?;
                    let second = next_cron(&cron, first, &job_zone.tz)?;
                    Some(second.as_second() - first.as_second())
                });
            period.map_or(MIN_GRACE_SECONDS, clamp)
        }
        _ => MIN_GRACE_SECONDS,
    }
}

/// The schedule in words for the jobs view: "every 2 hours", "At 09:00 on Monday through
/// Friday (Europe/Berlin)", "once at 2026-03-15 09:00".
pub fn describe(schedule: &Map<String, Value>, zone: &CronZone) -> String {
    match schedule.get("kind").and_then(Value::as_str) {
        Some("interval") => {
            let minutes = schedule.get("minutes").and_then(Value::as_i64).unwrap_or(0);
            match minutes {
                m if m > 0 && m % 1440 == 0 => plural(m / 1440, "day"),
                m if m > 0 && m % 60 == 0 => plural(m / 60, "hour"),
                m => plural(m, "minute"),
            }
        }
        Some("cron") => {
            let expr = schedule.get("expr").and_then(Value::as_str).unwrap_or("");
            let job_zone = schedule_zone(schedule, zone);
            match parse_cron(expr) {
                Ok(cron) if job_zone.name != zone.name => {
                    format!("{} ({})", sentence(&cron), job_zone.name)
                }
                Ok(cron) => sentence(&cron),
                Err(_) => format!("invalid cron expression '{expr}'"),
            }
        }
        Some("once") => {
            let run_at = schedule.get("run_at").and_then(Value::as_str).unwrap_or("");
            match zone.parse(run_at) {
                Some(at) => format!("once at {}", zone.local_minutes(at)),
                None => "once".to_string(),
            }
        }
        _ => "unreadable schedule".to_string(),
    }
}

/// croner's description without its closing full stop (it is shown mid-line).
fn sentence(cron: &Cron) -> String {
    cron.describe().trim_end_matches('.').to_string()
}

fn plural(count: i64, unit: &str) -> String {
    if count == 1 {
        format!("every {unit}")
    } else {
        format!("every {count} {unit}s")
    }
}

#[cfg(test)]
#[path = "next_tests.rs"]
mod tests;
