//! Messages queued while the agent works (Tab in the composer, or `/queue`), drawn above the
//! composer as dim lines `⋯ queued 1: text…`.
//!
//! This is plain state plus a renderer: the app pushes, sends `pop_front` when a turn ends and
//! moves `take_last` back into the composer when the user presses ↑ on an empty draft. It does
//! not talk to the engine.
//!
//! A queued message keeps the images that were attached when it was queued; its row says how
//! many (`⋯ queued 1: 📎×2 text…`).
//!
//! Invariants: items are kept in send order; each renders as exactly one row (newlines folded,
//! long text cut with `…`); at most `MAX_ROWS` rows are drawn, the last saying how many more.

use std::collections::VecDeque;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use unicode_width::UnicodeWidthChar;

use crate::protocol::ImageAttachment;
use crate::theme::Role;
use crate::theme::Theme;

/// The most rows the queue view takes; beyond this the last row summarises the rest.
pub const MAX_ROWS: usize = 5;

/// A message waiting for the current turn to end, with the images it carries.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct QueuedMessage {
    pub text: String,
    pub images: Vec<ImageAttachment>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct QueuedMessages {
    items: VecDeque<QueuedMessage>,
}

impl QueuedMessages {
    pub fn new() -> Self {
        Self::default()
    }

    /// Queues a text-only message.
    pub fn push(&mut self, text: impl Into<String>) {
        self.push_message(QueuedMessage {
            text: text.into(),
            images: Vec::new(),
        });
    }

    pub fn push_message(&mut self, message: QueuedMessage) {
        self.items.push_back(message);
    }

    /// The next message to send.
    pub fn pop_front(&mut self) -> Option<QueuedMessage> {
        self.items.pop_front()
    }

    /// Removes the newest message (to edit it in the composer).
    pub fn take_last(&mut self) -> Option<QueuedMessage> {
        self.items.pop_back()
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The queued texts, in send order.
    pub fn items(&self) -> impl ExactSizeIterator<Item = &str> {
        self.items.iter().map(|m| m.text.as_str())
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
            let images = match item.images.len() {
                0 => String::new(),
                n => format!("📎×{n} "),
            };
            let text = format!("⋯ queued {}: {images}{}", i + 1, fold(&item.text));
            let line = fit(&text, width);
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
