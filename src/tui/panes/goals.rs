//! The Goals pane (Hermes `/goal`, reference §5.2): the standing goal, its extra criteria and
//! how far the loop has got.
//!
//! Today it only has its frame and an honest empty state: goal events do not exist yet, so
//! `apply` ignores everything and the pane never promises a command that is not there. The
//! goals issue fills it in. Renders from plain data; no I/O.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;
use ratatui::widgets::Widget;
use ratatui::widgets::Wrap;

use super::side::PaneFocus;
use super::side::pane_block;
use crate::protocol::Event;
use crate::theme::Role;
use crate::theme::Theme;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GoalsPane {
    /// The standing goal, when one is set.
    pub goal: Option<String>,
    /// Extra criteria (`/subgoal`).
    pub subgoals: Vec<String>,
}

impl GoalsPane {
    pub const TITLE: &'static str = "Goals";

    /// Updates the pane from an engine event. No goal events exist yet, so nothing changes.
    pub fn apply(&mut self, _event: &Event) {}

    pub fn has_goal(&self) -> bool {
        self.goal.is_some()
    }

    pub fn render(&self, area: Rect, buf: &mut Buffer, theme: &Theme, focus: PaneFocus) {
        let block = pane_block(Self::TITLE, focus, theme);
        let lines: Vec<Line<'static>> = match &self.goal {
            None => vec![
                Line::styled("No standing goal.", theme.style(Role::Text)),
                Line::styled(
                    "A goal keeps the agent working across turns; it shows here when set.",
                    theme.style(Role::Dim),
                ),
            ],
            Some(goal) => std::iter::once(Line::styled(goal.clone(), theme.style(Role::Text)))
                .chain(
                    self.subgoals
                        .iter()
                        .map(|s| Line::styled(format!("· {s}"), theme.style(Role::Dim))),
                )
                .collect(),
        };
        Paragraph::new(lines)
            .wrap(Wrap { trim: true })
            .block(block)
            .render(area, buf);
    }
}
