//! `@diff`: the working tree's `git diff` and the index's `git diff --cached`, all within one
//! `GIT_TIMEOUT`, with external diff drivers and textconv filters off (a repository's config
//! must not run programs), and output kept to a byte cap (the rest is drained and counted).

use std::io::Read;
use std::path::Path;
use std::process::Child;
use std::process::Command;
use std::process::Stdio;
use std::thread;
use std::time::Duration;
use std::time::Instant;

use super::ReferenceError;

/// How long the git commands for one `@diff` may run in all.
pub(super) const GIT_TIMEOUT: Duration = Duration::from_secs(5);
const POLL: Duration = Duration::from_millis(10);

/// Output of one git command: the first `cap` bytes and the total size.
#[derive(Debug)]
pub(super) struct GitOutput {
    pub text: String,
    pub size: u64,
}

/// One non-empty part of the diff: which command and what it printed.
#[derive(Debug)]
pub(super) struct DiffPart {
    pub command: &'static str,
    pub output: GitOutput,
}

/// The unstaged then the staged diff (empty ones left out) for the repository around `cwd`.
pub(super) fn diff(cwd: &Path, cap: usize) -> Result<Vec<DiffPart>, ReferenceError> {
    let deadline = Instant::now() + GIT_TIMEOUT;
    let inside = run(cwd, &["rev-parse", "--is-inside-work-tree"], 64, deadline)?;
    if inside.text.trim() != "true" {
        return Err(ReferenceError::NotARepo);
    }
    let mut parts = Vec::new();
    for (command, args) in [
        ("git diff", &["diff"][..]),
        ("git diff --cached", &["diff", "--cached"][..]),
    ] {
        let mut argv = args.to_vec();
        argv.extend(["--no-color", "--no-ext-diff", "--no-textconv"]);
        let output = run(cwd, &argv, cap, deadline)?;
        if !output.text.trim().is_empty() {
            parts.push(DiffPart { command, output });
        }
    }
    Ok(parts)
}

fn run(
    cwd: &Path,
    args: &[&str],
    cap: usize,
    deadline: Instant,
) -> Result<GitOutput, ReferenceError> {
    let mut child = Command::new("git")
        .args(["-c", "core.fsmonitor=false", "-c", "core.quotepath=false"])
        .args(args)
        .current_dir(cwd)
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_OPTIONAL_LOCKS", "0")
        .env("GIT_PAGER", "cat")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|err| match err.kind() {
            std::io::ErrorKind::NotFound => ReferenceError::GitMissing,
            _ => ReferenceError::Git(err.to_string()),
        })?;
    let Some(stdout) = child.stdout.take() else {
        return Err(ReferenceError::Git("no output pipe".to_owned()));
    };
    let reader = thread::spawn(move || read_capped(stdout, cap));
    let status = wait_until(&mut child, deadline)?;
    let (bytes, size) = reader
        .join()
        .map_err(|_| ReferenceError::Git("output reader failed".to_owned()))?
        .map_err(|err| ReferenceError::Git(err.to_string()))?;
    if !status.success() {
        // Outside a repository rev-parse fails; that is the one failure worth naming.
        if args.first() == Some(&"rev-parse") {
            return Err(ReferenceError::NotARepo);
        }
        return Err(ReferenceError::Git(format!("git exited with {status}")));
    }
    let mut text = String::from_utf8_lossy(&bytes).into_owned();
    if bytes.len() as u64 == size {
        // Whole output: nothing was cut.
    } else if let Some(last) = text.rfind('\n') {
        text.truncate(last + 1);
    }
    Ok(GitOutput { text, size })
}

/// Waits for `child` until `deadline`, then kills it.
pub(super) fn wait_until(
    child: &mut Child,
    deadline: Instant,
) -> Result<std::process::ExitStatus, ReferenceError> {
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Ok(status),
            Ok(None) if Instant::now() >= deadline => {
                // Best effort: the process may have just exited.
                let _ = child.kill();
                let _ = child.wait();
                return Err(ReferenceError::GitTimeout);
            }
            Ok(None) => thread::sleep(POLL),
            Err(err) => return Err(ReferenceError::Git(err.to_string())),
        }
    }
}

/// Reads everything (so the child never blocks on a full pipe), keeping the first `cap` bytes.
fn read_capped(mut from: impl Read, cap: usize) -> std::io::Result<(Vec<u8>, u64)> {
    let mut kept = Vec::new();
    let mut total = 0u64;
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let n = from.read(&mut buf)?;
        if n == 0 {
            return Ok((kept, total));
        }
        total += n as u64;
        let room = cap.saturating_sub(kept.len());
        kept.extend_from_slice(&buf[..n.min(room)]);
    }
}
