//! The moment the process started, for the "first frame" measurement (`benches/`). `mark()`
//! is called first thing in `main`; `since_start()` is `None` when it never was (tests).

use std::sync::OnceLock;
use std::time::Duration;
use std::time::Instant;

static STARTED: OnceLock<Instant> = OnceLock::new();

pub fn mark() {
    let _ = STARTED.set(Instant::now());
}

pub fn since_start() -> Option<Duration> {
    STARTED.get().map(Instant::elapsed)
}
