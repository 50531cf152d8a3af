//! Timestamps as the store keeps them (seconds since the Unix epoch, `REAL`, as Hermes) and a
//! dependency-free UTC formatter for listings and exports.
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
    let secs = ts as i64;
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}",
        rem / 3600,
        (rem % 3600) / 60
    )
}

/// `YYYY-MM-DD` in UTC.
pub fn format_date(ts: f64) -> String {
    let full = format_utc(ts);
    full.split(' ').next().unwrap_or("?").to_string()
}

/// Howard Hinnant's days-to-civil algorithm (proleptic Gregorian).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

#[cfg(test)]
#[path = "time_tests.rs"]
mod tests;
