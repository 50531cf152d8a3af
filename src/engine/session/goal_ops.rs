//! The session actor's goal loop (`/goal`, `/subgoal`): commands, the judge after each turn,
//! continuation turns, and saving the goal with the session.
//!
//! Order of work after a turn: a user message waiting in the queue always runs first (the
//! judge runs after *it*); otherwise an active goal's judge is asked, off the actor. A verdict
//! that arrives after anything else started a turn, or after the goal changed, is stale and
//! dropped (each judgement has a number). Continuations are ordinary user messages; the
//! system prompt never changes.

use tokio_util::sync::CancellationToken;

use super::Actor;
use super::Internal;
use crate::engine::goals::GoalJudge;
use crate::engine::goals::GoalRecord;
use crate::engine::goals::Judged;
use crate::engine::goals::Step;
use crate::engine::goals::numbered;
use crate::engine::goals::persist::GoalWriter;
use crate::engine::goals::persist::LoadError;
use crate::engine::turn::TurnInput;
use crate::model::Role;
use crate::protocol::Event;
use crate::protocol::GoalCommand;
use crate::protocol::GoalProgress;
use crate::protocol::GoalStatus;
use crate::protocol::GoalUpdate;
use crate::protocol::Notice;
use crate::protocol::NoticeLevel;
use crate::protocol::PauseCause;
use crate::protocol::TurnOutcome;

/// The session's goal and the judge working on it.
#[derive(Default)]
pub(super) struct GoalSlot {
    pub record: Option<GoalRecord>,
    /// The judgement in flight: its number and how to stop it.
    judging: Option<(u64, CancellationToken)>,
    next_judgement: u64,
    writer: GoalWriter,
    /// A resumed session's stored goal, taken over when the actor starts.
    pub restored: Option<Result<Option<GoalRecord>, LoadError>>,
}

impl GoalSlot {
    pub fn restoring(restored: Option<Result<Option<GoalRecord>, LoadError>>) -> Self {
        Self {
            restored,
            ..Self::default()
        }
    }
}

impl Actor {
    pub(super) fn goal_command(&mut self, command: GoalCommand) {
        match command {
            GoalCommand::Set { text } => self.set_goal(text),
            GoalCommand::Status => {
                let text = match &self.goals.record {
                    Some(record) if record.status != GoalStatus::Cleared => record.status_text(),
                    _ => "No standing goal. /goal <text> sets one.".to_string(),
                };
                self.notice(NoticeLevel::Info, text);
            }
            GoalCommand::Pause => self.pause_goal_by_user(),
            GoalCommand::Resume => self.resume_goal(),
            GoalCommand::Clear => {
                let Some(record) = self.open_goal("clear") else {
                    return;
                };
                record.status = GoalStatus::Cleared;
                record.subgoals.clear();
                self.stop_judging();
                self.goal_progress(GoalProgress::Cleared);
                self.goal_changed();
            }
            GoalCommand::AddSubgoal { text } => {
                let Some(record) = self.open_goal("add a subgoal to") else {
                    return;
                };
                record.subgoals.push(text.clone());
                let n = record.subgoals.len();
                self.notice(
                    NoticeLevel::Info,
                    format!("subgoal {n} added: {text} — the judge now checks it too"),
                );
                self.goal_changed();
            }
            GoalCommand::ListSubgoals => {
                let text = match &self.goals.record {
                    Some(r) if r.is_open() && !r.subgoals.is_empty() => {
                        format!("Subgoals:\n{}", numbered(&r.subgoals).trim_end())
                    }
                    Some(r) if r.is_open() => {
                        "No subgoals. /subgoal <text> adds a criterion the goal must also meet."
                            .to_string()
                    }
                    _ => "No standing goal. /goal <text> sets one.".to_string(),
                };
                self.notice(NoticeLevel::Info, text);
            }
            GoalCommand::RemoveSubgoal { number } => {
                let Some(record) = self.open_goal("remove a subgoal from") else {
                    return;
                };
                if number == 0 || number > record.subgoals.len() {
                    let count = record.subgoals.len();
                    return self.notice(
                        NoticeLevel::Warning,
                        format!("there is no subgoal {number} (the goal has {count}); /subgoal lists them"),
                    );
                }
                let removed = record.subgoals.remove(number - 1);
                self.notice(
                    NoticeLevel::Info,
                    format!("subgoal {number} removed: {removed}"),
                );
                self.goal_changed();
            }
            GoalCommand::ClearSubgoals => {
                let Some(record) = self.open_goal("clear the subgoals of") else {
                    return;
                };
                let n = std::mem::take(&mut record.subgoals).len();
                self.notice(
                    NoticeLevel::Info,
                    format!("{n} subgoal(s) removed; the goal stays"),
                );
                self.goal_changed();
            }
        }
    }

    /// The goal, if it is active or paused; otherwise the user is told there is none.
    fn open_goal(&mut self, what: &str) -> Option<&mut GoalRecord> {
        let open = self.goals.record.as_ref().is_some_and(GoalRecord::is_open);
        if !open {
            self.notice(
                NoticeLevel::Warning,
                format!("there is no active goal to {what}; /goal <text> sets one"),
            );
            return None;
        }
        self.goals.record.as_mut()
    }

    fn set_goal(&mut self, text: String) {
        if self.running.is_some() {
            return self.notice(
                NoticeLevel::Warning,
                "a turn is running: /stop it first, then set the new goal (/goal status, pause \
                 and clear work while it runs)"
                    .to_string(),
            );
        }
        self.stop_judging();
        let record = GoalRecord::new(text.clone(), self.spec.goals.max_turns);
        let max_turns = record.max_turns;
        self.goals.record = Some(record);
        self.goal_progress(GoalProgress::Set {
            goal: text.clone(),
            max_turns,
        });
        self.goal_changed();
        self.start_turn(text.into());
    }

    fn pause_goal_by_user(&mut self) {
        let active = self
            .goals
            .record
            .as_ref()
            .is_some_and(|r| r.status == GoalStatus::Active);
        if !active {
            return self.notice(
                NoticeLevel::Warning,
                "there is no active goal to pause; /goal status shows where it stands".to_string(),
            );
        }
        self.pause_goal(PauseCause::User);
        if self.running.is_some() {
            self.notice(
                NoticeLevel::Info,
                "the running turn finishes; no continuation follows it".to_string(),
            );
        }
    }

    fn pause_goal(&mut self, cause: PauseCause) {
        self.stop_judging();
        if let Some(record) = self.goals.record.as_mut() {
            record.pause(cause);
            self.announce_pause(cause);
        }
    }

    /// The pause line for the goal as it now stands, then the new state.
    fn announce_pause(&self, cause: PauseCause) {
        let Some(record) = self.goals.record.as_ref() else {
            return;
        };
        self.goal_progress(GoalProgress::Paused {
            used: record.turns_used,
            max_turns: record.max_turns,
            cause,
        });
        self.goal_changed();
    }

    fn resume_goal(&mut self) {
        let status = self.goals.record.as_ref().map(|r| r.status);
        let idle = self.running.is_none() && self.goals.judging.is_none();
        match status {
            Some(GoalStatus::Paused) => {}
            Some(GoalStatus::Active) if idle => {}
            Some(GoalStatus::Active) => {
                return self.notice(
                    NoticeLevel::Info,
                    "the goal is active: the judge runs when this turn ends".to_string(),
                );
            }
            Some(GoalStatus::Achieved) => {
                return self.notice(
                    NoticeLevel::Warning,
                    "the goal was achieved; /goal <text> sets a new one".to_string(),
                );
            }
            Some(GoalStatus::Cleared) | None => {
                return self.notice(
                    NoticeLevel::Warning,
                    "there is no goal to resume; /goal <text> sets one".to_string(),
                );
            }
        }
        let Some(record) = self.goals.record.as_mut() else {
            return;
        };
        record.resume();
        let max_turns = record.max_turns;
        self.goal_progress(GoalProgress::Resumed { max_turns });
        if self.running.is_none() {
            self.continue_goal("resumed with /goal resume".to_string(), None);
        } else {
            self.goal_changed();
        }
    }

    /// After a turn: judge it, or pause the goal when the turn did not end normally. A queued
    /// user message goes first; the judge runs after that turn instead.
    pub(super) fn goal_after_turn(&mut self, outcome: &TurnOutcome) {
        let active = self
            .goals
            .record
            .as_ref()
            .is_some_and(|r| r.status == GoalStatus::Active);
        if !active || !self.queue.is_empty() || self.reset_after_turn {
            return;
        }
        match outcome {
            TurnOutcome::Completed | TurnOutcome::IterationLimit { .. } => self.judge_last_turn(),
            TurnOutcome::Interrupted { .. } => self.pause_goal(PauseCause::Interrupted),
            TurnOutcome::Failed { kind } => self.pause_goal(PauseCause::TurnFailed { kind: *kind }),
        }
    }

    fn judge_last_turn(&mut self) {
        let reply = self
            .history
            .iter()
            .rev()
            .find(|m| m.role == Role::Assistant && !m.content.trim().is_empty())
            .map(|m| m.content.clone())
            .unwrap_or_default();
        let Some(record) = self.goals.record.as_mut() else {
            return;
        };
        record.note_reply(&reply);
        let (goal, subgoals) = (record.goal.clone(), record.subgoals.clone());
        let judge = self.judge();
        let number = self.goals.next_judgement;
        self.goals.next_judgement += 1;
        let cancel = CancellationToken::new();
        self.goals.judging = Some((number, cancel.clone()));
        self.emit_goal_state();
        let tx = self.internal.clone();
        tokio::spawn(async move {
            let judged = judge.judge(&goal, &subgoals, &reply, &cancel).await;
            if !cancel.is_cancelled() {
                let _ = tx.send(Internal::GoalVerdict { number, judged });
            }
        });
    }

    fn judge(&self) -> GoalJudge {
        let endpoint = self
            .spec
            .goals
            .judge
            .as_ref()
            .unwrap_or(&self.spec.endpoint);
        GoalJudge {
            provider: std::sync::Arc::clone(&endpoint.provider),
            model: endpoint.model.clone(),
        }
    }

    pub(super) fn goal_verdict(&mut self, number: u64, judged: Judged) {
        let current = self.goals.judging.as_ref().map(|(n, _)| *n);
        if current != Some(number) || self.running.is_some() {
            return;
        }
        self.goals.judging = None;
        let Some(record) = self.goals.record.as_mut() else {
            return;
        };
        match record.after_verdict(judged, now_secs()) {
            Step::Achieved { reason } => {
                self.goal_progress(GoalProgress::Achieved { reason });
                self.goal_changed();
            }
            Step::Pause(cause) => self.announce_pause(cause),
            Step::Continue { reason, prompt } => self.continue_goal(reason, Some(prompt)),
        }
    }

    /// Start a continuation turn; `prompt` is `None` when no verdict counted it yet.
    fn continue_goal(&mut self, reason: String, prompt: Option<String>) {
        let Some(record) = self.goals.record.as_mut() else {
            return;
        };
        let prompt = prompt.unwrap_or_else(|| record.start_continuation());
        let (used, max_turns) = (record.turns_used, record.max_turns);
        self.goal_progress(GoalProgress::Continuing {
            used,
            max_turns,
            reason,
            prompt: prompt.clone(),
        });
        self.goal_changed();
        self.start(TurnInput::User(prompt.into()));
    }

    /// Anything else starting a turn makes a pending verdict stale.
    pub(super) fn stop_judging(&mut self) {
        if let Some((_, cancel)) = self.goals.judging.take() {
            cancel.cancel();
            self.emit_goal_state();
        }
    }

    fn goal_progress(&self, progress: GoalProgress) {
        self.events.send(Event::GoalProgress(progress));
    }

    pub(super) fn emit_goal_state(&self) {
        self.events.send(Event::GoalUpdate(GoalUpdate {
            goal: self
                .goals
                .record
                .as_ref()
                .map(|r| r.snapshot(self.goals.judging.is_some())),
        }));
    }

    /// Tell frontends and save.
    pub(super) fn goal_changed(&self) {
        self.emit_goal_state();
        self.save_goal();
    }

    /// Save the goal under the current session id (also after the id changed: compression's
    /// child session and `/branch` carry the goal along).
    pub(super) fn save_goal(&self) {
        self.goals.writer.save(
            self.recorder.store(),
            &self.spec.session_id,
            self.goals.record.as_ref(),
            self.report_goal_save_failure(),
        );
    }

    /// The last save, awaited: the process may exit right after shutdown, and a pause
    /// announced just before must still be there for `--continue`.
    pub(super) async fn save_goal_before_exit(&self) {
        if self.goals.record.is_none() {
            return;
        }
        self.goals
            .writer
            .save_and_wait(
                self.recorder.store(),
                &self.spec.session_id,
                self.goals.record.as_ref(),
                self.report_goal_save_failure(),
            )
            .await;
    }

    /// A failed save becomes a warning notice.
    fn report_goal_save_failure(&self) -> impl FnOnce(String) + Send + 'static {
        let events = self.events.clone();
        move |text| {
            events.send(Event::Notice(Notice {
                level: NoticeLevel::Warning,
                text,
            }))
        }
    }

    /// A new conversation has no goal.
    pub(super) fn forget_goal(&mut self) {
        self.stop_judging();
        if self.goals.record.take().is_some() {
            self.emit_goal_state();
        }
    }

    /// Take over the goal stored with a resumed session (or report why it is unreadable).
    pub(super) fn restore_goal(&mut self, stored: Result<Option<GoalRecord>, LoadError>) {
        match stored {
            Ok(Some(record)) if record.status != GoalStatus::Cleared => {
                self.goal_progress(GoalProgress::Restored {
                    goal: record.goal.clone(),
                    status: record.status,
                    used: record.turns_used,
                    max_turns: record.max_turns,
                });
                self.goals.record = Some(record);
                self.emit_goal_state();
            }
            Ok(_) => {}
            Err(err) => self.notice(NoticeLevel::Warning, err.to_string()),
        }
    }
}

fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}
