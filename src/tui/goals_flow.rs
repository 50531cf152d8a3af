//! Keys of the Goals pane while it has focus, and `/goal` and `/subgoal`.
//!
//! Pane keys: `p` pauses an active goal and resumes a paused one (`Op::Goal(Pause|Resume)`),
//! `c` asks "Clear the goal? y / n" inside the pane (`y` sends `Op::Goal(Clear)`, `n` or Esc
//! keep it; every other key is swallowed while it asks), `a` puts `/subgoal ` in the composer
//! and focuses it so the user types the criterion (`/goal ` when there is no goal to add one
//! to), `/` starts a slash command in the composer, Esc or `q` go back to the composer. Ctrl/Alt chords fall through to the app (Ctrl+C
//! still interrupts, Ctrl+O still moves focus); a key anywhere else closes an open prompt.
//!
//! The pane never changes the goal itself: it sends an op and shows the engine's next
//! `GoalUpdate`. Slash commands are never queued behind a running turn — status, pause and
//! clear must work mid-turn, and the engine refuses a new goal while a turn runs.
//! [`pane_key`] is pure over the pane (tested without an app); [`handle_key`] applies it.

use std::time::Duration;

use crossterm::event::KeyCode;
use crossterm::event::KeyEvent;
use crossterm::event::KeyModifiers;

use super::app::App;
use super::approvals_flow::KeyOutcome;
use super::focus::Focus;
use super::panes::goals::ClearPrompt;
use super::panes::goals::GoalsPane;
use crate::protocol::GoalCommand;
use crate::protocol::GoalStatus;
use crate::protocol::NoticeLevel;
use crate::protocol::Op;

const NO_GOAL: &str = "no goal is set — /goal <text> sets one";

/// What a key in the focused Goals pane asks the app to do.
#[derive(Debug, Clone, PartialEq)]
pub enum GoalKeyAction {
    /// Not a pane key: let the app have it.
    Ignored,
    /// Used; only the pane changed.
    Handled,
    Send(Op),
    /// Put this text in the composer and focus it.
    Prefill(&'static str),
    /// Leave the pane (focus back to the composer).
    Back,
    Hint(&'static str),
}

/// One key while the pane has focus. Pure over `pane` (see the module docs for the keys).
pub fn pane_key(pane: &mut GoalsPane, key: KeyEvent) -> GoalKeyAction {
    if key
        .modifiers
        .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
    {
        return GoalKeyAction::Ignored;
    }
    if pane.prompt() == ClearPrompt::Open {
        return match key.code {
            KeyCode::Char('y' | 'Y') => {
                pane.close_prompt();
                GoalKeyAction::Send(Op::Goal(GoalCommand::Clear))
            }
            KeyCode::Char('n' | 'N') | KeyCode::Esc => {
                pane.close_prompt();
                GoalKeyAction::Handled
            }
            _ => GoalKeyAction::Handled,
        };
    }
    let status = pane.status();
    match key.code {
        KeyCode::Char('p') => match status {
            Some(GoalStatus::Active) => GoalKeyAction::Send(Op::Goal(GoalCommand::Pause)),
            Some(GoalStatus::Paused) => GoalKeyAction::Send(Op::Goal(GoalCommand::Resume)),
            Some(GoalStatus::Achieved) => {
                GoalKeyAction::Hint("the goal was achieved — /goal <text> sets a new one")
            }
            Some(GoalStatus::Cleared) | None => GoalKeyAction::Hint(NO_GOAL),
        },
        KeyCode::Char('c') => match status {
            Some(GoalStatus::Active | GoalStatus::Paused | GoalStatus::Achieved) => {
                pane.open_prompt();
                GoalKeyAction::Handled
            }
            Some(GoalStatus::Cleared) | None => GoalKeyAction::Hint(NO_GOAL),
        },
        KeyCode::Char('a') => match status {
            Some(GoalStatus::Active | GoalStatus::Paused) => GoalKeyAction::Prefill("/subgoal "),
            Some(GoalStatus::Achieved | GoalStatus::Cleared) | None => {
                GoalKeyAction::Prefill("/goal ")
            }
        },
        KeyCode::Esc | KeyCode::Char('q') => GoalKeyAction::Back,
        // Typing a command while the pane has focus must not fire pane keys letter by letter
        // (`/goal status` would hit `a`): a slash starts it in the composer.
        KeyCode::Char('/') => GoalKeyAction::Prefill("/"),
        _ => GoalKeyAction::Ignored,
    }
}

/// A key for the Goals pane; `NotMine` lets the app have it. A key while another pane has
/// focus closes the pane's clear prompt, so it never waits unseen.
pub fn handle_key(app: &mut App, key: KeyEvent) -> KeyOutcome {
    if app.focus != Focus::Goals {
        app.side.goals.close_prompt();
        return KeyOutcome::NotMine;
    }
    match pane_key(&mut app.side.goals, key) {
        GoalKeyAction::Ignored => return KeyOutcome::NotMine,
        GoalKeyAction::Handled => {}
        GoalKeyAction::Send(op) => app.send(op),
        GoalKeyAction::Prefill(text) => {
            app.composer.set_text(text);
            app.focus = Focus::Composer;
        }
        GoalKeyAction::Back => app.focus = Focus::Composer,
        GoalKeyAction::Hint(text) => super::input::show_hint(app, text, Duration::from_secs(2)),
    }
    KeyOutcome::Handled
}

/// `/goal ARGS`: setting a goal shows the typed line as the user's (the first turn starts at
/// once); everything else is answered by the engine with events or a notice.
pub fn goal_command(app: &mut App, args: &str) {
    let command = GoalCommand::from_goal_args(args);
    match &command {
        GoalCommand::Set { text } => {
            app.transcript.push_user(&format!("/goal {text}"));
            app.chat.scroll_to_bottom();
        }
        GoalCommand::Status
        | GoalCommand::Pause
        | GoalCommand::Resume
        | GoalCommand::Clear
        | GoalCommand::AddSubgoal { .. }
        | GoalCommand::ListSubgoals
        | GoalCommand::RemoveSubgoal { .. }
        | GoalCommand::ClearSubgoals => {}
    }
    app.send(Op::Goal(command));
}

/// `/subgoal ARGS`; a malformed `remove` gets its usage line and sends nothing.
pub fn subgoal_command(app: &mut App, args: &str) {
    match GoalCommand::from_subgoal_args(args) {
        Ok(command) => app.send(Op::Goal(command)),
        Err(usage) => app.transcript.push_notice(NoticeLevel::Info, &usage),
    }
}

#[cfg(test)]
#[path = "goals_flow_tests.rs"]
mod tests;
