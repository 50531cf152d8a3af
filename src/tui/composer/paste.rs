//! Large pastes as atomic placeholders. A paste over `LARGE_PASTE_CHARS` characters is kept
//! here and only its label (`[Pasted 40 lines]`, `[Pasted 1500 chars]`, `… #2` when repeated)
//! goes into the editor; `expand` puts the full text back at submit time. This keeps a 10 MB
//! paste out of the textarea (which re-measures lines on every keystroke).
//!
//! The label is plain text in the editor, so typing around it needs no special casing; the
//! composer keeps it atomic by deleting it whole (Backspace/Delete/word deletes next to it) and
//! by never leaving the cursor inside it. A label the user has mangled is no longer found and
//! stays literal text.
//!
//! Large pastes are stored as received and their newlines normalised only when expanded: that
//! scan is the one per-byte cost left, and paying it at submit keeps the paste itself instant.
//!
//! Invariants: labels are unique among the live pastes; pastes stay until `clear` (so undo can
//! bring a deleted label back with its content).

use std::borrow::Cow;

/// Pastes with more characters than this become placeholders.
pub const LARGE_PASTE_CHARS: usize = 1000;

#[derive(Debug, Clone, PartialEq, Eq)]
struct Paste {
    label: String,
    text: String,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PendingPastes {
    items: Vec<Paste>,
}

/// `\r\n` and lone `\r` become `\n` (iTerm2 and others send CR for newlines).
pub fn normalise_newlines(text: &str) -> Cow<'_, str> {
    if !text.contains('\r') {
        return Cow::Borrowed(text);
    }
    // One `split` pass rather than two `replace`s: far cheaper in unoptimised builds, where
    // generic std code is compiled without optimisation.
    let mut out = String::with_capacity(text.len());
    let mut pieces = text.split('\r');
    out.push_str(pieces.next().unwrap_or_default());
    for piece in pieces {
        out.push('\n');
        out.push_str(piece.strip_prefix('\n').unwrap_or(piece));
    }
    Cow::Owned(out)
}

/// Whether `text` is large enough to become a placeholder. Cheap for huge input: the byte length
/// bounds the character count from above, so most calls never count characters.
pub fn is_large(text: &str) -> bool {
    text.len() > LARGE_PASTE_CHARS && text.chars().count() > LARGE_PASTE_CHARS
}

impl PendingPastes {
    /// Stores `text` and returns the unique label to put in the editor.
    /// `text` may still hold `\r` newlines (see the module doc).
    pub fn add(&mut self, text: String) -> String {
        let newline = if text.contains('\n') { '\n' } else { '\r' };
        let breaks = text.matches(newline).count();
        let lines = breaks + 1 - usize::from(text.ends_with(['\n', '\r']));
        let base = if lines > 1 {
            format!("[Pasted {lines} lines]")
        } else {
            format!("[Pasted {} chars]", text.chars().count())
        };
        let mut label = base.clone();
        let mut n = 1;
        while self.items.iter().any(|p| p.label == label) {
            n += 1;
            label = format!("{} #{n}]", base.trim_end_matches(']'));
        }
        self.items.push(Paste {
            label: label.clone(),
            text,
        });
        label
    }

    pub fn clear(&mut self) {
        self.items.clear();
    }

    /// Replaces each live label (its first occurrence, left to right) with its paste. One pass,
    /// so a paste that happens to contain another label's text is not expanded again.
    pub fn expand(&self, text: &str) -> String {
        if self.items.is_empty() {
            return text.to_owned();
        }
        let mut used = vec![false; self.items.len()];
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        loop {
            let next = self
                .items
                .iter()
                .enumerate()
                .filter(|(i, _)| !used[*i])
                .filter_map(|(i, p)| rest.find(&p.label).map(|at| (at, i)))
                .min();
            let Some((at, i)) = next else {
                out.push_str(rest);
                return out;
            };
            used[i] = true;
            out.push_str(&rest[..at]);
            out.push_str(&normalise_newlines(&self.items[i].text));
            rest = &rest[at + self.items[i].label.len()..];
        }
    }

    /// Label occurrences in `line` as char-column ranges `[start, end)`.
    pub fn spans_in(&self, line: &str) -> Vec<(usize, usize)> {
        let mut spans = Vec::new();
        for p in &self.items {
            for (byte, _) in line.match_indices(&p.label) {
                let start = line[..byte].chars().count();
                spans.push((start, start + p.label.chars().count()));
            }
        }
        spans
    }

    /// Length in chars of a label ending exactly at char column `col`, if any.
    pub fn label_ending_at(&self, line: &str, col: usize) -> Option<usize> {
        self.spans_in(line)
            .into_iter()
            .find(|(_, end)| *end == col)
            .map(|(start, end)| end - start)
    }

    /// Length in chars of a label starting exactly at char column `col`, if any.
    pub fn label_starting_at(&self, line: &str, col: usize) -> Option<usize> {
        self.spans_in(line)
            .into_iter()
            .find(|(start, _)| *start == col)
            .map(|(start, end)| end - start)
    }

    /// The label range strictly containing `col` (cursor inside a label), if any.
    pub fn label_around(&self, line: &str, col: usize) -> Option<(usize, usize)> {
        self.spans_in(line)
            .into_iter()
            .find(|(start, end)| *start < col && col < *end)
    }
}

#[cfg(test)]
#[path = "paste_tests.rs"]
mod tests;
