//! The status bar's busy indicator, in the skin's voice: the braille spinner (inside the
//! skin's wings, when it has some), a kaomoji face, the verb and the elapsed time —
//! ` ⠋ (｡•́︿•̀｡) pondering… 12s`.
//!
//! While the model thinks, the skin's thinking faces and verbs show; while it writes or a
//! tool runs, a waiting face and what is happening (`writing`, `running terminal`). As in
//! Hermes, the face, verb and wings are picked once per step (`Busy::pick`), not animated:
//! only the spinner frame moves, on the redraws it already asks for
//! (`next_animation_deadline`), so the bar never reflows mid-step and needs no timer of its
//! own. Pure: same inputs, same spans.

use std::time::Instant;

use ratatui::text::Span;

use super::Busy;
use super::SPINNER_FRAME;
use super::format_elapsed;
use crate::theme::Role;
use crate::theme::Theme;

/// Braille spinner frames; one frame per [`SPINNER_FRAME`].
const SPINNER: [&str; 10] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
/// The verb the app sets while waiting for the model; the skin's thinking verbs replace it.
const THINKING: &str = "thinking";
const REASONING: &str = "reasoning";

/// The busy segment's spans at `now`.
pub fn spans(busy: &Busy, now: Instant, theme: &Theme) -> Vec<Span<'static>> {
    let strong = theme.style(Role::StatusBarStrong);
    let text = theme.style(Role::StatusBar);
    let elapsed = now.saturating_duration_since(busy.since);
    let frame = elapsed.as_millis() / SPINNER_FRAME.as_millis() % SPINNER.len() as u128;
    let spinner = SPINNER[usize::try_from(frame).unwrap_or(0)];
    let turn = busy.pick;
    let spinner = match theme.wings(turn) {
        Some((left, right)) => format!(" {left} {spinner} {right} "),
        None => format!(" {spinner} "),
    };
    let thinking = busy.verb == THINKING || busy.verb == REASONING;
    let face = if thinking {
        theme.thinking_face(turn)
    } else {
        theme.waiting_face(turn)
    };
    let verb = match theme.spinner_verb(turn) {
        skin_verb if busy.verb == THINKING && !skin_verb.is_empty() => skin_verb,
        _ => busy.verb.as_str(),
    };
    let mut out = vec![Span::styled(spinner, strong)];
    if !face.is_empty() {
        out.push(Span::styled(format!("{face} "), strong));
    }
    out.push(Span::styled(
        format!("{verb}… {}", format_elapsed(elapsed)),
        text,
    ));
    out
}
