//! The live bar above the composer: while subagents run it lists them (count, names, elapsed,
//! latest activity), one row each under a header line, cut to the rows the layout gave it
//! with a `+N more` line. F7 folds it into one line (count, names, expand hint) and back; the
//! setting lives for the session only.
//!
//! Draws only, from the tree and an explicit `now`. With nothing running it asks for no rows
//! and draws nothing.

use std::time::Instant;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::text::Span;
use ratatui::widgets::Widget;

use crate::theme::Role;
use crate::theme::Theme;
use crate::tui::markdown::wrap::display_width;
use crate::tui::markdown::wrap::truncate;
use crate::tui::status_bar::format_elapsed;
use crate::tui::subagents::SubagentTree;

/// Whether the bar shows one row per child or a single summary line (F7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LiveBarMode {
    #[default]
    Expanded,
    Collapsed,
}

impl LiveBarMode {
    pub fn toggled(self) -> Self {
        match self {
            Self::Expanded => Self::Collapsed,
            Self::Collapsed => Self::Expanded,
        }
    }
}

/// Rows the bar wants: 0 with nothing running, 1 collapsed, else a header plus one per child,
/// at most `max_rows` (and at least 1).
pub fn desired_height(tree: &SubagentTree, mode: LiveBarMode, max_rows: u16) -> u16 {
    let running = tree.running_count();
    if running == 0 {
        return 0;
    }
    match mode {
        LiveBarMode::Collapsed => 1,
        LiveBarMode::Expanded => {
            let want = u16::try_from(running + 1).unwrap_or(u16::MAX);
            want.min(max_rows.max(1))
        }
    }
}

pub fn render_live_bar(
    tree: &SubagentTree,
    mode: LiveBarMode,
    area: Rect,
    buf: &mut Buffer,
    theme: &Theme,
    now: Instant,
) {
    let running: Vec<_> = tree.running().collect();
    if running.is_empty() || area.height == 0 {
        return;
    }
    let width = usize::from(area.width);
    let dim = theme.style(Role::Dim);
    let mut lines = Vec::new();
    let count = format!(
        " ⚙ {} subagent{} running",
        running.len(),
        if running.len() == 1 { "" } else { "s" }
    );
    if mode == LiveBarMode::Collapsed || area.height == 1 {
        let hint = match mode {
            LiveBarMode::Collapsed => " · F7 expand",
            LiveBarMode::Expanded => " · F7 collapse",
        };
        let names: Vec<&str> = running.iter().map(|n| n.label.as_str()).collect();
        let first_activity = running.first().map_or("", |n| n.activity.as_str());
        let mut text = format!("{count}: {}", names.join(", "));
        if display_width(&text) + display_width(first_activity) + 3 + hint.len() <= width {
            text.push_str(&format!(" — {first_activity}"));
        }
        let room = width.saturating_sub(display_width(hint));
        lines.push(Line::from(vec![
            Span::styled(truncate(&text, room), theme.style(Role::Accent)),
            Span::styled(hint, dim),
        ]));
    } else {
        lines.push(Line::from(vec![
            Span::styled(count, theme.style(Role::Accent)),
            Span::styled(" · /agents to watch · F7 collapse", dim),
        ]));
        let rows = usize::from(area.height) - 1;
        let hidden = running.len().saturating_sub(rows);
        let shown = if hidden > 0 { rows - 1 } else { rows };
        let label_w = (width / 3).clamp(8, 40);
        for node in running.iter().take(shown) {
            let label = truncate(&node.label, label_w);
            let elapsed = format_elapsed(node.elapsed(now));
            let used = 5 + display_width(&label) + 2 + elapsed.len() + 2;
            lines.push(Line::from(vec![
                Span::styled("   ● ", theme.style(Role::Accent)),
                Span::styled(label, theme.style(Role::Text)),
                Span::styled(format!("  {elapsed}  "), dim),
                Span::styled(truncate(&node.activity, width.saturating_sub(used)), dim),
            ]));
        }
        if hidden > 0 {
            let more = running.len() - shown;
            lines.push(Line::styled(format!("   +{more} more"), dim));
        }
    }
    for (i, line) in lines.into_iter().enumerate() {
        let Ok(offset) = u16::try_from(i) else {
            break;
        };
        if offset >= area.height {
            break;
        }
        let row = Rect {
            y: area.y + offset,
            height: 1,
            ..area
        };
        line.render(row, buf);
    }
}
