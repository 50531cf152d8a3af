//! Starting a session actor: the recorder for its first stored row (a subagent's row carries
//! Hermes's `_delegate_from` marker), its guard (approvals, hooks), its subagents, and the task
//! that runs it; and the Hermes-style session id.

use std::collections::VecDeque;
use std::sync::Arc;

use tokio::sync::mpsc;

use super::Actor;
use super::Internal;
use super::SessionSpec;
use crate::engine::delegation::ChildBase;
use crate::engine::delegation::Delegations;
use crate::engine::events::EventSink;
use crate::engine::events::PendingRequests;
use crate::engine::guard::SessionGuard;
use crate::engine::recorder::Recorder;
use crate::engine::turn::SteerBuffer;
use crate::protocol::SessionHandle;
use crate::protocol::SessionInfo;
use crate::protocol::StatusUpdate;
use crate::store::NewSession;
use crate::store::Source;
use crate::tools::SessionTools;

/// Start a session actor on the current tokio runtime.
pub fn spawn_session(mut spec: SessionSpec) -> SessionHandle {
    let (ops_tx, ops_rx) = mpsc::unbounded_channel();
    let (events_tx, events_rx) = mpsc::unbounded_channel();
    let (internal_tx, internal_rx) = mpsc::unbounded_channel();
    let events = EventSink::new(events_tx);
    let resumed = spec.resumed.take();
    let template = NewSession {
        id: spec.session_id.clone(),
        source: if spec.delegation.depth > 0 {
            Source::Subagent
        } else {
            Source::Cli
        },
        model: spec.endpoint.model.clone(),
        provider: spec.endpoint.provider_name.clone(),
        base_url: spec.endpoint.base_url.clone(),
        system_prompt: spec.system_prompt.clone(),
        cwd: spec.cwd.display().to_string(),
        parent_session_id: spec.delegation.parent_session_id.clone(),
        // Hermes's marker for a delegate's run: its pickers hide it and deleting the parent
        // deletes it too.
        model_config: spec
            .delegation
            .parent_session_id
            .as_ref()
            .filter(|_| spec.delegation.depth > 0)
            .map(|parent| serde_json::json!({ "_delegate_from": parent })),
        ..NewSession::default()
    };
    let mut resumed = resumed;
    let restored_goal = resumed
        .as_mut()
        .map(|r| std::mem::replace(&mut r.goal, Ok(None)));
    let (history, status, title, recorder) = match resumed {
        Some(resumed) => (
            resumed.history,
            resumed.status,
            resumed.title,
            Recorder::resuming(spec.store.clone(), template, events.clone()),
        ),
        None => (
            Vec::new(),
            StatusUpdate::default(),
            None,
            Recorder::new(spec.store.clone(), template, events.clone()),
        ),
    };
    let mut spec = spec;
    let guard = SessionGuard::build(
        &mut spec.safety,
        events.clone(),
        spec.yolo,
        spec.cwd.clone(),
        &spec.session_id,
    );
    let mcp = super::mcp_ops::start_mcp(&spec, &events);
    let delegations = {
        let internal = internal_tx.clone();
        let mut child_base = ChildBase::of(&spec);
        child_base.mcp = mcp.clone();
        Delegations::new(
            spec.delegation.clone(),
            child_base,
            events.clone(),
            Arc::new(move |text| {
                let _ = internal.send(Internal::DelegationDone(text));
            }),
        )
    };
    let actor = Actor {
        delegations,
        guard,
        history,
        events,
        pending: PendingRequests::default(),
        steer: SteerBuffer::default(),
        compression_guard: Arc::default(),
        queue: VecDeque::new(),
        budget: super::super::turn_budget::MessageBudget::new(spec.max_iterations),
        images: Default::default(),
        status: StatusUpdate {
            context_window: spec.endpoint.context_window,
            ..status
        },
        title,
        next_turn_id: 1,
        next_shell_id: 1,
        session_tools: Arc::new(SessionTools::default()),
        running: None,
        reset_after_turn: false,
        recorder: Arc::new(recorder),
        internal: internal_tx,
        pending_skill: None,
        next_secret_id: 1,
        goals: super::goal_ops::GoalSlot::restoring(restored_goal),
        mcp,
        spec,
    };
    tokio::spawn(actor.run(ops_rx, internal_rx));
    SessionHandle {
        ops: ops_tx,
        events: events_rx,
    }
}

/// Hermes-style id: start time plus a random suffix, sortable by time.
pub fn new_session_id() -> String {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let stamp = crate::engine::prompt::format_utc(now)
        .replace(['-', ':'], "")
        .replace(' ', "_")
        .replace("_UTC", "");
    let suffix = uuid::Uuid::new_v4().simple().to_string();
    format!("{stamp}_{}", &suffix[..6])
}

impl Actor {
    /// What frontends are told about the session (`Event::SessionInfo`).
    pub(super) fn session_info(&self) -> SessionInfo {
        let endpoint = &self.spec.endpoint;
        SessionInfo {
            session_id: self.spec.session_id.clone(),
            model: endpoint.model.clone(),
            provider: endpoint.provider_name.clone(),
            base_url: crate::util::redact::strip_url_credentials(&endpoint.base_url).into_owned(),
            cwd: self.spec.cwd.display().to_string(),
            tools: self
                .spec
                .tools
                .names()
                .iter()
                .map(ToString::to_string)
                .collect(),
            context_window: endpoint.context_window,
            yolo: self.spec.yolo,
            title: self.title.clone(),
            resumed_messages: self.history.len(),
            slash_commands: self.spec.slash_commands.clone(),
            sandbox: self.guard.sandbox.status_line(),
        }
    }
}
