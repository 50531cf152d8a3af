//! Drawing the Approvals pane: the empty state, or the queue of requests (one row each when
//! more than one waits), the selected request in full — who asks, the command (shell
//! highlighted) or path, why it was flagged, where it runs, the countdown — then its answers
//! as `[key] label` chips (the one Enter gives highlighted while the pane has focus) and the
//! key legend.
//!
//! Everything is pre-wrapped to the inner width, so `desired_height` is exact and the layout
//! can grow the pane to fit. When the pane is shorter than that, the answers and legend are
//! kept and the rest is cut from the top of its priority: the queue list goes first, then the
//! detail from its end (countdown, directory, reason, then command lines).
//!
//! Pure: state, width, theme, focus and `now` in, cells out. No keys, no I/O.

use std::time::Duration;
use std::time::Instant;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::text::Span;
use ratatui::widgets::Paragraph;
use ratatui::widgets::Widget;
use ratatui::widgets::Wrap;

use super::approvals::ApprovalsPane;
use super::approvals::PendingApproval;
use super::approvals::choice_key;
use super::approvals::choice_label;
use super::side::PaneFocus;
use super::side::pane_block;
use crate::protocol::ApprovalKind;
use crate::theme::Role;
use crate::theme::Theme;
use crate::tui::markdown::wrap::SpanLine;
use crate::tui::markdown::wrap::display_width;
use crate::tui::markdown::wrap::hard_wrap;
use crate::tui::markdown::wrap::sanitize;
use crate::tui::markdown::wrap::truncate;
use crate::tui::markdown::wrap::wrap_spans;
use crate::tui::status_bar::format_elapsed;

/// Command lines shown before "… N more lines".
pub const MAX_SUBJECT_ROWS: usize = 12;
/// Queue rows shown (scrolled to keep the selected one visible).
pub const MAX_QUEUE_ROWS: usize = 4;
/// Agent names are cut to this many columns in the queue list.
const AGENT_COLS: usize = 12;
/// Below this many seconds left the countdown turns to the warning role.
const URGENT_SECS: u64 = 10;
const EMPTY_TEXT: &str = "Nothing waiting for approval — risky commands will ask here";
/// Borders (top and bottom) around the content.
const FRAME_ROWS: usize = 2;
/// Border and padding columns on each side.
const FRAME_COLS: u16 = 4;

/// Whether the whole command fit in the pane (else `v` shows it all).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SubjectFit {
    Whole,
    Cut,
}

/// The pane's content in its parts, already wrapped.
struct Content {
    queue: Vec<Line<'static>>,
    detail: Vec<Line<'static>>,
    bottom: Vec<Line<'static>>,
}

impl Content {
    fn rows(&self) -> usize {
        self.queue.len() + self.detail.len() + self.bottom.len()
    }

    /// The lines to draw in `rows` rows, cut by priority (see the module docs).
    fn fit(self, rows: usize) -> Vec<Line<'static>> {
        let Content {
            queue,
            mut detail,
            mut bottom,
        } = self;
        if bottom.len() >= rows {
            bottom.truncate(rows);
            return bottom;
        }
        let room = rows - bottom.len();
        let mut lines = Vec::with_capacity(rows);
        if queue.len() + detail.len() <= room {
            lines.extend(queue);
        } else if detail.len() > room {
            detail.truncate(room.saturating_sub(1));
            detail.push(Line::from("…"));
        }
        lines.extend(detail);
        lines.append(&mut bottom);
        lines
    }
}

/// Rows the pane wants at `width` columns, borders included.
pub fn desired_height(pane: &ApprovalsPane, width: u16, now: Instant) -> u16 {
    let inner = usize::from(width.saturating_sub(FRAME_COLS)).max(1);
    let rows = if pane.is_empty() {
        // The empty text, wrapped.
        wrap_spans(&[Span::raw(EMPTY_TEXT)], inner).len()
    } else {
        let theme = Theme::default();
        content(pane, inner, &theme, PaneFocus::Focused, now).rows()
    };
    u16::try_from(rows + FRAME_ROWS).unwrap_or(u16::MAX)
}

pub fn render(
    pane: &ApprovalsPane,
    area: Rect,
    buf: &mut Buffer,
    theme: &Theme,
    focus: PaneFocus,
    now: Instant,
) {
    let title = match pane.pending_count() {
        0 | 1 => ApprovalsPane::TITLE.to_string(),
        n => format!(
            "{} · {} of {n}",
            ApprovalsPane::TITLE,
            pane.selected_index() + 1
        ),
    };
    let block = pane_block(&title, focus, theme);
    if pane.is_empty() {
        Paragraph::new(Line::styled(EMPTY_TEXT, theme.style(Role::Text)))
            .wrap(Wrap { trim: true })
            .block(block)
            .render(area, buf);
        return;
    }
    let inner = block.inner(area);
    let lines = content(pane, usize::from(inner.width).max(1), theme, focus, now)
        .fit(usize::from(inner.height));
    Paragraph::new(lines).block(block).render(area, buf);
}

fn content(
    pane: &ApprovalsPane,
    width: usize,
    theme: &Theme,
    focus: PaneFocus,
    now: Instant,
) -> Content {
    let Some(selected) = pane.selected() else {
        return Content {
            queue: Vec::new(),
            detail: Vec::new(),
            bottom: Vec::new(),
        };
    };
    let queue = if pane.pending_count() > 1 {
        let mut rows = queue_rows(pane, width, theme, now);
        rows.push(Line::styled("─".repeat(width), theme.style(Role::Border)));
        rows
    } else {
        Vec::new()
    };
    let (detail, fit) = detail(selected, width, theme, now);
    let mut bottom = choice_rows(selected, width, theme, focus);
    bottom.extend(legend(pane, width, theme, focus, fit));
    Content {
        queue,
        detail,
        bottom,
    }
}

/// One row per queued request: marker, agent, what it asks, seconds left.
fn queue_rows(
    pane: &ApprovalsPane,
    width: usize,
    theme: &Theme,
    now: Instant,
) -> Vec<Line<'static>> {
    let agent_cols = pane
        .pending()
        .iter()
        .map(|p| display_width(&p.request.agent))
        .max()
        .unwrap_or(0)
        .min(AGENT_COLS);
    let first = pane
        .selected_index()
        .saturating_sub(MAX_QUEUE_ROWS.saturating_sub(1));
    pane.pending()
        .iter()
        .enumerate()
        .skip(first)
        .take(MAX_QUEUE_ROWS)
        .map(|(i, p)| {
            let is_selected = i == pane.selected_index();
            let marker = if is_selected { "▸ " } else { "  " };
            let agent = truncate(&p.request.agent, agent_cols);
            let pad = agent_cols.saturating_sub(display_width(&agent));
            let left = p
                .seconds_left(now)
                .map(|s| format!(" {}", format_elapsed(Duration::from_secs(s))))
                .unwrap_or_default();
            let used = 2 + agent_cols + 1 + display_width(&left);
            let summary = truncate(&sanitize(&p.summary()), width.saturating_sub(used));
            let gap = width.saturating_sub(used + display_width(&summary));
            let text = format!(
                "{marker}{agent}{} {summary}{}{left}",
                " ".repeat(pad),
                " ".repeat(gap)
            );
            let role = if is_selected {
                Role::Selection
            } else {
                Role::Dim
            };
            Line::styled(truncate(&text, width), theme.style(role))
        })
        .collect()
}

/// The selected request in full; also whether its subject had to be cut.
fn detail(
    p: &PendingApproval,
    width: usize,
    theme: &Theme,
    now: Instant,
) -> (Vec<Line<'static>>, SubjectFit) {
    let request = &p.request;
    let accent = theme.style(Role::Accent);
    let text = theme.style(Role::Text);
    let mut who = if request.agent == "main" {
        vec![Span::styled("main agent", accent)]
    } else {
        vec![
            Span::styled("subagent ", text),
            Span::styled(request.agent.clone(), accent),
        ]
    };
    // A call from an `execute_code` script says so: the user did not see the model ask.
    if let Some(via) = &request.via {
        who.push(Span::styled(format!(" via {via}"), theme.style(Role::Dim)));
    }
    let (header, reason) = match request.kind {
        ApprovalKind::Command => {
            who.push(Span::styled(" wants to run", text));
            (who, request.reason.clone())
        }
        ApprovalKind::FileWrite => {
            who.push(Span::styled(" wants to write", text));
            (who, request.reason.clone())
        }
        ApprovalKind::HookConsent => {
            let mut header = vec![
                Span::styled("Run hook on ", text),
                Span::styled(request.reason.clone(), accent),
            ];
            if request.agent != "main" {
                header.push(Span::styled(" for ", text));
                header.extend(who.into_iter().skip(1));
            }
            (header, "first run of a configured shell hook".to_string())
        }
    };
    let mut lines = to_lines(wrap_spans(&header, width));
    let (subject, fit) = subject_rows(p, width, theme);
    lines.extend(subject);
    lines.extend(labelled("why ", &reason, width, theme));
    if !request.cwd.is_empty() {
        lines.extend(labelled("in  ", &request.cwd, width, theme));
    }
    if let Some(secs) = p.seconds_left(now) {
        let (words, role) = match secs {
            0 => ("timing out…".to_string(), Role::Warn),
            s if s <= URGENT_SECS => (format!("times out in {s}s"), Role::Warn),
            s => (
                format!("times out in {}", format_elapsed(Duration::from_secs(s))),
                Role::Dim,
            ),
        };
        lines.push(Line::styled(truncate(&words, width), theme.style(role)));
    }
    (lines, fit)
}

/// The command (shell highlighted, `$ ` first) or the path, wrapped and capped at
/// `MAX_SUBJECT_ROWS`; also whether it was cut.
fn subject_rows(
    p: &PendingApproval,
    width: usize,
    theme: &Theme,
) -> (Vec<Line<'static>>, SubjectFit) {
    let subject = sanitize(&p.request.subject).into_owned();
    let code = theme.style(Role::Code);
    let (prefix, source_lines): (&str, Vec<Vec<Span<'static>>>) = match p.request.kind {
        ApprovalKind::Command | ApprovalKind::HookConsent => {
            let highlighted = crate::tui::markdown::highlight_code(&subject, "bash", theme)
                .filter(|lines| lines.len() == subject.lines().count());
            let plain = || {
                subject
                    .lines()
                    .map(|l| vec![Span::styled(l.to_string(), code)])
                    .collect()
            };
            ("$ ", highlighted.unwrap_or_else(plain))
        }
        ApprovalKind::FileWrite => (
            "",
            subject
                .lines()
                .map(|l| vec![Span::styled(l.to_string(), code)])
                .collect(),
        ),
    };
    let indent = " ".repeat(prefix.len());
    let room = width.saturating_sub(prefix.len()).max(1);
    let mut rows: Vec<SpanLine> = Vec::new();
    for spans in &source_lines {
        for mut row in hard_wrap(spans, room) {
            let lead = if rows.is_empty() {
                prefix
            } else {
                indent.as_str()
            };
            if !lead.is_empty() {
                row.insert(0, Span::styled(lead.to_string(), theme.style(Role::Dim)));
            }
            rows.push(row);
        }
    }
    let total = rows.len();
    if total <= MAX_SUBJECT_ROWS {
        return (to_lines(rows), SubjectFit::Whole);
    }
    rows.truncate(MAX_SUBJECT_ROWS - 1);
    let more = format!("… {} more lines", total - rows.len());
    let mut lines = to_lines(rows);
    lines.push(Line::styled(truncate(&more, width), theme.style(Role::Dim)));
    (lines, SubjectFit::Cut)
}

/// `why reason` / `in  /path`, wrapped under the label.
fn labelled(label: &str, value: &str, width: usize, theme: &Theme) -> Vec<Line<'static>> {
    let spans = [
        Span::styled(label.to_string(), theme.style(Role::Label)),
        Span::styled(sanitize(value).into_owned(), theme.style(Role::Text)),
    ];
    to_lines(wrap_spans(&spans, width))
}

/// The answers as `[y] Allow once` chips, wrapped as whole chips.
fn choice_rows(
    p: &PendingApproval,
    width: usize,
    theme: &Theme,
    focus: PaneFocus,
) -> Vec<Line<'static>> {
    let mut rows: Vec<SpanLine> = vec![Vec::new()];
    let mut used = 0;
    for (i, decision) in p.request.choices.iter().enumerate() {
        let key = format!("[{}]", choice_key(*decision));
        let label = format!(" {}", choice_label(*decision));
        let chip_width = display_width(&key) + display_width(&label);
        let sep = if used == 0 { 0 } else { 2 };
        if used > 0 && used + sep + chip_width > width {
            rows.push(Vec::new());
            used = 0;
        } else if sep > 0 {
            if let Some(row) = rows.last_mut() {
                row.push(Span::raw("  "));
            }
            used += sep;
        }
        let highlighted = i == p.choice && focus == PaneFocus::Focused;
        let (key_style, label_style) = if highlighted {
            let current = theme.style(Role::MenuCurrent);
            (current, current)
        } else {
            (theme.style(Role::Accent), theme.style(Role::Text))
        };
        if let Some(row) = rows.last_mut() {
            row.push(Span::styled(key, key_style));
            row.push(Span::styled(label, label_style));
        }
        used += chip_width;
    }
    rows.into_iter()
        .filter(|row| !row.is_empty())
        .map(Line::from)
        .collect()
}

fn legend(
    pane: &ApprovalsPane,
    width: usize,
    theme: &Theme,
    focus: PaneFocus,
    fit: SubjectFit,
) -> Vec<Line<'static>> {
    let text = match focus {
        PaneFocus::Unfocused => {
            return vec![Line::styled(
                truncate("F3 to answer", width),
                theme.style(Role::Warn),
            )];
        }
        PaneFocus::Focused => {
            let mut parts = vec!["←→ Enter choose", "Esc deny"];
            if pane.pending_count() > 1 {
                parts.push("↑↓ request");
            }
            if fit == SubjectFit::Cut {
                parts.push("v show all");
            }
            parts.join(" · ")
        }
    };
    to_lines(wrap_spans(
        &[Span::styled(text, theme.style(Role::Dim))],
        width,
    ))
}

fn to_lines(rows: Vec<SpanLine>) -> Vec<Line<'static>> {
    rows.into_iter().map(Line::from).collect()
}
