//! An exclusive advisory lock (`flock`) on a lock file, polled until a deadline and released
//! on drop. Used so two sessions (or two threads) never interleave read-modify-write cycles
//! on the memory files or on `auth.json` (whose lock file is shared with Python Hermes,
//! which takes the same `flock`).
//!
//! What it does not do: lock the data file itself (that is replaced by rename, which would
//! drop the lock), or protect against writers that do not take the lock. Invariants: `flock`
//! locks belong to the open file description, so two handles in one process exclude each
//! other like two processes do; the lock is held exactly as long as the `FileLock` lives. On
//! non-Unix targets locking is a no-op.

use std::path::Path;
use std::time::Duration;
use std::time::Instant;

/// How often a waiting acquirer retries.
const POLL: Duration = Duration::from_millis(15);

/// A held lock; dropping it releases the lock.
#[derive(Debug)]
pub struct FileLock {
    #[cfg_attr(not(unix), allow(dead_code))]
    file: std::fs::File,
}

impl FileLock {
    /// Open (creating) `path` and lock it exclusively, waiting at most `timeout`. A timeout is
    /// an `io::Error` of kind `TimedOut`.
    pub fn acquire(path: &Path, timeout: Duration) -> std::io::Result<FileLock> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(path)?;
        let started = Instant::now();
        loop {
            if try_lock(&file)? {
                return Ok(FileLock { file });
            }
            if started.elapsed() >= timeout {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::TimedOut,
                    format!("lock {} held by someone else", path.display()),
                ));
            }
            std::thread::sleep(POLL);
        }
    }
}

#[cfg(unix)]
fn try_lock(file: &std::fs::File) -> std::io::Result<bool> {
    use std::os::unix::io::AsRawFd;
    // SAFETY: the descriptor is owned by `file`, which outlives the call.
    let rc = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
    if rc == 0 {
        return Ok(true);
    }
    let err = std::io::Error::last_os_error();
    match err.raw_os_error() {
        Some(code) if code == libc::EWOULDBLOCK || code == libc::EINTR => Ok(false),
        _ => Err(err),
    }
}

#[cfg(not(unix))]
fn try_lock(_file: &std::fs::File) -> std::io::Result<bool> {
    Ok(true)
}

impl Drop for FileLock {
    fn drop(&mut self) {
        #[cfg(unix)]
        {
            use std::os::unix::io::AsRawFd;
            // SAFETY: as above; closing the file would release the lock anyway.
            unsafe {
                libc::flock(self.file.as_raw_fd(), libc::LOCK_UN);
            }
        }
    }
}

#[cfg(test)]
#[path = "file_lock_tests.rs"]
mod tests;
