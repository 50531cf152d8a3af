//! Engine events → the TUI: the one place that takes a `protocol::Event` apart. [`route`] is
//! the TUI's only exhaustive match on `Event`; it hands each variant's payload to an
//! [`EventHandler`]. A handler implements only the events it consumes (the rest default to
//! nothing), so no consumer keeps a list of events it ignores.
//!
//! The main session's handler ([`on_engine_event`]) hands every pane its own payload: the
//! transcript, the status bar, the side panes (subagent events to the Subagents pane, goal
//! snapshots to the Goals pane and the bar's goal badge), busy state, clarifying questions and
//! the queue; it is also where queued messages are released when a turn ends. Approval
//! requests go to `approvals_flow`, checkpoint answers to `rollback_link`, saved spawn trees to
//! `spawn_trees_link`. The transcript is a handler of its own (a subagent's log is fed the
//! child's events through it), as is a subagent's activity line (`subagents::node`).
//!
//! Adding an `Event` variant touches `route` and `EventHandler` here, plus the other clients'
//! own matches (`headless`, `engine::delegation::drive`).

use std::time::Instant;

use super::app::App;
use super::overlays::sessions_picker::SessionsPicker;
use super::slash::SkillCommand;
use super::status_bar::Busy;
use super::status_bar::GoalBadge;
use super::status_bar::YoloBadge;
use crate::protocol::ApprovalRequest;
use crate::protocol::ApprovalResolved;
use crate::protocol::CheckpointDiff;
use crate::protocol::CheckpointList;
use crate::protocol::ClarifyRequest;
use crate::protocol::ErrorEvent;
use crate::protocol::Event;
use crate::protocol::GoalProgress;
use crate::protocol::GoalSnapshot;
use crate::protocol::GoalStatus;
use crate::protocol::GoalUpdate;
use crate::protocol::HistoryReplay;
use crate::protocol::McpStatus;
use crate::protocol::MessageComplete;
use crate::protocol::MessageDelta;
use crate::protocol::MessageStart;
use crate::protocol::Notice;
use crate::protocol::Op;
use crate::protocol::ReasoningDelta;
use crate::protocol::SecretRequest;
use crate::protocol::SessionInfo;
use crate::protocol::SessionList;
use crate::protocol::SpawnTree;
use crate::protocol::SpawnTrees;
use crate::protocol::StatusUpdate;
use crate::protocol::SubagentEvent;
use crate::protocol::ToolComplete;
use crate::protocol::ToolProgress;
use crate::protocol::ToolStart;
use crate::protocol::TurnComplete;
use crate::protocol::TurnStarted;
use crate::protocol::Yolo;

/// Something that consumes engine events: one method per `Event` variant, each given that
/// variant's payload. Every method defaults to doing nothing, so a handler names only what it
/// uses. Events reach a handler only through [`route`].
pub trait EventHandler {
    fn session_info(&mut self, _info: &SessionInfo) {}
    fn turn_started(&mut self, _started: &TurnStarted) {}
    fn message_start(&mut self, _start: &MessageStart) {}
    fn message_delta(&mut self, _delta: &MessageDelta) {}
    fn reasoning_delta(&mut self, _delta: &ReasoningDelta) {}
    fn message_complete(&mut self, _message: &MessageComplete) {}
    fn tool_start(&mut self, _start: &ToolStart) {}
    fn tool_progress(&mut self, _progress: &ToolProgress) {}
    fn tool_complete(&mut self, _complete: &ToolComplete) {}
    fn clarify_request(&mut self, _request: &ClarifyRequest) {}
    fn secret_request(&mut self, _request: &SecretRequest) {}
    fn approval_request(&mut self, _request: &ApprovalRequest) {}
    fn approval_resolved(&mut self, _resolved: &ApprovalResolved) {}
    fn checkpoint_list(&mut self, _list: &CheckpointList) {}
    fn checkpoint_diff(&mut self, _diff: &CheckpointDiff) {}
    fn status_update(&mut self, _status: &StatusUpdate) {}
    fn notice(&mut self, _notice: &Notice) {}
    fn error(&mut self, _error: &ErrorEvent) {}
    fn turn_complete(&mut self, _complete: &TurnComplete) {}
    fn session_list(&mut self, _list: &SessionList) {}
    fn history_replay(&mut self, _replay: &HistoryReplay) {}
    fn subagent(&mut self, _event: &SubagentEvent) {}
    fn spawn_trees(&mut self, _list: &SpawnTrees) {}
    fn spawn_tree(&mut self, _tree: &SpawnTree) {}
    fn goal_update(&mut self, _update: &GoalUpdate) {}
    fn goal_progress(&mut self, _progress: &GoalProgress) {}
    fn mcp_status(&mut self, _status: &McpStatus) {}
    fn toolsets(&mut self, _list: &crate::protocol::ToolsetList) {}
    fn cron(&mut self, _event: &crate::protocol::CronEvent) {}
    fn shutdown_complete(&mut self) {}
}

/// Hands `event`'s payload to the matching method of `handler`.
pub fn route(handler: &mut impl EventHandler, event: &Event) {
    match event {
        Event::SessionInfo(info) => handler.session_info(info),
        Event::TurnStarted(started) => handler.turn_started(started),
        Event::MessageStart(start) => handler.message_start(start),
        Event::MessageDelta(delta) => handler.message_delta(delta),
        Event::ReasoningDelta(delta) => handler.reasoning_delta(delta),
        Event::MessageComplete(message) => handler.message_complete(message),
        Event::ToolStart(start) => handler.tool_start(start),
        Event::ToolProgress(progress) => handler.tool_progress(progress),
        Event::ToolComplete(complete) => handler.tool_complete(complete),
        Event::ClarifyRequest(request) => handler.clarify_request(request),
        Event::SecretRequest(request) => handler.secret_request(request),
        Event::ApprovalRequest(request) => handler.approval_request(request),
        Event::ApprovalResolved(resolved) => handler.approval_resolved(resolved),
        Event::CheckpointList(list) => handler.checkpoint_list(list),
        Event::CheckpointDiff(diff) => handler.checkpoint_diff(diff),
        Event::StatusUpdate(status) => handler.status_update(status),
        Event::Notice(notice) => handler.notice(notice),
        Event::Error(error) => handler.error(error),
        Event::TurnComplete(complete) => handler.turn_complete(complete),
        Event::SessionList(list) => handler.session_list(list),
        Event::HistoryReplay(replay) => handler.history_replay(replay),
        Event::Subagent(event) => handler.subagent(event),
        Event::SpawnTrees(list) => handler.spawn_trees(list),
        Event::SpawnTree(tree) => handler.spawn_tree(tree),
        Event::GoalUpdate(update) => handler.goal_update(update),
        Event::GoalProgress(progress) => handler.goal_progress(progress),
        Event::McpStatus(status) => handler.mcp_status(status),
        Event::Toolsets(list) => handler.toolsets(list),
        Event::Cron(event) => handler.cron(event),
        Event::ShutdownComplete => handler.shutdown_complete(),
    }
}

/// One event from the main session: into the app, then a frame is asked for.
pub fn on_engine_event(app: &mut App, event: Event) {
    let now = Instant::now();
    route(
        &mut Main {
            app: &mut *app,
            now,
        },
        &event,
    );
    app.request_frame();
}

/// The main session's handler: the whole app, as of the instant the event arrived. Each method
/// feeds the transcript first, then the side panes, then the rest of the app.
struct Main<'a> {
    app: &'a mut App,
    now: Instant,
}

impl EventHandler for Main<'_> {
    fn session_info(&mut self, info: &SessionInfo) {
        let app = &mut *self.app;
        app.status.model.clone_from(&info.model);
        app.status.context_window = info.context_window;
        app.status.sandbox.clone_from(&info.sandbox);
        app.status.yolo = match info.yolo {
            Yolo::On => YoloBadge::On,
            Yolo::Off => YoloBadge::Off,
        };
        let new_session = app
            .info
            .as_ref()
            .is_none_or(|old| old.session_id != info.session_id);
        if new_session {
            app.status.session_started = self.now;
        }
        let skills = info.slash_commands.iter().map(|c| SkillCommand {
            name: c.name.clone(),
            description: c.description.clone(),
        });
        app.composer.set_dynamic_commands(skills.collect());
        app.info = Some(info.clone());
    }

    fn turn_started(&mut self, _started: &TurnStarted) {
        self.app.turn_running = true;
        set_busy(self.app, "thinking", self.now);
    }

    fn message_start(&mut self, start: &MessageStart) {
        self.app.transcript.message_start(start);
    }

    fn message_delta(&mut self, delta: &MessageDelta) {
        self.app.transcript.message_delta(delta);
        if self.app.turn_running {
            super::voice_link::reply_delta(self.app, delta.turn_id, &delta.text);
            set_busy(self.app, "writing", self.now);
        }
    }

    fn reasoning_delta(&mut self, delta: &ReasoningDelta) {
        self.app.transcript.reasoning_delta(delta);
        if self.app.turn_running {
            set_busy(self.app, "reasoning", self.now);
        }
    }

    fn message_complete(&mut self, message: &MessageComplete) {
        self.app.transcript.message_complete(message);
        super::voice_link::reply_done(self.app, message.turn_id);
    }

    fn tool_start(&mut self, start: &ToolStart) {
        self.app.transcript.tool_start(start);
        // `!cmd` runs outside any turn and must not leave a spinner behind.
        if self.app.turn_running {
            set_busy(self.app, &format!("running {}", start.name), self.now);
        }
    }

    fn tool_progress(&mut self, progress: &ToolProgress) {
        self.app.transcript.tool_progress(progress);
    }

    fn tool_complete(&mut self, complete: &ToolComplete) {
        self.app.transcript.tool_complete(complete);
        if self.app.turn_running {
            set_busy(self.app, "thinking", self.now);
        }
    }

    fn clarify_request(&mut self, request: &ClarifyRequest) {
        let mut body = request.question.clone();
        for (i, choice) in request.choices.iter().enumerate() {
            body.push_str(&format!("\n  {}. {choice}", i + 1));
        }
        body.push_str("\nType your answer (or its number) and press Enter; Esc declines.");
        self.app.transcript.push_info("❓ The agent asks", &body);
        self.app.pending_clarify = Some(request.clone());
    }

    fn secret_request(&mut self, request: &SecretRequest) {
        self.app
            .transcript
            .push_notice(crate::protocol::NoticeLevel::Info, &request.reason);
        let prompt = super::overlays::secret_prompt::SecretPrompt::new(request.clone());
        self.app.overlays.push(prompt);
    }

    fn approval_request(&mut self, request: &ApprovalRequest) {
        super::approvals_flow::on_request(self.app, request.clone(), self.now);
    }

    fn approval_resolved(&mut self, resolved: &ApprovalResolved) {
        super::approvals_flow::on_resolved(
            self.app,
            &resolved.id,
            resolved.decision,
            resolved.decided_by,
        );
    }

    fn checkpoint_list(&mut self, list: &CheckpointList) {
        super::rollback_link::on_list(self.app, &list.checkpoints);
    }

    fn checkpoint_diff(&mut self, diff: &CheckpointDiff) {
        super::rollback_link::on_diff(self.app, &diff.id, &diff.diff);
    }

    fn status_update(&mut self, status: &StatusUpdate) {
        let app = &mut *self.app;
        app.status.input_tokens = status.input_tokens;
        app.status.output_tokens = status.output_tokens;
        app.status.context_tokens = status.context_tokens;
        if status.context_window > 0 {
            app.status.context_window = status.context_window;
        }
        app.status.cost_usd = status.cost_usd;
        app.status.compressions = status.compressions;
        app.last_status = status.clone();
    }

    fn notice(&mut self, notice: &Notice) {
        if notice.text.starts_with("/tools:") {
            super::tools_flow::on_refused(self.app);
        }
        self.app.transcript.notice(notice);
    }

    fn error(&mut self, error: &ErrorEvent) {
        self.app.transcript.error(error);
    }

    fn turn_complete(&mut self, complete: &TurnComplete) {
        let app = &mut *self.app;
        app.transcript.turn_complete(complete);
        super::voice_link::turn_finished(app);
        app.turn_running = false;
        app.status.busy = None;
        app.pending_clarify = None;
        if let Some(next) = app.queue.pop_front() {
            super::input::send_message(app, next.text, next.images);
        }
    }

    fn session_list(&mut self, list: &SessionList) {
        if let Some(picker) = self.app.overlays.find_mut::<SessionsPicker>() {
            picker.set_results(&list.query, list.sessions.clone());
        }
    }

    fn history_replay(&mut self, replay: &HistoryReplay) {
        self.app.transcript.history_replay(replay);
        self.app.queue.clear();
        self.app.chat.scroll_to_bottom();
    }

    fn subagent(&mut self, event: &SubagentEvent) {
        self.app.side.agents.apply(event, self.now);
    }

    fn spawn_trees(&mut self, list: &SpawnTrees) {
        super::spawn_trees_link::on_list(self.app, &list.trees);
    }

    fn spawn_tree(&mut self, tree: &SpawnTree) {
        super::spawn_trees_link::on_tree(self.app, &tree.id, &tree.events);
    }

    fn goal_update(&mut self, update: &GoalUpdate) {
        self.app.side.goals.apply(update);
        self.app.status.goal = goal_badge(update.goal.as_ref());
    }

    fn goal_progress(&mut self, progress: &GoalProgress) {
        self.app.transcript.goal_progress(progress);
    }

    fn mcp_status(&mut self, status: &McpStatus) {
        self.app.transcript.mcp_status(status);
        self.app.side.agents.set_mcp_status(status);
        self.app.mcp_servers.clone_from(&status.servers);
    }

    fn toolsets(&mut self, list: &crate::protocol::ToolsetList) {
        super::tools_flow::on_list(self.app, list);
    }

    fn cron(&mut self, event: &crate::protocol::CronEvent) {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX));
        super::cron_flow::on_event(self.app, event, now);
    }

    fn shutdown_complete(&mut self) {
        self.app.quit = true;
    }
}

fn goal_badge(goal: Option<&GoalSnapshot>) -> GoalBadge {
    let Some(goal) = goal else {
        return GoalBadge::Hidden;
    };
    match goal.status {
        GoalStatus::Active => GoalBadge::Active {
            used: goal.turns_used,
            max: goal.max_turns,
        },
        GoalStatus::Paused => GoalBadge::Paused,
        GoalStatus::Achieved | GoalStatus::Cleared => GoalBadge::Hidden,
    }
}

/// Shows `verb` in the status bar; a new verb also gets a new pick of the skin's faces and
/// thinking verbs (the elapsed time keeps counting from the turn's start).
fn set_busy(app: &mut App, verb: &str, now: Instant) {
    match &mut app.status.busy {
        Some(busy) if busy.verb == verb => {}
        Some(busy) => {
            busy.verb = verb.to_string();
            busy.pick = busy.pick.wrapping_add(1);
        }
        None => {
            app.status.busy = Some(Busy {
                verb: verb.to_string(),
                since: now,
                pick: app.status.busy_picks,
            });
            app.status.busy_picks = app.status.busy_picks.wrapping_add(1);
        }
    }
}

/// Answer the pending clarify question with the user's text (a number picks a choice).
pub fn answer_clarify(app: &mut App, text: &str) -> bool {
    let Some(request) = app.pending_clarify.take() else {
        return false;
    };
    let trimmed = text.trim();
    let answer = trimmed
        .parse::<usize>()
        .ok()
        .and_then(|n| n.checked_sub(1))
        .and_then(|i| request.choices.get(i).cloned())
        .unwrap_or_else(|| trimmed.to_string());
    app.transcript.push_user(&answer);
    app.send(Op::ClarifyReply {
        id: request.id,
        answer: crate::protocol::ClarifyAnswer::Text(answer),
    });
    true
}
