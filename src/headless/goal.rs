//! `hermes -z "/goal …"`: a headless run of the goal loop. `/goal <text>` (and `/goal resume`
//! with `--continue`) runs until the goal is achieved (exit 0) or paused (exit 3 —
//! [`super::exit_code::GOAL_PAUSED`]); a pause because a turn failed keeps that failure's exit
//! code, an interrupt exits 130. The other goal commands (`/goal status`, `/subgoal …`) print
//! the engine's answer and exit 0, or 2 when it refused.
//!
//! Only decides when the run ends; printing stays with the headless printer.

use super::exit_code;
use super::exit_code_for;
use crate::protocol::Event;
use crate::protocol::GoalCommand;
use crate::protocol::GoalProgress;
use crate::protocol::Notice;
use crate::protocol::NoticeLevel;
use crate::protocol::PauseCause;
use crate::protocol::TurnOutcome;

/// The goal command a one-shot prompt spells, if it is one; a malformed `/subgoal` gives its
/// usage line.
pub fn parse(prompt: &str) -> Option<Result<GoalCommand, String>> {
    let prompt = prompt.trim();
    let (word, args) = prompt
        .split_once(char::is_whitespace)
        .unwrap_or((prompt, ""));
    match word {
        "/goal" => Some(Ok(GoalCommand::from_goal_args(args))),
        "/subgoal" => Some(GoalCommand::from_subgoal_args(args)),
        _ => None,
    }
}

/// Follows a headless goal run and says when it is over, with which exit code.
pub struct GoalRun {
    /// `/goal <text>` or `/goal resume`: wait for the loop to stop.
    looping: bool,
    /// The loop has shown a step (so a later warning is not a refusal).
    started: bool,
}

impl GoalRun {
    pub fn new(command: &GoalCommand) -> Self {
        Self {
            looping: matches!(command, GoalCommand::Set { .. } | GoalCommand::Resume),
            started: false,
        }
    }

    /// `Some(exit code)` when the run is over after `event`.
    pub fn on_event(&mut self, event: &Event) -> Option<i32> {
        match event {
            Event::GoalProgress(progress) => {
                let ended = match progress {
                    GoalProgress::Achieved { .. } => Some(exit_code::OK),
                    GoalProgress::Paused { cause, .. } => Some(paused_exit_code(*cause)),
                    GoalProgress::Cleared => Some(exit_code::OK),
                    GoalProgress::Set { .. }
                    | GoalProgress::Continuing { .. }
                    | GoalProgress::Resumed { .. } => None,
                    // Announced at start-up, before the command is answered.
                    GoalProgress::Restored { .. } => return None,
                };
                self.started = true;
                match self.looping {
                    true => ended,
                    // `/goal pause` answers with a pause line: that is success.
                    false => Some(exit_code::OK),
                }
            }
            Event::Notice(Notice { level, .. }) if !self.started => match (self.looping, level) {
                (_, NoticeLevel::Warning) => Some(exit_code::CONFIG),
                (false, NoticeLevel::Info) => Some(exit_code::OK),
                // A restored goal is announced before the loop goes on.
                (true, NoticeLevel::Info) => None,
            },
            _ => None,
        }
    }
}

fn paused_exit_code(cause: PauseCause) -> i32 {
    match cause {
        PauseCause::TurnFailed { kind } => exit_code_for(&TurnOutcome::Failed { kind }),
        PauseCause::Interrupted => exit_code::INTERRUPTED,
        PauseCause::User
        | PauseCause::Budget
        | PauseCause::UnreadableVerdicts
        | PauseCause::RepeatedReplies => exit_code::GOAL_PAUSED,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::ErrorKind;
    use crate::protocol::TurnComplete;

    fn progress(p: GoalProgress) -> Event {
        Event::GoalProgress(p)
    }

    fn paused(cause: PauseCause) -> Event {
        progress(GoalProgress::Paused {
            used: 1,
            max_turns: 20,
            cause,
        })
    }

    #[test]
    fn prompts_that_are_goal_commands_are_recognised() {
        assert_eq!(
            parse("/goal write four files"),
            Some(Ok(GoalCommand::Set {
                text: "write four files".into()
            }))
        );
        assert_eq!(parse(" /goal "), Some(Ok(GoalCommand::Status)));
        assert_eq!(
            parse("/subgoal remove 1"),
            Some(Ok(GoalCommand::RemoveSubgoal { number: 1 }))
        );
        assert!(matches!(parse("/subgoal remove x"), Some(Err(_))));
        assert_eq!(parse("/goals are nice"), None);
        assert_eq!(parse("what is a /goal?"), None);
    }

    #[test]
    fn a_loop_ends_achieved_with_0_and_paused_with_3_or_the_failure_code() {
        let set = GoalCommand::Set { text: "g".into() };
        let mut run = GoalRun::new(&set);
        assert_eq!(
            run.on_event(&progress(GoalProgress::Set {
                goal: "g".into(),
                max_turns: 20
            })),
            None
        );
        assert_eq!(
            run.on_event(&Event::TurnComplete(TurnComplete {
                turn_id: 1,
                outcome: TurnOutcome::Completed
            })),
            None
        );
        assert_eq!(
            run.on_event(&progress(GoalProgress::Achieved { reason: "r".into() })),
            Some(0)
        );
        for (cause, code) in [
            (PauseCause::Budget, 3),
            (PauseCause::RepeatedReplies, 3),
            (PauseCause::UnreadableVerdicts, 3),
            (PauseCause::Interrupted, 130),
            (
                PauseCause::TurnFailed {
                    kind: ErrorKind::Transport,
                },
                exit_code::TRANSPORT,
            ),
        ] {
            assert_eq!(GoalRun::new(&set).on_event(&paused(cause)), Some(code));
        }
    }

    #[test]
    fn a_refused_command_exits_2_and_one_shot_commands_exit_0() {
        let warning = Event::Notice(Notice {
            level: NoticeLevel::Warning,
            text: "there is no goal to resume".into(),
        });
        let info = Event::Notice(Notice {
            level: NoticeLevel::Info,
            text: "Goal (active…)".into(),
        });
        assert_eq!(
            GoalRun::new(&GoalCommand::Resume).on_event(&warning),
            Some(2)
        );
        assert_eq!(GoalRun::new(&GoalCommand::Resume).on_event(&info), None);
        assert_eq!(GoalRun::new(&GoalCommand::Status).on_event(&info), Some(0));
        assert_eq!(
            GoalRun::new(&GoalCommand::Pause).on_event(&paused(PauseCause::User)),
            Some(0)
        );
    }
}
