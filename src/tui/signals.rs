//! SIGTERM and SIGHUP end the app cleanly (the terminal is restored by the normal exit path),
//! and so does the terminal hanging up without a signal (its pty closed while hermes was not in
//! its foreground process group): a thread blocks in `poll` on stdin for `POLLHUP`, so this costs
//! nothing until it happens.
//!
//! A terminal that hung up before the watch began (the pane closed while hermes was starting)
//! no longer reports a hangup to `poll` and fails `isatty` with `EIO`: that counts as hung up.
//!
//! A watchdog backs that up: crossterm's reader loops forever on a hung-up tty (its read
//! returns 0 bytes and it retries), and when that loop is what the UI task is polling, the
//! signal is caught but never acted on — the process stays, spinning a core, after its
//! terminal is gone. The watchdog runs on a runtime worker and exits the process if the app
//! has not stopped within a few seconds of the signal.

use tokio::signal::unix::Signal;
use tokio::signal::unix::SignalKind;
use tokio::signal::unix::signal;

pub struct Signals {
    term: Option<Signal>,
    hup: Option<Signal>,
}

impl Signals {
    pub fn new() -> Self {
        Self {
            term: signal(SignalKind::terminate()).ok(),
            hup: signal(SignalKind::hangup()).ok(),
        }
    }

    /// Resolves when either signal arrives; never, if neither could be installed.
    pub async fn next(&mut self) {
        let term = async {
            match &mut self.term {
                Some(s) => {
                    s.recv().await;
                }
                None => std::future::pending::<()>().await,
            }
        };
        let hup = async {
            match &mut self.hup {
                Some(s) => {
                    s.recv().await;
                }
                None => std::future::pending::<()>().await,
            }
        };
        let mut hung_up = terminal_hangup();
        let gone = async {
            match hung_up.as_mut() {
                Some(rx) => {
                    let _ = rx.wait_for(|gone| *gone).await;
                }
                None => std::future::pending::<()>().await,
            }
        };
        tokio::select! {
            () = term => {}
            () = hup => {}
            () = gone => {}
        }
    }
}

/// Becomes `true` when the terminal on stdin hangs up; `None` when stdin is not a terminal
/// (nothing to watch). One watcher thread per process, started on first use.
fn terminal_hangup() -> Option<tokio::sync::watch::Receiver<bool>> {
    static WATCH: std::sync::OnceLock<Option<tokio::sync::watch::Receiver<bool>>> =
        std::sync::OnceLock::new();
    WATCH
        .get_or_init(|| {
            let (tx, rx) = match terminal_state(libc::STDIN_FILENO) {
                TerminalState::NotATerminal => return None,
                // Gone before anyone watched (the pane closed while hermes was starting):
                // no `poll` would report it now that `isatty` fails, so say so at once.
                TerminalState::HungUp => return Some(tokio::sync::watch::channel(true).1),
                TerminalState::Open => tokio::sync::watch::channel(false),
            };
            let spawned = std::thread::Builder::new()
                .name("hermes-hangup".into())
                .spawn(move || {
                    if wait_for_hangup(libc::STDIN_FILENO) {
                        tracing::warn!("the terminal hung up");
                        let _ = tx.send(true);
                    }
                });
            spawned.ok().map(|_| rx)
        })
        .clone()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TerminalState {
    Open,
    /// A terminal that has hung up: `isatty` fails with `EIO`.
    HungUp,
    NotATerminal,
}

fn terminal_state(fd: libc::c_int) -> TerminalState {
    // SAFETY: isatty only inspects the descriptor.
    if unsafe { libc::isatty(fd) } == 1 {
        return TerminalState::Open;
    }
    match std::io::Error::last_os_error().raw_os_error() {
        Some(libc::EIO) => TerminalState::HungUp,
        _ => TerminalState::NotATerminal,
    }
}

/// Blocks until `fd` reports a hangup, an error or is closed (`true`). With no events asked
/// for, `poll` still reports those three, and sleeps until one happens. `false` if `poll`
/// itself fails (other than being interrupted): then there is nothing to watch.
fn wait_for_hangup(fd: libc::c_int) -> bool {
    loop {
        let mut fds = libc::pollfd {
            fd,
            events: 0,
            revents: 0,
        };
        // SAFETY: one valid pollfd, for the duration of the call.
        let ready = unsafe { libc::poll(&mut fds, 1, -1) };
        if ready > 0 && fds.revents & (libc::POLLHUP | libc::POLLERR | libc::POLLNVAL) != 0 {
            return true;
        }
        if ready < 0 && std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            return false;
        }
    }
}

impl Default for Signals {
    fn default() -> Self {
        Self::new()
    }
}

/// Exit the process (status 129) when SIGHUP or SIGTERM has not stopped the app within
/// `grace`. Completed messages are already in `state.db`; a normal exit ends this task first.
pub fn spawn_exit_watchdog(grace: std::time::Duration) {
    tokio::spawn(async move {
        let mut signals = Signals::new();
        signals.next().await;
        tokio::time::sleep(grace).await;
        tracing::warn!(
            "the app did not stop within {grace:?} of a hangup/terminate signal; exiting"
        );
        std::process::exit(129);
    });
}

#[cfg(test)]
mod tests {
    /// A pseudo-terminal: (master, slave) descriptors the test closes.
    fn open_pty() -> (libc::c_int, libc::c_int) {
        let (mut master, mut slave) = (0, 0);
        // SAFETY: openpty fills two descriptors the caller owns and closes.
        let opened = unsafe {
            libc::openpty(
                &mut master,
                &mut slave,
                std::ptr::null_mut(),
                std::ptr::null(),
                std::ptr::null(),
            )
        };
        assert_eq!(opened, 0);
        (master, slave)
    }

    #[test]
    fn a_closed_pty_is_a_hangup_and_an_open_one_is_not() {
        let (master, slave) = open_pty();
        let watcher = std::thread::spawn(move || super::wait_for_hangup(slave));
        std::thread::sleep(std::time::Duration::from_millis(200));
        assert!(!watcher.is_finished(), "an open terminal is not a hangup");
        // SAFETY: closing our own descriptor.
        unsafe { libc::close(master) };
        assert!(watcher.join().unwrap());
        // SAFETY: closing our own descriptor.
        unsafe { libc::close(slave) };
    }

    #[test]
    fn a_terminal_that_hung_up_before_it_was_watched_reads_as_hung_up() {
        use super::TerminalState;
        let (master, slave) = open_pty();
        assert_eq!(super::terminal_state(slave), TerminalState::Open);
        // SAFETY: closing our own descriptor.
        unsafe { libc::close(master) };
        assert_eq!(super::terminal_state(slave), TerminalState::HungUp);
        // SAFETY: closing our own descriptor.
        unsafe { libc::close(slave) };
        let mut fds = [0; 2];
        // SAFETY: pipe fills two descriptors we own and close below.
        assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
        assert_eq!(super::terminal_state(fds[0]), TerminalState::NotATerminal);
        // SAFETY: closing our own descriptors.
        unsafe {
            libc::close(fds[0]);
            libc::close(fds[1]);
        }
    }
}
