//! Running one hook: the stdin payload, the subprocess, and what its stdout means.
//!
//! `run` spawns the command (shell-split, no shell, own process group, cwd = the session cwd),
//! writes the JSON payload to stdin, captures stdout (capped at 1 MiB) and stderr (64 KiB),
//! and kills the whole process group when the timeout passes or the call is dropped (a
//! cancelled turn). `evaluate` turns the outcome
//! into a `HookResponse`, logging every failure as a warning naming the hook: a spawn
//! failure, a timeout, a non-zero exit (stdout is still honoured, so a hook that prints a
//! block and exits 1 still blocks) or stdout that is not JSON. Invariant: nothing here returns
//! an error to the agent; the worst a hook can do is contribute nothing.

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::{Map, Value};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::process::{Child, Command};

use super::command;
use super::config::HookSpec;
use super::event::HookEvent;

/// Stdout beyond this is read and discarded.
pub const STDOUT_CAP: usize = 1024 * 1024;
const STDERR_CAP: usize = 64 * 1024;
/// How much stdout/stderr a warning quotes.
const QUOTE_LIMIT: usize = 200;
/// Spawn retries when the script is momentarily open for writing (ETXTBSY).
const BUSY_RETRIES: u32 = 3;

/// The payload's top-level fields besides `hook_event_name` and `extra`.
#[derive(Debug, Clone)]
pub struct PayloadContext<'a> {
    pub tool_name: Option<&'a str>,
    pub tool_input: Option<&'a Value>,
    pub session_id: &'a str,
    pub cwd: &'a Path,
}

/// The stdin JSON: `hook_event_name`, `tool_name`, `tool_input` (null unless a JSON object),
/// `session_id`, `cwd`, `extra`.
pub fn payload(event: HookEvent, ctx: &PayloadContext<'_>, extra: Map<String, Value>) -> Value {
    let tool_input = ctx.tool_input.filter(|v| v.is_object()).cloned();
    serde_json::json!({
        "hook_event_name": event.as_str(),
        "tool_name": ctx.tool_name,
        "tool_input": tool_input,
        "session_id": ctx.session_id,
        "cwd": ctx.cwd.to_string_lossy(),
        "extra": extra,
    })
}

/// `extra` as an object: objects as they are, null as `{}`, anything else as `{"value": …}`.
pub fn extra_object(extra: Value) -> Map<String, Value> {
    match extra {
        Value::Object(map) => map,
        Value::Null => Map::new(),
        other => Map::from_iter([("value".to_owned(), other)]),
    }
}

/// How a hook process ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RunStatus {
    /// Exit code; `None` when killed by a signal.
    Exited(Option<i32>),
    TimedOut,
    /// It never ran (bad command line, not found, not executable, …).
    SpawnFailed(String),
}

/// Everything observed about one run.
#[derive(Debug, Clone)]
pub struct RunOutcome {
    pub status: RunStatus,
    pub stdout: String,
    pub stderr: String,
    pub elapsed: Duration,
}

/// What a hook's stdout asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HookResponse {
    /// Stop the tool call; the message goes back to the model as the tool error.
    Block(String),
    /// Append this to the turn's user message (pre_llm_call).
    Context(String),
    Nothing,
}

/// Runs `spec` with `payload` on stdin in `cwd`, bounded by its timeout.
pub async fn run(spec: &HookSpec, payload: &Value, cwd: &Path) -> RunOutcome {
    let started = Instant::now();
    let failed = |cause: String| RunOutcome {
        status: RunStatus::SpawnFailed(cause),
        stdout: String::new(),
        stderr: String::new(),
        elapsed: started.elapsed(),
    };
    let argv = match command::argv(&spec.command) {
        Ok(argv) => argv,
        Err(cause) => return failed(format!("cannot parse the command: {cause}")),
    };
    let mut child = match spawn(&argv, cwd).await {
        Ok(child) => child,
        Err(e) => return failed(describe_spawn_error(&e)),
    };
    let input = serde_json::to_vec(payload).unwrap_or_default();
    let pid = child.id();
    // If this future is dropped mid-run (the turn was cancelled), the hook's whole group dies.
    let mut group = KillGroupOnDrop(pid);
    let (stdin, stdout, stderr) = (child.stdin.take(), child.stdout.take(), child.stderr.take());
    let io = async {
        let write = async {
            if let Some(mut stdin) = stdin {
                // A hook that ignores stdin may exit before reading it: EPIPE is fine.
                let _ = stdin.write_all(&input).await;
                let _ = stdin.shutdown().await;
            }
        };
        let ((), out, err) = tokio::join!(
            write,
            read_capped(stdout, STDOUT_CAP),
            read_capped(stderr, STDERR_CAP)
        );
        let status = child.wait().await;
        (out, err, status)
    };
    let result = tokio::time::timeout(spec.timeout, io).await;
    if result.is_ok() {
        // Reaped: the pid may be reused from here on, so never signal its group again.
        group.0 = None;
    }
    let (status, stdout, stderr) = match result {
        Ok((out, err, Ok(status))) => (RunStatus::Exited(status.code()), out, err),
        Ok((out, err, Err(e))) => (
            RunStatus::SpawnFailed(format!("wait failed: {e}")),
            out,
            err,
        ),
        Err(_) => {
            group.kill_now();
            let _ = child.start_kill();
            let _ = tokio::time::timeout(Duration::from_secs(1), child.wait()).await;
            (RunStatus::TimedOut, String::new(), String::new())
        }
    };
    RunOutcome {
        status,
        stdout,
        stderr,
        elapsed: started.elapsed(),
    }
}

/// SIGKILLs the hook's process group when dropped while armed (`Some(pid)`).
struct KillGroupOnDrop(Option<u32>);

impl KillGroupOnDrop {
    fn kill_now(&mut self) {
        if let Some(pid) = self.0.take() {
            crate::util::process::kill_group(pid);
        }
    }
}

impl Drop for KillGroupOnDrop {
    fn drop(&mut self) {
        self.kill_now();
    }
}

async fn spawn(argv: &[String], cwd: &Path) -> std::io::Result<Child> {
    let mut attempt = 0;
    loop {
        let mut cmd = Command::new(&argv[0]);
        cmd.args(&argv[1..])
            .current_dir(cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // Group id = the hook's pid, so a timeout kills its children too.
            .process_group(0)
            .kill_on_drop(true);
        match cmd.spawn() {
            Err(e) if e.raw_os_error() == Some(libc::ETXTBSY) && attempt < BUSY_RETRIES => {
                attempt += 1;
                tokio::time::sleep(Duration::from_millis(20 * u64::from(attempt))).await;
            }
            other => return other,
        }
    }
}

fn describe_spawn_error(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "command not found (or the session cwd is gone)".into(),
        std::io::ErrorKind::PermissionDenied => "command not executable (chmod +x?)".into(),
        _ => e.to_string(),
    }
}

/// Reads up to `cap` bytes (lossy UTF-8), then drains the rest so the child never blocks.
async fn read_capped<R: AsyncRead + Unpin>(reader: Option<R>, cap: usize) -> String {
    let Some(reader) = reader else {
        return String::new();
    };
    let mut kept = Vec::new();
    let mut limited = reader.take(cap as u64);
    let _ = limited.read_to_end(&mut kept).await;
    let _ = tokio::io::copy(&mut limited.into_inner(), &mut tokio::io::sink()).await;
    String::from_utf8_lossy(&kept).into_owned()
}

/// Hook output that is not a hook response; `quoted` is the output, quoted and cut short
/// (the JSON parser's complaint about arbitrary text says nothing more).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ResponseError {
    #[error("{quoted}")]
    NotJson { quoted: String },
    #[error("a block without a message is ignored: {quoted}")]
    BlockWithoutMessage { quoted: String },
}

/// What `stdout` asks for on `event`; `Err` quotes stdout that is not JSON. Valid JSON that
/// matches no known shape (including `{}` and non-objects) is `Nothing`.
pub fn parse_response(event: HookEvent, stdout: &str) -> Result<HookResponse, ResponseError> {
    let text = stdout.trim();
    if text.is_empty() {
        return Ok(HookResponse::Nothing);
    }
    let data: Value = serde_json::from_str(text).map_err(|_| ResponseError::NotJson {
        quoted: quote(text),
    })?;
    let Value::Object(data) = data else {
        return Ok(HookResponse::Nothing);
    };
    let field = |key: &str| data.get(key).and_then(Value::as_str).map(str::trim);
    Ok(match event {
        HookEvent::PreToolCall => {
            // Hermes `action`/`message` first, then Claude-Code `decision`/`reason`.
            let message = if field("action") == Some("block") {
                Some(
                    field("message")
                        .filter(|m| !m.is_empty())
                        .or(field("reason")),
                )
            } else if field("decision") == Some("block") {
                Some(
                    field("reason")
                        .filter(|m| !m.is_empty())
                        .or(field("message")),
                )
            } else {
                None
            };
            match message {
                Some(Some(m)) if !m.is_empty() => HookResponse::Block(m.to_owned()),
                Some(_) => {
                    return Err(ResponseError::BlockWithoutMessage {
                        quoted: quote(text),
                    });
                }
                None => HookResponse::Nothing,
            }
        }
        HookEvent::PreLlmCall => match field("context") {
            Some(context) if !context.is_empty() => HookResponse::Context(context.to_owned()),
            _ => HookResponse::Nothing,
        },
        _ => HookResponse::Nothing,
    })
}

/// The outcome's contribution, with a warning for each way the hook misbehaved.
pub fn evaluate(spec: &HookSpec, outcome: &RunOutcome) -> HookResponse {
    let (event, command) = (spec.event, spec.command.as_str());
    match &outcome.status {
        RunStatus::SpawnFailed(cause) => {
            tracing::warn!("shell hook `{command}` ({event}) failed to run: {cause}");
            return HookResponse::Nothing;
        }
        RunStatus::TimedOut => {
            tracing::warn!(
                "shell hook `{command}` ({event}) timed out after {:.1}s and was killed",
                spec.timeout.as_secs_f64()
            );
            return HookResponse::Nothing;
        }
        RunStatus::Exited(code) => {
            let stderr = outcome.stderr.trim();
            if !stderr.is_empty() {
                tracing::debug!("shell hook `{command}` ({event}) stderr: {stderr}");
            }
            if *code != Some(0) {
                let code = code.map_or_else(|| "a signal".to_owned(), |c| format!("code {c}"));
                tracing::warn!(
                    "shell hook `{command}` ({event}) exited with {code}; stderr: {}",
                    quote(stderr)
                );
            }
        }
    }
    match parse_response(event, &outcome.stdout) {
        Ok(response) => response,
        Err(problem) => {
            tracing::warn!(
                "shell hook `{command}` ({event}) printed output that is not a hook response: {problem}"
            );
            HookResponse::Nothing
        }
    }
}

/// Runs and evaluates in one step.
pub async fn fire(spec: &HookSpec, payload: &Value, cwd: &Path) -> HookResponse {
    evaluate(spec, &run(spec, payload, cwd).await)
}

fn quote(text: &str) -> String {
    match text.char_indices().nth(QUOTE_LIMIT) {
        Some((cut, _)) => format!("{:?}…", &text[..cut]),
        None => format!("{text:?}"),
    }
}

#[cfg(test)]
#[path = "exec_tests.rs"]
mod tests;
