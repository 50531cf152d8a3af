//! Subagents: the engine's `Delegator`. `delegate_task` starts child session actors (fresh
//! history, the parent's tools minus the blocked ones, the same provider clients), forwards
//! their events to the parent's frontend as `Event::Subagent`, routes their approval requests
//! to the parent's queue, and returns their summaries in input order.
//!
//! The main agent's children run in the background: the tool returns at once and the results
//! come back as one new message through `DelegationDone`. A subagent's own workers are waited
//! for inside its turn. Invariants: a batch over `max_concurrent_children` is an error, never
//! cut, and so is a new background batch while `max_concurrent_children` batches still run
//! (as in Hermes, so a model that keeps delegating cannot pile up work); depth never exceeds
//! `max_spawn_depth`; every child that started gets exactly one
//! `Finished`; stopping a session (or /stop) stops its children, a follow-up message does not.

mod child;
mod drive;
pub mod trees;

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::PoisonError;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::AtomicUsize;
use std::sync::atomic::Ordering;

use async_trait::async_trait;
use tokio::sync::mpsc::UnboundedSender;
use tokio_util::sync::CancellationToken;

use crate::engine::compress::CompressionSettings;
use crate::engine::events::EventSink;
use crate::engine::session_spec::ModelEndpoint;
use crate::protocol::ApprovalDecision;
use crate::protocol::Event;
use crate::protocol::Op;
use crate::protocol::Spawning;
use crate::protocol::SubagentControl;
use crate::protocol::SubagentEvent;
use crate::protocol::SubagentEventKind;
use crate::protocol::SubagentRole;
use crate::protocol::Yolo;
use crate::safety::approvals::ApprovalSettings;
use crate::safety::checkpoints::CheckpointStore;
use crate::safety::classify::ShellContext;
use crate::store::SessionStore;
use crate::tools::DelegateError;
use crate::tools::DelegationRequest;
use crate::tools::Delegator;
use crate::tools::ToolEnv;
use crate::tools::ToolLimits;
use crate::tools::registry::ToolRegistry;
use crate::util::redact::Redactor;

pub use child::LEAF_BLOCKED;
pub use drive::ChildResult;

/// What a child's approval request does (`delegation.subagent_approvals`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SubagentApprovals {
    /// Queue it in the parent's approvals pane, labelled with the child.
    Ask,
    Deny,
    /// Allow the call once without asking.
    Once,
}

/// `delegation:` settings, resolved.
#[derive(Clone)]
pub struct DelegationSettings {
    pub max_concurrent: usize,
    pub max_depth: u32,
    pub orchestrator_enabled: bool,
    pub approvals: SubagentApprovals,
    /// `delegation.model`/`provider`/`base_url`: the children's endpoint, when set.
    pub endpoint: Option<ModelEndpoint>,
    /// `delegation.child_timeout_seconds`: stop a child silent for this long (`None`: never).
    pub child_timeout: Option<std::time::Duration>,
    /// `delegation.max_iterations`: a child's API calls when the call does not say.
    pub max_iterations: u32,
}

impl Default for DelegationSettings {
    fn default() -> Self {
        Self {
            max_concurrent: 3,
            max_depth: 1,
            orchestrator_enabled: true,
            approvals: SubagentApprovals::Ask,
            endpoint: None,
            child_timeout: None,
            max_iterations: 50,
        }
    }
}

/// Where a session sits in the delegation tree.
#[derive(Clone, Default)]
pub struct DelegationSpec {
    pub settings: DelegationSettings,
    /// 0 for the main agent.
    pub depth: u32,
    /// The subagent id of this session (`None` for the main agent).
    pub subagent_id: Option<String>,
    /// The stored session that started this one (`parent_session_id` in state.db).
    pub parent_session_id: Option<String>,
}

/// What children inherit from their parent session.
#[derive(Clone)]
pub struct ChildBase {
    pub endpoint: ModelEndpoint,
    pub tools: Arc<ToolRegistry>,
    pub cwd: PathBuf,
    pub limits: ToolLimits,
    pub max_tokens: Option<u32>,
    pub yolo: Yolo,
    pub store: Option<Arc<SessionStore>>,
    pub tool_env: Arc<ToolEnv>,
    pub compression: CompressionSettings,
    pub approvals: ApprovalSettings,
    pub shell: ShellContext,
    pub checkpoints: Option<Arc<CheckpointStore>>,
    pub redactor: Redactor,
    /// The project context file for children's prompts, read when the first child starts
    /// (never at session start: most sessions never delegate).
    pub project_context: Arc<std::sync::OnceLock<String>>,
    /// Where finished top-level batches are saved (`HERMES_HOME/spawn-trees`).
    pub spawn_trees: Option<trees::SpawnTrees>,
    pub vision: crate::engine::images::VisionSettings,
    /// The parent's MCP servers: children get their tools as they are when the child starts
    /// (Hermes's `inherit_mcp_toolsets`), calling through the parent's connections.
    pub mcp: Option<Arc<crate::tools::mcp::McpManager>>,
}

impl ChildBase {
    /// The tools a child starts from: the parent's, with MCP tools as they are now.
    pub fn current_tools(&self) -> Arc<ToolRegistry> {
        match &self.mcp {
            Some(mcp) => mcp.tools(),
            None => Arc::clone(&self.tools),
        }
    }

    /// What a session's children inherit from its spec.
    pub fn of(spec: &crate::engine::session_spec::SessionSpec) -> Self {
        Self {
            endpoint: spec.endpoint.clone(),
            tools: Arc::clone(&spec.tools),
            cwd: spec.cwd.clone(),
            limits: spec.limits.clone(),
            max_tokens: spec.max_tokens,
            yolo: spec.yolo,
            store: spec.store.clone(),
            tool_env: Arc::clone(&spec.tool_env),
            compression: spec.compression,
            approvals: spec.safety.approvals.clone(),
            shell: spec.safety.shell.clone(),
            checkpoints: spec.safety.checkpoints.clone(),
            redactor: spec.safety.redactor.clone(),
            project_context: Arc::new(std::sync::OnceLock::new()),
            vision: spec.vision.for_subagent(),
            spawn_trees: spec
                .safety
                .home
                .as_ref()
                .map(|home| trees::SpawnTrees::new(home.root().join("spawn-trees"))),
            mcp: None,
        }
    }
}

/// A running child, for steering and stopping.
struct ChildControl {
    ops: UnboundedSender<Op>,
    stop: CancellationToken,
    /// Steer messages sent but not yet delivered (delivered with the child's next model call).
    steers: Arc<Mutex<Vec<String>>>,
}

/// A session's children: starting them, and the controls of the running ones.
pub struct Delegations {
    settings: DelegationSettings,
    spec: DelegationSpec,
    base: ChildBase,
    events: EventSink,
    /// Where background results go (into the session actor, as a new message).
    done: Arc<dyn Fn(String) + Send + Sync>,
    children: Mutex<HashMap<String, ChildControl>>,
    /// Open approval requests of children (and their descendants): request id → child id.
    routes: Mutex<HashMap<String, String>>,
    /// Descendants below the children: subagent id → the child that owns it.
    owners: Mutex<HashMap<String, String>>,
    spawning: Mutex<Spawning>,
    next: AtomicU64,
    /// Stops every child of this session (reset, shutdown, /stop).
    all: Mutex<CancellationToken>,
    /// The main agent's subagent events, kept until their batch is saved as a spawn tree.
    recorded: Mutex<Vec<SubagentEvent>>,
    /// The main agent's background batches still running.
    background_batches: AtomicUsize,
}

impl Delegations {
    pub fn new(
        spec: DelegationSpec,
        base: ChildBase,
        events: EventSink,
        done: Arc<dyn Fn(String) + Send + Sync>,
    ) -> Arc<Self> {
        Arc::new(Self {
            settings: spec.settings.clone(),
            spec,
            base,
            events,
            done,
            children: Mutex::new(HashMap::new()),
            routes: Mutex::new(HashMap::new()),
            owners: Mutex::new(HashMap::new()),
            spawning: Mutex::new(Spawning::Allowed),
            next: AtomicU64::new(1),
            all: Mutex::new(CancellationToken::new()),
            recorded: Mutex::new(Vec::new()),
            background_batches: AtomicUsize::new(0),
        })
    }

    fn child_delegation(&self, id: &str, parent_session_id: &str) -> DelegationSpec {
        DelegationSpec {
            settings: self.settings.clone(),
            depth: self.spec.depth + 1,
            subagent_id: Some(id.to_string()),
            parent_session_id: Some(parent_session_id.to_string()),
        }
    }

    pub fn set_spawning(&self, spawning: Spawning) {
        *lock(&self.spawning) = spawning;
    }

    /// Steers or stops child `id`; false when no such child is running here.
    pub fn control(&self, id: &str, control: SubagentControl) -> bool {
        let children = lock(&self.children);
        let Some(child) = children.get(id) else {
            // A grandchild: its parent (one of our children) controls it.
            let owner = lock(&self.owners).get(id).cloned();
            return owner
                .and_then(|owner| children.get(&owner))
                .is_some_and(|child| {
                    child
                        .ops
                        .send(Op::Subagent {
                            id: id.to_string(),
                            control,
                        })
                        .is_ok()
                });
        };
        match control {
            SubagentControl::Steer { text } => {
                lock(&child.steers).push(text.clone());
                child.ops.send(Op::Steer { text }).is_ok()
            }
            SubagentControl::Stop | SubagentControl::StopSubtree => {
                child.stop.cancel();
                true
            }
        }
    }

    /// Stops every running child (session reset, shutdown, /stop).
    pub fn stop_all(&self) {
        let mut all = lock(&self.all);
        all.cancel();
        *all = CancellationToken::new();
    }

    /// Stops every running child and waits (at most `within`) until all have shut down, so
    /// none outlives the session (their actors kill their own processes on the way out).
    pub async fn stop_all_and_wait(&self, within: std::time::Duration) {
        self.stop_all();
        let deadline = tokio::time::Instant::now() + within;
        while self.running() > 0 && tokio::time::Instant::now() < deadline {
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
    }

    /// Whether any child is running.
    pub fn running(&self) -> usize {
        lock(&self.children).len()
    }

    /// Delivers an approval answer to the child that asked; false if none did.
    pub fn route_reply(&self, request_id: &str, decision: ApprovalDecision) -> bool {
        let child_id = lock(&self.routes).remove(request_id);
        let Some(child_id) = child_id else {
            return false;
        };
        lock(&self.children).get(&child_id).is_some_and(|child| {
            child
                .ops
                .send(Op::ApprovalReply {
                    id: request_id.to_string(),
                    decision,
                })
                .is_ok()
        })
    }

    fn emit(&self, id: &str, kind: SubagentEventKind) {
        self.forward(SubagentEvent {
            id: id.to_string(),
            kind,
        });
    }

    /// Sends a subagent event to the frontend; the main agent also records it for the
    /// batch's saved spawn tree.
    fn forward(&self, event: SubagentEvent) {
        if self.spec.depth == 0 && self.base.spawn_trees.is_some() {
            lock(&self.recorded).push(event.clone());
        }
        self.events.send(Event::Subagent(event));
    }

    /// Saves the finished batch `ids` (and their descendants) as one spawn tree, before the
    /// results are announced (so a listing right after them includes it).
    async fn save_tree(self: &Arc<Self>, ids: Vec<String>) {
        let Some(trees) = self.base.spawn_trees.clone() else {
            return;
        };
        let mine = |id: &str| {
            ids.iter()
                .any(|top| id == top || id.starts_with(&format!("{top}.")))
        };
        let events: Vec<SubagentEvent> = {
            let mut recorded = lock(&self.recorded);
            let (batch, rest): (Vec<_>, Vec<_>) = recorded.drain(..).partition(|e| mine(&e.id));
            *recorded = rest;
            batch
        };
        let saved = tokio::task::spawn_blocking(move || trees.save(&events)).await;
        match saved {
            Ok(Ok(_)) => {}
            Ok(Err(e)) => tracing::warn!(error = %e, "spawn tree not saved"),
            Err(e) => tracing::warn!(error = %e, "spawn tree not saved"),
        }
    }

    /// Saved spawn trees, newest first (blocking: call off the actor).
    pub fn spawn_trees(&self) -> Option<trees::SpawnTrees> {
        self.base.spawn_trees.clone()
    }

    /// Takes a background slot for a new batch of the main agent, or says why not.
    fn take_background_slot(&self) -> Result<(), DelegateError> {
        let limit = self.settings.max_concurrent.max(1);
        self.background_batches
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |running| {
                (running < limit).then_some(running + 1)
            })
            .map(|_| ())
            .map_err(|running| DelegateError::BackgroundBusy { running, limit })
    }

    fn refuse(&self, request: &DelegationRequest) -> Option<DelegateError> {
        if *lock(&self.spawning) == Spawning::Paused {
            return Some(DelegateError::Paused);
        }
        let depth = self.spec.depth + 1;
        if depth > self.settings.max_depth.clamp(1, 3) {
            return Some(DelegateError::TooDeep {
                max_depth: self.settings.max_depth,
            });
        }
        if request.role == SubagentRole::Orchestrator && !self.settings.orchestrator_enabled {
            return Some(DelegateError::OrchestratorDisabled);
        }
        let limit = self.settings.max_concurrent.max(1);
        if request.tasks.len() > limit {
            return Some(DelegateError::TooManyTasks {
                tasks: request.tasks.len(),
                limit,
            });
        }
        None
    }
}

/// The per-turn face of `Delegations`: children stop when this turn is cancelled, unless
/// they run in the background for the main agent.
pub struct TurnDelegator {
    pub delegations: Arc<Delegations>,
    /// The parent's stored session id now (it changes on reset and compression).
    pub session_id: String,
}

#[async_trait]
impl Delegator for TurnDelegator {
    async fn delegate(
        &self,
        request: DelegationRequest,
        cancel: &CancellationToken,
    ) -> Result<String, DelegateError> {
        let this = &self.delegations;
        if let Some(reason) = this.refuse(&request) {
            return Err(reason);
        }
        if this.spec.depth == 0 {
            this.take_background_slot()?;
        }
        let stop_all = lock(&this.all).clone();
        let mut started = Vec::new();
        for (index, task) in request.tasks.iter().enumerate() {
            let n = this.next.fetch_add(1, Ordering::Relaxed);
            let id = match &this.spec.subagent_id {
                Some(parent) => format!("{parent}.{n}"),
                None => format!("sa{n}"),
            };
            let label = drive::label_for(index, request.tasks.len(), &task.goal);
            started.push(drive::start(
                Arc::clone(this),
                drive::Launch {
                    id,
                    parent_session_id: self.session_id.clone(),
                    label,
                    index,
                    task: task.clone(),
                    role: request.role,
                    max_iterations: request
                        .max_iterations
                        .unwrap_or(this.settings.max_iterations),
                    stop: stop_all.child_token(),
                },
            ));
        }
        let names: Vec<String> = started.iter().map(|c| c.id.clone()).collect();
        if this.spec.depth == 0 {
            let this = Arc::clone(this);
            let ids = names.clone();
            tokio::spawn(async move {
                let results = drive::join_all(started).await;
                this.save_tree(ids).await;
                this.background_batches.fetch_sub(1, Ordering::AcqRel);
                (this.done)(drive::combined_message(&results));
            });
            return Ok(format!(
                "Started {} subagent(s) in the background ({}). Their results will arrive \
                 together as a new message when all have finished; carry on with anything \
                 else meanwhile, and do not redo their work.",
                names.len(),
                names.join(", ")
            ));
        }
        let results = tokio::select! {
            results = drive::join_all(started) => results,
            () = cancel.cancelled() => {
                stop_all.cancel();
                return Err(DelegateError::Interrupted);
            }
        };
        Ok(drive::combined_message(&results))
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
