//! The goals part of the protocol (`/goal`, `/subgoal`; spec-002d Part C): the commands a
//! frontend sends, the goal's state the engine reports after every change, and the progress
//! lines of the loop.
//!
//! Plain data, like the rest of `protocol`, plus two pieces every frontend must share exactly:
//! parsing `/goal …` / `/subgoal …` arguments into a [`GoalCommand`], and the status lines of
//! [`GoalProgress::line`] (`⊙ Goal set …`, `↻ Continuing …`, `✓ Goal achieved …`, `⏸ Goal
//! paused …`), which the spec fixes character for character.

use serde::Deserialize;
use serde::Serialize;

use super::ErrorKind;

/// What a continuation turn's user message starts with (Hermes's marker, kept verbatim).
pub const CONTINUATION_MARKER: &str = "[Continuing toward your standing goal]";

/// A `/goal` or `/subgoal` command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "command", rename_all = "snake_case")]
pub enum GoalCommand {
    /// `/goal <text>`: set or replace the goal (and drop its subgoals); the first turn starts
    /// at once. Refused while a turn runs.
    Set { text: String },
    /// `/goal`, `/goal status`.
    Status,
    /// `/goal pause`: stop continuing, keep the goal.
    Pause,
    /// `/goal resume`: continue again with the turn counter reset to zero.
    Resume,
    /// `/goal clear`: drop the goal and its subgoals.
    Clear,
    /// `/subgoal <text>`: append a numbered criterion.
    AddSubgoal { text: String },
    /// `/subgoal`: list the criteria.
    ListSubgoals,
    /// `/subgoal remove N` (1-based).
    RemoveSubgoal { number: usize },
    /// `/subgoal clear`: drop every criterion, keep the goal.
    ClearSubgoals,
}

impl GoalCommand {
    /// The command for `/goal ARGS`.
    pub fn from_goal_args(args: &str) -> Self {
        let args = args.trim();
        match args.to_ascii_lowercase().as_str() {
            "" | "status" => Self::Status,
            "pause" => Self::Pause,
            "resume" => Self::Resume,
            "clear" => Self::Clear,
            _ => Self::Set {
                text: args.to_string(),
            },
        }
    }

    /// The command for `/subgoal ARGS`, or the usage line when `remove` lacks a number.
    pub fn from_subgoal_args(args: &str) -> Result<Self, String> {
        let args = args.trim();
        let lower = args.to_ascii_lowercase();
        match lower.as_str() {
            "" | "list" => return Ok(Self::ListSubgoals),
            "clear" => return Ok(Self::ClearSubgoals),
            _ => {}
        }
        if let Some(rest) = lower.strip_prefix("remove")
            && (rest.is_empty() || rest.starts_with(' '))
        {
            return match rest.trim().parse::<usize>() {
                Ok(number) if number >= 1 => Ok(Self::RemoveSubgoal { number }),
                _ => Err(
                    "usage: /subgoal remove N — N is the subgoal's number, as /subgoal lists them"
                        .to_string(),
                ),
            };
        }
        Ok(Self::AddSubgoal {
            text: args.to_string(),
        })
    }
}

/// Where a goal stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GoalStatus {
    /// The loop continues after each turn until the judge says done.
    Active,
    /// Kept, but not continued (by the user, the budget or a guard).
    Paused,
    /// The judge said done.
    Achieved,
    /// `/goal clear`: kept only so frontends can show what was cleared.
    Cleared,
}

impl GoalStatus {
    pub fn label(self) -> &'static str {
        match self {
            Self::Active => "active",
            Self::Paused => "paused",
            Self::Achieved => "achieved",
            Self::Cleared => "cleared",
        }
    }
}

/// How the judge answered after one turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum VerdictOutcome {
    Done,
    Continue,
    /// The judge could not be asked (network, timeout, no model): counted as continue.
    JudgeError,
    /// The judge answered, but not with the JSON it was asked for: counted as continue;
    /// three in a row pause the goal.
    Unreadable,
}

impl VerdictOutcome {
    pub fn label(self) -> &'static str {
        match self {
            Self::Done => "done",
            Self::Continue => "continue",
            Self::JudgeError => "judge error",
            Self::Unreadable => "unreadable",
        }
    }
}

/// One judge verdict, for the history in the Goals pane.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GoalVerdict {
    /// The goal's turn it judged: 1 is the turn `/goal` started, 2 the first continuation, …
    pub turn: u32,
    pub outcome: VerdictOutcome,
    pub reason: String,
    /// When, in seconds since the Unix epoch.
    pub at: u64,
}

/// The goal's whole state, sent after every change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GoalSnapshot {
    pub goal: String,
    pub status: GoalStatus,
    /// Extra criteria, in `/subgoal` order (numbered from 1 when shown).
    pub subgoals: Vec<String>,
    /// Continuation turns used since the goal was set or resumed.
    pub turns_used: u32,
    /// `goals.max_turns`.
    pub max_turns: u32,
    /// The judge is deciding about the last turn right now.
    pub judging: bool,
    /// Verdicts so far, oldest first (the engine keeps the latest 50).
    pub verdicts: Vec<GoalVerdict>,
}

/// Why a goal stopped continuing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "cause", rename_all = "snake_case")]
pub enum PauseCause {
    /// `/goal pause` or the Goals pane.
    User,
    /// `goals.max_turns` continuation turns were used.
    Budget,
    /// Three judge answers in a row were not the JSON asked for.
    UnreadableVerdicts,
    /// Three near-identical replies in a row: the agent is going round in circles.
    RepeatedReplies,
    /// The user interrupted the turn.
    Interrupted,
    /// The turn failed (the error was reported on its own).
    TurnFailed { kind: ErrorKind },
}

/// A step of the goal loop, shown as one status line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "progress", rename_all = "snake_case")]
pub enum GoalProgress {
    /// A goal was set; its first turn starts now.
    Set {
        goal: String,
        max_turns: u32,
    },
    /// The judge said "not yet": a continuation turn starts now with `prompt` as its user
    /// message (`used` counts it).
    Continuing {
        used: u32,
        max_turns: u32,
        reason: String,
        prompt: String,
    },
    Achieved {
        reason: String,
    },
    Paused {
        used: u32,
        max_turns: u32,
        cause: PauseCause,
    },
    /// `/goal resume`: the counter is back at zero.
    Resumed {
        max_turns: u32,
    },
    Cleared,
    /// A resumed session brought its stored goal back.
    Restored {
        goal: String,
        status: GoalStatus,
        used: u32,
        max_turns: u32,
    },
}

impl GoalProgress {
    /// The status line, exactly as the spec writes it.
    pub fn line(&self) -> String {
        match self {
            Self::Set { goal, max_turns } => {
                format!("⊙ Goal set ({max_turns}-turn budget): {goal}")
            }
            Self::Continuing {
                used,
                max_turns,
                reason,
                ..
            } => format!("↻ Continuing toward goal ({used}/{max_turns}): {reason}"),
            Self::Achieved { reason } => format!("✓ Goal achieved: {reason}"),
            Self::Paused {
                used, max_turns, ..
            } => format!(
                "⏸ Goal paused — {used}/{max_turns} turns used. Use /goal resume to keep going, \
                 or /goal clear to stop."
            ),
            Self::Resumed { max_turns } => {
                format!("▶ Goal resumed — 0/{max_turns} turns used.")
            }
            Self::Cleared => "⊘ Goal cleared.".to_string(),
            Self::Restored {
                goal,
                status,
                used,
                max_turns,
            } => format!(
                "⊙ Goal restored ({}, {used}/{max_turns} turns used): {goal}",
                status.label()
            ),
        }
    }

    /// Why, when the line alone does not say (a pause other than `/goal pause`).
    pub fn detail(&self) -> Option<String> {
        if let Self::Restored { status, .. } = self {
            return matches!(status, GoalStatus::Active | GoalStatus::Paused)
                .then(|| "send a message or /goal resume to continue".to_string());
        }
        let Self::Paused { cause, .. } = self else {
            return None;
        };
        let text = match cause {
            PauseCause::User => return None,
            PauseCause::Budget => "the turn budget (goals.max_turns) is used up",
            PauseCause::UnreadableVerdicts => {
                "the judge's answer could not be read 3 times in a row (it must be JSON \
                 {\"done\": …, \"reason\": …}); check auxiliary.goal_judge"
            }
            PauseCause::RepeatedReplies => {
                "the last 3 replies were nearly identical, so the agent looks stuck; \
                 add a /subgoal or rephrase the goal before resuming"
            }
            PauseCause::Interrupted => "the turn was interrupted",
            PauseCause::TurnFailed { .. } => "the turn failed (the error is shown above)",
        };
        Some(text.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn goal_arguments_pick_the_command() {
        assert_eq!(GoalCommand::from_goal_args(""), GoalCommand::Status);
        assert_eq!(GoalCommand::from_goal_args(" status "), GoalCommand::Status);
        assert_eq!(GoalCommand::from_goal_args("PAUSE"), GoalCommand::Pause);
        assert_eq!(GoalCommand::from_goal_args("resume"), GoalCommand::Resume);
        assert_eq!(GoalCommand::from_goal_args("clear"), GoalCommand::Clear);
        assert_eq!(
            GoalCommand::from_goal_args(" Clear the build cache "),
            GoalCommand::Set {
                text: "Clear the build cache".into()
            }
        );
    }

    #[test]
    fn subgoal_arguments_pick_the_command() {
        assert_eq!(
            GoalCommand::from_subgoal_args(""),
            Ok(GoalCommand::ListSubgoals)
        );
        assert_eq!(
            GoalCommand::from_subgoal_args("clear"),
            Ok(GoalCommand::ClearSubgoals)
        );
        assert_eq!(
            GoalCommand::from_subgoal_args("remove 2"),
            Ok(GoalCommand::RemoveSubgoal { number: 2 })
        );
        assert!(GoalCommand::from_subgoal_args("remove").is_err());
        assert!(GoalCommand::from_subgoal_args("remove 0").is_err());
        assert!(GoalCommand::from_subgoal_args("remove two").is_err());
        assert_eq!(
            GoalCommand::from_subgoal_args("removed files stay in git"),
            Ok(GoalCommand::AddSubgoal {
                text: "removed files stay in git".into()
            })
        );
    }

    #[test]
    fn status_lines_match_the_spec() {
        let set = GoalProgress::Set {
            goal: "Create four files".into(),
            max_turns: 20,
        };
        assert_eq!(set.line(), "⊙ Goal set (20-turn budget): Create four files");
        let cont = GoalProgress::Continuing {
            used: 1,
            max_turns: 20,
            reason: "Only 1 of 4 files has been created; 3 files remain.".into(),
            prompt: String::new(),
        };
        assert_eq!(
            cont.line(),
            "↻ Continuing toward goal (1/20): Only 1 of 4 files has been created; 3 files remain."
        );
        let done = GoalProgress::Achieved {
            reason: "All four files were created.".into(),
        };
        assert_eq!(done.line(), "✓ Goal achieved: All four files were created.");
        let paused = GoalProgress::Paused {
            used: 20,
            max_turns: 20,
            cause: PauseCause::Budget,
        };
        assert_eq!(
            paused.line(),
            "⏸ Goal paused — 20/20 turns used. Use /goal resume to keep going, or /goal clear to stop."
        );
        assert!(paused.detail().is_some());
        let by_user = GoalProgress::Paused {
            used: 2,
            max_turns: 20,
            cause: PauseCause::User,
        };
        assert_eq!(by_user.detail(), None);
    }

    #[test]
    fn goal_events_round_trip_through_json() {
        let events = [
            super::super::Event::GoalProgress(GoalProgress::Paused {
                used: 3,
                max_turns: 20,
                cause: PauseCause::TurnFailed {
                    kind: ErrorKind::Auth,
                },
            }),
            super::super::Event::GoalUpdate(super::super::GoalUpdate {
                goal: Some(GoalSnapshot {
                    goal: "g".into(),
                    status: GoalStatus::Active,
                    subgoals: vec!["s".into()],
                    turns_used: 1,
                    max_turns: 20,
                    judging: true,
                    verdicts: vec![GoalVerdict {
                        turn: 1,
                        outcome: VerdictOutcome::Continue,
                        reason: "r".into(),
                        at: 5,
                    }],
                }),
            }),
            super::super::Event::GoalUpdate(super::super::GoalUpdate { goal: None }),
        ];
        for event in events {
            let json = serde_json::to_string(&event).unwrap();
            let back: super::super::Event = serde_json::from_str(&json).unwrap();
            assert_eq!(back, event, "{json}");
        }
        let op = super::super::Op::Goal(GoalCommand::RemoveSubgoal { number: 2 });
        let json = serde_json::to_string(&op).unwrap();
        assert_eq!(serde_json::from_str::<super::super::Op>(&json).unwrap(), op);
    }
}
