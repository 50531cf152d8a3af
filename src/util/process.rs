//! Spawning shell commands in their own process group, reading their output, and killing the
//! whole group.
//!
//! Commands run as `bash -c COMMAND` (or `sh -c` when bash is missing) with stdout and stderr
//! piped and a fresh process group, so a timeout or cancellation can kill every process the
//! command started (`kill(-pgid, SIGKILL)`), not only the shell. Used by the terminal and
//! process tools, voice's command STT/TTS and the shell hooks. A `Confine` (built by the
//! sandbox, `safety::sandbox`) wraps the shell in a program or applies a step in the child
//! between fork and exec. It does not decide whether a command may run (that is the
//! `CommandPolicy`) or what a confinement allows, and does not shape output (`tools::output`).

use std::ffi::OsString;
use std::path::Path;
use std::process::Stdio;
use std::sync::Arc;
use std::sync::OnceLock;

use tokio::io::AsyncRead;
use tokio::io::AsyncReadExt;
use tokio::process::Child;
use tokio::process::Command;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

/// Whether the child gets a writable stdin (background processes) or none (foreground).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StdinMode {
    Null,
    Piped,
}

/// Which pipe a chunk came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    Stdout,
    Stderr,
}

/// `bash` if it is on `PATH`, else `sh`. Looked up once.
pub fn shell_program() -> &'static str {
    static SHELL: OnceLock<&'static str> = OnceLock::new();
    SHELL.get_or_init(|| {
        let found = std::env::var_os("PATH")
            .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join("bash").is_file()));
        if found { "bash" } else { "sh" }
    })
}

/// A step run in the child between fork and exec. It must be async-signal-safe: raw system
/// calls on data prepared in the parent, no allocation, no locks.
pub type ChildStep = Arc<dyn Fn() -> std::io::Result<()> + Send + Sync>;

/// How a command is confined: a wrapper program the shell runs under (`sandbox-exec -p …`
/// on macOS), and/or a step in the child before exec (Landlock on Linux). A failing step
/// makes the spawn fail: a command never runs less confined than asked.
#[derive(Clone, Default)]
pub struct Confine {
    pub wrapper: Vec<OsString>,
    pub in_child: Option<ChildStep>,
}

/// Start `command` in `cwd` in a new process group with stdout and stderr piped.
pub fn spawn(
    command: &str,
    cwd: &Path,
    stdin: StdinMode,
    env: &[(String, String)],
) -> std::io::Result<Child> {
    spawn_confined(command, cwd, stdin, env, None)
}

/// `spawn`, confined by `confine` when given.
pub fn spawn_confined(
    command: &str,
    cwd: &Path,
    stdin: StdinMode,
    env: &[(String, String)],
    confine: Option<&Confine>,
) -> std::io::Result<Child> {
    let mut cmd = match confine.and_then(|c| c.wrapper.split_first()) {
        Some((program, args)) => {
            let mut cmd = Command::new(program);
            cmd.args(args).arg(shell_program());
            cmd
        }
        None => Command::new(shell_program()),
    };
    if let Some(step) = confine.and_then(|c| c.in_child.clone()) {
        // SAFETY: the step only makes raw system calls on data prepared before the fork
        // (the `ChildStep` contract), which is what a pre-exec hook may do.
        unsafe {
            cmd.pre_exec(move || step());
        }
    }
    // Variables already set in the process win, as when Hermes loads `.env`.
    for (key, value) in env {
        if std::env::var_os(key).is_none() {
            cmd.env(key, value);
        }
    }
    cmd.arg("-c")
        .arg(command)
        .current_dir(cwd)
        .stdin(match stdin {
            StdinMode::Null => Stdio::null(),
            StdinMode::Piped => Stdio::piped(),
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // Group id = the shell's pid, so `kill_group(pid)` reaches all its descendants.
        .process_group(0)
        // Last resort if a handle is dropped without an explicit kill.
        .kill_on_drop(true);
    cmd.spawn()
}

/// Start `argv` (a program and its arguments, no shell) in `cwd` in a new process group, with
/// exactly `env` as its environment (nothing inherited: the caller has scrubbed it), stdin
/// closed and stdout/stderr piped; confined by `confine` when given.
pub fn spawn_program_confined(
    argv: &[OsString],
    cwd: &Path,
    env: &[(String, String)],
    confine: Option<&Confine>,
) -> std::io::Result<Child> {
    let wrapper = confine.map_or(&[][..], |c| c.wrapper.as_slice());
    let mut full = wrapper.iter().chain(argv);
    let Some(program) = full.next() else {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "no program to run",
        ));
    };
    let mut cmd = Command::new(program);
    cmd.args(full);
    if let Some(step) = confine.and_then(|c| c.in_child.clone()) {
        // SAFETY: as in `spawn_confined`: the step only makes raw system calls on data
        // prepared before the fork.
        unsafe {
            cmd.pre_exec(move || step());
        }
    }
    cmd.env_clear()
        .envs(env.iter().map(|(k, v)| (k, v)))
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .kill_on_drop(true);
    cmd.spawn()
}

/// Send `signal` to every process in the group led by `pid`. Harmless if the group is gone.
pub fn signal_group(pid: u32, signal: libc::c_int) {
    let Ok(pgid) = libc::pid_t::try_from(pid) else {
        return;
    };
    if pgid <= 1 {
        return; // Never signal "every process" (-1) or our own group (0).
    }
    // SAFETY: kill(2) with a negative pid only sends a signal; no memory is involved.
    unsafe {
        libc::kill(-pgid, signal);
    }
}

/// SIGKILL every process in the group led by `pid`. Harmless if the group is gone.
pub fn kill_group(pid: u32) {
    let Ok(pgid) = libc::pid_t::try_from(pid) else {
        return;
    };
    if pgid <= 1 {
        return; // Never signal "every process" (-1) or our own group (0).
    }
    // SAFETY: kill(2) with a negative pid only sends a signal; no memory is involved.
    unsafe {
        libc::kill(-pgid, libc::SIGKILL);
    }
}

/// Read `reader` to EOF in a task, sending chunks tagged with `stream` to `tx`.
pub fn spawn_reader<R>(
    mut reader: R,
    stream: Stream,
    tx: mpsc::Sender<(Stream, Vec<u8>)>,
) -> JoinHandle<()>
where
    R: AsyncRead + Unpin + Send + 'static,
{
    tokio::spawn(async move {
        let mut buf = vec![0u8; 16 * 1024];
        loop {
            match reader.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    if tx.send((stream, buf[..n].to_vec())).await.is_err() {
                        break;
                    }
                }
            }
        }
    })
}
