//! Engine events → app state: the transcript, the status bar, the side panes, busy state,
//! clarifying questions and the queue. Also where queued messages are released when a turn
//! ends. Approval requests go to `approvals_flow`, checkpoint answers to `rollback_link`,
//! saved spawn trees to `spawn_trees_link`; goal snapshots to the Goals pane and the status
//! bar's goal badge, goal progress lines to the transcript.

use std::time::Instant;

use super::app::App;
use super::overlays::sessions_picker::SessionsPicker;
use super::slash::SkillCommand;
use super::status_bar::Busy;
use super::status_bar::GoalBadge;
use super::status_bar::YoloBadge;
use crate::protocol::Event;
use crate::protocol::GoalSnapshot;
use crate::protocol::GoalStatus;
use crate::protocol::Op;
use crate::protocol::Yolo;

pub fn on_engine_event(app: &mut App, event: Event) {
    app.transcript.apply(&event);
    app.side.apply(&event);
    let now = Instant::now();
    match &event {
        Event::SessionInfo(info) => {
            app.status.model.clone_from(&info.model);
            app.status.context_window = info.context_window;
            app.status.yolo = match info.yolo {
                Yolo::On => YoloBadge::On,
                Yolo::Off => YoloBadge::Off,
            };
            let new_session = app
                .info
                .as_ref()
                .is_none_or(|old| old.session_id != info.session_id);
            if new_session {
                app.status.session_started = now;
            }
            let skills = info.slash_commands.iter().map(|c| SkillCommand {
                name: c.name.clone(),
                description: c.description.clone(),
            });
            app.composer.set_dynamic_commands(skills.collect());
            app.info = Some(info.clone());
        }
        Event::TurnStarted { .. } => {
            app.turn_running = true;
            set_busy(app, "thinking", now);
        }
        Event::MessageDelta { turn_id, text } if app.turn_running => {
            super::voice_link::reply_delta(app, *turn_id, text);
            set_busy(app, "writing", now);
        }
        Event::ReasoningDelta { .. } if app.turn_running => set_busy(app, "reasoning", now),
        // `!cmd` runs outside any turn and must not leave a spinner behind.
        Event::ToolStart { name, .. } if app.turn_running => {
            set_busy(app, &format!("running {name}"), now);
        }
        Event::ToolComplete { .. } if app.turn_running => set_busy(app, "thinking", now),
        Event::StatusUpdate(status) => {
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
        Event::ClarifyRequest(request) => {
            let mut body = request.question.clone();
            for (i, choice) in request.choices.iter().enumerate() {
                body.push_str(&format!("\n  {}. {choice}", i + 1));
            }
            body.push_str("\nType your answer (or its number) and press Enter; Esc declines.");
            app.transcript.push_info("❓ The agent asks", &body);
            app.pending_clarify = Some(request.clone());
        }
        Event::MessageComplete { turn_id, .. } => super::voice_link::reply_done(app, *turn_id),
        Event::TurnComplete { .. } => {
            super::voice_link::turn_finished(app);
            app.turn_running = false;
            app.status.busy = None;
            app.pending_clarify = None;
            if let Some(next) = app.queue.pop_front() {
                super::input::send_message(app, next.text, next.images);
            }
        }
        Event::ShutdownComplete => app.quit = true,
        Event::McpStatus { servers } => app.mcp_servers = servers.clone(),
        Event::SecretRequest(request) => {
            app.transcript
                .push_notice(crate::protocol::NoticeLevel::Info, &request.reason);
            let prompt = super::overlays::secret_prompt::SecretPrompt::new(request.clone());
            app.overlays.push(prompt);
        }
        Event::SessionList { query, sessions } => {
            if let Some(picker) = app.overlays.find_mut::<SessionsPicker>() {
                picker.set_results(query, sessions.clone());
            }
        }
        Event::HistoryReplay { .. } => {
            app.queue.clear();
            app.chat.scroll_to_bottom();
        }
        Event::ApprovalRequest(request) => {
            super::approvals_flow::on_request(app, request.clone(), now);
        }
        Event::ApprovalResolved {
            id,
            decision,
            decided_by,
        } => super::approvals_flow::on_resolved(app, id, *decision, *decided_by),
        Event::CheckpointList { checkpoints } => super::rollback_link::on_list(app, checkpoints),
        Event::CheckpointDiff { id, diff } => super::rollback_link::on_diff(app, id, diff),
        Event::SpawnTrees { trees } => super::spawn_trees_link::on_list(app, trees),
        Event::SpawnTree { id, events } => super::spawn_trees_link::on_tree(app, id, events),
        // The Subagents pane takes these through `app.side.apply` above.
        Event::Subagent(_)
        | Event::MessageStart { .. }
        | Event::MessageDelta { .. }
        | Event::ReasoningDelta { .. }
        | Event::ToolStart { .. }
        | Event::ToolProgress { .. }
        | Event::ToolComplete { .. }
        | Event::Notice { .. }
        | Event::GoalProgress(_)
        | Event::Error { .. } => {}
        // The Goals pane takes the snapshot through `app.side.apply`; the bar shows a badge.
        Event::GoalUpdate { goal } => app.status.goal = goal_badge(goal.as_ref()),
    }
    app.request_frame();
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
