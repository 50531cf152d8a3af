//! One child's life: start its session actor, give it the task, forward its events to the
//! parent's frontend (as `Event::Subagent`), route its approval requests, count its usage,
//! and turn its end into a `ChildResult` and a `Finished` event.
//!
//! Invariants: exactly one `Finished` per `Spawned`; the child's actor is shut down (its
//! background processes die with it) before the result is returned; stopping is an interrupt
//! followed by a shutdown, bounded in time.

use std::sync::Arc;
use std::time::Duration;
use std::time::Instant;

use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use super::ChildControl;
use super::Delegations;
use super::SubagentApprovals;
use super::child;
use super::lock;
use crate::engine::session::spawn_session;
use crate::protocol::ApprovalDecision;
use crate::protocol::ApprovalResolved;
use crate::protocol::ErrorEvent;
use crate::protocol::Event;
use crate::protocol::MessageComplete;
use crate::protocol::Op;
use crate::protocol::SessionHandle;
use crate::protocol::SubagentEventKind;
use crate::protocol::SubagentRole;
use crate::protocol::SubagentStatus;
use crate::protocol::SubagentUsage;
use crate::protocol::TurnComplete;
use crate::protocol::TurnOutcome;
use crate::tools::DelegatedTask;

/// How long a stopped child may take to wind down before it is dropped.
const STOP_GRACE: Duration = Duration::from_secs(5);

pub struct Launch {
    pub id: String,
    pub parent_session_id: String,
    pub label: String,
    pub index: usize,
    pub task: DelegatedTask,
    pub role: SubagentRole,
    pub max_iterations: u32,
    pub stop: CancellationToken,
}

pub struct Started {
    pub id: String,
    handle: JoinHandle<ChildResult>,
    label: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChildResult {
    pub id: String,
    pub label: String,
    pub status: SubagentStatus,
    pub summary: String,
}

/// "task 2/3: run the test suite…" (or just the goal for a single child).
pub fn label_for(index: usize, count: usize, goal: &str) -> String {
    let short: String = goal.split_whitespace().collect::<Vec<_>>().join(" ");
    let short = if short.chars().count() > 48 {
        format!("{}…", short.chars().take(47).collect::<String>())
    } else {
        short
    };
    if count > 1 {
        format!("task {}/{count}: {short}", index + 1)
    } else {
        short
    }
}

pub fn start(parent: Arc<Delegations>, launch: Launch) -> Started {
    let spec = child::child_spec(
        &parent,
        &launch.id,
        &launch.parent_session_id,
        &launch.label,
        launch.role,
        launch.max_iterations,
    );
    parent.emit(
        &launch.id,
        SubagentEventKind::Spawned {
            parent: parent.spec.subagent_id.clone(),
            depth: parent.spec.depth + 1,
            index: u32::try_from(launch.index).unwrap_or(u32::MAX),
            label: launch.label.clone(),
            goal: launch.task.goal.clone(),
            role: launch.role,
            model: spec.endpoint.model.clone(),
        },
    );
    let handle = spawn_session(spec);
    let steers = Arc::new(std::sync::Mutex::new(Vec::new()));
    lock(&parent.children).insert(
        launch.id.clone(),
        ChildControl {
            ops: handle.ops.clone(),
            stop: launch.stop.clone(),
            steers: Arc::clone(&steers),
        },
    );
    let id = launch.id.clone();
    let label = launch.label.clone();
    let join = tokio::spawn(run(parent, launch, handle, steers));
    Started {
        id,
        handle: join,
        label,
    }
}

/// Results in input order, whatever order the children finished in.
pub async fn join_all(started: Vec<Started>) -> Vec<ChildResult> {
    let mut results = Vec::with_capacity(started.len());
    for child in started {
        let result = match child.handle.await {
            Ok(result) => result,
            Err(e) => ChildResult {
                id: child.id,
                label: child.label,
                status: SubagentStatus::Failed,
                summary: format!("the subagent's task stopped unexpectedly ({e})"),
            },
        };
        results.push(result);
    }
    results
}

/// The message the parent gets: every child's status and summary, in input order.
pub fn combined_message(results: &[ChildResult]) -> String {
    let mut text = format!("Results from {} subagent(s):\n", results.len());
    for result in results {
        let status = match result.status {
            SubagentStatus::Completed => "completed",
            SubagentStatus::Failed => "failed",
            SubagentStatus::Interrupted => "interrupted (stopped by the user)",
            SubagentStatus::TimedOut => "timed out",
        };
        text.push_str(&format!(
            "\n### {} [{}] — {status}\n{}\n",
            result.label, result.id, result.summary
        ));
    }
    text
}

async fn run(
    parent: Arc<Delegations>,
    launch: Launch,
    mut handle: SessionHandle,
    steers: Arc<std::sync::Mutex<Vec<String>>>,
) -> ChildResult {
    let started = Instant::now();
    let _ = handle.ops.send(Op::user(child::task_message(&launch.task)));
    let mut watch = Watch {
        steers,
        ..Watch::default()
    };
    let mut stopping = None;
    // Stale-progress detection: any event from the child counts as activity.
    let idle_limit = parent.settings.child_timeout;
    let mut last_activity = Instant::now();
    let status = loop {
        let idle_deadline =
            idle_limit.map(|limit| tokio::time::Instant::from_std(last_activity + limit));
        let event = tokio::select! {
            event = handle.events.recv() => event,
            () = launch.stop.cancelled(), if stopping.is_none() => {
                stopping = Some(SubagentStatus::Interrupted);
                let _ = handle.ops.send(Op::Interrupt);
                continue;
            }
            () = sleep_until(idle_deadline), if stopping.is_none() && idle_deadline.is_some() => {
                stopping = Some(SubagentStatus::TimedOut);
                let secs = idle_limit.map_or(0, |d| d.as_secs());
                watch.failure = Some(format!(
                    "no API call or tool activity for {secs} s (delegation.child_timeout_seconds); \
                     it was stopped"
                ));
                let _ = handle.ops.send(Op::Interrupt);
                continue;
            }
        };
        last_activity = Instant::now();
        let Some(event) = event else {
            watch.last_text = "the subagent ended unexpectedly".to_string();
            break SubagentStatus::Failed;
        };
        if let Some(status) = watch.on_event(&parent, &launch.id, event) {
            break match (status, stopping) {
                (SubagentStatus::Interrupted, Some(SubagentStatus::TimedOut)) => {
                    watch.note_failure("timed out".to_string());
                    SubagentStatus::TimedOut
                }
                (status, _) => status,
            };
        }
    };
    shut_down(&mut handle).await;
    lock(&parent.children).remove(&launch.id);
    let summary = if watch.last_text.trim().is_empty() {
        "(the subagent gave no summary)".to_string()
    } else {
        watch.last_text.clone()
    };
    parent.emit(
        &launch.id,
        SubagentEventKind::Finished {
            status,
            summary: summary.clone(),
            duration_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
        },
    );
    ChildResult {
        id: launch.id,
        label: launch.label,
        status,
        summary,
    }
}

async fn shut_down(handle: &mut SessionHandle) {
    let _ = handle.ops.send(Op::Shutdown);
    let drained = async {
        while let Some(event) = handle.events.recv().await {
            if matches!(event, Event::ShutdownComplete) {
                break;
            }
        }
    };
    let _ = tokio::time::timeout(STOP_GRACE, drained).await;
}

async fn sleep_until(deadline: Option<tokio::time::Instant>) {
    match deadline {
        Some(deadline) => tokio::time::sleep_until(deadline).await,
        None => std::future::pending().await,
    }
}

/// What the parent tracks of one running child.
#[derive(Default)]
struct Watch {
    usage: SubagentUsage,
    last_text: String,
    failure: Option<String>,
    /// Steer messages on their way (shared with the child's control).
    steers: Arc<std::sync::Mutex<Vec<String>>>,
}

impl Watch {
    /// Handles one child event; `Some(status)` when the child's turn ended.
    fn on_event(&mut self, parent: &Delegations, id: &str, event: Event) -> Option<SubagentStatus> {
        match event {
            Event::ApprovalRequest(request) => {
                let answer = match parent.settings.approvals {
                    SubagentApprovals::Ask => None,
                    SubagentApprovals::Deny => Some(ApprovalDecision::Deny),
                    SubagentApprovals::Once => Some(ApprovalDecision::Once),
                };
                lock(&parent.routes).insert(request.id.clone(), id.to_string());
                match answer {
                    Some(decision) => {
                        parent.route_reply(&request.id, decision);
                    }
                    None => parent.events.send(Event::ApprovalRequest(request)),
                }
            }
            Event::ApprovalResolved(ApprovalResolved { ref id, .. }) => {
                lock(&parent.routes).remove(id);
                parent.events.send(event);
            }
            // A grandchild's events, already wrapped by this child's own delegations.
            Event::Subagent(ref sub) => {
                if matches!(sub.kind, SubagentEventKind::Spawned { .. }) {
                    lock(&parent.owners).insert(sub.id.clone(), id.to_string());
                }
                if let Event::Subagent(sub) = event {
                    parent.forward(sub);
                }
            }
            Event::StatusUpdate(status) => {
                self.usage.api_calls = status.api_calls;
                self.usage.input_tokens = status.input_tokens;
                self.usage.output_tokens = status.output_tokens;
                self.usage.cost_usd = status.cost_usd;
                parent.emit(id, SubagentEventKind::Usage(self.usage));
            }
            Event::TurnComplete(TurnComplete { outcome, .. }) => {
                return Some(match outcome {
                    TurnOutcome::Completed => SubagentStatus::Completed,
                    TurnOutcome::Interrupted { .. } => SubagentStatus::Interrupted,
                    TurnOutcome::IterationLimit { limit } => {
                        self.note_failure(format!("ran out of its {limit} API calls"));
                        SubagentStatus::Failed
                    }
                    TurnOutcome::Failed { kind } => {
                        self.note_failure(format!("failed ({kind:?})"));
                        SubagentStatus::Failed
                    }
                });
            }
            Event::Error(ErrorEvent { ref text, .. }) => {
                self.failure = Some(text.clone());
                parent.emit(
                    id,
                    SubagentEventKind::Activity {
                        event: Box::new(event),
                    },
                );
            }
            Event::MessageComplete(MessageComplete { ref text, .. }) => {
                if !text.trim().is_empty() {
                    self.last_text = text.clone();
                }
                parent.emit(
                    id,
                    SubagentEventKind::Activity {
                        event: Box::new(event),
                    },
                );
            }
            Event::ToolComplete(_) => {
                self.usage.tool_calls += 1;
                parent.emit(
                    id,
                    SubagentEventKind::Activity {
                        event: Box::new(event),
                    },
                );
                parent.emit(id, SubagentEventKind::Usage(self.usage));
            }
            Event::MessageStart(_) => {
                // Steers are delivered with the tool results that precede this model call.
                let delivered: Vec<String> = std::mem::take(&mut *lock(&self.steers));
                for text in delivered {
                    parent.emit(id, SubagentEventKind::SteerDelivered { text });
                }
                parent.emit(
                    id,
                    SubagentEventKind::Activity {
                        event: Box::new(event),
                    },
                );
            }
            Event::TurnStarted(_)
            | Event::MessageDelta(_)
            | Event::ReasoningDelta(_)
            | Event::ToolStart(_)
            | Event::ToolProgress(_)
            | Event::Notice(_)
            | Event::ClarifyRequest(_)
            | Event::SecretRequest(_) => parent.emit(
                id,
                SubagentEventKind::Activity {
                    event: Box::new(event),
                },
            ),
            Event::SessionInfo(_)
            | Event::CheckpointList(_)
            | Event::CheckpointDiff(_)
            | Event::SpawnTrees(_)
            | Event::SpawnTree(_)
            | Event::SessionList(_)
            | Event::HistoryReplay(_)
            | Event::GoalUpdate(_)
            | Event::GoalProgress(_)
            | Event::McpStatus(_)
            | Event::Toolsets(_)
            | Event::Cron(_)
            | Event::ShutdownComplete => {}
        }
        None
    }

    fn note_failure(&mut self, what: String) {
        let detail = self
            .failure
            .take()
            .map(|f| format!(": {f}"))
            .unwrap_or_default();
        let prefix = format!("The subagent {what}{detail}.");
        self.last_text = if self.last_text.trim().is_empty() {
            prefix
        } else {
            format!("{prefix} Its last message:\n{}", self.last_text)
        };
    }
}
