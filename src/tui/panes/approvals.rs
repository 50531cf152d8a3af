//! The Approvals pane: commands waiting for the user's yes/no, with the agent that asked.
//!
//! Today it only has its frame and a useful empty state: approval requests are not in the
//! protocol yet, so `apply` ignores everything and `pending` stays empty. The approvals issue
//! fills it in (requests are never dropped or coalesced — ARCHITECTURE §2). Renders from plain
//! data; no I/O.

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

/// One request waiting for an answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingApproval {
    pub id: String,
    pub command: String,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ApprovalsPane {
    pub pending: Vec<PendingApproval>,
}

impl ApprovalsPane {
    pub const TITLE: &'static str = "Approvals";

    /// Updates the pane from an engine event. No approval events exist yet, so nothing
    /// changes.
    pub fn apply(&mut self, _event: &Event) {}

    pub fn pending_count(&self) -> usize {
        self.pending.len()
    }

    pub fn render(&self, area: Rect, buf: &mut Buffer, theme: &Theme, focus: PaneFocus) {
        let block = pane_block(Self::TITLE, focus, theme);
        let lines: Vec<Line<'static>> = if self.pending.is_empty() {
            vec![Line::styled(
                "Nothing waiting for approval — risky commands will ask here",
                theme.style(Role::Text),
            )]
        } else {
            self.pending
                .iter()
                .map(|p| {
                    Line::from(vec![
                        Span::styled("? ", theme.style(Role::Warn)),
                        Span::styled(p.command.clone(), theme.style(Role::Code)),
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
