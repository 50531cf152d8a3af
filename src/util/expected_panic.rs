//! Panics hermes expects and recovers from: a third-party parser that panics on malformed
//! input (the PDF reader) is run through [`catch`], and the process's panic hooks leave such a
//! panic alone — no crash report, no terminal restore, no "thread panicked" on stderr — while
//! every other panic still reaches them.
//!
//! Invariant: the flag is per thread and set only for the duration of [`catch`], so a panic
//! elsewhere, even at the same moment on another thread, is reported as before.

use std::cell::Cell;
use std::panic::UnwindSafe;

thread_local! {
    static EXPECTED: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f`, turning a panic inside it into `Err` without any hook reporting it.
pub fn catch<R>(f: impl FnOnce() -> R + UnwindSafe) -> std::thread::Result<R> {
    let before = EXPECTED.replace(true);
    let result = std::panic::catch_unwind(f);
    EXPECTED.set(before);
    result
}

/// Whether the current thread's panic is one [`catch`] expects (for panic hooks).
pub fn is_expected() -> bool {
    EXPECTED.get()
}

/// Wraps the installed panic hook so expected panics are silent. Call once at start-up,
/// before any other hook is installed on top.
pub fn install_filter() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if !is_expected() {
            previous(info);
        }
    }));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_caught_panic_is_expected_only_inside_catch() {
        assert!(!is_expected());
        let seen = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let inside = std::sync::Arc::clone(&seen);
        let result = catch(move || {
            inside.store(is_expected(), std::sync::atomic::Ordering::SeqCst);
            panic!("a parser gave up");
        });
        assert!(result.is_err());
        assert!(seen.load(std::sync::atomic::Ordering::SeqCst));
        assert!(!is_expected(), "the flag is cleared after the call");
        assert_eq!(catch(|| 7).ok(), Some(7));
    }
}
