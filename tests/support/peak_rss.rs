//! Runs a command to its end and reports what the kernel measured: its peak RSS (`wait4`'s
//! `ru_maxrss`, which `Child::wait` does not give), wall time and exit code. Shared by the
//! output-memory test and benchmark.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;
use std::time::Instant;

/// What one run of a command measured.
pub struct Measured {
    /// Peak resident set, in KiB (Linux reports kilobytes).
    pub peak_kib: u64,
    pub elapsed: Duration,
    /// The exit code, -1 when killed by a signal.
    pub code: i32,
}

pub fn run(cmd: &mut std::process::Command) -> Measured {
    let started = Instant::now();
    // Reaped by `wait4` below.
    #[allow(clippy::zombie_processes)]
    let child = cmd.spawn().unwrap();
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value; wait4 fills it for our own child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `pid` is our child, not waited for yet; both out-pointers are valid.
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let elapsed = started.elapsed();
    assert_eq!(waited, pid, "wait4 failed");
    Measured {
        peak_kib: usage.ru_maxrss as u64,
        elapsed,
        code: if libc::WIFEXITED(status) {
            libc::WEXITSTATUS(status)
        } else {
            -1
        },
    }
}
