//! The `terminal` tool: run a shell command, in the foreground (wait for it, stream its lines
//! as progress) or in the background (register it with the session's process registry and
//! return its id at once).
//!
//! Every command is first put to the `CommandPolicy`; a refusal returns `Denied` without
//! running anything. Foreground commands get no stdin, run in their own process group, have
//! stdout and stderr drained concurrently, and on timeout or cancellation the whole group is
//! killed. It does not allocate a PTY: `pty=true` runs without one and says so. Output is
//! kept in a head + tail `OutputBuffer` and reported as coalesced progress updates, so memory
//! and events stay bounded and time stays linear whatever the command prints.
//!
//! Commands the policy `Allow`s run inside the session's sandbox; if a foreground one fails
//! because the sandbox refused it, the policy is asked whether to run it once outside
//! (`tools::sandboxed`). Background commands are confined the same way but not re-run.

use std::path::PathBuf;
use std::time::Duration;
use std::time::Instant;

use async_trait::async_trait;
use serde::Deserialize;
use tokio::sync::mpsc;

use crate::model::ToolSchema;
use crate::tools::Concurrency;
use crate::tools::Tool;
use crate::tools::ToolContext;
use crate::tools::ToolOutput;
use crate::tools::args;
use crate::tools::output::OutputBuffer;
use crate::tools::output::PROGRESS_INTERVAL;
use crate::tools::output::ProgressLines;
use crate::tools::sandboxed;
use crate::tools::sandboxed::AfterFailure;
use crate::util::paths::resolve_path;
use crate::util::process;
use crate::util::process::StdinMode;
use crate::util::process::Stream;

/// After the shell exits, how long to keep reading output its leftovers may still write.
const DRAIN_IDLE: Duration = Duration::from_millis(200);
const DRAIN_MAX: Duration = Duration::from_secs(2);

pub struct TerminalTool;

#[derive(Debug, Deserialize)]
struct TerminalArgs {
    command: String,
    #[serde(default, deserialize_with = "args::lenient_bool")]
    background: bool,
    #[serde(default, deserialize_with = "args::lenient_f64")]
    timeout: Option<f64>,
    #[serde(default)]
    workdir: Option<String>,
    #[serde(default, deserialize_with = "args::lenient_bool")]
    pty: bool,
}

#[async_trait]
impl Tool for TerminalTool {
    fn name(&self) -> &'static str {
        "terminal"
    }

    fn toolset(&self) -> &'static str {
        "terminal"
    }

    fn schema(&self) -> ToolSchema {
        ToolSchema {
            name: self.name().to_string(),
            description: "Run a shell command (bash -c) on this machine and return its combined stdout/stderr and exit code. \
                Commands run non-interactively with an empty stdin: pass flags such as -y/--yes/--no-pager and never start editors or prompts. \
                Long output is cut to its head and tail. Foreground commands are killed after the timeout (default from config, 180 s). \
                For servers, watchers and other long-running jobs set background=true: the call returns at once with a session_id; \
                then use the process tool to poll, wait, read logs, write to stdin or kill it. \
                Prefer read_file, write_file, patch and search_files over cat, sed, echo > and grep for files."
                .to_string(),
            parameters: serde_json::json!({
                "type": "object",
                "properties": {
                    "command": {"type": "string", "description": "The command line to run with bash -c."},
                    "background": {"type": "boolean", "description": "Start it in the background and return {session_id, pid} immediately (default false)."},
                    "timeout": {"type": "number", "description": "Foreground timeout in seconds; the command's whole process group is killed when it expires."},
                    "workdir": {"type": "string", "description": "Directory to run in, absolute or relative to the current working directory (default: the current working directory)."},
                    "pty": {"type": "boolean", "description": "Ask for a pseudo-terminal for interactive programs. Not supported yet: the command runs without one."}
                },
                "required": ["command"]
            }),
        }
    }

    fn concurrency(&self) -> Concurrency {
        Concurrency::Sequential
    }

    fn preview(&self, args: &serde_json::Value) -> String {
        args::preview_text(args::str_field(args, "command"), 80)
    }

    async fn call(&self, args: serde_json::Value, ctx: &ToolContext) -> ToolOutput {
        let args: TerminalArgs = match args::parse(self.name(), args) {
            Ok(a) => a,
            Err(e) => return e,
        };
        if args.command.trim().is_empty() {
            return ToolOutput::error("command is empty");
        }
        let cwd = match workdir(ctx, args.workdir.as_deref()) {
            Ok(dir) => dir,
            Err(e) => return e,
        };
        let verdict = tokio::select! {
            v = ctx.policy.check_command(&args.command, &cwd) => v,
            () = ctx.cancel.cancelled() => return ToolOutput::cancelled("cancelled before the command ran"),
        };
        if let crate::safety::CommandVerdict::Deny { reason } = verdict {
            return ToolOutput::denied(reason);
        }
        let confinement = match sandboxed::for_verdict(ctx, &verdict, &cwd) {
            Ok(c) => c,
            Err(out) => return out,
        };
        let confine = confinement.as_ref().map(|c| &c.confine);
        let note = if args.pty {
            "[note: pty=true is not supported yet; the command ran without a terminal]\n"
        } else {
            ""
        };
        if args.background {
            return match ctx.session.processes().start(
                &args.command,
                &cwd,
                &ctx.env.snapshot(),
                confine,
            ) {
                Ok((id, pid)) => ToolOutput::ok(format!(
                    "{note}{}",
                    serde_json::json!({"session_id": id, "pid": pid})
                )),
                Err(e) => ToolOutput::error(format!("could not start the command: {e}")),
            };
        }
        let timeout = match args.timeout {
            Some(secs) if secs.is_finite() && secs > 0.0 => {
                Duration::from_secs_f64(secs.min(7.0 * 24.0 * 3600.0))
            }
            _ => ctx.limits.terminal_timeout,
        };
        let run = run_foreground(&args.command, &cwd, timeout, ctx, confine).await;
        let mut out = match (&confinement, run.exit_ok) {
            (Some(confinement), false) => {
                let failed = &run.output.content;
                match sandboxed::after_failure(ctx, confinement, &args.command, &cwd, failed).await
                {
                    AfterFailure::Keep => run.output,
                    AfterFailure::RunOutside { note } => {
                        let mut rerun =
                            run_foreground(&args.command, &cwd, timeout, ctx, None).await;
                        rerun.output.content.insert_str(0, &note);
                        rerun.output
                    }
                    AfterFailure::Refused { reason } => {
                        ToolOutput::denied(format!("{}\n\n{reason}", run.output.content))
                    }
                }
            }
            _ => run.output,
        };
        out.content.insert_str(0, note);
        out
    }
}

fn workdir(ctx: &ToolContext, requested: Option<&str>) -> Result<PathBuf, ToolOutput> {
    let dir = match requested {
        Some(w) if !w.trim().is_empty() => resolve_path(&ctx.cwd, w.trim()),
        _ => ctx.cwd.clone(),
    };
    if dir.is_dir() {
        Ok(dir)
    } else {
        Err(ToolOutput::error(format!(
            "working directory {} does not exist or is not a directory",
            dir.display()
        )))
    }
}

/// How a foreground run ended.
enum End {
    Exited(std::process::ExitStatus),
    TimedOut,
    Cancelled,
}

/// A finished foreground run: the tool result, and whether the command exited with 0.
struct Foreground {
    output: ToolOutput,
    exit_ok: bool,
}

impl From<ToolOutput> for Foreground {
    fn from(output: ToolOutput) -> Self {
        Self {
            output,
            exit_ok: false,
        }
    }
}

async fn run_foreground(
    command: &str,
    cwd: &std::path::Path,
    timeout: Duration,
    ctx: &ToolContext,
    confine: Option<&process::Confine>,
) -> Foreground {
    let env = ctx.env.snapshot();
    let mut child = match process::spawn_confined(command, cwd, StdinMode::Null, &env, confine) {
        Ok(c) => c,
        Err(e) => return ToolOutput::error(format!("could not start the command: {e}")).into(),
    };
    let pid = child.id().unwrap_or(0);
    let (tx, mut rx) = mpsc::channel(64);
    let mut readers = Vec::new();
    if let Some(out) = child.stdout.take() {
        readers.push(process::spawn_reader(out, Stream::Stdout, tx.clone()));
    }
    if let Some(err) = child.stderr.take() {
        readers.push(process::spawn_reader(err, Stream::Stderr, tx.clone()));
    }
    drop(tx);

    let cap = ctx.limits.max_output_bytes.max(64);
    let mut sink = Sink {
        buf: OutputBuffer::new(cap, cap),
        lines: [ProgressLines::default(), ProgressLines::default()],
        next_update: Instant::now(),
        ctx,
    };
    let started = Instant::now();
    let deadline = tokio::time::sleep(timeout);
    tokio::pin!(deadline);
    let mut open = true;
    let end = loop {
        tokio::select! {
            () = ctx.cancel.cancelled() => break End::Cancelled,
            () = &mut deadline => break End::TimedOut,
            chunk = rx.recv(), if open => match chunk {
                Some((stream, bytes)) => sink.push(stream, &bytes),
                None => open = false,
            },
            () = tokio::time::sleep_until(sink.next_update.into()), if sink.has_pending() => {
                sink.flush_progress();
            }
            status = child.wait() => match status {
                Ok(s) => break End::Exited(s),
                Err(e) => {
                    process::kill_group(pid);
                    return ToolOutput::error(format!("waiting for the command failed: {e}")).into();
                }
            },
        }
    };
    if !matches!(end, End::Exited(_)) {
        process::kill_group(pid);
        let _ = child.wait().await;
    }
    drain(&mut rx, &mut sink).await;
    for reader in readers {
        reader.abort();
    }
    sink.finish();
    let body = sink.buf.render(cap);
    // A script gets the output as it was (Hermes gives "" for none); the model a marker.
    let printed = body.trim_end_matches('\n').to_string();
    // One blank line between the output and the status line, however the output ends.
    let body = match printed.as_str() {
        "" => "(no output)".to_string(),
        trimmed => trimmed.to_string(),
    };
    let secs = started.elapsed().as_secs_f64();
    let exit_ok = matches!(end, End::Exited(status) if status.success());
    let output = match end {
        End::Exited(status) => ToolOutput::ok(format!("{body}\n\n{}", describe_status(status)))
            .with_data(
                serde_json::json!({"output": printed, "exit_code": exit_code(status), "error": null}),
            ),
        End::TimedOut => {
            let why = format!(
                "command timed out after {} s and its process group was killed",
                format_secs(timeout.as_secs_f64())
            );
            ToolOutput::error(format!(
                "{body}\n\n{why}; for long-running commands use background=true and the \
                 process tool"
            ))
            .with_data(serde_json::json!({"output": printed, "exit_code": 124, "error": why}))
        }
        End::Cancelled => ToolOutput::cancelled(format!(
            "{body}\n\ncancelled after {} s; the command's process group was killed",
            format_secs(secs)
        )),
    };
    Foreground { output, exit_ok }
}

/// Read what is still buffered in the pipes, without waiting on leftovers that never close.
async fn drain(rx: &mut mpsc::Receiver<(Stream, Vec<u8>)>, sink: &mut Sink<'_>) {
    let until = Instant::now() + DRAIN_MAX;
    while Instant::now() < until {
        match tokio::time::timeout(DRAIN_IDLE, rx.recv()).await {
            Ok(Some((stream, bytes))) => sink.push(stream, &bytes),
            Ok(None) | Err(_) => break,
        }
    }
}

/// Collects output and forwards its newest lines as progress, at most one update per
/// `PROGRESS_INTERVAL` (the first at once), so the events a command causes are bounded by
/// time, not by how many lines it prints.
struct Sink<'a> {
    buf: OutputBuffer,
    lines: [ProgressLines; 2],
    /// When the next progress update may go out.
    next_update: Instant,
    ctx: &'a ToolContext,
}

impl Sink<'_> {
    fn push(&mut self, stream: Stream, bytes: &[u8]) {
        self.buf.push(bytes);
        self.lines[stream as usize].feed(bytes);
        if Instant::now() >= self.next_update {
            self.flush_progress();
        }
    }

    fn has_pending(&self) -> bool {
        self.lines.iter().any(ProgressLines::has_pending)
    }

    /// Send the lines gathered since the last update as one progress event.
    fn flush_progress(&mut self) {
        let lines: Vec<String> = self
            .lines
            .iter_mut()
            .flat_map(ProgressLines::take)
            .collect();
        if lines.is_empty() {
            return;
        }
        self.ctx.host.progress(&self.ctx.call_id, &lines.join("\n"));
        self.next_update = Instant::now() + PROGRESS_INTERVAL;
    }

    fn finish(&mut self) {
        for lines in &mut self.lines {
            lines.finish();
        }
        self.flush_progress();
    }
}

/// The exit code a program sees: the code, or 128 + the signal that killed it (as a shell
/// reports it), or -1.
pub(crate) fn exit_code(status: std::process::ExitStatus) -> i32 {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => code,
        (None, Some(sig)) => 128 + sig,
        (None, None) => -1,
    }
}

pub(crate) fn describe_status(status: std::process::ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exit code {code}"),
        (None, Some(sig)) => format!("killed by signal {sig}"),
        (None, None) => "exit status unknown".to_string(),
    }
}

fn format_secs(secs: f64) -> String {
    if secs >= 10.0 || secs.fract() == 0.0 {
        format!("{secs:.0}")
    } else {
        format!("{secs:.1}")
    }
}

#[cfg(test)]
#[path = "terminal_tests.rs"]
mod tests;
