//! While the full-screen UI owns the terminal, anything written to stderr — by C libraries
//! such as ALSA ("ALSA lib confmisc.c: cannot find card '0'") or whisper.cpp — would be drawn
//! over the screen. [`capture_to`] points file descriptor 2 at a log file instead;
//! [`release`] gives the real stderr back (on exit, on a panic, before `$EDITOR` runs) and
//! [`recapture`] points it at the file again.
//!
//! Invariants: the original stderr is kept in one saved descriptor and restored exactly once
//! per capture; everything is a no-op where it cannot work (non-Unix, no log file).

use std::path::Path;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::PoisonError;

/// The saved real stderr (a dup of fd 2) while captured, and the log file's path.
struct State {
    saved: Option<i32>,
    path: Option<PathBuf>,
}

static STATE: Mutex<State> = Mutex::new(State {
    saved: None,
    path: None,
});

/// Send fd 2 to `path` (appended, created 0600) until [`release`].
pub fn capture_to(path: &Path) -> std::io::Result<()> {
    let mut state = STATE.lock().unwrap_or_else(PoisonError::into_inner);
    state.path = Some(path.to_path_buf());
    capture(&mut state)
}

/// Give the real stderr back.
pub fn release() {
    let mut state = STATE.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(saved) = state.saved.take() {
        #[cfg(unix)]
        // SAFETY: `saved` is a descriptor this module duplicated from fd 2 and still owns.
        unsafe {
            libc::dup2(saved, 2);
            libc::close(saved);
        }
    }
}

/// Capture again after [`release`], into the same file.
pub fn recapture() -> std::io::Result<()> {
    let mut state = STATE.lock().unwrap_or_else(PoisonError::into_inner);
    capture(&mut state)
}

#[cfg(unix)]
fn capture(state: &mut State) -> std::io::Result<()> {
    use std::os::fd::AsRawFd;
    use std::os::unix::fs::OpenOptionsExt;
    let Some(path) = state.path.clone() else {
        return Ok(());
    };
    if state.saved.is_some() {
        return Ok(());
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .mode(0o600)
        .open(&path)?;
    // SAFETY: plain descriptor calls on fd 2 and on a file this function holds open.
    unsafe {
        let saved = libc::dup(2);
        if saved < 0 {
            return Err(std::io::Error::last_os_error());
        }
        if libc::dup2(file.as_raw_fd(), 2) < 0 {
            let err = std::io::Error::last_os_error();
            libc::close(saved);
            return Err(err);
        }
        state.saved = Some(saved);
    }
    Ok(())
}

#[cfg(not(unix))]
fn capture(_state: &mut State) -> std::io::Result<()> {
    Ok(())
}
