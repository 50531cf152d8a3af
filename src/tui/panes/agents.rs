//! The Subagents pane (Hermes's subagent monitor, reference §5.1): the spawn tree of
//! `delegate_task` children with their status.
//!
//! Today it only has its frame and a useful empty state: the protocol has no subagent events
//! yet, so `apply` ignores everything and `entries` stays empty. The subagent issue fills in
//! the events, the tree and its keys. Renders from plain data; no I/O.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::text::Span;
use ratatui::widgets::Paragraph;
use ratatui::widgets::Widget;
use ratatui::widgets::Wrap;

use super::side::PaneFocus;
use super::side::pane_block;
use crate::protocol::Event;
use crate::theme::Role;
use crate::theme::Theme;

/// One subagent row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentEntry {
    pub id: String,
    /// What it was asked to do (its goal, shortened).
    pub label: String,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AgentsPane {
    pub entries: Vec<AgentEntry>,
}

impl AgentsPane {
    pub const TITLE: &'static str = "Subagents";

    /// Updates the pane from an engine event. No subagent events exist yet, so nothing
    /// changes; a catch-all keeps new `Event` variants from breaking this pane.
    pub fn apply(&mut self, _event: &Event) {}

    /// Subagents currently listed.
    pub fn running_count(&self) -> usize {
        self.entries.len()
    }

    pub fn render(&self, area: Rect, buf: &mut Buffer, theme: &Theme, focus: PaneFocus) {
        let block = pane_block(Self::TITLE, focus, theme);
        let lines: Vec<Line<'static>> = if self.entries.is_empty() {
            let mut lines = vec![Line::styled(
                "No subagents running — the agent starts them with delegate_task",
                theme.style(Role::Text),
            )];
            if focus == PaneFocus::Unfocused {
                lines.push(Line::default());
                lines.push(Line::styled("Ctrl+T focus", theme.style(Role::Dim)));
            }
            lines
        } else {
            self.entries
                .iter()
                .map(|e| {
                    Line::from(vec![
                        Span::styled("● ", theme.style(Role::Accent)),
                        Span::styled(e.label.clone(), theme.style(Role::Text)),
                    ])
                })
                .collect()
        };
        Paragraph::new(lines)
            .wrap(Wrap { trim: true })
            .block(block)
            .render(area, buf);
    }
}
