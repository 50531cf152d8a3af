//! The headless frontend: `hermes -z PROMPT` runs one turn and prints the final answer.
//!
//! Text mode prints the final assistant message on stdout and everything else — tool calls,
//! intermediate messages, notices, errors — on stderr, so `hermes -z … > answer.txt` captures
//! only the answer. JSON mode prints every protocol `Event` as one JSON line on stdout. Like the
//! TUI, this module knows only `protocol`: it drives a `SessionHandle` and never touches the
//! engine. Ctrl+C interrupts the turn; a second Ctrl+C quits at once. SIGTERM and SIGHUP stop
//! the session (tools and their process groups included) and exit 128 + the signal.

use std::io::IsTerminal;
use std::io::Write;

mod approvals;
mod clarify;
mod goal;
mod output;
mod signals;

use crate::protocol::ErrorEvent;
use crate::protocol::ErrorKind;
use crate::protocol::Event;
use crate::protocol::GoalProgress;
use crate::protocol::MessageComplete;
use crate::protocol::Notice;
use crate::protocol::NoticeLevel;
use crate::protocol::Op;
use crate::protocol::SessionHandle;
use crate::protocol::SubagentEventKind;
use crate::protocol::ToolComplete;
use crate::protocol::ToolStart;
use crate::protocol::ToolStatus;
use crate::protocol::TurnComplete;
use crate::protocol::TurnOutcome;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputMode {
    /// Final answer on stdout, progress on stderr.
    Text,
    /// Every event as a JSON line on stdout.
    Json,
}

/// How `clarify` questions and approval requests are answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PromptMode {
    /// Ask on the terminal (stderr) and read the answer from stdin.
    AskOnTerminal,
    /// stdin is not a terminal: decline questions (the agent proceeds on its own judgement)
    /// and deny approvals (`--yolo` is how a script allows dangerous commands).
    Decline,
}

impl PromptMode {
    pub fn detect() -> Self {
        if std::io::stdin().is_terminal() {
            Self::AskOnTerminal
        } else {
            Self::Decline
        }
    }
}

/// Process exit codes of `hermes -z` (documented in docs/headless.md).
pub mod exit_code {
    pub const OK: i32 = 0;
    pub const INTERNAL: i32 = 1;
    pub const CONFIG: i32 = 2;
    pub const AUTH: i32 = 3;
    pub const RATE_LIMITED: i32 = 4;
    pub const TRANSPORT: i32 = 5;
    pub const HANG: i32 = 6;
    pub const BAD_RESPONSE: i32 = 7;
    pub const CONTEXT_TOO_LONG: i32 = 8;
    /// The message used up `agent.max_turns` API calls (its turn plus the turns its
    /// subagents' results started).
    pub const ITERATION_LIMIT: i32 = 9;
    /// `hermes -z "/goal …"` stopped with the goal paused (budget, guard, `/goal pause`).
    /// Shares its value with `AUTH`, as the goals spec asks; a pause caused by an
    /// authentication failure exits 3 either way.
    pub const GOAL_PAUSED: i32 = 3;
    /// The answer could not be written to stdout (a full disk, a closed pipe).
    pub const OUTPUT_FAILED: i32 = 10;
    /// SIGHUP (128 + 1): the terminal or ssh session went away.
    pub const HUNG_UP: i32 = 129;
    pub const INTERRUPTED: i32 = 130;
    /// SIGTERM (128 + 15): `timeout`, `docker stop`, a cancelled CI job.
    pub const TERMINATED: i32 = 143;
}

pub fn exit_code_for(outcome: &TurnOutcome) -> i32 {
    match outcome {
        TurnOutcome::Completed => exit_code::OK,
        TurnOutcome::Interrupted { .. } => exit_code::INTERRUPTED,
        TurnOutcome::IterationLimit { .. } => exit_code::ITERATION_LIMIT,
        TurnOutcome::Failed { kind } => match kind {
            ErrorKind::Auth => exit_code::AUTH,
            ErrorKind::RateLimited => exit_code::RATE_LIMITED,
            ErrorKind::Transport => exit_code::TRANSPORT,
            ErrorKind::Hang => exit_code::HANG,
            ErrorKind::EmptyResponse | ErrorKind::BadResponse => exit_code::BAD_RESPONSE,
            ErrorKind::ContextTooLong => exit_code::CONTEXT_TOO_LONG,
            ErrorKind::Config => exit_code::CONFIG,
            ErrorKind::Internal => exit_code::INTERNAL,
        },
    }
}

pub struct HeadlessReport {
    pub outcome: TurnOutcome,
    /// The final assistant message (empty when the turn produced none).
    pub answer: String,
    pub exit_code: i32,
}

/// Run one turn for `prompt` and shut the session down. A run whose output could not be
/// written to `out` fails with `exit_code::OUTPUT_FAILED` (unless it failed otherwise first).
pub async fn run_one_shot(
    handle: SessionHandle,
    prompt: String,
    images: Vec<crate::protocol::ImageAttachment>,
    output: OutputMode,
    clarify: PromptMode,
    out: &mut (dyn Write + Send),
    err: &mut (dyn Write + Send),
) -> HeadlessReport {
    let mut watched = output::Watched::new(out);
    let mut printer = Printer {
        output,
        out: &mut watched,
        err: &mut *err,
        pending_message: None,
        nested_calls: std::collections::HashSet::new(),
    };
    let mut report = run(handle, prompt, images, clarify, &mut printer).await;
    if let Some(failure) = watched.take_failure() {
        let _ = writeln!(
            err,
            "error: could not write the output to stdout: {failure}"
        );
        let _ = err.flush();
        if report.exit_code == exit_code::OK {
            report.exit_code = exit_code::OUTPUT_FAILED;
        }
    }
    report
}

async fn run(
    mut handle: SessionHandle,
    prompt: String,
    images: Vec<crate::protocol::ImageAttachment>,
    clarify: PromptMode,
    printer: &mut Printer<'_>,
) -> HeadlessReport {
    // `/goal …` and `/subgoal …` go to the engine as goal commands.
    let (first, mut goal_run) = match goal::parse(&prompt) {
        Some(Ok(command)) => (
            Op::Goal(command.clone()),
            Some(goal::GoalRun::new(&command)),
        ),
        Some(Err(usage)) => {
            printer.line_err(&usage);
            return HeadlessReport {
                outcome: TurnOutcome::Completed,
                answer: String::new(),
                exit_code: exit_code::CONFIG,
            };
        }
        None => (
            Op::UserInput {
                text: prompt,
                images,
            },
            None,
        ),
    };
    let mut endings = signals::EndingSignals::install();
    if handle.ops.send(first).is_err() {
        return printer.engine_gone();
    }
    let mut last_outcome = TurnOutcome::Completed;
    let mut last_answer = String::new();
    let mut interrupts = 0u32;
    // The main agent's background subagents: the run waits until their results (one new
    // turn, started once all of them have finished) have been answered.
    let mut running_subagents = std::collections::BTreeSet::new();
    let mut results_pending = false;
    loop {
        let event = tokio::select! {
            event = handle.events.recv() => event,
            ending = endings.next() => {
                return signals::end_run(ending, &mut handle, printer).await;
            }
            _ = tokio::signal::ctrl_c() => {
                interrupts += 1;
                if interrupts > 1 {
                    printer.line_err("interrupted twice: quitting");
                    return HeadlessReport {
                        outcome: TurnOutcome::Interrupted { done: "quit".into() },
                        answer: String::new(),
                        exit_code: exit_code::INTERRUPTED,
                    };
                }
                printer.line_err("interrupting… (Ctrl+C again to quit at once)");
                let _ = handle.ops.send(Op::Interrupt);
                continue;
            }
        };
        let Some(event) = event else {
            return printer.engine_gone();
        };
        printer.event(&event);
        if let Some(run) = goal_run.as_mut() {
            if let Some(exit_code) = run.on_event(&event) {
                shut_down(&mut handle, printer).await;
                return HeadlessReport {
                    outcome: last_outcome,
                    answer: last_answer,
                    exit_code,
                };
            }
            if let Event::TurnComplete(TurnComplete { outcome, .. }) = &event {
                // One turn of the loop: its answer is printed, the engine decides what follows.
                last_answer = printer.finish(outcome);
                last_outcome = outcome.clone();
                continue;
            }
        }
        match event {
            Event::SecretRequest(request) => {
                let _ = handle.ops.send(Op::SecretReply {
                    id: request.id,
                    value: None,
                });
            }
            Event::ApprovalRequest(request) => {
                let decision = approvals::ask(&request, clarify, printer.err).await;
                let _ = handle.ops.send(Op::ApprovalReply {
                    id: request.id,
                    decision,
                });
            }
            Event::ClarifyRequest(request) => {
                let answer = clarify::ask(&request, clarify).await;
                let _ = handle.ops.send(Op::ClarifyReply {
                    id: request.id,
                    answer,
                });
            }
            Event::TurnStarted(_) if results_pending && running_subagents.is_empty() => {
                results_pending = false;
            }
            Event::Subagent(sub) => match sub.kind {
                SubagentEventKind::Spawned { depth, .. } => {
                    results_pending |= depth == 1;
                    running_subagents.insert(sub.id);
                }
                SubagentEventKind::Finished { .. } => {
                    running_subagents.remove(&sub.id);
                }
                SubagentEventKind::Activity { .. }
                | SubagentEventKind::Usage(_)
                | SubagentEventKind::SteerDelivered { .. } => {}
            },
            Event::TurnComplete(TurnComplete { ref outcome, .. })
                if results_pending && matches!(outcome, TurnOutcome::Completed) =>
            {
                printer.line_err("waiting for the subagents' results…");
            }
            Event::TurnComplete(TurnComplete { outcome, .. }) => {
                let answer = printer.finish(&outcome);
                shut_down(&mut handle, printer).await;
                let exit_code = exit_code_for(&outcome);
                return HeadlessReport {
                    outcome,
                    answer,
                    exit_code,
                };
            }
            _ => {}
        }
    }
}

/// Ask the engine to stop and drain until it confirms, so background processes are gone.
async fn shut_down(handle: &mut SessionHandle, printer: &mut Printer<'_>) {
    let _ = handle.ops.send(Op::Shutdown);
    while let Some(event) = handle.events.recv().await {
        if printer.output == OutputMode::Json {
            printer.json(&event);
        }
        if matches!(event, Event::ShutdownComplete) {
            break;
        }
    }
}

struct Printer<'a> {
    output: OutputMode,
    out: &'a mut (dyn Write + Send),
    err: &'a mut (dyn Write + Send),
    /// The latest complete assistant message: printed to stdout if it is the last one, to
    /// stderr (as progress) if another one follows.
    pending_message: Option<String>,
    /// Calls made inside another call (an `execute_code` script's), printed indented.
    nested_calls: std::collections::HashSet<String>,
}

impl Printer<'_> {
    fn event(&mut self, event: &Event) {
        match self.output {
            OutputMode::Json => {
                if let Event::MessageComplete(MessageComplete { text, .. }) = event {
                    self.pending_message = Some(text.clone());
                }
                self.json(event);
            }
            OutputMode::Text => self.text(event),
        }
    }

    /// A message followed by more work was not the answer: show it as progress.
    fn flush_pending_as_progress(&mut self) {
        if let Some(previous) = self.pending_message.take() {
            self.line_err(&format!("💬 {}", previous.trim_end()));
        }
    }

    fn json(&mut self, event: &Event) {
        match serde_json::to_string(event) {
            Ok(line) => {
                let _ = writeln!(self.out, "{line}");
                let _ = self.out.flush();
            }
            Err(e) => self.line_err(&format!("error: could not encode an event: {e}")),
        }
    }

    fn text(&mut self, event: &Event) {
        match event {
            Event::MessageComplete(MessageComplete { text, .. }) => {
                self.flush_pending_as_progress();
                self.pending_message = Some(text.clone());
            }
            Event::ToolStart(ToolStart {
                call_id,
                name,
                preview,
                parent_call_id,
                ..
            }) => {
                self.flush_pending_as_progress();
                let indent = if parent_call_id.is_some() {
                    self.nested_calls.insert(call_id.clone());
                    "   "
                } else {
                    ""
                };
                self.line_err(&format!(
                    "{indent}{} {preview}",
                    crate::theme::Theme::default().tool_emoji(name)
                ));
            }
            Event::ToolComplete(ToolComplete {
                call_id,
                status,
                output,
                duration_ms,
                ..
            }) => {
                let indent = if self.nested_calls.remove(call_id) {
                    "   "
                } else {
                    ""
                };
                let secs = *duration_ms as f64 / 1000.0;
                let line = match status {
                    ToolStatus::Ok => format!("   ✓ {secs:.1}s"),
                    ToolStatus::Error => format!("   ✗ error ({secs:.1}s): {}", first_line(output)),
                    ToolStatus::Denied => format!("   ⊘ denied: {}", first_line(output)),
                    ToolStatus::Cancelled => "   ⊘ cancelled".to_string(),
                };
                self.line_err(&format!("{indent}{line}"));
            }
            Event::Notice(Notice { level, text }) => {
                let tag = match level {
                    NoticeLevel::Info => "note",
                    NoticeLevel::Warning => "warning",
                };
                self.line_err(&format!("{tag}: {text}"));
            }
            Event::Error(ErrorEvent { text, .. }) => self.line_err(&format!("error: {text}")),
            Event::Subagent(sub) => match &sub.kind {
                SubagentEventKind::Spawned { label, .. } => {
                    self.line_err(&format!("🤖 subagent {} started: {label}", sub.id));
                }
                SubagentEventKind::Finished {
                    status,
                    duration_ms,
                    ..
                } => self.line_err(&format!(
                    "   🤖 subagent {} {status:?} ({:.1}s)",
                    sub.id,
                    *duration_ms as f64 / 1000.0
                )),
                SubagentEventKind::Activity { .. }
                | SubagentEventKind::Usage(_)
                | SubagentEventKind::SteerDelivered { .. } => {}
            },
            Event::TurnComplete(TurnComplete { outcome, .. }) => match outcome {
                TurnOutcome::Interrupted { done } => {
                    self.line_err(&format!("interrupted: {done}"));
                }
                TurnOutcome::IterationLimit { limit } => {
                    self.line_err(&format!(
                        "stopped: reached agent.max_turns ({limit} API calls for this message, \
                         counting the turns its subagents' results started)"
                    ));
                }
                TurnOutcome::Completed | TurnOutcome::Failed { .. } => {}
            },
            Event::SessionInfo(_)
            | Event::TurnStarted(_)
            | Event::MessageStart(_)
            | Event::MessageDelta(_)
            | Event::ReasoningDelta(_)
            | Event::ToolProgress(_)
            | Event::ClarifyRequest(_)
            | Event::ApprovalRequest(_)
            | Event::ApprovalResolved(_)
            | Event::CheckpointList(_)
            | Event::CheckpointDiff(_)
            | Event::SpawnTrees(_)
            | Event::SpawnTree(_)
            | Event::StatusUpdate(_)
            | Event::SessionList(_)
            | Event::HistoryReplay(_)
            | Event::GoalUpdate(_)
            | Event::McpStatus(_)
            | Event::Toolsets(_)
            | Event::Cron(_)
            | Event::ShutdownComplete => {}
            Event::GoalProgress(progress) => self.goal_progress(progress),
            Event::SecretRequest(request) => self.line_err(&format!(
                "note: skipped {} — {}; headless mode never asks for secrets, put it in HERMES_HOME/.env",
                request.name, request.reason
            )),
        }
    }

    /// A goal status line is the run's output (stdout); why a goal paused is a note (stderr).
    /// A continuation turn is introduced with its marker, as the TUI shows it.
    fn goal_progress(&mut self, progress: &GoalProgress) {
        let _ = writeln!(self.out, "{}", progress.line());
        if let GoalProgress::Continuing { prompt, .. } = progress {
            let marker = prompt.lines().next().unwrap_or_default();
            let _ = writeln!(self.out, "{marker}");
        }
        let _ = self.out.flush();
        if let Some(detail) = progress.detail() {
            self.line_err(&format!("note: {detail}"));
        }
    }

    /// Print the final answer (text mode) and return it.
    fn finish(&mut self, outcome: &TurnOutcome) -> String {
        let completed = matches!(outcome, TurnOutcome::Completed);
        if self.output == OutputMode::Text && !completed {
            // A reply cut by an error or an interrupt is not an answer: keep stdout clean.
            self.flush_pending_as_progress();
            return String::new();
        }
        let answer = self.pending_message.take().unwrap_or_default();
        if self.output == OutputMode::Text && !answer.is_empty() {
            let _ = writeln!(self.out, "{}", answer.trim_end());
            let _ = self.out.flush();
        }
        if self.output == OutputMode::Text && answer.is_empty() {
            self.line_err("warning: the turn completed without a reply");
        }
        answer
    }

    fn engine_gone(&mut self) -> HeadlessReport {
        self.line_err("error: the engine stopped unexpectedly");
        HeadlessReport {
            outcome: TurnOutcome::Failed {
                kind: ErrorKind::Internal,
            },
            answer: String::new(),
            exit_code: exit_code::INTERNAL,
        }
    }

    fn line_err(&mut self, line: &str) {
        let _ = writeln!(self.err, "{line}");
        let _ = self.err.flush();
    }
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or("")
}

#[cfg(test)]
#[path = "headless_tests.rs"]
mod tests;
