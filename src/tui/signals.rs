//! SIGTERM and SIGHUP end the app cleanly (the terminal is restored by the normal exit path).
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
        tokio::select! {
            () = term => {}
            () = hup => {}
        }
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

impl Default for Signals {
    fn default() -> Self {
        Self::new()
    }
}
