//! Running one program to completion with a deadline. The child gets its own process group
//! and writes stdout/stderr to files (so a grandchild holding a pipe open can never block the
//! test); at the deadline, and after a normal exit, that group is killed so nothing it started
//! outlives the step. A failed step's message carries the command, its exit status, its time
//! and both outputs.

use std::fmt;
use std::fs::File;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::Command;
use std::process::ExitStatus;
use std::process::Stdio;
use std::sync::atomic::AtomicUsize;
use std::sync::atomic::Ordering;
use std::time::Duration;
use std::time::Instant;

/// How one run ended.
pub struct Run {
    pub label: String,
    /// `None` when the deadline killed it.
    pub status: Option<ExitStatus>,
    pub stdout: String,
    pub stderr: String,
    pub elapsed: Duration,
}

impl Run {
    pub fn code(&self) -> Option<i32> {
        self.status.and_then(|s| s.code())
    }

    /// Panics with the whole story unless the program exited 0.
    #[track_caller]
    pub fn ok(self) -> Self {
        assert_eq!(self.code(), Some(0), "{self}");
        self
    }

    /// The stderr lines that are not blank.
    pub fn stderr_lines(&self) -> Vec<String> {
        self.stderr
            .lines()
            .map(str::trim_end)
            .filter(|l| !l.trim().is_empty())
            .map(str::to_string)
            .collect()
    }
}

impl fmt::Display for Run {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ended = match self.status {
            Some(status) => format!("exited with {status}"),
            None => "was killed at its deadline".to_string(),
        };
        write!(
            f,
            "`{}` {ended} after {:.1}s\n--- stdout ---\n{}\n--- stderr ---\n{}\n--------------",
            self.label,
            self.elapsed.as_secs_f64(),
            self.stdout,
            self.stderr
        )
    }
}

static SEQUENCE: AtomicUsize = AtomicUsize::new(0);

/// Run `cmd` (stdin empty) until it exits or `deadline` passes; outputs go to `log_dir`.
pub fn run(mut cmd: Command, label: &str, deadline: Duration, log_dir: &Path) -> Run {
    let n = SEQUENCE.fetch_add(1, Ordering::SeqCst);
    std::fs::create_dir_all(log_dir).unwrap();
    let out_path = log_dir.join(format!("{n:03}.stdout"));
    let err_path = log_dir.join(format!("{n:03}.stderr"));
    cmd.stdin(Stdio::null())
        .stdout(File::create(&out_path).unwrap())
        .stderr(File::create(&err_path).unwrap())
        .process_group(0);
    let started = Instant::now();
    let mut child = cmd
        .spawn()
        .unwrap_or_else(|e| panic!("`{label}`: cannot start: {e}"));
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if started.elapsed() > deadline {
            kill_group(child.id());
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(25));
    };
    // Whatever the program left running in its group (it was our child's group, nobody else's).
    kill_group(child.id());
    Run {
        label: label.to_string(),
        status,
        stdout: std::fs::read_to_string(&out_path).unwrap_or_default(),
        stderr: std::fs::read_to_string(&err_path).unwrap_or_default(),
        elapsed: started.elapsed(),
    }
}

fn kill_group(pid: u32) {
    let Ok(pid) = i32::try_from(pid) else { return };
    // SAFETY: kill(2) with a negative pid signals that process group only; the group is the
    // one `process_group(0)` created for our own child. ESRCH (group gone) is fine.
    unsafe {
        libc::kill(-pid, libc::SIGKILL);
    }
}

#[test]
fn a_deadline_kills_the_program_and_what_it_started() {
    let log_dir = tempfile::tempdir().unwrap();
    let mut cmd = Command::new("sh");
    // The background `sleep` holds no pipe (outputs go to files) and dies with the group.
    cmd.args(["-c", "sleep 30 & echo $! > bg.pid; sleep 30"])
        .current_dir(log_dir.path());
    let done = run(cmd, "sh", Duration::from_millis(300), log_dir.path());
    assert!(done.status.is_none(), "{done}");
    assert!(done.elapsed < Duration::from_secs(5), "{done}");
    let bg = std::fs::read_to_string(log_dir.path().join("bg.pid")).unwrap();
    std::thread::sleep(Duration::from_millis(100));
    // Gone, or a zombie waiting for whoever adopted it to reap it.
    let stat = std::fs::read_to_string(format!("/proc/{}/stat", bg.trim())).unwrap_or_default();
    let state = stat
        .rsplit(')')
        .next()
        .unwrap_or_default()
        .split_whitespace()
        .next();
    assert!(
        matches!(state, None | Some("Z" | "X")),
        "the background process {} outlived its group: {stat}",
        bg.trim()
    );
}

#[test]
fn a_finished_program_reports_its_outputs() {
    let log_dir = tempfile::tempdir().unwrap();
    let mut cmd = Command::new("sh");
    cmd.args(["-c", "echo out; echo err >&2; exit 3"]);
    let done = run(cmd, "sh", Duration::from_secs(30), log_dir.path());
    assert_eq!(done.code(), Some(3));
    assert_eq!(
        (done.stdout.as_str(), done.stderr_lines()),
        ("out\n", vec!["err".to_string()])
    );
}
