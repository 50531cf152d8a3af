//! The full subagent monitor, drawn over the upper screen while the Subagents pane has focus:
//! a header (`Spawn tree · ⏸ paused`, totals, caps `d<max depth>/<running>`, sort and
//! filter), a column header, one row per listed child (status icon, tree indent + label,
//! model, elapsed, tools, tokens, cost, last activity), and a footer with the keys or the
//! steer input. A saved tree (`AgentsPane::saved`, `/agents history`) gets its own title
//! (`Spawn tree (saved <date>) · Esc back to live`) and a read-only keys footer.
//!
//! Draws only; state is `AgentsPane`, keys are `agents_flow`. Columns drop out on narrow
//! screens (model first, then cost); the list scrolls so the selected row stays visible.

use std::time::Instant;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Line;
use ratatui::text::Span;
use ratatui::widgets::Clear;
use ratatui::widgets::Widget;

use super::agents::AgentsPane;
use super::agents::format_cost;
use super::agents::status_icon;
use super::agents::tree_indent;
use super::side::PaneFocus;
use super::side::pane_block;
use crate::protocol::Spawning;
use crate::theme::Role;
use crate::theme::Theme;
use crate::tui::markdown::wrap::display_width;
use crate::tui::markdown::wrap::truncate;
use crate::tui::status_bar::format_elapsed;
use crate::tui::status_bar::format_tokens;
use crate::tui::subagents::Node;

const KEYS_HINT: &str = "↑↓ select · Enter log · d details · e steer · x stop · X subtree · \
                         p pause · s sort · f filter · Esc back";
const SAVED_KEYS_HINT: &str =
    "read-only · ↑↓ select · Enter log · d details · s sort · f filter · Esc back to live";

/// Column widths for a given inner width (0 = column hidden).
#[derive(Debug, Clone, Copy)]
struct Columns {
    label: usize,
    model: usize,
    cost: usize,
    activity: usize,
}

const ELAPSED_W: usize = 7;
const TOOLS_W: usize = 5;
const TOKENS_W: usize = 7;

fn columns(width: usize) -> Columns {
    let model = if width >= 100 { 18 } else { 0 };
    let cost = if width >= 70 { 8 } else { 0 };
    let fixed = 2 + (ELAPSED_W + 1) + (TOOLS_W + 1) + (TOKENS_W + 1) + gap(cost) + gap(model);
    let rest = width.saturating_sub(fixed);
    let label = (rest / 2).clamp(10, 36).min(rest);
    Columns {
        label,
        model,
        cost,
        activity: rest.saturating_sub(label + 1),
    }
}

fn gap(w: usize) -> usize {
    if w == 0 { 0 } else { w + 1 }
}

/// Left-aligned and padded (or cut) to `width` columns.
fn pad(text: &str, width: usize) -> String {
    let cut = truncate(text, width);
    let fill = width.saturating_sub(display_width(&cut));
    format!("{cut}{}", " ".repeat(fill))
}

/// Right-aligned in `width` columns.
fn rpad(text: &str, width: usize) -> String {
    let cut = truncate(text, width);
    let fill = width.saturating_sub(display_width(&cut));
    format!("{}{cut}", " ".repeat(fill))
}

pub fn render_monitor(
    pane: &AgentsPane,
    area: Rect,
    buf: &mut Buffer,
    theme: &Theme,
    now: Instant,
) {
    Clear.render(area, buf);
    let title = match (&pane.saved, pane.spawning) {
        (Some(date), _) => format!("Spawn tree (saved {date}) · Esc back to live"),
        (None, Spawning::Allowed) => "Spawn tree".to_string(),
        (None, Spawning::Paused) => "Spawn tree · ⏸ paused".to_string(),
    };
    let block = pane_block(&title, PaneFocus::Focused, theme);
    let inner = block.inner(area);
    block.render(area, buf);
    if inner.width == 0 || inner.height == 0 {
        return;
    }
    let width = usize::from(inner.width);
    let cols = columns(width);
    let mut lines = vec![header_line(pane, width, theme), column_header(cols, theme)];
    let rows = pane.tree.rows(pane.sort, pane.filter, now);
    let selected = pane.selected_id(now);
    let footer = 1;
    let room = usize::from(inner.height).saturating_sub(lines.len() + footer);
    if rows.is_empty() {
        let text = if pane.tree.is_empty() {
            "No subagents yet — the agent starts them with delegate_task".to_string()
        } else {
            format!(
                "No subagents match the filter “{}” (f to change)",
                pane.filter.label()
            )
        };
        lines.push(Line::styled(truncate(&text, width), theme.style(Role::Dim)));
    }
    let position = rows
        .iter()
        .position(|(n, _)| Some(&n.id) == selected.as_ref())
        .unwrap_or(0);
    let offset = (position + 1).saturating_sub(room);
    for (node, level) in rows.iter().skip(offset).take(room) {
        let chosen = Some(&node.id) == selected.as_ref();
        lines.push(row_line(node, *level, cols, theme, now, chosen));
    }
    while lines.len() < usize::from(inner.height).saturating_sub(footer) {
        lines.push(Line::default());
    }
    lines.push(footer_line(pane, width, theme));
    for (i, line) in lines
        .into_iter()
        .take(usize::from(inner.height))
        .enumerate()
    {
        let y = inner.y + u16::try_from(i).unwrap_or(u16::MAX);
        line.render(
            Rect {
                y,
                height: 1,
                ..inner
            },
            buf,
        );
    }
}

fn header_line(pane: &AgentsPane, width: usize, theme: &Theme) -> Line<'static> {
    let t = pane.tree.totals();
    let text = format!(
        "{} running · {} done · {} failed   {} tools · {} tok · ${:.4}   caps d{}/{}   sort {} · filter {}",
        t.running,
        t.done,
        t.failed,
        t.tool_calls,
        format_tokens(t.tokens),
        t.cost_usd,
        t.max_depth,
        t.running,
        pane.sort.label(),
        pane.filter.label(),
    );
    Line::styled(truncate(&text, width), theme.style(Role::Text))
}

fn column_header(cols: Columns, theme: &Theme) -> Line<'static> {
    let mut text = format!("  {} ", pad("AGENT", cols.label));
    if cols.model > 0 {
        text.push_str(&format!("{} ", pad("MODEL", cols.model)));
    }
    text.push_str(&format!(
        "{} {} {} ",
        rpad("ELAPSED", ELAPSED_W),
        rpad("TOOLS", TOOLS_W),
        rpad("TOKENS", TOKENS_W)
    ));
    if cols.cost > 0 {
        text.push_str(&format!("{} ", rpad("COST", cols.cost)));
    }
    text.push_str(&pad("ACTIVITY", cols.activity));
    Line::styled(text, theme.style(Role::Label))
}

fn row_line(
    node: &Node,
    level: usize,
    cols: Columns,
    theme: &Theme,
    now: Instant,
    chosen: bool,
) -> Line<'static> {
    let (icon, icon_role) = status_icon(node.status());
    let base = if chosen {
        theme.style(Role::Selection)
    } else {
        Style::default()
    };
    let style = |role: Role| base.patch(theme.style(role)).patch(base);
    let label = format!("{}{}", tree_indent(level), node.label);
    let mut spans = vec![
        Span::styled(format!("{icon} "), base.patch(theme.style(icon_role))),
        Span::styled(format!("{} ", pad(&label, cols.label)), style(Role::Text)),
    ];
    if cols.model > 0 {
        spans.push(Span::styled(
            format!("{} ", pad(short_model(&node.model), cols.model)),
            style(Role::Dim),
        ));
    }
    spans.push(Span::styled(
        format!(
            "{} {} {} ",
            rpad(&format_elapsed(node.elapsed(now)), ELAPSED_W),
            rpad(&node.tool_calls().to_string(), TOOLS_W),
            rpad(&format_tokens(node.tokens()), TOKENS_W)
        ),
        style(Role::Text),
    ));
    if cols.cost > 0 {
        spans.push(Span::styled(
            format!("{} ", rpad(&format_cost(node.usage.cost_usd), cols.cost)),
            style(Role::Text),
        ));
    }
    spans.push(Span::styled(
        pad(&node.activity, cols.activity),
        style(Role::Dim),
    ));
    Line::from(spans)
}

/// `anthropic/claude-sonnet-4` → `claude-sonnet-4` (the details view has the full name).
fn short_model(model: &str) -> &str {
    model.rsplit('/').next().unwrap_or(model)
}

fn footer_line(pane: &AgentsPane, width: usize, theme: &Theme) -> Line<'static> {
    match &pane.steer {
        Some(steer) => {
            let prompt = format!("steer {} › ", steer.label);
            let room = width.saturating_sub(display_width(&prompt) + 1);
            // Show the end of a long message, where the cursor is.
            let chars: Vec<char> = steer.text.chars().collect();
            let mut shown = String::new();
            for c in chars.iter().rev() {
                if display_width(&shown) + 1 > room {
                    break;
                }
                shown.insert(0, *c);
            }
            Line::from(vec![
                Span::styled(prompt, theme.style(Role::Prompt)),
                Span::styled(shown, theme.style(Role::Text)),
                Span::styled("▏", theme.style(Role::Accent)),
            ])
        }
        None => {
            let hint = match pane.saved {
                Some(_) => SAVED_KEYS_HINT,
                None => KEYS_HINT,
            };
            Line::styled(truncate(hint, width), theme.style(Role::Dim))
        }
    }
}

#[cfg(test)]
#[path = "agents_view_tests.rs"]
mod tests;
