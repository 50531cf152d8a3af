//! Schedule text → the schedule object `jobs.json` stores, as Hermes's `parse_schedule`:
//! `30m`/`2h`/`1d` (once, after that delay), `every 30m` (interval), a 5-field cron
//! expression, an ISO timestamp (once; without an offset it is read in the configured zone).
//! hermes also accepts a few spoken forms — `every day 7am`, `every 1d at 09:00`,
//! `every sunday 9am`, `every weekday at 9:30` — and stores them as cron expressions, so
//! Python Hermes runs them too. Cron schedules also record the zone they were written for.
//!
//! What it does not do: compute run times (`next`). Invariants: the messages of refused
//! schedules are Hermes's; a stored schedule is always one Hermes can read.

use jiff::SignedDuration;
use jiff::Timestamp;
use serde_json::Map;
use serde_json::Value;
use serde_json::json;

use super::CronError;
use super::time::CronZone;

/// Parses a schedule as the user wrote it, relative to `now` in `zone`.
pub fn parse_schedule(
    text: &str,
    now: Timestamp,
    zone: &CronZone,
) -> Result<Map<String, Value>, CronError> {
    let schedule = text.trim();
    let lower = schedule.to_lowercase();
    if let Some(rest) = lower.strip_prefix("every ") {
        if let Some(expr) = spoken_cron(rest.trim()) {
            return Ok(cron_object(&expr, schedule, zone));
        }
        let minutes = parse_duration(rest)?;
        return Ok(object(json!({
            "kind": "interval",
            "minutes": minutes,
            "display": format!("every {minutes}m"),
        })));
    }
    let parts: Vec<&str> = schedule.split_whitespace().collect();
    if parts.len() >= 5 && parts[..5].iter().all(|p| is_cron_field(p)) {
        validate_cron(schedule)?;
        return Ok(cron_object(schedule, schedule, zone));
    }
    if schedule.contains('T') || starts_with_date(schedule) {
        let at = zone.parse(schedule).ok_or_else(|| {
            CronError::Schedule(format!(
                "Invalid timestamp '{schedule}': Invalid isoformat string: '{schedule}'"
            ))
        })?;
        return Ok(object(json!({
            "kind": "once",
            "run_at": zone.iso(at),
            "display": format!("once at {}", zone.local_minutes(at)),
        })));
    }
    if let Ok(minutes) = parse_duration(schedule) {
        let run_at = now
            .checked_add(SignedDuration::from_mins(minutes))
            .map_err(|e| CronError::Schedule(format!("Invalid schedule '{schedule}': {e}")))?;
        return Ok(object(json!({
            "kind": "once",
            "run_at": zone.iso(run_at),
            "display": format!("once in {schedule}"),
        })));
    }
    Err(CronError::Schedule(format!(
        "Invalid schedule '{schedule}'. Use:\n  - Duration: '30m', '2h', '1d' (one-shot)\n  - \
         Interval: 'every 30m', 'every 2h' (recurring)\n  - Cron: '0 9 * * *' (cron \
         expression)\n  - Timestamp: '2026-02-03T14:00:00' (one-shot at time)"
    )))
}

/// `30m`, `2 hours`, `1d` → minutes (Hermes's `parse_duration`).
pub fn parse_duration(text: &str) -> Result<i64, CronError> {
    let s = text.trim().to_lowercase();
    let digits: String = s.chars().take_while(char::is_ascii_digit).collect();
    let unit = s[digits.len()..].trim_start();
    let multiplier = match unit {
        "m" | "min" | "mins" | "minute" | "minutes" => 1,
        "h" | "hr" | "hrs" | "hour" | "hours" => 60,
        "d" | "day" | "days" => 1440,
        _ => 0,
    };
    match digits.parse::<i64>() {
        Ok(value) if multiplier > 0 => value
            .checked_mul(multiplier)
            .ok_or_else(|| CronError::Schedule(format!("Invalid duration: '{s}' is too long"))),
        _ => Err(CronError::Schedule(format!(
            "Invalid duration: '{s}'. Use format like '30m', '2h', or '1d'"
        ))),
    }
}

/// Checks a cron expression with the same parser `next` uses.
pub fn validate_cron(expr: &str) -> Result<(), CronError> {
    super::next::parse_cron(expr)
        .map(|_| ())
        .map_err(|e| CronError::Schedule(format!("Invalid cron expression '{expr}': {e}")))
}

fn cron_object(expr: &str, display: &str, zone: &CronZone) -> Map<String, Value> {
    object(json!({
        "kind": "cron",
        "expr": expr,
        "display": display,
        "timezone": zone.name,
    }))
}

fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

fn is_cron_field(part: &str) -> bool {
    !part.is_empty()
        && part
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '*' | '-' | ',' | '/'))
}

fn starts_with_date(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() >= 10
        && bytes[..4].iter().all(u8::is_ascii_digit)
        && bytes[4] == b'-'
        && bytes[5..7].iter().all(u8::is_ascii_digit)
        && bytes[7] == b'-'
        && bytes[8..10].iter().all(u8::is_ascii_digit)
}

/// `day 7am`, `1d at 09:00`, `sunday 9am`, `weekday at 9:30` → a cron expression.
fn spoken_cron(rest: &str) -> Option<String> {
    let words: Vec<&str> = rest.split_whitespace().filter(|w| *w != "at").collect();
    let (days, time) = match words.as_slice() {
        [days, time] => (*days, *time),
        [count, unit, time] if *count == "1" => (*unit, *time),
        _ => return None,
    };
    let dow = match days {
        "day" | "days" | "1d" | "daily" => "*",
        "weekday" | "weekdays" => "1-5",
        "weekend" | "weekends" => "0,6",
        other => weekday_number(other)?,
    };
    let (hour, minute) = clock_time(time)?;
    Some(format!("{minute} {hour} * * {dow}"))
}

fn weekday_number(word: &str) -> Option<&'static str> {
    let word = word.trim_end_matches('s');
    let names = [
        ("sun", "0"),
        ("mon", "1"),
        ("tue", "2"),
        ("wed", "3"),
        ("thu", "4"),
        ("fri", "5"),
        ("sat", "6"),
    ];
    names.iter().find_map(|(prefix, number)| {
        let full_match = word.starts_with(prefix) && word.len() <= 9;
        let known = [
            "sun",
            "sunday",
            "mon",
            "monday",
            "tue",
            "tues",
            "tuesday",
            "wed",
            "wednesday",
            "thu",
            "thur",
            "thurs",
            "thursday",
            "fri",
            "friday",
            "sat",
            "saturday",
        ];
        (full_match && known.contains(&word)).then_some(*number)
    })
}

/// `7am`, `7:30pm`, `09:00`, `21` → (hour, minute).
fn clock_time(text: &str) -> Option<(u32, u32)> {
    let (body, meridiem) = if let Some(b) = text.strip_suffix("am") {
        (b, Some(false))
    } else if let Some(b) = text.strip_suffix("pm") {
        (b, Some(true))
    } else {
        (text, None)
    };
    let (hour_text, minute_text) = body.split_once(':').unwrap_or((body, "0"));
    let mut hour: u32 = hour_text.parse().ok()?;
    let minute: u32 = minute_text.parse().ok()?;
    if minute > 59 {
        return None;
    }
    match meridiem {
        Some(pm) => {
            if !(1..=12).contains(&hour) {
                return None;
            }
            hour %= 12;
            if pm {
                hour += 12;
            }
        }
        None if hour > 23 => return None,
        None => {}
    }
    Some((hour, minute))
}

#[cfg(test)]
#[path = "schedule_tests.rs"]
mod tests;
