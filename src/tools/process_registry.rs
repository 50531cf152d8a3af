//! The session's background processes: started by `terminal(background=true)`, inspected and
//! controlled by the `process` tool.
//!
//! Each process runs in its own process group with stdin piped; two reader tasks append its
//! stdout and stderr to a bounded `OutputBuffer` (the first 16 KB and the last 200,000 bytes)
//! and a waiter task records the exit status. The registry belongs to one `SessionTools`, so
//! other sessions cannot see its processes. Invariants: dropping the registry (or calling
//! `kill_all`) SIGKILLs every process group still running; at most `MAX_FINISHED` finished
//! processes are retained; output is never unbounded.

use std::path::Path;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::MutexGuard;
use std::sync::PoisonError;
use std::time::Duration;
use std::time::Instant;

use tokio::io::AsyncWriteExt;
use tokio::process::ChildStdin;
use tokio::sync::mpsc;
use tokio::sync::watch;

use crate::tools::output::OutputBuffer;
use crate::util::process;
use crate::util::process::StdinMode;

const HEAD_BYTES: usize = 16 * 1024;
/// Rolling output kept per process, as Hermes keeps the last 200,000 characters.
pub const TAIL_BYTES: usize = 200_000;
/// Finished processes kept for `list`/`log` before the oldest are forgotten.
const MAX_FINISHED: usize = 64;
/// After the shell exits, how long to wait for its pipes to close before giving up on them.
const PIPE_GRACE: Duration = Duration::from_secs(1);

#[derive(Debug, thiserror::Error)]
pub enum ProcessError {
    #[error("could not start the command: {0}")]
    Spawn(#[from] std::io::Error),
    #[error("no background process {0} in this session; use action=list to see them")]
    NotFound(String),
    #[error("{0} has exited; its stdin is closed")]
    Exited(String),
    #[error("writing to the stdin of {id} failed: {source}")]
    Write { id: String, source: std::io::Error },
}

/// How a background process is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProcState {
    Running,
    Exited {
        code: Option<i32>,
        signal: Option<i32>,
    },
}

impl ProcState {
    pub fn label(&self) -> &'static str {
        match self {
            ProcState::Running => "running",
            ProcState::Exited {
                signal: Some(_), ..
            } => "killed",
            ProcState::Exited { .. } => "exited",
        }
    }
}

struct Inner {
    output: OutputBuffer,
    /// Absolute output offset up to which `poll` has already reported.
    polled: u64,
    state: ProcState,
    finished_at: Option<Instant>,
}

pub struct BackgroundProcess {
    pub id: String,
    pub pid: u32,
    pub command: String,
    started: Instant,
    inner: Mutex<Inner>,
    stdin: tokio::sync::Mutex<Option<ChildStdin>>,
    done: watch::Sender<bool>,
}

/// A snapshot for `list` and `poll`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProcInfo {
    pub id: String,
    pub pid: u32,
    pub command: String,
    pub state: ProcState,
    pub runtime: Duration,
}

impl BackgroundProcess {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub fn info(&self) -> ProcInfo {
        let inner = self.lock();
        let end = inner.finished_at.unwrap_or_else(Instant::now);
        ProcInfo {
            id: self.id.clone(),
            pid: self.pid,
            command: self.command.clone(),
            state: inner.state,
            runtime: end.duration_since(self.started),
        }
    }

    pub fn is_running(&self) -> bool {
        self.lock().state == ProcState::Running
    }

    /// Output not yet returned by a previous `take_new_output`, capped to `max_bytes`.
    pub fn take_new_output(&self, max_bytes: usize) -> String {
        let mut inner = self.lock();
        let text = inner.output.render_since(inner.polled, max_bytes);
        inner.polled = inner.output.total();
        text
    }

    /// All retained output, capped head + tail to `max_bytes`.
    pub fn log(&self, max_bytes: usize) -> String {
        self.lock().output.render(max_bytes)
    }

    /// Wait until the process has exited (true) or `timeout` passed (false).
    pub async fn wait(&self, timeout: Duration) -> bool {
        let mut rx = self.done.subscribe();
        matches!(
            tokio::time::timeout(timeout, rx.wait_for(|done| *done)).await,
            Ok(Ok(_))
        )
    }

    /// SIGKILL the process group if it is still running. Returns whether it was running.
    pub fn kill(&self) -> bool {
        let running = self.is_running();
        if running {
            process::kill_group(self.pid);
        }
        running
    }

    pub async fn write(&self, data: &[u8]) -> Result<(), ProcessError> {
        if !self.is_running() {
            return Err(ProcessError::Exited(self.id.clone()));
        }
        let mut stdin = self.stdin.lock().await;
        let Some(pipe) = stdin.as_mut() else {
            return Err(ProcessError::Exited(self.id.clone()));
        };
        let result = async {
            pipe.write_all(data).await?;
            pipe.flush().await
        }
        .await;
        result.map_err(|source| ProcessError::Write {
            id: self.id.clone(),
            source,
        })
    }
}

/// The background processes of one session.
#[derive(Default)]
pub struct ProcessRegistry {
    procs: Mutex<Vec<Arc<BackgroundProcess>>>,
}

impl ProcessRegistry {
    fn lock(&self) -> MutexGuard<'_, Vec<Arc<BackgroundProcess>>> {
        self.procs.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Start `command` in `cwd` in the background; returns its id (`proc_…`) and pid.
    /// Must be called inside a tokio runtime.
    pub fn start(
        &self,
        command: &str,
        cwd: &Path,
        env: &[(String, String)],
        confine: Option<&process::Confine>,
    ) -> Result<(String, u32), ProcessError> {
        let mut child = process::spawn_confined(command, cwd, StdinMode::Piped, env, confine)?;
        let pid = child.id().unwrap_or(0);
        let id = format!("proc_{}", &uuid::Uuid::new_v4().simple().to_string()[..12]);
        let (done, _) = watch::channel(false);
        let proc = Arc::new(BackgroundProcess {
            id: id.clone(),
            pid,
            command: command.to_string(),
            started: Instant::now(),
            inner: Mutex::new(Inner {
                output: OutputBuffer::new(HEAD_BYTES, TAIL_BYTES),
                polled: 0,
                state: ProcState::Running,
                finished_at: None,
            }),
            stdin: tokio::sync::Mutex::new(child.stdin.take()),
            done,
        });

        let (tx, mut rx) = mpsc::channel(64);
        let mut readers = Vec::new();
        if let Some(out) = child.stdout.take() {
            readers.push(process::spawn_reader(
                out,
                process::Stream::Stdout,
                tx.clone(),
            ));
        }
        if let Some(err) = child.stderr.take() {
            readers.push(process::spawn_reader(err, process::Stream::Stderr, tx));
        }
        let collector = {
            let proc = Arc::clone(&proc);
            tokio::spawn(async move {
                while let Some((_, bytes)) = rx.recv().await {
                    proc.lock().output.push(&bytes);
                }
            })
        };
        let waiter_proc = Arc::clone(&proc);
        tokio::spawn(async move {
            let status = child.wait().await;
            // Leftover grandchildren may keep the pipes open; do not wait on them forever.
            let _ = tokio::time::timeout(PIPE_GRACE, collector).await;
            for reader in readers {
                reader.abort();
            }
            waiter_proc.stdin.lock().await.take();
            {
                use std::os::unix::process::ExitStatusExt;
                let mut inner = waiter_proc.lock();
                inner.state = match status {
                    Ok(s) => ProcState::Exited {
                        code: s.code(),
                        signal: s.signal(),
                    },
                    Err(_) => ProcState::Exited {
                        code: None,
                        signal: None,
                    },
                };
                inner.finished_at = Some(Instant::now());
            }
            waiter_proc.done.send_replace(true);
        });

        let mut procs = self.lock();
        procs.push(proc);
        prune_finished(&mut procs);
        Ok((id, pid))
    }

    pub fn get(&self, id: &str) -> Result<Arc<BackgroundProcess>, ProcessError> {
        // Accept the bare id too, in case the model drops the prefix.
        let wanted = if id.starts_with("proc_") {
            id.to_string()
        } else {
            format!("proc_{id}")
        };
        self.lock()
            .iter()
            .find(|p| p.id == wanted)
            .cloned()
            .ok_or_else(|| ProcessError::NotFound(id.to_string()))
    }

    /// All processes, oldest first.
    pub fn list(&self) -> Vec<ProcInfo> {
        self.lock().iter().map(|p| p.info()).collect()
    }

    /// SIGKILL every running process group.
    pub fn kill_all(&self) {
        for proc in self.lock().iter() {
            proc.kill();
        }
    }
}

impl Drop for ProcessRegistry {
    fn drop(&mut self) {
        self.kill_all();
    }
}

fn prune_finished(procs: &mut Vec<Arc<BackgroundProcess>>) {
    let finished = procs.iter().filter(|p| !p.is_running()).count();
    let mut excess = finished.saturating_sub(MAX_FINISHED);
    procs.retain(|p| {
        if excess > 0 && !p.is_running() {
            excess -= 1;
            return false;
        }
        true
    });
}
