//! Rate-limited logging of audio device errors: a failing output device calls its error
//! callback for every buffer (72,157 identical lines in one second were seen), so the first
//! error is logged, then at most one line per `INTERVAL` carrying how many were dropped.
//!
//! Process-wide (device callbacks have no context to carry a limiter). Invariant: an error
//! is never dropped without being counted in the next line that is logged.

use std::sync::Mutex;
use std::time::Duration;
use std::time::Instant;

/// At most one logged device error per this long.
const INTERVAL: Duration = Duration::from_secs(10);

static LIMITER: Mutex<Limiter> = Mutex::new(Limiter {
    last_logged: None,
    suppressed: 0,
});

/// Logs `message` as a warning unless one was logged less than `INTERVAL` ago.
pub(super) fn report(message: &str) {
    let line = LIMITER
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .admit(message, Instant::now());
    if let Some(line) = line {
        tracing::warn!("{line}");
    }
}

pub(super) struct Limiter {
    last_logged: Option<Instant>,
    suppressed: u64,
}

impl Limiter {
    /// The line to log now, if any.
    pub(super) fn admit(&mut self, message: &str, now: Instant) -> Option<String> {
        if self
            .last_logged
            .is_some_and(|at| now.duration_since(at) < INTERVAL)
        {
            self.suppressed += 1;
            return None;
        }
        let line = match std::mem::take(&mut self.suppressed) {
            0 => message.to_string(),
            n => format!(
                "{message} ({n} more audio device errors in the last {}s not logged)",
                INTERVAL.as_secs()
            ),
        };
        self.last_logged = Some(now);
        Some(line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_logs_one_line_then_one_per_interval_with_the_count() {
        let mut limiter = Limiter {
            last_logged: None,
            suppressed: 0,
        };
        let t0 = Instant::now();
        assert_eq!(limiter.admit("underrun", t0).as_deref(), Some("underrun"));
        for i in 1..72_157u64 {
            assert!(
                limiter
                    .admit("underrun", t0 + Duration::from_micros(i))
                    .is_none()
            );
        }
        let later = limiter.admit("underrun", t0 + INTERVAL).unwrap();
        assert_eq!(
            later,
            "underrun (72156 more audio device errors in the last 10s not logged)"
        );
        assert!(limiter.admit("underrun", t0 + INTERVAL).is_none());
    }
}
