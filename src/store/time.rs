//! Timestamps as the store keeps them (seconds since the Unix epoch, `REAL`, as Hermes) and
//! their UTC form for listings and exports.
//!
//! Invariant: formatting never fails; a timestamp out of range prints as `?`.

use std::time::SystemTime;
use std::time::UNIX_EPOCH;

/// Now, in seconds since the epoch.
pub fn now() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or(0.0)
}

/// `YYYY-MM-DD HH:MM` in UTC.
pub fn format_utc(ts: f64) -> String {
    if !ts.is_finite() || !(0.0..=253_402_300_799.0).contains(&ts) {
        return "?".to_string();
    }
    crate::util::time::format_minutes(ts as i64)
}

/// `YYYY-MM-DD` in UTC.
pub fn format_date(ts: f64) -> String {
    let full = format_utc(ts);
    full.split(' ').next().unwrap_or("?").to_string()
}

#[cfg(test)]
#[path = "time_tests.rs"]
mod tests;
