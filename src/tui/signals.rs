//! SIGTERM and SIGHUP end the app cleanly (the terminal is restored by the normal exit path).

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

impl Default for Signals {
    fn default() -> Self {
        Self::new()
    }
}
