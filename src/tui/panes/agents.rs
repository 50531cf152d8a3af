//! The Subagents pane (Hermes's subagent monitor, reference §5.1): the spawn tree of
//! `delegate_task` children ([`SubagentTree`]) plus the monitor's view state — the selected
//! row, the sort and filter cycles, whether new spawns are paused, and the one-line steer
//! input.
//!
//! Unfocused it is a compact list in the side column (status icon, label, elapsed, activity);
//! focused it grows into the full monitor drawn over the upper screen (`agents_view`). The
//! list says how many rows it needs ([`AgentsPane::desired_height`]) so a growing Goals pane
//! only takes rows it would leave blank. Keys live in `agents_flow`; this module only keeps
//! state and draws. Renders from plain data with an explicit `now`; no I/O.
//!
//! Invariant: `selected`, when set, names a node of the tree; rows are re-listed on every
//! use, so a sort or filter change never leaves a stale index behind.

use std::time::Instant;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::text::Span;
use ratatui::widgets::Paragraph;
use ratatui::widgets::Widget;
use ratatui::widgets::Wrap;

use super::side::PaneFocus;
use super::side::pane_block;
use crate::protocol::McpStatus;
use crate::protocol::Spawning;
use crate::protocol::SubagentEvent;
use crate::protocol::SubagentStatus;
use crate::theme::Role;
use crate::theme::Theme;
use crate::tui::markdown::wrap::display_width;
use crate::tui::markdown::wrap::truncate;
use crate::tui::markdown::wrap::wrap_spans;
use crate::tui::status_bar::format_elapsed;
use crate::tui::subagents::FilterMode;
use crate::tui::subagents::Node;
use crate::tui::subagents::NodeStatus;
use crate::tui::subagents::SortMode;
use crate::tui::subagents::SubagentTree;

const EMPTY_TEXT: &str = "No subagents running — the agent starts them with delegate_task";
const FOCUS_HINT: &str = "Ctrl+T focus";
/// Borders (top and bottom) around the content.
const FRAME_ROWS: usize = 2;
/// Border and padding columns on each side.
const FRAME_COLS: u16 = 4;

/// The steer message being typed for child `id`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SteerInput {
    pub id: String,
    pub label: String,
    pub text: String,
}

#[derive(Debug)]
pub struct AgentsPane {
    pub tree: SubagentTree,
    pub selected: Option<String>,
    pub sort: SortMode,
    pub filter: FilterMode,
    pub spawning: Spawning,
    pub steer: Option<SteerInput>,
    /// When the batch finished, if this pane shows a saved spawn tree (`/agents history`):
    /// read-only, never sent controls.
    pub saved: Option<String>,
}

impl Default for AgentsPane {
    fn default() -> Self {
        Self {
            tree: SubagentTree::default(),
            selected: None,
            sort: SortMode::default(),
            filter: FilterMode::default(),
            spawning: Spawning::Allowed,
            steer: None,
            saved: None,
        }
    }
}

impl AgentsPane {
    pub const TITLE: &'static str = "Subagents";

    /// Updates the tree from a subagent event that arrived at `now`.
    pub fn apply(&mut self, event: &SubagentEvent, now: Instant) {
        self.tree.apply(event, now);
        self.forget_gone_selection();
    }

    /// The MCP servers, for the children's logs (see [`SubagentTree::set_mcp_status`]).
    pub fn set_mcp_status(&mut self, status: &McpStatus) {
        self.tree.set_mcp_status(status);
    }

    /// The user sent their next message: finished children leave the tree (see
    /// [`SubagentTree::drop_finished`]), and the selection with them.
    pub fn drop_finished(&mut self) {
        self.tree.drop_finished();
        self.forget_gone_selection();
    }

    fn forget_gone_selection(&mut self) {
        let gone = self
            .selected
            .as_deref()
            .is_some_and(|id| self.tree.get(id).is_none());
        if gone {
            self.selected = None;
        }
    }

    /// Subagents currently running.
    pub fn running_count(&self) -> usize {
        self.tree.running_count()
    }

    /// Ids of the listed rows, in order, with their listing depth.
    pub fn row_ids(&self, now: Instant) -> Vec<String> {
        self.tree
            .rows(self.sort, self.filter, now)
            .into_iter()
            .map(|(n, _)| n.id.clone())
            .collect()
    }

    /// The selected row's id: the stored selection when it is listed, else the first row.
    pub fn selected_id(&self, now: Instant) -> Option<String> {
        let rows = self.row_ids(now);
        match &self.selected {
            Some(id) if rows.contains(id) => Some(id.clone()),
            Some(_) | None => rows.into_iter().next(),
        }
    }

    pub fn selected_node(&self, now: Instant) -> Option<&Node> {
        self.selected_id(now).and_then(|id| self.tree.get(&id))
    }

    /// Moves the selection `delta` rows (clamped at the ends).
    pub fn move_selection(&mut self, delta: isize, now: Instant) {
        let rows = self.row_ids(now);
        let current = self
            .selected_id(now)
            .and_then(|id| rows.iter().position(|r| *r == id))
            .unwrap_or(0);
        let last = rows.len().saturating_sub(1);
        let next = current.saturating_add_signed(delta).min(last);
        self.selected = rows.get(next).cloned();
    }

    pub fn select_first(&mut self, now: Instant) {
        self.selected = self.row_ids(now).first().cloned();
    }

    pub fn select_last(&mut self, now: Instant) {
        self.selected = self.row_ids(now).last().cloned();
    }

    /// Rows the compact list wants at `width` columns, borders included: without subagents
    /// the empty text, a blank row and the focus hint (2–4 lines at the usual widths); else
    /// the totals line and one row per listed child. Counted as drawn unfocused (the larger).
    pub fn desired_height(&self, width: u16, now: Instant) -> u16 {
        let inner = usize::from(width.saturating_sub(FRAME_COLS)).max(1);
        let rows = if self.tree.is_empty() {
            let wrapped = |text: &'static str| wrap_spans(&[Span::raw(text)], inner).len();
            wrapped(EMPTY_TEXT) + 1 + wrapped(FOCUS_HINT)
        } else {
            1 + self.tree.rows(self.sort, self.filter, now).len()
        };
        u16::try_from(rows + FRAME_ROWS).unwrap_or(u16::MAX)
    }

    /// The compact list for the side column.
    pub fn render(&self, area: Rect, buf: &mut Buffer, theme: &Theme, focus: PaneFocus) {
        self.render_at(area, buf, theme, focus, Instant::now());
    }

    pub fn render_at(
        &self,
        area: Rect,
        buf: &mut Buffer,
        theme: &Theme,
        focus: PaneFocus,
        now: Instant,
    ) {
        let title = match self.spawning {
            Spawning::Allowed => Self::TITLE.to_string(),
            Spawning::Paused => format!("{} · ⏸ paused", Self::TITLE),
        };
        let block = pane_block(&title, focus, theme);
        let inner = block.inner(area);
        if self.tree.is_empty() {
            let mut lines = vec![Line::styled(EMPTY_TEXT, theme.style(Role::Text))];
            if focus == PaneFocus::Unfocused {
                lines.push(Line::default());
                lines.push(Line::styled(FOCUS_HINT, theme.style(Role::Dim)));
            }
            Paragraph::new(lines)
                .wrap(Wrap { trim: true })
                .block(block)
                .render(area, buf);
            return;
        }
        let width = usize::from(inner.width);
        let totals = self.tree.totals();
        let mut lines = vec![Line::styled(
            truncate(
                &format!(
                    "{} running · {} done · {} failed · /agents",
                    totals.running, totals.done, totals.failed
                ),
                width,
            ),
            theme.style(Role::Dim),
        )];
        for (node, level) in self.tree.rows(self.sort, self.filter, now) {
            lines.push(compact_row(node, level, width, theme, now));
        }
        block.render(area, buf);
        Paragraph::new(lines).render(inner, buf);
    }
}

/// `● task 1  12s  running terminal ls`, cut to `width`.
fn compact_row(
    node: &Node,
    level: usize,
    width: usize,
    theme: &Theme,
    now: Instant,
) -> Line<'static> {
    let (icon, role) = status_icon(node.status());
    let indent = tree_indent(level);
    let elapsed = format_elapsed(node.elapsed(now));
    let fixed = display_width(&indent) + 2 + elapsed.len() + 2;
    let room = width.saturating_sub(fixed);
    let label_w = room
        .min(display_width(&node.label))
        .min(room.max(8) * 3 / 5);
    let label = truncate(&node.label, label_w.max(1));
    let used = fixed + display_width(&label) + 2;
    let activity = truncate(&node.activity, width.saturating_sub(used));
    Line::from(vec![
        Span::styled(indent, theme.style(Role::Dim)),
        Span::styled(format!("{icon} "), theme.style(role)),
        Span::styled(label, theme.style(Role::Text)),
        Span::styled(format!("  {elapsed}  "), theme.style(Role::Dim)),
        Span::styled(activity, theme.style(Role::Dim)),
    ])
}

/// The status glyph and the theme role it is drawn in.
pub fn status_icon(status: NodeStatus) -> (&'static str, Role) {
    match status {
        NodeStatus::Running => ("●", Role::Accent),
        NodeStatus::Ended(SubagentStatus::Completed) => ("✓", Role::Ok),
        NodeStatus::Ended(SubagentStatus::Failed) => ("✗", Role::Error),
        NodeStatus::Ended(SubagentStatus::Interrupted) => ("■", Role::Warn),
        NodeStatus::Ended(SubagentStatus::TimedOut) => ("⏱", Role::Warn),
    }
}

/// Depth indent for a row listed at `level` (0 = a root): `└ ` after two columns per level.
pub fn tree_indent(level: usize) -> String {
    match level {
        0 => String::new(),
        n => format!("{}└ ", "  ".repeat(n - 1)),
    }
}

/// `$0.0123`, or `—` when the provider reports no price.
pub fn format_cost(cost: Option<f64>) -> String {
    match cost {
        Some(c) => format!("${c:.4}"),
        None => "—".to_string(),
    }
}
