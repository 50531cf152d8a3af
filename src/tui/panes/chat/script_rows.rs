//! The parts of a tool cell that only calls with insides have: an `execute_code` call's
//! script (Python-highlighted, its first lines when collapsed) and one line per tool call the
//! script made (`↳ 📖 read_file src/a.rs (0.1s)`, the newest ones when collapsed).
//!
//! Pure like the rest of `cells`: (cell, width, expansion, theme) → lines, none wider than
//! `width`.

use ratatui::text::Line;
use ratatui::text::Span;

use super::cells::Expansion;
use super::cells::duration_and_state;
use crate::theme::Role;
use crate::theme::Theme;
use crate::tui::markdown;
use crate::tui::markdown::wrap;
use crate::tui::transcript::ChildCall;
use crate::tui::transcript::ToolCell;

/// Script lines a collapsed cell shows.
pub const CODE_PREVIEW_LINES: usize = 3;
/// Inner calls a collapsed cell shows (the newest).
pub const CHILD_PREVIEW_CALLS: usize = 5;
const INDENT: &str = "  ";

/// `(N lines)` for the header of a cell that shows its script.
pub fn code_size(tool: &ToolCell) -> Option<String> {
    let code = tool.code()?;
    Some(match code.trim_end().lines().count() {
        1 => " (1 line)".to_string(),
        n => format!(" ({n} lines)"),
    })
}

/// The script behind the skin's tool gutter.
pub fn code_rows(
    tool: &ToolCell,
    width: usize,
    expansion: Expansion,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let Some(code) = tool.code() else {
        return Vec::new();
    };
    let code = wrap::sanitize(code.trim_matches('\n')).into_owned();
    let code = code.trim_end();
    let gutter = format!("{INDENT}{} ", theme.tool_prefix.trim());
    let gutter_style = theme.style(Role::ToolPrefix);
    let code_style = theme.style(Role::Code);
    let highlighted = markdown::highlight_code(code, "python", theme).unwrap_or_else(|| {
        code.lines()
            .map(|l| vec![Span::styled(l.to_string(), code_style)])
            .collect()
    });
    let total = highlighted.len();
    let shown = match expansion {
        Expansion::Collapsed => CODE_PREVIEW_LINES.min(total),
        Expansion::Expanded => total,
    };
    let avail = width.saturating_sub(wrap::display_width(&gutter)).max(1);
    let mut lines = Vec::new();
    for spans in highlighted.into_iter().take(shown) {
        let pieces = match expansion {
            Expansion::Collapsed => vec![first_row(&spans, avail)],
            Expansion::Expanded => wrap::hard_wrap(&spans, avail),
        };
        for piece in pieces {
            let mut row = vec![Span::styled(gutter.clone(), gutter_style)];
            row.extend(piece);
            lines.push(Line::from(row));
        }
    }
    if shown < total {
        let more = total - shown;
        let noun = if more == 1 { "line" } else { "lines" };
        let text = format!("{INDENT}… {more} more {noun} of script (Enter to expand)");
        lines.push(dim_line(&text, width, theme));
    }
    lines
}

/// One line per call the script made.
pub fn child_rows(
    tool: &ToolCell,
    width: usize,
    expansion: Expansion,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let kept = tool.children().len();
    let shown = match expansion {
        Expansion::Collapsed => CHILD_PREVIEW_CALLS.min(kept),
        Expansion::Expanded => kept,
    };
    let mut lines = Vec::new();
    let earlier = tool.children_dropped() + (kept - shown);
    if earlier > 0 {
        let noun = if earlier == 1 { "call" } else { "calls" };
        lines.push(dim_line(
            &format!("{INDENT}↳ … {earlier} earlier {noun}"),
            width,
            theme,
        ));
    }
    for child in tool.children().iter().skip(kept - shown) {
        lines.push(child_row(child, width, theme));
    }
    lines
}

fn child_row(child: &ChildCall, width: usize, theme: &Theme) -> Line<'static> {
    let dim = theme.style(Role::Dim);
    let subject = match wrap::sanitize(child.preview.trim()).replace('\n', " ") {
        preview if preview.is_empty() || preview == child.name => child.name.clone(),
        preview => format!("{} {preview}", child.name),
    };
    let mut spans = vec![
        Span::styled(format!("{INDENT}↳ "), dim),
        Span::raw(format!("{} ", theme.tool_emoji(&child.name))),
        Span::styled(subject, theme.style(Role::Tool)),
    ];
    spans.extend(duration_and_state(child.duration_ms, child.state, theme));
    Line::from(first_row(&spans, width))
}

/// `spans` cut to `width` columns.
fn first_row(spans: &[Span<'static>], width: usize) -> Vec<Span<'static>> {
    wrap::hard_wrap(spans, width)
        .into_iter()
        .next()
        .unwrap_or_default()
}

fn dim_line(text: &str, width: usize, theme: &Theme) -> Line<'static> {
    Line::from(Span::styled(
        wrap::truncate(text, width),
        theme.style(Role::Dim),
    ))
}

#[cfg(test)]
#[path = "script_rows_tests.rs"]
mod tests;
