//! The `process` tool: list, poll, wait for, read, kill and write to the background processes
//! that `terminal(background=true)` started in this session.
//!
//! Status answers are JSON (`list`, `poll`, `wait`); `log` is plain text. `poll` and `wait`
//! return only output not returned by an earlier `poll`/`wait`; `log` returns everything
//! retained. It only sees the calling session's processes.

use std::time::Duration;

use async_trait::async_trait;
use serde::Deserialize;

use crate::model::ToolSchema;
use crate::tools::Concurrency;
use crate::tools::Tool;
use crate::tools::ToolContext;
use crate::tools::ToolOutput;
use crate::tools::args;
use crate::tools::process_registry::BackgroundProcess;
use crate::tools::process_registry::ProcInfo;
use crate::tools::process_registry::ProcState;

const DEFAULT_WAIT: Duration = Duration::from_secs(180);

pub struct ProcessTool;

#[derive(Debug, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Action {
    List,
    Poll,
    Wait,
    Log,
    Kill,
    Write,
}

#[derive(Debug, Deserialize)]
struct ProcessArgs {
    action: Action,
    #[serde(default)]
    session_id: Option<String>,
    #[serde(default)]
    data: Option<String>,
    #[serde(default, deserialize_with = "args::lenient_f64")]
    timeout: Option<f64>,
}

#[async_trait]
impl Tool for ProcessTool {
    fn name(&self) -> &'static str {
        "process"
    }

    fn toolset(&self) -> &'static str {
        "terminal"
    }

    fn schema(&self) -> ToolSchema {
        ToolSchema {
            name: self.name().to_string(),
            description: "Manage background processes started with terminal(background=true). Actions: \
                list (all of this session's processes with state, runtime and exit code); \
                poll (status plus output produced since the last poll/wait); \
                wait (block until the process exits or `timeout` seconds pass, default 180; returns status and new output); \
                log (all retained output: the first 16 KB and the last 200,000 bytes); \
                kill (kill the process and everything it started); \
                write (send `data` to its stdin; include \\n to press Enter). \
                All actions except list need session_id."
                .to_string(),
            parameters: serde_json::json!({
                "type": "object",
                "properties": {
                    "action": {"type": "string", "enum": ["list", "poll", "wait", "log", "kill", "write"], "description": "What to do."},
                    "session_id": {"type": "string", "description": "The process id returned by terminal(background=true), e.g. proc_1a2b3c4d5e6f."},
                    "data": {"type": "string", "description": "For write: text to send to the process's stdin."},
                    "timeout": {"type": "number", "description": "For wait: maximum seconds to wait (default 180)."}
                },
                "required": ["action"]
            }),
        }
    }

    fn concurrency(&self) -> Concurrency {
        Concurrency::Sequential
    }

    fn preview(&self, args: &serde_json::Value) -> String {
        let action = args::str_field(args, "action");
        match args::str_field(args, "session_id") {
            "" => action.to_string(),
            id => format!("{action} {id}"),
        }
    }

    async fn call(&self, args: serde_json::Value, ctx: &ToolContext) -> ToolOutput {
        let args: ProcessArgs = match args::parse(self.name(), args) {
            Ok(a) => a,
            Err(e) => return e,
        };
        let registry = ctx.session.processes();
        if matches!(args.action, Action::List) {
            return ToolOutput::ok(list_json(registry));
        }
        let Some(id) = args
            .session_id
            .as_deref()
            .map(str::trim)
            .filter(|s| !s.is_empty())
        else {
            return ToolOutput::error(
                "session_id is required for this action; use action=list to see the processes",
            );
        };
        let proc = match registry.get(id) {
            Ok(p) => p,
            Err(e) => return ToolOutput::error(e.to_string()),
        };
        let max = ctx.limits.max_output_bytes;
        match args.action {
            Action::List => ToolOutput::ok(list_json(registry)),
            Action::Poll => ToolOutput::ok(status_json(&proc, max, None)),
            Action::Wait => {
                let timeout = match args.timeout {
                    Some(s) if s.is_finite() && s >= 0.0 => {
                        Duration::from_secs_f64(s.min(86_400.0))
                    }
                    _ => DEFAULT_WAIT,
                };
                let finished = tokio::select! {
                    f = proc.wait(timeout) => f,
                    () = ctx.cancel.cancelled() => {
                        return ToolOutput::cancelled(format!("stopped waiting for {}; it keeps running", proc.id));
                    }
                };
                ToolOutput::ok(status_json(&proc, max, Some(!finished)))
            }
            Action::Log => {
                let info = proc.info();
                ToolOutput::ok(format!(
                    "{} (pid {}, {}): {}\n{}",
                    info.id,
                    info.pid,
                    state_text(info.state),
                    info.command,
                    proc.log(max)
                ))
            }
            Action::Kill => {
                if proc.kill() {
                    // Give the waiter a moment to record the exit so `list` shows it.
                    proc.wait(Duration::from_secs(2)).await;
                    ToolOutput::ok(format!(
                        "killed {} (pid {}) and its process group",
                        proc.id, proc.pid
                    ))
                } else {
                    ToolOutput::ok(format!(
                        "{} had already finished ({})",
                        proc.id,
                        state_text(proc.info().state)
                    ))
                }
            }
            Action::Write => {
                let Some(data) = args.data else {
                    return ToolOutput::error("data is required for action=write");
                };
                match proc.write(data.as_bytes()).await {
                    Ok(()) => ToolOutput::ok(format!(
                        "wrote {} bytes to the stdin of {}",
                        data.len(),
                        proc.id
                    )),
                    Err(e) => ToolOutput::error(e.to_string()),
                }
            }
        }
    }
}

fn list_json(registry: &crate::tools::process_registry::ProcessRegistry) -> String {
    let procs: Vec<_> = registry.list().iter().map(info_json).collect();
    serde_json::json!({ "processes": procs }).to_string()
}

fn info_json(info: &ProcInfo) -> serde_json::Value {
    let mut v = serde_json::json!({
        "session_id": info.id,
        "pid": info.pid,
        "command": info.command,
        "state": info.state.label(),
        "runtime_s": (info.runtime.as_secs_f64() * 10.0).round() / 10.0,
    });
    if let ProcState::Exited { code, signal } = info.state {
        v["exit_code"] = serde_json::json!(code);
        if let Some(sig) = signal {
            v["signal"] = serde_json::json!(sig);
        }
    }
    v
}

fn status_json(proc: &BackgroundProcess, max: usize, timed_out: Option<bool>) -> String {
    let mut v = info_json(&proc.info());
    v["new_output"] = serde_json::json!(proc.take_new_output(max));
    if let Some(t) = timed_out {
        v["timed_out"] = serde_json::json!(t);
    }
    v.to_string()
}

fn state_text(state: ProcState) -> String {
    match state {
        ProcState::Running => "running".to_string(),
        ProcState::Exited { code: Some(c), .. } => format!("exited with code {c}"),
        ProcState::Exited {
            signal: Some(s), ..
        } => format!("killed by signal {s}"),
        ProcState::Exited { .. } => "exited".to_string(),
    }
}

#[cfg(test)]
#[path = "process_tests.rs"]
mod tests;
