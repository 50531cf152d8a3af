//! The X display for tests that use the real clipboard (arboard on X11).

/// `DISPLAY`, or `None` (the caller skips, saying why) — except under `CI=true`, where a
/// missing X server is a failure: scripts/test.sh starts Xvfb, and the suite must not hide it.
pub fn x_display() -> Option<String> {
    match std::env::var("DISPLAY").ok().filter(|d| !d.is_empty()) {
        Some(display) => Some(display),
        None if std::env::var("CI").is_ok_and(|v| v == "true") => {
            panic!("DISPLAY is not set under CI: scripts/test.sh should have started Xvfb")
        }
        None => {
            println!("skipping: no X display (scripts/test.sh starts Xvfb and sets DISPLAY)");
            None
        }
    }
}
