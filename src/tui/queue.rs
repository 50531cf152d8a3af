//! Messages queued while the agent works (Tab in the composer, or `/queue`), drawn above the
//! composer as dim lines `⋯ queued 1: text…`.
//!
//! This is plain state plus a renderer: the app pushes, sends `pop_front` when a turn ends and
//! moves `take_last` back into the composer when the user presses ↑ on an empty draft. It does
//! not talk to the engine.
//!
//! Invariants: items are kept in send order; each renders as exactly one row (newlines folded,
//! long text cut with `…`); at most `MAX_ROWS` rows are drawn, the last saying how many more.

use std::collections::VecDeque;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use unicode_width::UnicodeWidthChar;

use crate::theme::Role;
use crate::theme::Theme;

/// The most rows the queue view takes; beyond this the last row summarises the rest.
pub const MAX_ROWS: usize = 5;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct QueuedMessages {
    items: VecDeque<String>,
}

impl QueuedMessages {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn push(&mut self, text: impl Into<String>) {
        self.items.push_back(text.into());
    }

    /// The next message to send.
    pub fn pop_front(&mut self) -> Option<String> {
        self.items.pop_front()
    }

    /// Removes the newest message (to edit it in the composer).
    pub fn take_last(&mut self) -> Option<String> {
        self.items.pop_back()
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    pub fn items(&self) -> impl ExactSizeIterator<Item = &str> {
        self.items.iter().map(String::as_str)
    }

    pub fn clear(&mut self) {
        self.items.clear();
    }

    /// Rows the view wants: one per item, capped at `MAX_ROWS`; 0 when empty.
    pub fn desired_height(&self) -> u16 {
        u16::try_from(self.items.len().min(MAX_ROWS)).unwrap_or(0)
    }

    pub fn render(&self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        let rows = usize::from(area.height).min(MAX_ROWS);
        if rows == 0 || self.items.is_empty() {
            return;
        }
        let overflow = self.items.len() > rows;
        let shown = if overflow { rows - 1 } else { rows };
        let style = theme.style(Role::Dim);
        let width = usize::from(area.width);
        let mut y = area.y;
        for (i, item) in self.items.iter().take(shown).enumerate() {
            let line = fit(&format!("⋯ queued {}: {}", i + 1, fold(item)), width);
            buf.set_stringn(area.x, y, &line, width, style);
            y += 1;
        }
        if overflow {
            let more = self.items.len() - shown;
            let line = fit(&format!("⋯ and {more} more queued"), width);
            buf.set_stringn(area.x, y, &line, width, style);
        }
    }
}

/// One line: whitespace runs (including newlines) become single spaces. Only the start of a
/// long message matters for a one-row preview, so this stops early.
fn fold(text: &str) -> String {
    const PREVIEW_CHARS: usize = 512;
    let mut out = String::new();
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
        if out.len() > PREVIEW_CHARS {
            break;
        }
    }
    out
}

/// Cuts `text` to `width` columns, ending with `…` when it had to cut.
pub(crate) fn fit(text: &str, width: usize) -> String {
    let total: usize = text.chars().map(|c| c.width().unwrap_or(0)).sum();
    if total <= width {
        return text.to_owned();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = c.width().unwrap_or(0);
        if used + w + 1 > width {
            break;
        }
        used += w;
        out.push(c);
    }
    if width > 0 {
        out.push('…');
    }
    out
}

#[cfg(test)]
#[path = "queue_tests.rs"]
mod tests;
