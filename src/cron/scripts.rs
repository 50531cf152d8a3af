//! A job's script, as Hermes's `_run_job_script`: it must resolve inside
//! `HERMES_HOME/scripts/` (relative, absolute or `~` paths alike); `.sh`/`.bash` run with
//! bash, anything else with `python3`; the environment has every secret-named variable
//! removed; output is redacted; a script that outlives its timeout is killed with its whole
//! process group. The last stdout line `{"wakeAgent": false}` is the gate that skips the
//! agent for that tick.
//!
//! What it does not do: decide what the output means for delivery (`scheduler`).
//! Invariants: the result text is what the user or the model may see — bounded (1 MiB per
//! stream) and redacted.

use std::path::Path;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use process_wrap::tokio::CommandWrap;
use process_wrap::tokio::KillOnDrop;
use process_wrap::tokio::ProcessGroup;
use tokio::io::AsyncRead;
use tokio::io::AsyncReadExt;

use super::CronError;
use crate::util::redact::is_secret_name;
use crate::util::redact::redact;

/// Bytes kept of each stream.
const STREAM_CAP: usize = 1 << 20;

/// How a script run ended: `Ok(stdout)` or `Err(message)` naming what went wrong.
pub type ScriptResult = Result<String, String>;

/// Where `script` points when it stays inside `scripts_dir`.
pub fn resolve_script(scripts_dir: &Path, script: &str) -> Result<PathBuf, CronError> {
    let raw = crate::util::paths::resolve_path(scripts_dir, script.trim());
    let base = std::fs::canonicalize(scripts_dir).unwrap_or_else(|_| scripts_dir.to_path_buf());
    let resolved = canonical_lenient(&lexical(&raw));
    if !resolved.starts_with(&base) {
        return Err(CronError::Invalid(format!(
            "Blocked: script path resolves outside the scripts directory ({}): '{}'",
            base.display(),
            script.trim()
        )));
    }
    Ok(resolved)
}

/// `..` and `.` removed without touching the disk.
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// Canonicalizes the longest existing prefix, so a not-yet-written script still resolves.
fn canonical_lenient(path: &Path) -> PathBuf {
    if let Ok(real) = std::fs::canonicalize(path) {
        return real;
    }
    match (path.parent(), path.file_name()) {
        (Some(parent), Some(name)) => canonical_lenient(parent).join(name),
        _ => path.to_path_buf(),
    }
}

/// Runs the script with `cwd` (default: the script's directory) for at most `timeout`.
pub async fn run_script(
    scripts_dir: &Path,
    script: &str,
    cwd: Option<&Path>,
    timeout: Duration,
) -> ScriptResult {
    let path = resolve_script(scripts_dir, script).map_err(|e| e.to_string())?;
    if !path.exists() {
        return Err(format!("Script not found: {}", path.display()));
    }
    if !path.is_file() {
        return Err(format!("Script path is not a file: {}", path.display()));
    }
    let shell = matches!(
        path.extension()
            .and_then(|e| e.to_str())
            .map(str::to_lowercase)
            .as_deref(),
        Some("sh" | "bash")
    );
    let program = if shell { "bash" } else { "python3" };
    let dir = cwd
        .filter(|d| d.is_dir())
        .map(Path::to_path_buf)
        .or_else(|| path.parent().map(Path::to_path_buf))
        .unwrap_or_else(|| PathBuf::from("/"));
    let mut cmd = tokio::process::Command::new(program);
    cmd.arg(&path)
        .env_clear()
        .envs(std::env::vars_os().filter(|(name, _)| !name.to_str().is_some_and(is_secret_name)))
        .current_dir(&dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut wrapped = CommandWrap::from(cmd);
    wrapped.wrap(ProcessGroup::leader()).wrap(KillOnDrop);
    let mut child = wrapped
        .spawn()
        .map_err(|e| format!("Script execution failed: {program}: {e}"))?;
    let stdout = child.stdout().take().map(read_capped);
    let stderr = child.stderr().take().map(read_capped);
    let waited = tokio::time::timeout(timeout, child.wait()).await;
    let status = match waited {
        Ok(Ok(status)) => status,
        Ok(Err(e)) => return Err(format!("Script execution failed: {e}")),
        Err(_) => {
            let _ = Box::into_pin(child.kill()).await;
            return Err(format!(
                "Script timed out after {}s: {}",
                timeout.as_secs(),
                path.display()
            ));
        }
    };
    let collect = |task: Option<tokio::task::JoinHandle<String>>| async move {
        match task {
            Some(task) => task.await.unwrap_or_default(),
            None => String::new(),
        }
    };
    let out = collect(stdout).await;
    let err = collect(stderr).await;
    let out = redact(out.trim(), &[]).into_owned();
    let err = redact(err.trim(), &[]).into_owned();
    if status.success() {
        return Ok(out);
    }
    let mut parts = vec![match status.code() {
        Some(code) => format!("Script exited with code {code}"),
        None => "Script was killed by a signal".to_string(),
    }];
    if !err.is_empty() {
        parts.push(format!("stderr:\n{err}"));
    }
    if !out.is_empty() {
        parts.push(format!("stdout:\n{out}"));
    }
    Err(parts.join("\n"))
}

fn read_capped<R: AsyncRead + Unpin + Send + 'static>(
    mut reader: R,
) -> tokio::task::JoinHandle<String> {
    tokio::spawn(async move {
        let mut kept: Vec<u8> = Vec::new();
        let mut buf = [0u8; 8192];
        loop {
            match reader.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    let room = STREAM_CAP.saturating_sub(kept.len());
                    kept.extend_from_slice(&buf[..n.min(room)]);
                }
            }
        }
        String::from_utf8_lossy(&kept).into_owned()
    })
}

/// Hermes's `_parse_wake_gate`: false when the last non-empty line is a JSON object whose
/// `wakeAgent` is `false`.
pub fn wakes_agent(output: &str) -> bool {
    let Some(last) = output.lines().rev().find(|l| !l.trim().is_empty()) else {
        return true;
    };
    match serde_json::from_str::<serde_json::Value>(last.trim()) {
        Ok(serde_json::Value::Object(gate)) => {
            gate.get("wakeAgent") != Some(&serde_json::Value::Bool(false))
        }
        _ => true,
    }
}

#[cfg(test)]
#[path = "scripts_tests.rs"]
mod tests;
