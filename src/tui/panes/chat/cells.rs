//! Turns one transcript `Cell` into wrapped lines for a width: the look of every cell kind.
//!
//! Pure function of (cell, width, expansion, theme), so the chat pane can cache the result per
//! cell. Does not scroll, select or cache. Invariant: no line is wider than `width`.
//!
//! The skin speaks here: the assistant's label is `branding.response_label`, user messages
//! start with `branding.prompt_symbol`, tool output hangs behind `tool_prefix` and tool
//! headers start with the skin's tool emoji.

use ratatui::style::Style;
use ratatui::text::Line;
use ratatui::text::Span;

use super::script_rows;
use crate::protocol::ErrorKind;
use crate::protocol::GoalProgress;
use crate::protocol::NoticeLevel;
use crate::protocol::ToolStatus;
use crate::theme::Role;
use crate::theme::Theme;
use crate::tui::markdown;
use crate::tui::markdown::wrap;
use crate::tui::markdown::wrap::SpanLine;
use crate::tui::transcript::Cell;
use crate::tui::transcript::TextCell;
use crate::tui::transcript::ToolCell;
use crate::tui::transcript::ToolState;

/// Output lines shown by a collapsed tool cell.
pub const TOOL_PREVIEW_LINES: usize = 3;
/// Reasoning lines shown while reasoning streams (the newest ones).
pub const REASONING_LIVE_LINES: usize = 4;
const INDENT: &str = "  ";

/// Whether an expandable cell (tool, reasoning) shows everything.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Expansion {
    Collapsed,
    Expanded,
}

/// Cells that Enter or a click expand and collapse.
pub fn is_expandable(cell: &Cell) -> bool {
    matches!(cell, Cell::Tool(_) | Cell::Reasoning(_))
}

pub fn render_cell(
    cell: &Cell,
    width: u16,
    expansion: Expansion,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let width = usize::from(width).max(1);
    match cell {
        Cell::User { text, images } => user(text, images, width, theme),
        Cell::Assistant(msg) => assistant(msg, width, theme),
        Cell::Reasoning(reasoning) => self::reasoning(reasoning, width, expansion, theme),
        Cell::Tool(tool) => self::tool(tool, width, expansion, theme),
        Cell::Notice { level, text } => {
            let (mark, role) = match level {
                NoticeLevel::Info => ("ℹ ", Role::Dim),
                NoticeLevel::Warning => ("⚠ ", Role::Warn),
            };
            let style = theme.style(role);
            prefixed(mark, style, &[Span::styled(text.clone(), style)], width)
        }
        Cell::Error { kind, text } => {
            let style = theme.style(Role::Error);
            let body = format!("{}: {text}", error_label(*kind));
            prefixed("✗ ", style, &[Span::styled(body, style)], width)
        }
        Cell::Interrupted { done } => {
            let style = theme.style(Role::Warn);
            let body = if done.trim().is_empty() {
                "interrupted".to_string()
            } else {
                format!("interrupted: {done}")
            };
            prefixed("■ ", style, &[Span::styled(body, style)], width)
        }
        Cell::Info { title, body } => {
            let mut lines = wrap_lines(
                &[Span::styled(title.clone(), theme.style(Role::Heading))],
                width,
            );
            for line in body.lines() {
                let text = wrap::sanitize(line).into_owned();
                lines.extend(prefixed(
                    INDENT,
                    Style::default(),
                    &[Span::raw(text)],
                    width,
                ));
            }
            lines
        }
        Cell::Goal(progress) => goal(progress, width, theme),
    }
}

/// `❯ text` (the skin's prompt symbol), then one dim `📎 …` line per image; an image-only
/// message starts at its first image.
fn user(text: &str, images: &[String], width: usize, theme: &Theme) -> Vec<Line<'static>> {
    let style = theme.style(Role::User);
    let prompt = format!("{} ", theme.branding.prompt_symbol.trim());
    let mut lines = if text.is_empty() && !images.is_empty() {
        Vec::new()
    } else {
        prefixed(
            &prompt,
            style,
            &[Span::styled(text.to_string(), style)],
            width,
        )
    };
    let dim = theme.style(Role::Dim);
    let pad = " ".repeat(wrap::display_width(&prompt));
    for image in images {
        let (marker, marker_style) = if lines.is_empty() {
            (prompt.as_str(), style)
        } else {
            (pad.as_str(), dim)
        };
        let body = Span::styled(format!("📎 {image}"), dim);
        lines.extend(prefixed(marker, marker_style, &[body], width));
    }
    lines
}

/// A goal status line (`⊙ Goal set …`) with its symbol hanging, and the detail (why a goal
/// paused) dimmer below it.
fn goal(progress: &GoalProgress, width: usize, theme: &Theme) -> Vec<Line<'static>> {
    let role = match progress {
        GoalProgress::Set { .. }
        | GoalProgress::Continuing { .. }
        | GoalProgress::Resumed { .. }
        | GoalProgress::Restored { .. } => Role::Accent,
        GoalProgress::Achieved { .. } => Role::Ok,
        GoalProgress::Paused { .. } => Role::Warn,
        GoalProgress::Cleared => Role::Dim,
    };
    let style = theme.style(role);
    let line = progress.line();
    let (mark, body) = match line.split_once(' ') {
        Some((mark, body)) => (format!("{mark} "), body.to_string()),
        None => (String::new(), line.clone()),
    };
    let mut lines = prefixed(&mark, style, &[Span::styled(body, style)], width);
    if let Some(detail) = progress.detail() {
        let dim = theme.style(Role::Dim);
        let pad = " ".repeat(wrap::display_width(&mark));
        lines.extend(prefixed(&pad, dim, &[Span::styled(detail, dim)], width));
    }
    lines
}

fn assistant(msg: &TextCell, width: usize, theme: &Theme) -> Vec<Line<'static>> {
    let label = response_label(theme);
    let label = Span::styled(wrap::truncate(label, width), theme.style(Role::Assistant));
    let mut lines = vec![Line::from(label)];
    let inner = u16::try_from(width.saturating_sub(INDENT.len()).max(1)).unwrap_or(u16::MAX);
    let body = if msg.is_streaming() {
        markdown::render_streaming(&msg.text, inner, theme)
    } else {
        markdown::render(&msg.text, inner, theme)
    };
    if body.is_empty() && msg.is_streaming() {
        lines.push(Line::from(Span::styled("  …", theme.style(Role::Dim))));
    }
    for line in body {
        let mut spans = vec![Span::raw(INDENT)];
        spans.extend(line.spans);
        lines.push(Line::from(spans));
    }
    lines
}

fn reasoning(
    cell: &TextCell,
    width: usize,
    expansion: Expansion,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let style = theme.style(Role::Reasoning);
    let text = if cell.is_streaming() {
        markdown::complete_words(&cell.text)
    } else {
        cell.text.as_str()
    };
    let all: Vec<&str> = text.trim_end().lines().collect();
    let (header, shown): (String, &[&str]) = match (cell.is_streaming(), expansion) {
        (_, Expansion::Expanded) => ("∴ reasoning".to_string(), &all),
        (true, Expansion::Collapsed) => {
            let from = all.len().saturating_sub(REASONING_LIVE_LINES);
            ("∴ reasoning…".to_string(), &all[from..])
        }
        (false, Expansion::Collapsed) => {
            let n = all.len();
            let noun = if n == 1 { "line" } else { "lines" };
            (format!("∴ reasoning ({n} {noun})"), &[])
        }
    };
    let mut lines = vec![Line::from(Span::styled(header, style))];
    for line in shown {
        let text = wrap::sanitize(line).into_owned();
        lines.extend(prefixed(INDENT, style, &[Span::styled(text, style)], width));
    }
    lines
}

fn tool(tool: &ToolCell, width: usize, expansion: Expansion, theme: &Theme) -> Vec<Line<'static>> {
    let dim = theme.style(Role::Dim);
    // A cell that shows its script needs no one-line summary of it.
    let preview = (!tool.preview.trim().is_empty() && tool.code().is_none())
        .then(|| wrap::sanitize(&tool.preview).replace('\n', " "));
    let mut header = vec![Span::raw(format!("{} ", theme.tool_emoji(&tool.name)))];
    match (&tool.mcp, preview) {
        // An MCP tool's emoji is generic, so its own name leads, then the call, then a dim
        // tag naming its server.
        (Some(label), preview) => {
            let mut subject = label.tool.clone();
            if let Some(preview) = preview.filter(|p| p.trim() != tool.name) {
                subject.push(' ');
                subject.push_str(preview.trim());
            }
            header.push(Span::styled(subject, theme.style(Role::Tool)));
            header.push(Span::styled(format!("  {} · MCP", label.server), dim));
        }
        (None, None) => header.push(Span::styled(tool.name.clone(), theme.style(Role::Tool))),
        (None, Some(preview)) => header.push(Span::styled(preview, theme.style(Role::Tool))),
    }
    if let Some(size) = script_rows::code_size(tool) {
        header.push(Span::styled(size, dim));
    }
    header.extend(duration_and_state(tool.duration_ms, tool.state, theme));
    let mut lines = prefixed_spans("", "   ", &header, width);
    lines.extend(script_rows::code_rows(tool, width, expansion, theme));
    lines.extend(script_rows::child_rows(tool, width, expansion, theme));
    let gutter = format!("{INDENT}{} ", theme.tool_prefix.trim());
    let prefix_style = theme.style(Role::ToolPrefix);
    if tool.state == ToolState::Running {
        if let Some(last) = tool.progress.back() {
            lines.push(gutter_line(&gutter, prefix_style, last, width, dim));
        }
        return lines;
    }
    let output = wrap::sanitize(tool.output.trim_end()).into_owned();
    if output.trim().is_empty() {
        return lines;
    }
    let out_style = match tool.state {
        ToolState::Finished(ToolStatus::Error | ToolStatus::Denied) => theme.style(Role::Error),
        _ => dim,
    };
    let total = output.lines().count();
    match expansion {
        Expansion::Collapsed => {
            for line in output.lines().take(TOOL_PREVIEW_LINES) {
                lines.push(gutter_line(&gutter, prefix_style, line, width, out_style));
            }
            if total > TOOL_PREVIEW_LINES {
                let more = total - TOOL_PREVIEW_LINES;
                let noun = if more == 1 { "line" } else { "lines" };
                let text = format!("{INDENT}… {more} more {noun} (Enter to expand)");
                lines.push(Line::from(Span::styled(wrap::truncate(&text, width), dim)));
            }
        }
        Expansion::Expanded => {
            let avail = width.saturating_sub(wrap::display_width(&gutter)).max(1);
            for line in output.lines() {
                for piece in wrap::hard_wrap(&[Span::styled(line.to_string(), out_style)], avail) {
                    let mut spans = vec![Span::styled(gutter.clone(), prefix_style)];
                    spans.extend(piece);
                    lines.push(Line::from(spans));
                }
            }
            if total > TOOL_PREVIEW_LINES {
                let text = format!("{INDENT}(Enter to collapse)");
                lines.push(Line::from(Span::styled(wrap::truncate(&text, width), dim)));
            }
        }
    }
    lines
}

/// ` (0.1s)` and ` ✗ error` / `  running…` after a call's name (nothing for a clean finish).
pub(super) fn duration_and_state(
    duration_ms: Option<u64>,
    state: ToolState,
    theme: &Theme,
) -> Vec<Span<'static>> {
    let dim = theme.style(Role::Dim);
    let mut spans = Vec::new();
    if let Some(ms) = duration_ms {
        spans.push(Span::styled(format!(" ({})", format_duration(ms)), dim));
    }
    let marker = match state {
        ToolState::Running => Some(("  running…", dim)),
        ToolState::Finished(ToolStatus::Ok) => None,
        ToolState::Finished(ToolStatus::Error) => Some((" ✗ error", theme.style(Role::Error))),
        ToolState::Finished(ToolStatus::Denied) => Some((" ⊘ denied", theme.style(Role::Error))),
        ToolState::Finished(ToolStatus::Cancelled) => {
            Some((" ⊘ cancelled", theme.style(Role::Warn)))
        }
    };
    spans.extend(marker.map(|(text, style)| Span::styled(text, style)));
    spans
}

/// One output line behind the gutter (the skin's tool prefix), cut to the width.
fn gutter_line(
    gutter: &str,
    prefix_style: Style,
    text: &str,
    width: usize,
    style: Style,
) -> Line<'static> {
    let avail = width.saturating_sub(wrap::display_width(gutter));
    let text = wrap::truncate(&wrap::sanitize(text), avail);
    Line::from(vec![
        Span::styled(gutter.to_string(), prefix_style),
        Span::styled(text, style),
    ])
}

/// The assistant's label: the skin's `response_label` (` ⚕ Hermes `, written for a panel
/// title, so trimmed here), else its agent name.
pub fn response_label(theme: &Theme) -> &str {
    match theme.branding.response_label.trim() {
        "" => theme.branding.agent_name.trim(),
        label => label,
    }
}

/// `0.1s`, `12.3s`, `2m 05s`.
pub fn format_duration(ms: u64) -> String {
    if ms < 60_000 {
        let tenths = ms.div_ceil(100);
        format!("{}.{}s", tenths / 10, tenths % 10)
    } else {
        let secs = ms / 1000;
        format!("{}m {:02}s", secs / 60, secs % 60)
    }
}

fn error_label(kind: ErrorKind) -> &'static str {
    match kind {
        ErrorKind::EmptyResponse => "empty response",
        ErrorKind::Hang => "stalled",
        ErrorKind::RateLimited => "rate limited",
        ErrorKind::Auth => "authentication",
        ErrorKind::ContextTooLong => "context too long",
        ErrorKind::Transport => "connection",
        ErrorKind::BadResponse => "bad response",
        ErrorKind::Config => "configuration",
        ErrorKind::Internal => "internal error",
    }
}

/// Wraps `spans` behind a first-line marker; continuation lines are indented to match.
fn prefixed(
    marker: &str,
    style: Style,
    spans: &[Span<'static>],
    width: usize,
) -> Vec<Line<'static>> {
    let pad = " ".repeat(wrap::display_width(marker));
    let marker_span = Span::styled(marker.to_string(), style);
    let avail = width.saturating_sub(pad.len()).max(1);
    let mut out = Vec::new();
    for text_line in split_lines(spans) {
        for (i, line) in wrap::wrap_spans(&text_line, avail).into_iter().enumerate() {
            let lead = if out.is_empty() && i == 0 {
                marker_span.clone()
            } else {
                Span::raw(pad.clone())
            };
            let mut all = vec![lead];
            all.extend(line);
            out.push(Line::from(all));
        }
    }
    out
}

fn prefixed_spans(
    first: &str,
    rest: &str,
    spans: &[Span<'static>],
    width: usize,
) -> Vec<Line<'static>> {
    let avail = width.saturating_sub(wrap::display_width(rest)).max(1);
    wrap::wrap_spans(spans, avail)
        .into_iter()
        .enumerate()
        .map(|(i, line)| {
            let lead = if i == 0 { first } else { rest };
            let mut all = vec![Span::raw(lead.to_string())];
            all.extend(line);
            Line::from(all)
        })
        .collect()
}

fn wrap_lines(spans: &[Span<'static>], width: usize) -> Vec<Line<'static>> {
    wrap::wrap_spans(spans, width)
        .into_iter()
        .map(Line::from)
        .collect()
}

/// Splits styled text at newlines (user messages and notices may span several lines).
fn split_lines(spans: &[Span<'static>]) -> Vec<SpanLine> {
    let mut lines: Vec<SpanLine> = vec![Vec::new()];
    for span in spans {
        let text = wrap::sanitize(&span.content).into_owned();
        for (i, part) in text.split('\n').enumerate() {
            if i > 0 {
                lines.push(Vec::new());
            }
            if let Some(line) = lines.last_mut() {
                wrap::push_styled(line, part, span.style);
            }
        }
    }
    lines
}
