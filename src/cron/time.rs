//! The scheduler's time zone and its ISO-8601 text form. Jobs are computed in one zone: the
//! `HERMES_TIMEZONE` variable, else `timezone` from `config.yaml`, else the system's zone
//! (Hermes's `_hermes_now`). Times are written as Python's `datetime.isoformat()` writes an
//! aware datetime (`2026-03-15T09:00:00-04:00`), so Python Hermes reads them back.
//!
//! What it does not do: decide when a job runs (`schedule`, `next`). Invariants: an invalid
//! zone name never fails a caller; it falls back to the system zone and says why once in
//! [`CronZone::warning`]; a stored time without an offset is read in the zone (as Hermes's
//! `_ensure_aware` does).

use jiff::Timestamp;
use jiff::Zoned;
use jiff::civil::DateTime;
use jiff::tz::TimeZone;

/// The zone jobs are computed in, with its name for display and storage.
#[derive(Debug, Clone)]
pub struct CronZone {
    pub tz: TimeZone,
    /// The IANA name (`Europe/Berlin`), or `UTC` / `local` when there is none.
    pub name: String,
    /// Why the configured zone was not used, if it was not.
    pub warning: Option<String>,
}

impl CronZone {
    /// The zone from `HERMES_TIMEZONE` (given as `env_value`), else `configured`
    /// (`config.yaml`'s `timezone`), else the system's.
    pub fn resolve(env_value: Option<&str>, configured: Option<&str>) -> Self {
        let wanted = [env_value, configured]
            .into_iter()
            .flatten()
            .map(str::trim)
            .find(|name| !name.is_empty());
        match wanted {
            Some(name) => match TimeZone::get(name) {
                Ok(tz) => Self {
                    tz,
                    name: name.to_string(),
                    warning: None,
                },
                Err(err) => {
                    let mut zone = Self::system();
                    zone.warning = Some(format!(
                        "timezone '{name}' is not a known IANA zone ({err}); using {}",
                        zone.name
                    ));
                    zone
                }
            },
            None => Self::system(),
        }
    }

    /// The zone of a named IANA zone, if the name is one.
    pub fn named(name: &str) -> Option<Self> {
        TimeZone::get(name.trim()).ok().map(|tz| Self {
            tz,
            name: name.trim().to_string(),
            warning: None,
        })
    }

    pub fn utc() -> Self {
        Self {
            tz: TimeZone::UTC,
            name: "UTC".to_string(),
            warning: None,
        }
    }

    fn system() -> Self {
        let tz = TimeZone::system();
        let name = tz.iana_name().unwrap_or("local").to_string();
        Self {
            tz,
            name,
            warning: None,
        }
    }

    pub fn zoned(&self, at: Timestamp) -> Zoned {
        at.to_zoned(self.tz.clone())
    }

    /// `at` as Python's `isoformat()` of an aware datetime, seconds precision.
    pub fn iso(&self, at: Timestamp) -> String {
        iso_of(&self.zoned(at))
    }

    /// Reads a stored time: with an offset or `Z` as written, without one in this zone.
    pub fn parse(&self, text: &str) -> Option<Timestamp> {
        parse_iso(text.trim(), &self.tz)
    }

    /// `at` for people: `2026-03-15 09:00` in this zone.
    pub fn local_minutes(&self, at: Timestamp) -> String {
        self.zoned(at).strftime("%Y-%m-%d %H:%M").to_string()
    }
}

/// Python's `isoformat()` of an aware datetime: `YYYY-mm-ddTHH:MM:SS±HH:MM`, with
/// `.ffffff` only when there are sub-second digits.
pub fn iso_of(zoned: &Zoned) -> String {
    let micros = zoned.subsec_nanosecond() / 1_000;
    if micros == 0 {
        zoned.strftime("%Y-%m-%dT%H:%M:%S%:z").to_string()
    } else {
        let base = zoned.strftime("%Y-%m-%dT%H:%M:%S").to_string();
        let offset = zoned.strftime("%:z").to_string();
        format!("{base}.{micros:06}{offset}")
    }
}

/// Parses an ISO-8601 date-time the way Python's `datetime.fromisoformat` does for the forms
/// Hermes writes: with an offset (or `Z`), or naive (read in `tz`), `T` or space separated,
/// optionally with fractional seconds; a bare date is midnight.
pub fn parse_iso(text: &str, tz: &TimeZone) -> Option<Timestamp> {
    if text.is_empty() {
        return None;
    }
    if let Ok(at) = text.parse::<Timestamp>() {
        return Some(at);
    }
    let normalized = text.replacen(' ', "T", 1);
    if let Ok(at) = normalized.parse::<Timestamp>() {
        return Some(at);
    }
    let civil: DateTime = normalized.parse().ok().or_else(|| {
        normalized
            .parse::<jiff::civil::Date>()
            .ok()
            .map(|d| d.to_datetime(jiff::civil::Time::midnight()))
    })?;
    tz.to_ambiguous_timestamp(civil).compatible().ok()
}

#[cfg(test)]
#[path = "time_tests.rs"]
mod tests;
