//! Where the scheduler's "now" comes from: the system clock in production, a settable clock
//! in tests (so DST changes and a six-hour laptop sleep are simulated, not waited for).
//!
//! The clock gives an instant; the zone it is read in is the scheduler's (see `time`), so a
//! fake clock cannot disagree with the zone rules.

use std::sync::Mutex;

use jiff::Timestamp;

/// A source of the current instant.
pub trait Clock: Send + Sync {
    fn now(&self) -> Timestamp;
}

/// The real clock.
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Timestamp {
        Timestamp::now()
    }
}

/// A clock that stays where it is put, for tests and for `HERMES_CRON_FAKE_NOW`-style
/// harnesses: `set` jumps, `advance` moves forward.
#[derive(Debug)]
pub struct FixedClock {
    now: Mutex<Timestamp>,
}

impl FixedClock {
    pub fn new(now: Timestamp) -> Self {
        Self {
            now: Mutex::new(now),
        }
    }

    pub fn set(&self, now: Timestamp) {
        if let Ok(mut guard) = self.now.lock() {
            *guard = now;
        }
    }

    pub fn advance(&self, by: jiff::SignedDuration) {
        if let Ok(mut guard) = self.now.lock()
            && let Ok(next) = guard.checked_add(by)
        {
            *guard = next;
        }
    }
}

impl Clock for FixedClock {
    fn now(&self) -> Timestamp {
        self.now
            .lock()
            .map(|guard| *guard)
            .unwrap_or_else(|poisoned| *poisoned.into_inner())
    }
}
