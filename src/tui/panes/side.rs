//! The side region: draws the Subagents, Goals and Approvals panes into the rects
//! `layout::compute_layout` chose, or the one-line summary a narrow terminal gets instead.
//!
//! Also holds what the three panes share: [`PaneFocus`] and the bordered, titled block
//! (title in `Role::Title`; border `Role::BorderFocused` when focused, so focus is always
//! visible), and what the panes ask the layout for ([`SidePanes::wants`]). It does not decide
//! where panes go (that is `layout`) or handle keys.

use std::time::Instant;

use ratatui::buffer::Buffer;
use ratatui::text::Line;
use ratatui::text::Span;
use ratatui::widgets::Block;
use ratatui::widgets::BorderType;
use ratatui::widgets::Padding;
use ratatui::widgets::Widget;
use unicode_width::UnicodeWidthStr;

use super::agents::AgentsPane;
use super::approvals::ApprovalsPane;
use super::goals::GoalsPane;
use crate::theme::Role;
use crate::theme::Theme;
use crate::tui::focus::Focus;
use crate::tui::layout::PaneWants;
use crate::tui::layout::SideRegion;

/// Whether a pane has the keyboard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PaneFocus {
    Focused,
    Unfocused,
}

impl PaneFocus {
    /// `Focused` when `focus` is `pane`.
    pub fn of(pane: Focus, focus: Focus) -> Self {
        if pane == focus {
            Self::Focused
        } else {
            Self::Unfocused
        }
    }
}

/// A side pane's frame: rounded border, title in `Role::Title`.
pub fn pane_block(title: &str, focus: PaneFocus, theme: &Theme) -> Block<'static> {
    let border = match focus {
        PaneFocus::Focused => Role::BorderFocused,
        PaneFocus::Unfocused => Role::Border,
    };
    Block::bordered()
        .border_type(BorderType::Rounded)
        .border_style(theme.style(border))
        .padding(Padding::horizontal(1))
        .title(Span::styled(format!(" {title} "), theme.style(Role::Title)))
}

/// The three side panes' state.
#[derive(Debug, Default)]
pub struct SidePanes {
    pub agents: AgentsPane,
    pub goals: GoalsPane,
    pub approvals: ApprovalsPane,
}

impl SidePanes {
    /// The rows each pane asks for at `width` columns (`layout::PaneWants`): Approvals only
    /// while a request waits and Goals only while it shows a goal, so with neither the
    /// column splits evenly as it always has; Subagents always says what it needs, as the
    /// floor a growing Goals pane leaves it.
    pub fn wants(&self, width: u16, now: Instant) -> PaneWants {
        let goals = match self.goals.snapshot() {
            Some(_) => self.goals.desired_height(width),
            None => 0,
        };
        let approvals = if self.approvals.is_empty() {
            0
        } else {
            self.approvals.desired_height(width, now)
        };
        PaneWants {
            agents: self.agents.desired_height(width, now),
            goals,
            approvals,
        }
    }

    /// Draws the side region with the approvals countdown as of the current time; see
    /// [`Self::render_at`].
    pub fn render(&self, region: &SideRegion, focus: Focus, buf: &mut Buffer, theme: &Theme) {
        self.render_at(region, focus, buf, theme, Instant::now());
    }

    /// Draws the side region: the panes, the summary line, or nothing. `now` drives the
    /// approvals countdown.
    pub fn render_at(
        &self,
        region: &SideRegion,
        focus: Focus,
        buf: &mut Buffer,
        theme: &Theme,
        now: Instant,
    ) {
        match *region {
            SideRegion::Hidden => {}
            SideRegion::Panes {
                agents,
                goals,
                approvals,
            } => {
                self.agents
                    .render_at(agents, buf, theme, PaneFocus::of(Focus::Agents, focus), now);
                self.goals
                    .render(goals, buf, theme, PaneFocus::of(Focus::Goals, focus));
                self.approvals.render(
                    approvals,
                    buf,
                    theme,
                    PaneFocus::of(Focus::Approvals, focus),
                    now,
                );
            }
            SideRegion::Summary(rect) => {
                self.summary_line(rect.width, theme).render(rect, buf);
            }
        }
    }

    /// `agents 0 · goal — · approvals 0   Ctrl+T to expand`, cut to `width` (the hint goes
    /// first). The goal shows as its turns (`3/20`), `paused`, `done` or `—`. Pending approvals are highlighted: they block the agent.
    pub fn summary_line(&self, width: u16, theme: &Theme) -> Line<'static> {
        let label = theme.style(Role::Dim);
        let value = theme.style(Role::Text);
        let approvals = self.approvals.pending_count();
        let approvals_style = if approvals > 0 {
            theme.style(Role::Warn)
        } else {
            value
        };
        let goal = self.goals.summary();
        let mut spans = vec![
            Span::styled(" agents ", label),
            Span::styled(self.agents.running_count().to_string(), value),
            Span::styled(" · goal ", label),
            Span::styled(goal, value),
            Span::styled(" · approvals ", label),
            Span::styled(approvals.to_string(), approvals_style),
        ];
        let hint = "   Ctrl+T to expand";
        let used: usize = spans.iter().map(|s| s.content.width()).sum();
        if used + hint.width() <= usize::from(width) {
            spans.push(Span::styled(hint, label));
        }
        Line::from(spans)
    }
}

#[cfg(test)]
#[path = "side_tests.rs"]
mod tests;
