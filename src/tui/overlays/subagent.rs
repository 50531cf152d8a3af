//! One subagent, full screen over the upper area: its live **log** (the child's own events,
//! held in a `Transcript` and drawn by the same `ChatView` as the chat pane, so cells look
//! alike and scroll alike) or its **details** (goal, role, model, status, elapsed, usage,
//! steer messages with queued/delivered state, and the summary once it ended).
//!
//! Keys: Esc, `q` or ← go back to the list; `d` shows details, `t` or Enter the log; in the
//! log ↑/↓ select cells and PgUp/PgDn/Home/End scroll (as in the chat pane); in details ↑/↓
//! and PgUp/PgDn scroll. A child that disappears from the tree (dropped at the next user turn)
//! shows a short note instead. Holds only view state; the data comes from the tree.

use std::time::Instant;

use crossterm::event::KeyCode;
use crossterm::event::KeyEvent;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::text::Span;
use ratatui::widgets::Clear;
use ratatui::widgets::Paragraph;
use ratatui::widgets::Widget;
use ratatui::widgets::Wrap;

use crate::protocol::SubagentRole;
use crate::theme::Role;
use crate::theme::Theme;
use crate::tui::panes::agents::format_cost;
use crate::tui::panes::chat::ChatFocus;
use crate::tui::panes::chat::ChatView;
use crate::tui::panes::side::PaneFocus;
use crate::tui::panes::side::pane_block;
use crate::tui::status_bar::format_elapsed;
use crate::tui::subagents::Node;
use crate::tui::subagents::SteerState;
use crate::tui::subagents::SubagentTree;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SubagentView {
    Log,
    Details,
}

/// What the app does after a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OverlayAction {
    None,
    /// Back to the monitor's list.
    Close,
}

pub struct SubagentOverlay {
    pub id: String,
    pub view: SubagentView,
    log: ChatView,
    details_scroll: u16,
}

impl SubagentOverlay {
    pub fn new(id: &str, view: SubagentView) -> Self {
        Self {
            id: id.to_string(),
            view,
            log: ChatView::new(),
            details_scroll: 0,
        }
    }

    pub fn handle_key(&mut self, key: KeyEvent) -> OverlayAction {
        match key.code {
            KeyCode::Esc | KeyCode::Left | KeyCode::Char('q') => return OverlayAction::Close,
            KeyCode::Char('d') => self.view = SubagentView::Details,
            KeyCode::Char('t') => self.view = SubagentView::Log,
            KeyCode::Enter if self.view == SubagentView::Details => self.view = SubagentView::Log,
            _ => match self.view {
                SubagentView::Log => {
                    self.log.handle_key(key);
                }
                SubagentView::Details => self.scroll_details(key.code),
            },
        }
        OverlayAction::None
    }

    fn scroll_details(&mut self, code: KeyCode) {
        let s = &mut self.details_scroll;
        match code {
            KeyCode::Up | KeyCode::Char('k') => *s = s.saturating_sub(1),
            KeyCode::Down | KeyCode::Char('j') => *s = s.saturating_add(1),
            KeyCode::PageUp => *s = s.saturating_sub(10),
            KeyCode::PageDown => *s = s.saturating_add(10),
            KeyCode::Home => *s = 0,
            _ => {}
        }
    }

    pub fn render(
        &mut self,
        tree: &SubagentTree,
        area: Rect,
        buf: &mut Buffer,
        theme: &Theme,
        now: Instant,
    ) {
        Clear.render(area, buf);
        let Some(node) = tree.get(&self.id) else {
            let block = pane_block("Subagent", PaneFocus::Focused, theme);
            Paragraph::new("This subagent is no longer listed (finished ones are dropped at your next message). Esc goes back.")
                .style(theme.style(Role::Dim))
                .wrap(Wrap { trim: true })
                .block(block)
                .render(area, buf);
            return;
        };
        match self.view {
            SubagentView::Log if node.log.is_empty() => {
                let block = pane_block(&log_title(node), PaneFocus::Focused, theme);
                Paragraph::new("No activity yet.")
                    .style(theme.style(Role::Dim))
                    .block(block)
                    .render(area, buf);
            }
            SubagentView::Log => {
                // The title follows the child's status; scroll state lives in `self.log`.
                self.log.set_title(&log_title(node));
                self.log
                    .render(&node.log, area, buf, theme, ChatFocus::Focused);
            }
            SubagentView::Details => {
                let title = format!("{} · details · t log · Esc back", node.label);
                let block = pane_block(&title, PaneFocus::Focused, theme);
                let inner_h = block.inner(area).height;
                let lines = details_lines(node, theme, now);
                let max = u16::try_from(lines.len())
                    .unwrap_or(u16::MAX)
                    .saturating_sub(inner_h);
                self.details_scroll = self.details_scroll.min(max);
                Paragraph::new(lines)
                    .wrap(Wrap { trim: false })
                    .scroll((self.details_scroll, 0))
                    .block(block)
                    .render(area, buf);
            }
        }
    }
}

fn log_title(node: &Node) -> String {
    format!(
        "{} · {} · log · d details · Esc back",
        node.label,
        node.status().label()
    )
}

fn details_lines(node: &Node, theme: &Theme, now: Instant) -> Vec<Line<'static>> {
    let label = theme.style(Role::Label);
    let text = theme.style(Role::Text);
    let field = |name: &str, value: String| {
        Line::from(vec![
            Span::styled(format!("{name:<9} "), label),
            Span::styled(value, text),
        ])
    };
    let role = match node.role {
        SubagentRole::Leaf => "leaf",
        SubagentRole::Orchestrator => "orchestrator",
    };
    let u = node.usage;
    let mut lines = vec![
        field("goal", node.goal.clone()),
        field("role", role.to_string()),
        field("model", node.model.clone()),
        field("status", node.status().label().to_string()),
        field(
            "depth",
            match &node.parent {
                Some(parent) => format!("{} (parent {parent})", node.depth),
                None => format!("{} (spawned by the main agent)", node.depth),
            },
        ),
        field("elapsed", format_elapsed(node.elapsed(now))),
        field(
            "usage",
            format!(
                "{} API calls · {} tool calls · {} in / {} out tokens · cost {}",
                u.api_calls,
                node.tool_calls(),
                u.input_tokens,
                u.output_tokens,
                format_cost(u.cost_usd)
            ),
        ),
        field("activity", node.activity.clone()),
    ];
    if !node.steers.is_empty() {
        lines.push(Line::default());
        lines.push(Line::styled("steer messages", label));
        for steer in &node.steers {
            let (state, role) = match steer.state {
                SteerState::Queued => ("queued", Role::Warn),
                SteerState::Delivered => ("delivered", Role::Ok),
            };
            lines.push(Line::from(vec![
                Span::styled(format!("  {state:<9} "), theme.style(role)),
                Span::styled(steer.text.clone(), text),
            ]));
        }
    }
    if let Some(ending) = &node.ending {
        lines.push(Line::default());
        lines.push(Line::styled("summary", label));
        for line in ending.summary.lines() {
            lines.push(Line::styled(line.to_string(), text));
        }
    }
    lines
}
