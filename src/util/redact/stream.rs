//! Known secret values masked in a text that arrives in pieces (a model's streamed deltas, a
//! tool's progress lines): a value split across two pieces (`Zq9xK2` + `mP7vR4tL8wN3bH`)
//! matches in neither, so each piece is not masked on its own.
//!
//! [`KnownStream::push`] releases a piece masked, except for its open tail: the longest
//! tail that is a proper prefix of a registered value, which could be the start of a secret
//! the next piece completes. That tail is held until the next piece or [`KnownStream::finish`].
//! Nothing is held when no tail can start a value, so ordinary text streams with no delay.
//!
//! Invariant: the concatenation of everything released equals [`super::redact_known`] of the
//! concatenated pieces (with the registry unchanged meanwhile) — a match never straddles the
//! release point, and a value that ends exactly at it is held too, since touching matches
//! merge into one mask. Not here: pattern rules (streams of model text get known values only,
//! as every other event does), and values registered after a piece was released.

use std::ops::Range;

use super::known::snapshot;

/// One stream's held tail.
#[derive(Debug, Default)]
pub struct KnownStream {
    held: String,
}

impl KnownStream {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `piece` to the stream and returns what can be shown now, masked (possibly empty).
    pub fn push(&mut self, piece: &str) -> String {
        self.held.push_str(piece);
        let Some(set) = snapshot() else {
            return std::mem::take(&mut self.held);
        };
        let text = std::mem::take(&mut self.held);
        let mut spans: Vec<Range<usize>> = Vec::new();
        set.find(&text, &mut spans);
        let Some(mut cut) = set.open_tail(&text) else {
            return super::apply(&text, spans).into_owned();
        };
        // Move the cut back over any match it would split or touch, until none does.
        while let Some(span) = spans
            .iter()
            .filter(|s| s.start < cut && s.end >= cut)
            .min_by_key(|s| s.start)
        {
            cut = span.start;
        }
        spans.retain(|s| s.end <= cut);
        let released = super::apply(&text[..cut], spans).into_owned();
        self.held = text[cut..].to_owned();
        released
    }

    /// Ends the stream: the held tail, masked.
    pub fn finish(&mut self) -> String {
        let rest = std::mem::take(&mut self.held);
        super::redact_known(&rest).into_owned()
    }

    /// Whether a tail is waiting for the next piece.
    pub fn is_holding(&self) -> bool {
        !self.held.is_empty()
    }
}

#[cfg(test)]
#[path = "stream_tests.rs"]
mod tests;
