//! Running the script: `python script.py` in its own process group, stdout kept as head +
//! tail (50 KB), stderr as head (10 KB), stopped at the timeout (SIGTERM, SIGKILL 5 s later)
//! or at once on an interrupt, and the whole group killed when the script ends, so a child
//! it forked does not outlive it.
//!
//! It does not decide what the script may do (the sandbox's confinement is passed in) and
//! does not shape the result (`result`). Memory is bounded by the output caps whatever the
//! script prints.

use std::ffi::OsString;
use std::path::Path;
use std::time::Duration;
use std::time::Instant;

use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use crate::tools::output::OutputBuffer;
use crate::util::process;
use crate::util::process::Confine;
use crate::util::process::Stream;

/// Hermes's caps: 50 KB of stdout (40 % head, 60 % tail) and 10 KB of stderr (head).
pub const MAX_STDOUT_BYTES: usize = 50_000;
pub const STDOUT_HEAD_BYTES: usize = MAX_STDOUT_BYTES * 2 / 5;
pub const MAX_STDERR_BYTES: usize = 10_000;
/// Between SIGTERM and SIGKILL at the timeout.
pub const TERM_GRACE: Duration = Duration::from_secs(5);
/// How long output still in the pipes is read after the group is gone.
const DRAIN_MAX: Duration = Duration::from_secs(2);
/// How often `on_tick` is called while the script runs.
const TICK: Duration = Duration::from_secs(1);

/// How the run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// The script exited with this code (`128 + signal` when a signal killed it).
    Exited(i32),
    TimedOut,
    Interrupted,
}

/// A finished run.
pub struct Finished {
    pub ending: Ending,
    pub stdout: OutputBuffer,
    pub stderr: OutputBuffer,
    pub duration: Duration,
}

/// What to run and where.
pub struct Launch<'a> {
    pub argv: Vec<OsString>,
    pub cwd: &'a Path,
    pub env: &'a [(String, String)],
    pub confine: Option<&'a Confine>,
    pub timeout: Duration,
}

/// Run `launch` to its end; `on_tick` is called every second while it runs.
pub async fn run(
    launch: Launch<'_>,
    cancel: &CancellationToken,
    on_tick: &(dyn Fn() + Send + Sync),
) -> std::io::Result<Finished> {
    let started = Instant::now();
    let mut child =
        process::spawn_program_confined(&launch.argv, launch.cwd, launch.env, launch.confine)?;
    let pid = child.id().unwrap_or(0);
    let (tx, mut rx) = mpsc::channel::<(Stream, Vec<u8>)>(64);
    let mut readers = Vec::new();
    if let Some(out) = child.stdout.take() {
        readers.push(process::spawn_reader(out, Stream::Stdout, tx.clone()));
    }
    if let Some(err) = child.stderr.take() {
        readers.push(process::spawn_reader(err, Stream::Stderr, tx.clone()));
    }
    drop(tx);
    let mut outputs = Outputs {
        stdout: OutputBuffer::new(STDOUT_HEAD_BYTES, MAX_STDOUT_BYTES - STDOUT_HEAD_BYTES),
        stderr: OutputBuffer::new(MAX_STDERR_BYTES, 0),
    };
    let deadline = tokio::time::sleep(launch.timeout);
    tokio::pin!(deadline);
    let mut ticker = tokio::time::interval_at(tokio::time::Instant::now() + TICK, TICK);
    let mut open = true;
    let ending = loop {
        tokio::select! {
            () = cancel.cancelled() => {
                process::kill_group(pid);
                let _ = child.wait().await;
                break Ending::Interrupted;
            }
            () = &mut deadline => {
                process::signal_group(pid, libc::SIGTERM);
                if tokio::time::timeout(TERM_GRACE, child.wait()).await.is_err() {
                    process::kill_group(pid);
                    let _ = child.wait().await;
                }
                break Ending::TimedOut;
            }
            _ = ticker.tick() => on_tick(),
            chunk = rx.recv(), if open => match chunk {
                Some(chunk) => outputs.push(chunk),
                None => open = false,
            },
            status = child.wait() => break Ending::Exited(match status {
                Ok(status) => crate::tools::terminal::exit_code(status),
                Err(_) => -1,
            }),
        }
    };
    // Whatever the script left running in its group goes with it.
    process::kill_group(pid);
    let until = tokio::time::Instant::now() + DRAIN_MAX;
    while let Ok(Some(chunk)) = tokio::time::timeout_at(until, rx.recv()).await {
        outputs.push(chunk);
    }
    for reader in readers {
        reader.abort();
    }
    Ok(Finished {
        ending,
        stdout: outputs.stdout,
        stderr: outputs.stderr,
        duration: started.elapsed(),
    })
}

struct Outputs {
    stdout: OutputBuffer,
    stderr: OutputBuffer,
}

impl Outputs {
    fn push(&mut self, (stream, bytes): (Stream, Vec<u8>)) {
        match stream {
            Stream::Stdout => self.stdout.push(&bytes),
            Stream::Stderr => self.stderr.push(&bytes),
        }
    }
}
