//! The Goals pane's state (Hermes `/goal`, spec-002d Part C): the standing goal as the engine
//! last reported it (`Event::GoalUpdate`, handed over by `engine_link`) and whether the pane
//! is asking "Clear the goal?".
//!
//! The engine owns the goal: this pane never changes the snapshot itself (a `p` or `c` in the
//! pane sends an `Op::Goal` and waits for the engine's next `GoalUpdate`), so what it shows is
//! always what the engine holds. Keys are read in `goals_flow`; drawing lives in
//! `goals_view`. No I/O, no clock.
//!
//! Invariant: the clear prompt is only open while there is a goal that can be cleared (an
//! update that leaves none closes it).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use super::side::PaneFocus;
use crate::protocol::GoalSnapshot;
use crate::protocol::GoalStatus;
use crate::protocol::GoalUpdate;
use crate::theme::Theme;

/// Whether the pane is asking to confirm `/goal clear`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ClearPrompt {
    #[default]
    Closed,
    Open,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GoalsPane {
    /// The engine's last snapshot; `None`: the session has no goal.
    goal: Option<GoalSnapshot>,
    prompt: ClearPrompt,
}

impl GoalsPane {
    pub const TITLE: &'static str = "Goals";

    /// Takes the engine's `Event::GoalUpdate`.
    pub fn apply(&mut self, update: &GoalUpdate) {
        self.set(update.goal.clone());
    }

    /// Replaces the snapshot (closing the clear prompt when nothing is left to clear).
    pub fn set(&mut self, goal: Option<GoalSnapshot>) {
        self.goal = goal;
        if self.status().is_none() {
            self.prompt = ClearPrompt::Closed;
        }
    }

    /// The goal as last reported, cleared ones included.
    pub fn snapshot(&self) -> Option<&GoalSnapshot> {
        self.goal.as_ref()
    }

    /// The status of a goal that still counts (`None` without one, or once it is cleared).
    pub fn status(&self) -> Option<GoalStatus> {
        let status = self.goal.as_ref()?.status;
        match status {
            GoalStatus::Active | GoalStatus::Paused | GoalStatus::Achieved => Some(status),
            GoalStatus::Cleared => None,
        }
    }

    /// Whether a goal is set (active, paused or achieved).
    pub fn has_goal(&self) -> bool {
        self.status().is_some()
    }

    pub fn prompt(&self) -> ClearPrompt {
        self.prompt
    }

    /// Asks "Clear the goal?"; does nothing without a goal to clear.
    pub fn open_prompt(&mut self) {
        if self.has_goal() {
            self.prompt = ClearPrompt::Open;
        }
    }

    pub fn close_prompt(&mut self) {
        self.prompt = ClearPrompt::Closed;
    }

    /// A short word for the side summary line: `3/20`, `paused`, `done` or `—`.
    pub fn summary(&self) -> String {
        let Some(goal) = &self.goal else {
            return "—".to_string();
        };
        match goal.status {
            GoalStatus::Active => format!("{}/{}", goal.turns_used, goal.max_turns),
            GoalStatus::Paused => "paused".to_string(),
            GoalStatus::Achieved => "done".to_string(),
            GoalStatus::Cleared => "—".to_string(),
        }
    }

    /// Rows the pane wants at `width` columns, borders included (see
    /// [`super::goals_view::desired_height`]).
    pub fn desired_height(&self, width: u16) -> u16 {
        super::goals_view::desired_height(self, width)
    }

    pub fn render(&self, area: Rect, buf: &mut Buffer, theme: &Theme, focus: PaneFocus) {
        super::goals_view::render(self, area, buf, theme, focus);
    }
}
