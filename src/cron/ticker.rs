//! Who fires jobs for a home: the one live ticker holds an `flock` on `cron/.ticker.lock`
//! (the kernel drops it when the process dies, so a crash never leaves a stale lock) and
//! writes Hermes's heartbeat files (`cron/ticker_heartbeat`, `cron/ticker_last_success`,
//! each `time.time()` as text). [`status`] tells whether any ticker is alive — hermes's lock
//! holder or a Python Hermes gateway whose heartbeat is fresh — and, when none is, what to
//! run, because a job that nobody fires must never look scheduled.
//!
//! What it does not do: tick (`scheduler`). Invariants: the lock file holds the holder's pid
//! for display only; liveness is the lock itself (or a heartbeat under 200 s old).

use std::io::Write;
use std::path::Path;
use std::time::Duration;

use jiff::Timestamp;

use super::CronPaths;
use crate::util::file_lock::FileLock;

/// A heartbeat older than this means its writer is gone (Hermes's threshold).
pub const HEARTBEAT_STALE_SECONDS: f64 = 200.0;

/// The message for "nothing will fire these jobs".
pub const NO_TICKER: &str = "No scheduler is running for this HERMES_HOME, so jobs will not \
fire. Start one: keep hermes open (the TUI runs the scheduler), run `hermes cron daemon` (or \
`hermes cron install-service` for a background service), or add `* * * * * hermes cron tick` \
to crontab.";

/// The held ticker lock; dropping it lets another process take over.
#[derive(Debug)]
pub struct TickerLease {
    _lock: FileLock,
}

/// Takes the ticker lock if no one holds it.
pub fn try_acquire(paths: &CronPaths) -> Option<TickerLease> {
    std::fs::create_dir_all(&paths.cron_dir).ok()?;
    let lock = FileLock::acquire(&paths.ticker_lock, Duration::ZERO).ok()?;
    // The pid is for `status`; written through a second handle (the lock stays on the first).
    if let Ok(mut file) = std::fs::File::create(&paths.ticker_lock) {
        let _ = write!(file, "{}", std::process::id());
    }
    Some(TickerLease { _lock: lock })
}

/// Writes `cron/ticker_heartbeat` (and, after a good tick, `cron/ticker_last_success`).
pub fn beat(paths: &CronPaths, now: Timestamp, tick: TickOutcome) {
    let text = format!("{:.6}", now.as_microsecond() as f64 / 1e6);
    write_quietly(&paths.heartbeat, &text);
    if tick == TickOutcome::Succeeded {
        write_quietly(&paths.last_success, &text);
    }
}

/// Whether the tick a heartbeat follows went well.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TickOutcome {
    Succeeded,
    Failed,
}

fn write_quietly(path: &Path, text: &str) {
    if let Err(e) = std::fs::write(path, text) {
        tracing::debug!(path = %path.display(), "cron heartbeat not written: {e}");
    }
}

/// Whether a ticker is alive for the home, and who.
#[derive(Debug, Clone, PartialEq)]
pub struct TickerStatus {
    /// hermes's ticker lock is held (by this or another process).
    pub lock_held: bool,
    pub holder_pid: Option<u32>,
    /// Seconds since the last heartbeat, if there is one.
    pub heartbeat_age: Option<f64>,
    pub last_success_age: Option<f64>,
}

impl TickerStatus {
    pub fn alive(&self) -> bool {
        self.lock_held
            || self
                .heartbeat_age
                .is_some_and(|age| age < HEARTBEAT_STALE_SECONDS)
    }

    /// One line for `hermes cron status`, `list` and the tool's `scheduler` field.
    pub fn describe(&self) -> String {
        if !self.alive() {
            return NO_TICKER.to_string();
        }
        let who = match (self.lock_held, self.holder_pid) {
            (true, Some(pid)) if pid == std::process::id() => "this hermes".to_string(),
            (true, Some(pid)) => format!("hermes pid {pid}"),
            (true, None) => "hermes".to_string(),
            (false, _) => "a recent heartbeat: `hermes cron tick` from crontab or a Python \
                           Hermes gateway"
                .to_string(),
        };
        match self.last_success_age {
            Some(age) => format!(
                "Scheduler running ({who}); last tick {}s ago.",
                age.max(0.0).round()
            ),
            None => format!("Scheduler running ({who})."),
        }
    }
}

pub fn status(paths: &CronPaths, now: Timestamp) -> TickerStatus {
    let lock_held = paths.ticker_lock.exists()
        && FileLock::acquire(&paths.ticker_lock, Duration::ZERO).is_err();
    let holder_pid = lock_held
        .then(|| std::fs::read_to_string(&paths.ticker_lock).ok())
        .flatten()
        .and_then(|t| t.trim().parse().ok());
    let age = |path: &Path| {
        let text = std::fs::read_to_string(path).ok()?;
        let at: f64 = text.trim().parse().ok()?;
        Some(now.as_microsecond() as f64 / 1e6 - at)
    };
    TickerStatus {
        lock_held,
        holder_pid,
        heartbeat_age: age(&paths.heartbeat),
        last_success_age: age(&paths.last_success),
    }
}

#[cfg(test)]
#[path = "ticker_tests.rs"]
mod tests;
