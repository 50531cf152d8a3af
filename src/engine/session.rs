//! The session actor: one task that owns a conversation and runs one turn at a time.
//!
//! It receives `Op`s on an unbounded channel and emits `Event`s. While a turn runs (on its own
//! task, owning the history until it finishes), the actor keeps serving ops: interrupts cancel
//! the turn's token, clarify replies resolve pending requests, and new input is queued, steered
//! or interrupts according to the `BusyInputMode`. Invariants: at most one turn runs; every
//! clarify request is answered (shutdown declines what is open); background processes die
//! with the session; a panicking turn loses only that turn, never the earlier history.

use std::collections::VecDeque;
use std::sync::Arc;

use tokio::sync::mpsc;
use tokio::task::JoinError;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use super::delegation::Delegations;
use super::dispatch::CallWrapping;
use super::events::EventSink;
use super::events::PendingRequests;
use super::guard::ApprovalGate;
use super::guard::SessionGuard;
use super::host::EngineToolHost;
use super::recorder::Recorder;
use super::turn::SteerBuffer;
use super::turn::TurnContext;
use super::turn::TurnInput;
use super::turn::TurnResult;
use super::turn::run_turn;
use crate::model::Message;
use crate::protocol::ErrorEvent;
use crate::protocol::ErrorKind;
use crate::protocol::Event;
use crate::protocol::HistoryReplay;
use crate::protocol::Notice;
use crate::protocol::NoticeLevel;
use crate::protocol::Op;
use crate::protocol::StatusUpdate;
use crate::protocol::TurnComplete;
use crate::protocol::TurnOutcome;
use crate::protocol::TurnStarted;
use crate::safety::hooks::HookEvent;
use crate::tools::SessionTools;
use crate::tools::ToolContext;

pub use super::session_spec::BusyInputMode;
pub use super::session_spec::McpLaunch;
pub use super::session_spec::ModelEndpoint;
pub use super::session_spec::ModelSwitcher;
pub use super::session_spec::SessionSpec;

/// Work the actor started on another task, reporting back.
enum Internal {
    /// `/name args` resolved: the skill's message, or `None` for an unknown command.
    SlashResolved {
        name: String,
        message: Option<String>,
        /// Secrets the skill needs that are not set: (variable, prompt).
        missing: Vec<(String, String)>,
    },
    Stored(stored::StoredDone),
    /// The main agent's background subagents finished: their combined results, to be sent
    /// as the next user message.
    DelegationDone(String),
    /// The goal judge's verdict on judgement `number`.
    GoalVerdict {
        number: u64,
        judged: super::goals::Judged,
    },
}

mod cron_ops;
mod goal_ops;
mod mcp_ops;
mod model_ops;
mod reset_ops;
mod safety_ops;
mod shell_ops;
mod skill_ops;
mod stored;
mod subagent_ops;
mod toolsets_ops;

/// A stored session's state, loaded to continue it.
pub struct ResumedSession {
    pub history: Vec<Message>,
    pub status: StatusUpdate,
    pub title: Option<String>,
    /// The session's stored goal (`goal:<id>` in `state_meta`), or why it could not be read.
    pub goal: Result<Option<super::goals::GoalRecord>, super::goals::persist::LoadError>,
}

pub use start::new_session_id;
pub use start::spawn_session;

mod start;

struct Running {
    turn_id: u64,
    cancel: CancellationToken,
    handle: JoinHandle<TurnResult>,
}

struct Actor {
    spec: SessionSpec,
    history: Vec<Message>,
    events: EventSink,
    pending: PendingRequests,
    steer: SteerBuffer,
    compression_guard: Arc<super::compress::CompressionGuard>,
    queue: VecDeque<TurnInput>,
    /// `agent.max_turns`, shared by a user message and the turns its results start.
    budget: super::turn_budget::MessageBudget,
    /// Image payloads and embed counts, shared by the turns and `vision_analyze`.
    images: Arc<super::images::ImageState>,
    status: StatusUpdate,
    next_turn_id: u64,
    next_shell_id: u64,
    session_tools: Arc<SessionTools>,
    running: Option<Running>,
    /// `Op::NewSession` arrived while a turn ran: reset once it has stopped.
    reset_after_turn: bool,
    title: Option<String>,
    recorder: Arc<Recorder>,
    internal: mpsc::UnboundedSender<Internal>,
    /// A skill invocation waiting for secrets the user is being asked for.
    pending_skill: Option<skill_ops::PendingSkill>,
    next_secret_id: u64,
    /// Approvals and checkpoints, shared by the session's turns.
    guard: Arc<SessionGuard>,
    /// The session's subagents.
    delegations: Arc<Delegations>,
    /// The standing goal (`/goal`) and its judge.
    goals: goal_ops::GoalSlot,
    /// The session's MCP servers and the tools they add.
    mcp: Option<Arc<crate::tools::mcp::McpManager>>,
}

enum Next {
    Op(Option<Op>),
    Internal(Internal),
    TurnEnded(Result<TurnResult, JoinError>),
}

impl Actor {
    async fn run(
        mut self,
        mut ops: mpsc::UnboundedReceiver<Op>,
        mut internal: mpsc::UnboundedReceiver<Internal>,
    ) {
        self.events.send(Event::SessionInfo(self.session_info()));
        self.start_cron_forwarding();
        if self.history.is_empty() {
            self.session_hook(HookEvent::OnSessionStart, serde_json::json!({}));
        } else {
            // A resumed session: frontends show the conversation so far.
            self.events.send(Event::StatusUpdate(self.status.clone()));
            self.events.send(Event::HistoryReplay(HistoryReplay {
                messages: stored::replay(&self.history),
            }));
            if let Some(goal) = self.goals.restored.take() {
                self.restore_goal(goal);
            }
        }
        loop {
            let next = match self.running.as_mut() {
                Some(running) => tokio::select! {
                    op = ops.recv() => Next::Op(op),
                    Some(work) = internal.recv() => Next::Internal(work),
                    joined = &mut running.handle => Next::TurnEnded(joined),
                },
                None => tokio::select! {
                    op = ops.recv() => Next::Op(op),
                    Some(work) = internal.recv() => Next::Internal(work),
                },
            };
            match next {
                Next::Op(None) => {
                    self.shutdown().await;
                    break;
                }
                Next::Op(Some(Op::Shutdown)) => {
                    self.shutdown().await;
                    self.events.send(Event::ShutdownComplete);
                    break;
                }
                Next::Op(Some(op)) => self.handle(op),
                Next::Internal(work) => self.internal(work),
                Next::TurnEnded(joined) => self.turn_ended(joined),
            }
        }
    }

    fn handle(&mut self, op: Op) {
        match op {
            Op::UserInput { text, images } => {
                self.user_input(super::turn_images::UserInput { text, images })
            }
            Op::Interrupt => self.interrupt(),
            Op::Steer { text } => match self.running {
                Some(_) => self.steer_running(text),
                None => self.start_turn(text.into()),
            },
            Op::Queue { text } => match self.running {
                Some(_) => self.queue.push_back(TurnInput::User(text.into())),
                None => self.start_turn(text.into()),
            },
            Op::SecretReply { id, value } => self.secret_reply(&id, value),
            Op::ClarifyReply { id, answer } => {
                if !self.pending.answer(&id, answer) {
                    self.notice(
                        NoticeLevel::Warning,
                        format!("no open question with id {id} (already answered or cancelled)"),
                    );
                }
            }
            Op::ApprovalReply { id, decision } => self.approval_reply(&id, decision),
            Op::Subagent { id, control } => self.subagent_control(&id, control),
            Op::SetSpawning(spawning) => self.set_spawning(spawning),
            Op::ListSpawnTrees => self.list_spawn_trees(),
            Op::LoadSpawnTree { id } => self.load_spawn_tree(id),
            Op::ListCheckpoints => self.list_checkpoints(),
            Op::CheckpointDiff { id } => self.checkpoint_diff(&id),
            Op::RestoreCheckpoint { id } => self.restore_checkpoint(&id),
            Op::SwitchModel(selection) => self.switch_model(&selection),
            Op::SlashCommand { name, args } => self.slash_command(name, args),
            Op::ListSessions { query, limit } => self.list_sessions(query, limit),
            Op::ResumeSession { target } => self.resume(target),
            Op::SetTitle { title } => self.set_title(title),
            Op::BranchSession { title } => self.branch(title),
            Op::UndoTurns { turns } => self.undo(turns),
            Op::Compress => match self.running {
                Some(_) => self.notice(
                    NoticeLevel::Warning,
                    "a turn is running: /stop it first, then /compress".to_string(),
                ),
                None => self.start(TurnInput::Compress),
            },
            Op::NewSession => match self.running {
                Some(_) => {
                    self.reset_after_turn = true;
                    self.interrupt();
                }
                None => self.reset(),
            },
            Op::Retry => self.retry(),
            Op::RunShell { command } => self.run_shell(command),
            Op::StopBackground => {
                self.session_tools.shutdown();
                let children = self.delegations.running();
                self.delegations.stop_all();
                let text = match children {
                    0 => "background processes stopped".to_string(),
                    n => format!("background processes and {n} subagent(s) stopped"),
                };
                self.notice(NoticeLevel::Info, text);
            }
            Op::SetYolo(yolo) => self.set_yolo(yolo),
            Op::Goal(command) => self.goal_command(command),
            Op::ReloadMcp => self.reload_mcp(),
            Op::Toolsets(op) => self.toolsets_op(op),
            Op::Cron(op) => self.cron_op(op),
            // Handled by the run loop before dispatch.
            Op::Shutdown => {}
        }
    }

    fn user_input(&mut self, input: super::turn_images::UserInput) {
        if self.running.is_none() {
            return self.start_turn(input);
        }
        match self.spec.busy_input {
            BusyInputMode::Interrupt => {
                self.queue.push_front(TurnInput::User(input));
                self.interrupt();
            }
            BusyInputMode::Queue => self.queue.push_back(TurnInput::User(input)),
            // A steer is text only; a message with images waits for the next turn instead.
            BusyInputMode::Steer if !input.images.is_empty() => {
                self.notice(
                    NoticeLevel::Info,
                    "a message with images cannot steer a running turn: it is queued and \
                     sent when the turn ends"
                        .to_string(),
                );
                self.queue.push_back(TurnInput::User(input));
            }
            BusyInputMode::Steer => self.steer_running(input.text),
        }
    }

    fn steer_running(&mut self, text: String) {
        if let Ok(mut pending) = self.steer.lock() {
            pending.push(text);
        }
        self.notice(
            NoticeLevel::Info,
            "steer noted: delivered to the agent after its next tool call".to_string(),
        );
    }

    fn interrupt(&mut self) {
        if let Some(running) = &self.running {
            running.cancel.cancel();
            self.pending.decline_all();
            self.guard.asker.pending.decline_all();
        }
    }

    fn start_turn(&mut self, input: super::turn_images::UserInput) {
        self.start(TurnInput::User(input));
    }

    fn start(&mut self, input: TurnInput) {
        // Whatever starts now goes before a verdict still on its way; the judge runs after it.
        self.stop_judging();
        let turn_id = self.next_turn_id;
        self.next_turn_id += 1;
        let cancel = CancellationToken::new();
        let host = Arc::new(EngineToolHost {
            events: self.events.clone(),
            pending: self.pending.clone(),
            cancel: cancel.clone(),
        });
        let vision = super::turn_images::TurnVision {
            state: Arc::clone(&self.images),
            settings: self.spec.vision.clone(),
            model_sees_images: self.spec.endpoint.supports_vision,
            model: self.spec.endpoint.model.clone(),
        };
        let tool_ctx = ToolContext {
            call_id: String::new(),
            session_id: self.spec.session_id.clone(),
            cwd: self.spec.cwd.clone(),
            limits: self.spec.limits.clone(),
            cancel: cancel.clone(),
            host,
            policy: Arc::new(ApprovalGate::new(
                Arc::clone(&self.guard),
                turn_id,
                cancel.clone(),
            )),
            session: Arc::clone(&self.session_tools),
            env: Arc::clone(&self.spec.tool_env),
            delegator: self.delegator(turn_id, &cancel),
            vision: Some(Arc::new(super::turn_images::SessionVision(vision.clone()))),
            nested: None,
        };
        let ctx = TurnContext {
            turn_id,
            provider: Arc::clone(&self.spec.endpoint.provider),
            model: self.spec.endpoint.model.clone(),
            system: self.spec.system_prompt.clone(),
            tools: Arc::clone(&self.spec.tools),
            tool_ctx,
            events: self.events.clone(),
            max_iterations: self.budget.for_turn(&input),
            message_limit: self.budget.limit(),
            max_tokens: self.spec.max_tokens,
            steer: Arc::clone(&self.steer),
            status: self.status.clone(),
            recorder: Arc::clone(&self.recorder),
            discovery: self.spec.discovery.clone(),
            compression: self.spec.compression,
            compression_guard: Arc::clone(&self.compression_guard),
            summariser: self
                .spec
                .summariser
                .as_ref()
                .map(|e| (Arc::clone(&e.provider), e.billing_route())),
            route: self.spec.endpoint.billing_route(),
            context_window: self.spec.endpoint.context_window,
            session_id: self.spec.session_id.clone(),
            wrapping: CallWrapping {
                hooks: Some(self.guard.hooks.clone()),
                redactor: self.guard.redactor.clone(),
            },
            vision,
        };
        self.events
            .send(Event::TurnStarted(TurnStarted { turn_id }));
        // The turn gets a copy; ours stays as the fallback if the turn task panics.
        let history = self.history.clone();
        let mcp = self.mcp.clone();
        let handle = tokio::spawn(async move {
            run_turn(mcp_ops::with_current_tools(mcp, ctx).await, history, input).await
        });
        self.running = Some(Running {
            turn_id,
            cancel,
            handle,
        });
    }

    fn turn_ended(&mut self, joined: Result<TurnResult, JoinError>) {
        let Some(running) = self.running.take() else {
            return;
        };
        let outcome = match joined {
            Ok(result) => {
                self.budget.spend(result.api_calls);
                self.history = result.history;
                self.status = result.status;
                if result.session_id != self.spec.session_id {
                    // Compression continued the conversation in a child session.
                    self.spec.session_id = result.session_id;
                    self.events.send(Event::SessionInfo(self.session_info()));
                    self.save_goal();
                }
                result.outcome
            }
            Err(err) => {
                tracing::error!(error = %err, "turn task failed");
                self.events.send(Event::Error(ErrorEvent {
                    kind: ErrorKind::Internal,
                    text: format!(
                        "the turn stopped unexpectedly ({err}); the conversation before it is kept"
                    ),
                }));
                TurnOutcome::Failed {
                    kind: ErrorKind::Internal,
                }
            }
        };
        self.session_hook(
            HookEvent::OnSessionEnd,
            serde_json::json!({
                "turn_id": running.turn_id,
                "completed": matches!(outcome, TurnOutcome::Completed),
                "interrupted": matches!(outcome, TurnOutcome::Interrupted { .. }),
                "failed": matches!(outcome, TurnOutcome::Failed { .. }),
            }),
        );
        self.events.send(Event::TurnComplete(TurnComplete {
            turn_id: running.turn_id,
            outcome: outcome.clone(),
        }));
        self.goal_after_turn(&outcome);
        if self.reset_after_turn {
            self.reset_after_turn = false;
            self.reset();
            return;
        }
        if let Some(next) = self.queue.pop_front() {
            self.start(next);
        }
    }

    async fn shutdown(&mut self) {
        self.queue.clear();
        self.stop_judging();
        if let Some(running) = self.running.take() {
            running.cancel.cancel();
            self.pending.decline_all();
            self.guard.asker.pending.decline_all();
            if let Ok(result) = running.handle.await {
                self.history = result.history;
            }
        }
        // First, so the session is marked ended even if stopping the rest outlasts the
        // frontend's wait.
        self.recorder.finish(self.spec.exit_reason).await;
        self.pending.decline_all();
        self.guard.asker.pending.decline_all();
        self.delegations
            .stop_all_and_wait(std::time::Duration::from_secs(10))
            .await;
        self.session_tools.shutdown();
        self.save_goal_before_exit().await;
        self.stop_mcp().await;
        self.guard
            .hooks
            .observe(
                HookEvent::OnSessionEnd,
                self.hook_extra(serde_json::json!({"reason": "exit"})),
            )
            .await;
    }

    fn notice(&self, level: NoticeLevel, text: String) {
        self.events.send(Event::Notice(Notice { level, text }));
    }
}
