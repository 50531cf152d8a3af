//! SIGTERM and SIGHUP in headless mode (`timeout`, a cancelled CI job, `docker stop`, a dropped
//! ssh session): the run stops the way Ctrl+C twice would, but first shuts the session down so
//! the running tool's process group is killed and the cancelled result is stored, then exits
//! with 128 + the signal's number and one line on stderr saying why.
//!
//! Not here: SIGINT (Ctrl+C interrupts the turn first, see `run_one_shot`). Invariant: the
//! handlers are installed before the first op is sent, so a signal that arrives while the run
//! waits for an answer on the terminal is still seen (tokio keeps it until polled).

use tokio::signal::unix::Signal;
use tokio::signal::unix::SignalKind;
use tokio::signal::unix::signal;

/// A signal that ends a headless run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    Terminate,
    Hangup,
}

impl Ending {
    pub fn name(self) -> &'static str {
        match self {
            Self::Terminate => "SIGTERM",
            Self::Hangup => "SIGHUP",
        }
    }

    /// The shell's convention: 128 + the signal's number.
    pub fn exit_code(self) -> i32 {
        match self {
            Self::Terminate => super::exit_code::TERMINATED,
            Self::Hangup => super::exit_code::HUNG_UP,
        }
    }
}

pub struct EndingSignals {
    term: Option<Signal>,
    hup: Option<Signal>,
}

impl EndingSignals {
    /// Installs the handlers (from now on neither signal kills the process by itself).
    pub fn install() -> Self {
        Self {
            term: signal(SignalKind::terminate()).ok(),
            hup: signal(SignalKind::hangup()).ok(),
        }
    }

    /// Resolves with the first of the two to arrive; never, if neither could be installed.
    pub async fn next(&mut self) -> Ending {
        let term = wait(self.term.as_mut());
        let hup = wait(self.hup.as_mut());
        tokio::select! {
            () = term => Ending::Terminate,
            () = hup => Ending::Hangup,
        }
    }
}

async fn wait(signal: Option<&mut Signal>) {
    match signal {
        Some(s) => {
            s.recv().await;
        }
        None => std::future::pending::<()>().await,
    }
}

/// How long the session gets to stop its tools and save before the run exits anyway (under
/// `docker stop`'s 10 s).
const SHUTDOWN_GRACE: std::time::Duration = std::time::Duration::from_secs(5);

/// End the run after `ending`: shut the session down (its turn is cancelled, every process
/// group it started is killed, the cancelled results are stored), then say so in one line.
pub(super) async fn end_run(
    ending: Ending,
    handle: &mut crate::protocol::SessionHandle,
    printer: &mut super::Printer<'_>,
) -> super::HeadlessReport {
    tracing::warn!(signal = ending.name(), "headless run ended by a signal");
    let stopped = tokio::time::timeout(SHUTDOWN_GRACE, super::shut_down(handle, printer))
        .await
        .is_ok();
    let what = if stopped {
        "the turn and its commands were stopped and the session saved (hermes -c continues it)"
    } else {
        "the session did not finish stopping in time; hermes -c continues it"
    };
    printer.line_err(&format!("hermes: {} received: {what}", ending.name()));
    super::HeadlessReport {
        outcome: crate::protocol::TurnOutcome::Interrupted {
            done: ending.name().to_string(),
        },
        answer: String::new(),
        exit_code: ending.exit_code(),
    }
}
