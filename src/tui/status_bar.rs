//! The one-line status bar at the bottom of the screen (Hermes `StatusRule`, reference §5.3).
//!
//! Left to right: busy spinner with the skin's face and verb and the elapsed time (or
//! `✓ ready`), `⚠ N approvals · F3` when requests wait while the Approvals pane is not on
//! screen, model, the goal's turns, context tokens, a 10-cell context bar, session duration,
//! token totals and cost; a `YOLO` badge sits at the right edge. The app keeps a [`StatusModel`] (plain data updated from protocol
//! events) and renders it with [`render_status_bar`] or the [`StatusBar`] widget.
//!
//! Progressive disclosure: segments are kept in priority order
//! [`Segment::PRIORITY`] — busy/idle, approvals, YOLO, model, the goal (`⊙ 3/20` active,
//! `⏸ goal` paused, nothing otherwise), context numbers, bar, duration, tokens, cost — and the
//! bar keeps the longest prefix of that list that fits. So as the terminal
//! narrows, cost goes first, then tokens, duration, the bar, the context numbers; the model
//! name is shortened with `…` before it goes. With a typical model name this matches Hermes's
//! thresholds closely (bar from about 72 columns, everything from about 100).
//!
//! Invariants: the rendered line is never wider than the width it was given (it never wraps
//! or overflows), and idle needs no animation ticks: [`next_animation_deadline`] is `None`
//! unless busy. The idle session duration is minute-granular and simply refreshes on the next
//! redraw. This module does not decide *when* to redraw or read any events itself.

use std::time::Duration;
use std::time::Instant;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::text::Span;
use ratatui::widgets::Widget;
use unicode_width::UnicodeWidthStr;

use crate::theme::Role;
use crate::theme::Theme;

mod busy;
mod format;

use format::format_minutes;
pub use format::{bar_role, format_elapsed, format_tokens};

/// How long one spinner frame shows; also the busy redraw cadence.
pub const SPINNER_FRAME: Duration = Duration::from_millis(100);
const SEPARATOR: &str = " │ ";
const BAR_CELLS: u64 = 10;
const YOLO_BADGE: &str = " YOLO ";
/// A model name is shortened, not dropped, while at least this many columns remain for it.
const MIN_MODEL_COLS: usize = 6;

/// What the agent is doing right now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Busy {
    /// Shown after the spinner: `thinking`, `running terminal`, …
    pub verb: String,
    pub since: Instant,
    /// Which of the skin's faces and verbs show: like Hermes, one pick per step (a new
    /// one each time the verb changes), so the bar does not reflow while a step runs.
    pub pick: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum YoloBadge {
    On,
    #[default]
    Off,
}

/// Whether the status bar is drawn at all (`/statusbar` toggles it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Visibility {
    #[default]
    Shown,
    Hidden,
}

/// Everything the status bar shows; the app updates it from protocol events.
#[derive(Debug, Clone, PartialEq)]
pub struct StatusModel {
    pub busy: Option<Busy>,
    pub model: String,
    pub context_tokens: u64,
    /// 0 means unknown: the bar and the `/max` part are left out.
    pub context_window: u64,
    pub session_started: Instant,
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub cost_usd: Option<f64>,
    pub yolo: YoloBadge,
    pub visible: Visibility,
    /// Context compressions so far (`cmp N`).
    pub compressions: u32,
    /// Approval requests waiting while the Approvals pane is not on screen (0: no hint).
    pub hidden_approvals: usize,
    pub goal: GoalBadge,
    /// Voice mode's label (`● REC`, `◉ STT`, `🔊 speaking`, `voice`), when it has one.
    pub voice: Option<&'static str>,
    /// Busy periods started so far: the next one's `Busy::pick`.
    pub busy_picks: usize,
    /// The sandbox's state from the engine (`workspace-write, network on`); empty: hidden.
    pub sandbox: String,
    /// The next scheduled job when one is due within the hour (`⏰ digest 09:00`).
    pub cron: String,
}

/// The standing goal as the bar shows it: `⊙ 3/20` while active, `⏸ goal` while paused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GoalBadge {
    /// No goal, or one that no longer runs (achieved, cleared): nothing shown.
    #[default]
    Hidden,
    Active {
        used: u32,
        max: u32,
    },
    Paused,
}

impl StatusModel {
    /// An idle bar for `model`, with the session starting at `now`.
    pub fn new(model: impl Into<String>, now: Instant) -> Self {
        Self {
            busy: None,
            model: model.into(),
            context_tokens: 0,
            context_window: 0,
            session_started: now,
            input_tokens: 0,
            output_tokens: 0,
            cost_usd: None,
            yolo: YoloBadge::Off,
            visible: Visibility::Shown,
            compressions: 0,
            hidden_approvals: 0,
            goal: GoalBadge::Hidden,
            voice: None,
            busy_picks: 0,
            sandbox: String::new(),
            cron: String::new(),
        }
    }
}

/// The bar's segments, for tests and for callers that want to know what is showing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Segment {
    Busy,
    Approvals,
    Yolo,
    Model,
    Goal,
    Voice,
    Sandbox,
    Cron,
    Context,
    Bar,
    Duration,
    Compressions,
    Tokens,
    Cost,
}

impl Segment {
    /// Most important first; the bar shows the longest prefix that fits.
    pub const PRIORITY: [Segment; 14] = [
        Segment::Busy,
        Segment::Approvals,
        Segment::Yolo,
        Segment::Model,
        Segment::Goal,
        Segment::Voice,
        Segment::Context,
        Segment::Cron,
        Segment::Sandbox,
        Segment::Bar,
        Segment::Duration,
        Segment::Compressions,
        Segment::Tokens,
        Segment::Cost,
    ];
}

/// When the next frame of the busy animation is due: the next spinner-frame boundary while
/// busy, `None` when idle or hidden (idle never ticks).
pub fn next_animation_deadline(model: &StatusModel, now: Instant) -> Option<Instant> {
    if model.visible == Visibility::Hidden {
        return None;
    }
    let busy = model.busy.as_ref()?;
    let frame_ms = SPINNER_FRAME.as_millis();
    let elapsed_ms = now.saturating_duration_since(busy.since).as_millis();
    let next_ms = (elapsed_ms / frame_ms + 1) * frame_ms;
    let next = Duration::from_millis(u64::try_from(next_ms).unwrap_or(u64::MAX));
    busy.since.checked_add(next)
}

/// The segments that fit in `width` columns, in display order.
pub fn visible_segments(model: &StatusModel, now: Instant, width: u16) -> Vec<Segment> {
    plan(model, now, width, &Theme::default())
        .into_iter()
        .map(|piece| piece.segment)
        .collect()
}

/// The status bar as one line no wider than `width`. Empty when hidden.
pub fn render_status_bar(
    model: &StatusModel,
    now: Instant,
    width: u16,
    theme: &Theme,
) -> Line<'static> {
    if model.visible == Visibility::Hidden || width == 0 {
        return Line::default();
    }
    let pieces = plan(model, now, width, theme);
    let mut spans: Vec<Span<'static>> = Vec::new();
    let mut yolo: Vec<Span<'static>> = Vec::new();
    for piece in pieces {
        if piece.segment == Segment::Yolo {
            yolo = piece.spans;
        } else {
            spans.extend(piece.spans);
        }
    }
    if !yolo.is_empty() {
        // The badge sits at the right edge; the gap is plain bar background.
        let used = spans_width(&spans) + spans_width(&yolo);
        let gap = usize::from(width).saturating_sub(used);
        spans.push(Span::styled(" ".repeat(gap), theme.style(Role::StatusBar)));
        spans.extend(yolo);
    }
    Line::from(truncate_spans(spans, usize::from(width))).style(theme.style(Role::StatusBar))
}

/// Widget wrapper: fills its (first) row with the bar background and draws the line.
pub struct StatusBar<'a> {
    pub model: &'a StatusModel,
    pub now: Instant,
    pub theme: &'a Theme,
}

impl<'a> StatusBar<'a> {
    pub fn new(model: &'a StatusModel, now: Instant, theme: &'a Theme) -> Self {
        Self { model, now, theme }
    }
}

impl Widget for StatusBar<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        if area.is_empty() || self.model.visible == Visibility::Hidden {
            return;
        }
        let row = Rect { height: 1, ..area };
        buf.set_style(row, self.theme.style(Role::StatusBar));
        render_status_bar(self.model, self.now, row.width, self.theme).render(row, buf);
    }
}

struct Piece {
    segment: Segment,
    spans: Vec<Span<'static>>,
}

/// Chooses the segments (longest fitting prefix of the priority list) and builds their spans,
/// separators included, in display order.
fn plan(model: &StatusModel, now: Instant, width: u16, theme: &Theme) -> Vec<Piece> {
    let width = usize::from(width);
    let mut used = 0;
    let mut pieces = Vec::new();
    for segment in Segment::PRIORITY {
        let Some(mut spans) = segment_spans(segment, model, now, theme) else {
            continue;
        };
        // Every segment after the first is joined with a separator (YOLO with a gap).
        let lead = match segment {
            Segment::Busy => 0,
            Segment::Yolo => 1,
            _ => SEPARATOR.len_width(),
        };
        let need = lead + spans_width(&spans);
        if used + need > width {
            let room = width.saturating_sub(used + lead);
            if segment == Segment::Model && room >= MIN_MODEL_COLS {
                spans = truncate_spans(spans, room);
            } else if segment == Segment::Busy {
                spans = truncate_spans(spans, width);
            } else {
                break;
            }
        }
        used += lead + spans_width(&spans);
        if !matches!(segment, Segment::Busy | Segment::Yolo) {
            spans.insert(0, Span::styled(SEPARATOR, theme.style(Role::StatusBarDim)));
        }
        pieces.push(Piece { segment, spans });
    }
    // Display order is priority order, except YOLO, which the renderer moves to the right.
    pieces
}

fn segment_spans(
    segment: Segment,
    m: &StatusModel,
    now: Instant,
    theme: &Theme,
) -> Option<Vec<Span<'static>>> {
    let text = theme.style(Role::StatusBar);
    let strong = theme.style(Role::StatusBarStrong);
    let dim = theme.style(Role::StatusBarDim);
    let spans = match segment {
        Segment::Busy => match &m.busy {
            // The skin's spinner, face and verb (see `busy`).
            Some(busy) => busy::spans(busy, now, theme),
            None => vec![
                Span::styled(" ✓ ", theme.style(Role::StatusBarGood)),
                Span::styled("ready", text),
            ],
        },
        Segment::Approvals => match m.hidden_approvals {
            0 => return None,
            1 => vec![Span::styled(
                "⚠ 1 approval · F3",
                theme.style(Role::StatusBarWarn),
            )],
            n => vec![Span::styled(
                format!("⚠ {n} approvals · F3"),
                theme.style(Role::StatusBarWarn),
            )],
        },
        Segment::Yolo => match m.yolo {
            YoloBadge::On => vec![Span::styled(YOLO_BADGE, theme.style(Role::Badge))],
            YoloBadge::Off => return None,
        },
        Segment::Model if m.model.is_empty() => return None,
        Segment::Model => vec![Span::styled(m.model.clone(), strong)],
        Segment::Goal => match m.goal {
            GoalBadge::Hidden => return None,
            GoalBadge::Active { used, max } => {
                vec![Span::styled(format!("⊙ {used}/{max}"), strong)]
            }
            GoalBadge::Paused => vec![Span::styled("⏸ goal", theme.style(Role::StatusBarWarn))],
        },
        Segment::Voice => {
            let label = m.voice?;
            // Recording is the one state the user must never miss.
            let role = if label.starts_with('●') {
                Role::StatusBarBad
            } else {
                Role::StatusBarStrong
            };
            vec![Span::styled(label, theme.style(role))]
        }
        Segment::Sandbox => sandbox_spans(&m.sandbox, theme)?,
        Segment::Cron if m.cron.is_empty() => return None,
        Segment::Cron => vec![Span::styled(m.cron.clone(), text)],
        Segment::Context => {
            let used = format_tokens(m.context_tokens);
            let label = match m.context_window {
                0 => format!("ctx {used}"),
                max => format!("ctx {used}/{}", format_tokens(max)),
            };
            vec![Span::styled(label, text)]
        }
        Segment::Bar => {
            let pct = context_percent(m)?;
            let filled = (pct.min(100) + 5) / BAR_CELLS;
            let role = bar_role(pct);
            vec![
                Span::styled("[", dim),
                Span::styled("█".repeat(to_usize(filled)), theme.style(role)),
                Span::styled("░".repeat(to_usize(BAR_CELLS - filled)), dim),
                Span::styled("] ", dim),
                Span::styled(format!("{pct}%"), theme.style(role)),
            ]
        }
        Segment::Duration => {
            let minutes = now.saturating_duration_since(m.session_started).as_secs() / 60;
            vec![Span::styled(format_minutes(minutes), dim)]
        }
        // Hermes's `cmp N`: shown once the conversation has been compressed; warn from 5,
        // error from 10 (the model is working from summaries of summaries).
        Segment::Compressions if m.compressions == 0 => return None,
        Segment::Compressions => {
            let role = match m.compressions {
                10.. => Role::StatusBarCritical,
                5.. => Role::StatusBarWarn,
                _ => Role::StatusBarDim,
            };
            vec![Span::styled(
                format!("cmp {}", m.compressions),
                theme.style(role),
            )]
        }
        Segment::Tokens => vec![Span::styled(
            format!(
                "↑{} ↓{}",
                format_tokens(m.input_tokens),
                format_tokens(m.output_tokens)
            ),
            text,
        )],
        Segment::Cost => vec![Span::styled(format!("${:.4}", m.cost_usd?), text)],
    };
    Some(spans)
}

/// `sandbox: workspace-write · net off`; a warning when it is unavailable, dim when off.
fn sandbox_spans(state: &str, theme: &Theme) -> Option<Vec<Span<'static>>> {
    let span = match state {
        "" => return None,
        "off" => Span::styled("sandbox off", theme.style(Role::StatusBarDim)),
        s if s.starts_with("unavailable") => {
            Span::styled("sandbox unavailable", theme.style(Role::StatusBarWarn))
        }
        s => {
            let short = s.replace(", network ", " · net ");
            let short = short.split(" (").next().unwrap_or(&short).to_string();
            Span::styled(format!("sandbox: {short}"), theme.style(Role::StatusBarDim))
        }
    };
    Some(vec![span])
}

/// Context use in whole percent (may exceed 100), or `None` when the window is unknown.
fn context_percent(m: &StatusModel) -> Option<u64> {
    (m.context_window > 0).then(|| m.context_tokens.saturating_mul(100) / m.context_window)
}

fn to_usize(n: u64) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
}

trait LenWidth {
    fn len_width(&self) -> usize;
}

impl LenWidth for str {
    fn len_width(&self) -> usize {
        UnicodeWidthStr::width(self)
    }
}

fn spans_width(spans: &[Span<'_>]) -> usize {
    spans.iter().map(|s| s.content.len_width()).sum()
}

/// Cuts `spans` to at most `max` columns; a cut span ends in `…`.
fn truncate_spans(spans: Vec<Span<'static>>, max: usize) -> Vec<Span<'static>> {
    if spans_width(&spans) <= max {
        return spans;
    }
    let mut out = Vec::new();
    let mut used = 0;
    for span in spans {
        let w = span.content.len_width();
        if used + w <= max.saturating_sub(1) {
            used += w;
            out.push(span);
            continue;
        }
        let room = max.saturating_sub(used + 1);
        let mut cut = String::new();
        let mut cut_width = 0;
        for ch in span.content.chars() {
            let cw = unicode_width::UnicodeWidthChar::width(ch).unwrap_or(0);
            if cut_width + cw > room {
                break;
            }
            cut_width += cw;
            cut.push(ch);
        }
        if max > used {
            cut.push('…');
        }
        out.push(Span::styled(cut, span.style));
        break;
    }
    out
}

#[cfg(test)]
#[path = "status_bar_tests.rs"]
mod tests;
