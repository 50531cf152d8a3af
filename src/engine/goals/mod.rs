//! The standing goal of a session (`/goal`, spec-002d Part C): its record, and what happens to
//! it after the judge's verdict. Pure state; the session actor (`session/goal_ops.rs`) does the
//! I/O — starting turns, asking the judge (`judge`), saving to `state_meta` (`persist`).
//!
//! Invariants: only an `Active` goal continues; `turns_used` never exceeds `max_turns` (the
//! budget check comes before a continuation is counted); a `Done` verdict always wins over the
//! guards, so a finished goal is never reported as stuck; at most [`VERDICTS_KEPT`] verdicts
//! are kept.

pub mod judge;
pub mod persist;
pub mod repeat;

use serde::Deserialize;
use serde::Serialize;

use crate::protocol::CONTINUATION_MARKER;
use crate::protocol::GoalSnapshot;
use crate::protocol::GoalStatus;
use crate::protocol::GoalVerdict;
use crate::protocol::PauseCause;
use crate::protocol::VerdictOutcome;

pub use judge::GoalJudge;
pub use judge::Judged;

/// Verdicts kept in the record (the pane shows the newest that fit).
pub const VERDICTS_KEPT: usize = 50;
/// Unreadable judge answers in a row that pause the goal.
pub const UNREADABLE_LIMIT: u32 = 3;
/// Near-identical replies in a row that pause the goal.
pub const REPEATS_LIMIT: usize = 3;

/// A goal as the session keeps and stores it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GoalRecord {
    pub goal: String,
    pub status: GoalStatus,
    #[serde(default)]
    pub subgoals: Vec<String>,
    /// Continuation turns since the goal was set or resumed.
    #[serde(default)]
    pub turns_used: u32,
    pub max_turns: u32,
    /// The goal's turns so far: 1 while the first runs, 2 for the first continuation, …
    #[serde(default)]
    pub turn: u32,
    #[serde(default)]
    pub verdicts: Vec<GoalVerdict>,
    /// Unreadable judge answers in a row.
    #[serde(default)]
    pub unreadable_streak: u32,
    /// The latest replies, normalised (`repeat::normalise`), newest last.
    #[serde(default)]
    pub recent_replies: Vec<String>,
}

/// What the session does after a verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    Achieved {
        reason: String,
    },
    /// Start a continuation turn with `prompt`.
    Continue {
        reason: String,
        prompt: String,
    },
    Pause(PauseCause),
}

impl GoalRecord {
    pub fn new(goal: String, max_turns: u32) -> Self {
        Self {
            goal,
            status: GoalStatus::Active,
            subgoals: Vec::new(),
            turns_used: 0,
            max_turns: max_turns.max(1),
            turn: 1,
            verdicts: Vec::new(),
            unreadable_streak: 0,
            recent_replies: Vec::new(),
        }
    }

    pub fn snapshot(&self, judging: bool) -> GoalSnapshot {
        GoalSnapshot {
            goal: self.goal.clone(),
            status: self.status,
            subgoals: self.subgoals.clone(),
            turns_used: self.turns_used,
            max_turns: self.max_turns,
            judging,
            verdicts: self.verdicts.clone(),
        }
    }

    /// Whether the goal still exists for `/subgoal` (active or paused).
    pub fn is_open(&self) -> bool {
        matches!(self.status, GoalStatus::Active | GoalStatus::Paused)
    }

    /// Remember the reply the judge is about to see, for the repeated-reply guard.
    pub fn note_reply(&mut self, reply: &str) {
        self.recent_replies.push(repeat::normalise(reply));
        let excess = self.recent_replies.len().saturating_sub(REPEATS_LIMIT);
        self.recent_replies.drain(..excess);
    }

    /// Record the verdict on the latest turn and decide what follows.
    pub fn after_verdict(&mut self, judged: Judged, now: u64) -> Step {
        self.verdicts.push(GoalVerdict {
            turn: self.turn,
            outcome: judged.outcome,
            reason: judged.reason.clone(),
            at: now,
        });
        let excess = self.verdicts.len().saturating_sub(VERDICTS_KEPT);
        self.verdicts.drain(..excess);
        match judged.outcome {
            VerdictOutcome::Done => {
                self.status = GoalStatus::Achieved;
                self.unreadable_streak = 0;
                return Step::Achieved {
                    reason: judged.reason,
                };
            }
            VerdictOutcome::Unreadable => {
                self.unreadable_streak += 1;
                if self.unreadable_streak >= UNREADABLE_LIMIT {
                    return self.pause(PauseCause::UnreadableVerdicts);
                }
            }
            VerdictOutcome::Continue => self.unreadable_streak = 0,
            // The judge could not be asked: neither a readable nor an unreadable answer.
            VerdictOutcome::JudgeError => {}
        }
        if repeat::stuck(&self.recent_replies, REPEATS_LIMIT) {
            return self.pause(PauseCause::RepeatedReplies);
        }
        if self.turns_used >= self.max_turns {
            return self.pause(PauseCause::Budget);
        }
        self.turns_used += 1;
        self.turn += 1;
        Step::Continue {
            reason: judged.reason,
            prompt: self.continuation_prompt(),
        }
    }

    pub fn pause(&mut self, cause: PauseCause) -> Step {
        self.status = GoalStatus::Paused;
        Step::Pause(cause)
    }

    /// `/goal resume`: active again, with a fresh budget and fresh guards.
    pub fn resume(&mut self) {
        self.status = GoalStatus::Active;
        self.turns_used = 0;
        self.unreadable_streak = 0;
        self.recent_replies.clear();
    }

    /// Count a continuation turn started without a verdict (`/goal resume`).
    pub fn start_continuation(&mut self) -> String {
        self.turns_used += 1;
        self.turn += 1;
        self.continuation_prompt()
    }

    /// The user message of a continuation turn (Hermes's wording; the marker line first).
    pub fn continuation_prompt(&self) -> String {
        let mut prompt = format!("{CONTINUATION_MARKER}\nGoal: {}\n\n", self.goal);
        if !self.subgoals.is_empty() {
            prompt.push_str(
                "Additional criteria the user appended mid-loop (the goal is done only when \
                 every one is met too):\n",
            );
            prompt.push_str(&numbered(&self.subgoals));
            prompt.push('\n');
        }
        prompt.push_str(
            "Continue working toward this goal. Take the next concrete step. If you believe the \
             goal is complete, state so explicitly and stop. If you are blocked and need input \
             from the user, say so clearly and stop.",
        );
        prompt
    }

    /// `/goal status`.
    pub fn status_text(&self) -> String {
        let mut text = format!(
            "Goal ({}, {}/{} turns used): {}",
            self.status.label(),
            self.turns_used,
            self.max_turns,
            self.goal
        );
        if !self.subgoals.is_empty() {
            text.push_str("\nSubgoals:\n");
            text.push_str(numbered(&self.subgoals).trim_end());
        }
        if let Some(last) = self.verdicts.last() {
            text.push_str(&format!(
                "\nLast verdict (turn {}): {} — {}",
                last.turn,
                last.outcome.label(),
                last.reason
            ));
        }
        text
    }
}

/// `1. first\n2. second\n`
pub fn numbered(items: &[String]) -> String {
    items
        .iter()
        .enumerate()
        .map(|(i, s)| format!("{}. {s}\n", i + 1))
        .collect()
}

#[cfg(test)]
#[path = "goals_tests.rs"]
mod tests;
