//! Drawing the Goals pane: the empty state, or the goal text, its status (`● active ·
//! judging…`) with a turns-used bar (`[██░░░░░░░░] 3/20 turns`), the numbered subgoals and the
//! judge's verdicts, newest first. While the pane has focus its keys sit in the bottom border
//! (`p pause · c clear · a subgoal`), and `c` puts "Clear the goal? y / n" on the first row.
//!
//! The pane is usually ~39 columns inside and 4–12 rows high. [`desired_height`] says how many
//! rows it would take to show everything (capped at [`MAX_DESIRED_ROWS`]), so the layout can
//! grow it into an idle Subagents pane; whatever height it gets, rows are handed out by
//! priority: the clear prompt, the goal's first line, the status and bar, more of the goal
//! (up to [`MAX_GOAL_ROWS`], leaving two rows for subgoals when there are any), the subgoals
//! (wrapped when they all fit, else one row each under a heading that counts them), then as
//! many verdicts as fit. Whatever is cut ends in `…` or is counted: nothing disappears
//! without a sign.
//!
//! Pure: state, width, theme and focus in, cells out. No keys, no I/O.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::text::Span;
use ratatui::widgets::Paragraph;
use ratatui::widgets::Widget;

use super::goals::ClearPrompt;
use super::goals::GoalsPane;
use super::side::PaneFocus;
use super::side::pane_block;
use crate::protocol::GoalSnapshot;
use crate::protocol::GoalStatus;
use crate::protocol::GoalVerdict;
use crate::protocol::VerdictOutcome;
use crate::theme::Role;
use crate::theme::Theme;
use crate::tui::markdown::wrap::SpanLine;
use crate::tui::markdown::wrap::display_width;
use crate::tui::markdown::wrap::sanitize;
use crate::tui::markdown::wrap::truncate;
use crate::tui::markdown::wrap::wrap_spans;

/// The goal text gets at most this many rows before subgoals and verdicts get any.
pub const MAX_GOAL_ROWS: usize = 4;
/// The most rows (borders included) the pane asks the layout for: a long verdict history
/// should not squeeze the other side panes.
pub const MAX_DESIRED_ROWS: u16 = 14;
const BAR_CELLS: u32 = 10;
/// Borders (top and bottom) around the content.
const FRAME_ROWS: usize = 2;
/// Border and padding columns on each side.
const FRAME_COLS: u16 = 4;
const EMPTY_TITLE: &str = "No standing goal.";
const EMPTY_TEXT: &str =
    "Set one with /goal <text>: the agent works on it across turns until done.";
const CLEAR_PROMPT: &str = "Clear the goal? y / n";

/// The keys the pane takes in its state, for the bottom border.
pub fn key_hint(pane: &GoalsPane) -> &'static str {
    if pane.prompt() == ClearPrompt::Open {
        return "y clear · n keep";
    }
    match pane.status() {
        Some(GoalStatus::Active) => "p pause · c clear · a subgoal",
        Some(GoalStatus::Paused) => "p resume · c clear · a subgoal",
        Some(GoalStatus::Achieved) => "c clear · a new goal",
        Some(GoalStatus::Cleared) | None => "a set a goal",
    }
}

/// Rows the pane wants at `width` columns, borders included: all of its content (the empty
/// state's few lines without a goal), at most [`MAX_DESIRED_ROWS`]. The key hint sits in the
/// border, so focus changes nothing.
pub fn desired_height(pane: &GoalsPane, width: u16) -> u16 {
    let inner = usize::from(width.saturating_sub(FRAME_COLS)).max(1);
    let rows = content(pane, inner, usize::MAX, &Theme::default()).len() + FRAME_ROWS;
    u16::try_from(rows)
        .unwrap_or(u16::MAX)
        .min(MAX_DESIRED_ROWS)
}

pub fn render(pane: &GoalsPane, area: Rect, buf: &mut Buffer, theme: &Theme, focus: PaneFocus) {
    let mut block = pane_block(GoalsPane::TITLE, focus, theme);
    if focus == PaneFocus::Focused {
        let room = usize::from(area.width.saturating_sub(4));
        if room > 0 {
            let hint = format!(" {} ", truncate(key_hint(pane), room.saturating_sub(2)));
            block = block.title_bottom(Line::styled(hint, theme.style(Role::Dim)));
        }
    }
    let inner = block.inner(area);
    block.render(area, buf);
    if inner.width == 0 || inner.height == 0 {
        return;
    }
    let lines = content(
        pane,
        usize::from(inner.width),
        usize::from(inner.height),
        theme,
    );
    Paragraph::new(lines).render(inner, buf);
}

/// The lines to draw in `rows` rows of `width` columns (see the module docs for the order).
fn content(pane: &GoalsPane, width: usize, rows: usize, theme: &Theme) -> Vec<Line<'static>> {
    let Some(goal) = pane.snapshot() else {
        let mut lines = wrapped(EMPTY_TITLE, width, theme.style(Role::Text));
        lines.extend(wrapped(EMPTY_TEXT, width, theme.style(Role::Dim)));
        return lines;
    };
    let mut room = rows;
    let prompt = match pane.prompt() {
        ClearPrompt::Open => wrapped(CLEAR_PROMPT, width, theme.style(Role::Warn)),
        ClearPrompt::Closed => Vec::new(),
    };
    let prompt_n = take(&mut room, prompt.len());
    let text_role = match goal.status {
        GoalStatus::Cleared => Role::Dim,
        GoalStatus::Active | GoalStatus::Paused | GoalStatus::Achieved => Role::Text,
    };
    let goal_rows = wrapped(&one_line(&goal.goal), width, theme.style(text_role));
    let goal_first = take(&mut room, 1);
    let status = status_lines(goal, width, theme);
    let status_n = take(&mut room, status.len());
    // More of the goal, but leaving the subgoals a heading and a row.
    let reserve = if goal.subgoals.is_empty() { 0 } else { 2 };
    let goal_want = goal_rows
        .len()
        .min(MAX_GOAL_ROWS)
        .saturating_sub(goal_first)
        .min(room.saturating_sub(reserve));
    let goal_more = take(&mut room, goal_want);
    let subgoals = subgoal_lines(&goal.subgoals, width, &mut room, theme);
    let verdicts = verdict_lines(&goal.verdicts, width, &mut room, theme);

    let mut lines: Vec<Line<'static>> = prompt.into_iter().take(prompt_n).collect();
    lines.extend(cut(goal_rows, goal_first + goal_more, width));
    lines.extend(status.into_iter().take(status_n));
    lines.extend(subgoals);
    lines.extend(verdicts);
    lines
}

/// Takes up to `want` of the remaining `room`.
fn take(room: &mut usize, want: usize) -> usize {
    let got = want.min(*room);
    *room -= got;
    got
}

/// The first `keep` lines; when some were left out, the last kept one ends in `…`.
fn cut(mut lines: Vec<Line<'static>>, keep: usize, width: usize) -> Vec<Line<'static>> {
    if lines.len() <= keep {
        return lines;
    }
    lines.truncate(keep);
    if let Some(last) = lines.last_mut() {
        let text: String = last.spans.iter().map(|s| s.content.as_ref()).collect();
        let style = last.spans.first().map(|s| s.style).unwrap_or_default();
        *last = Line::styled(truncate(&format!("{text}…"), width), style);
    }
    lines
}

/// `● active · judging…` and the turns bar: on one row when they fit, else two.
fn status_lines(goal: &GoalSnapshot, width: usize, theme: &Theme) -> Vec<Line<'static>> {
    let (mark, role) = match goal.status {
        GoalStatus::Active => ("●", Role::Accent),
        GoalStatus::Paused => ("⏸", Role::Warn),
        GoalStatus::Achieved => ("✓", Role::Ok),
        GoalStatus::Cleared => ("⊘", Role::Dim),
    };
    let mut status = vec![Span::styled(
        format!("{mark} {}", goal.status.label()),
        theme.style(role),
    )];
    if goal.judging {
        status.push(Span::styled(" · judging…", theme.style(Role::Accent)));
    }
    let turns = format!("{}/{} turns", goal.turns_used, goal.max_turns);
    let mut bar = vec![
        Span::styled("[", theme.style(Role::Dim)),
        Span::styled("█".repeat(filled_cells(goal)), theme.style(role)),
        Span::styled(
            "░".repeat(usize_of(BAR_CELLS).saturating_sub(filled_cells(goal))),
            theme.style(Role::Dim),
        ),
        Span::styled("] ", theme.style(Role::Dim)),
        Span::styled(turns.clone(), theme.style(Role::Text)),
    ];
    if spans_width(&bar) > width {
        // Too narrow for the bar: the numbers alone.
        bar = vec![Span::styled(turns, theme.style(Role::Text))];
    }
    let gap = 2;
    if spans_width(&status) + gap + spans_width(&bar) <= width {
        status.push(Span::raw(" ".repeat(gap)));
        status.extend(bar);
        return vec![Line::from(status)];
    }
    vec![fit_line(status, width), fit_line(bar, width)]
}

/// Bar cells for the turns used: rounded, at least one once a turn is used, and full only
/// when the budget is.
fn filled_cells(goal: &GoalSnapshot) -> usize {
    // u64: the products overflow u32 for very large budgets.
    let max = u64::from(goal.max_turns.max(1));
    let used = u64::from(goal.turns_used).min(max);
    let cells = u64::from(BAR_CELLS);
    let filled = match used {
        0 => 0,
        u if u >= max => cells,
        u => ((u * cells * 2 + max) / (max * 2)).clamp(1, cells - 1),
    };
    usize::try_from(filled).unwrap_or(0)
}

/// `Subgoals` and `1. text` rows: wrapped when they all fit in `room`, else one row each under
/// `Subgoals · 2 of 5`. Nothing when there are none or no room for a row.
fn subgoal_lines(
    subgoals: &[String],
    width: usize,
    room: &mut usize,
    theme: &Theme,
) -> Vec<Line<'static>> {
    if subgoals.is_empty() || *room < 2 {
        return Vec::new();
    }
    let heading = |text: String| Line::styled(truncate(&text, width), theme.style(Role::Label));
    let text = theme.style(Role::Text);
    let number_width = subgoals.len().to_string().len() + 2;
    let numbered = |i: usize| format!("{:>w$}", format!("{}.", i + 1), w = number_width - 1);
    let mut full = vec![heading("Subgoals".to_string())];
    for (i, subgoal) in subgoals.iter().enumerate() {
        let rows = wrapped(
            &one_line(subgoal),
            width.saturating_sub(number_width).max(1),
            text,
        );
        for (row, line) in rows.into_iter().enumerate() {
            let lead = if row == 0 {
                format!("{} ", numbered(i))
            } else {
                " ".repeat(number_width)
            };
            let mut spans = vec![Span::styled(lead, theme.style(Role::Dim))];
            spans.extend(line.spans);
            full.push(fit_line(spans, width));
        }
    }
    if full.len() <= *room {
        *room -= full.len();
        return full;
    }
    let shown = (*room - 1).min(subgoals.len());
    let title = match subgoals.len() - shown {
        0 => "Subgoals".to_string(),
        _ => format!("Subgoals · {shown} of {}", subgoals.len()),
    };
    let mut lines = vec![heading(title)];
    for (i, subgoal) in subgoals.iter().enumerate().take(shown) {
        let spans = vec![
            Span::styled(format!("{} ", numbered(i)), theme.style(Role::Dim)),
            Span::styled(one_line(subgoal), text),
        ];
        lines.push(fit_line(spans, width));
    }
    *room -= lines.len();
    lines
}

/// `Verdicts` and one row per verdict, newest first, as many as `room` holds (just the newest,
/// without the heading, when one row is left).
fn verdict_lines(
    verdicts: &[GoalVerdict],
    width: usize,
    room: &mut usize,
    theme: &Theme,
) -> Vec<Line<'static>> {
    if verdicts.is_empty() || *room == 0 {
        return Vec::new();
    }
    // A row of its own says what it is (time, turn, outcome): one row is for it, not a heading.
    let mut lines = Vec::new();
    if *room > 1 {
        lines.push(Line::styled(
            truncate("Verdicts", width),
            theme.style(Role::Label),
        ));
    }
    for verdict in verdicts.iter().rev().take(*room - lines.len()) {
        let role = match verdict.outcome {
            VerdictOutcome::Done => Role::Ok,
            VerdictOutcome::Continue => Role::Accent,
            VerdictOutcome::JudgeError | VerdictOutcome::Unreadable => Role::Warn,
        };
        let spans = vec![
            Span::styled(
                format!("{} #{} ", clock(verdict.at), verdict.turn),
                theme.style(Role::Dim),
            ),
            Span::styled(verdict.outcome.label(), theme.style(role)),
            Span::styled(" · ", theme.style(Role::Dim)),
            Span::styled(one_line(&verdict.reason), theme.style(Role::Text)),
        ];
        lines.push(fit_line(spans, width));
    }
    *room -= lines.len();
    lines
}

/// `HH:MM` (UTC) of a Unix time.
fn clock(at: u64) -> String {
    let minutes = crate::util::time::format_minutes(i64::try_from(at).unwrap_or(i64::MAX));
    match minutes.split_once(' ') {
        Some((_, time)) => time.to_string(),
        None => minutes,
    }
}

/// Text made safe for one row: control characters dropped, newlines as spaces.
fn one_line(text: &str) -> String {
    sanitize(text)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

fn wrapped(text: &str, width: usize, style: ratatui::style::Style) -> Vec<Line<'static>> {
    wrap_spans(&[Span::styled(text.to_string(), style)], width)
        .into_iter()
        .map(Line::from)
        .collect()
}

fn spans_width(spans: &[Span<'_>]) -> usize {
    spans.iter().map(|s| display_width(&s.content)).sum()
}

/// The spans cut to `width` columns, the cut span ending in `…`.
fn fit_line(spans: SpanLine, width: usize) -> Line<'static> {
    if spans_width(&spans) <= width {
        return Line::from(spans);
    }
    let mut out = Vec::new();
    let mut used = 0;
    for span in spans {
        let w = display_width(&span.content);
        if used + w < width {
            used += w;
            out.push(span);
            continue;
        }
        // More follows (or this span is too long): the cut always shows.
        let room = width.saturating_sub(used);
        let cut = truncate(&format!("{}…", span.content), room);
        out.push(Span::styled(cut, span.style));
        break;
    }
    Line::from(out)
}

fn usize_of(n: u32) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
}

#[cfg(test)]
#[path = "goals_view_tests.rs"]
mod tests;
