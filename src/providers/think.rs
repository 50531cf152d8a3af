//! Streaming `<think>…</think>` scrubber.
//!
//! Some models (DeepSeek-R1 distills, Qwen3, many llama-server setups) put their reasoning
//! inline in the visible text between `<think>` and `</think>` (or `<thinking>` tags). The
//! scrubber routes that content to reasoning so visible text never contains a think block.
//!
//! Invariants: tags may be split across deltas at any byte, so a trailing fragment that could
//! begin a tag is held back until the next delta (or `finish`) decides it. Tags are matched
//! exactly (lowercase). An unclosed block at the end of the stream counts as reasoning. Leading
//! whitespace right after a closing tag is dropped (models put "\n\n" there). It does not
//! parse anything else (no markdown, no nested tags).

/// A piece of scrubbed output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scrubbed {
    Text(String),
    Reasoning(String),
}

/// Open/close tag pairs recognised as reasoning blocks.
const TAGS: [(&str, &str); 2] = [("<think>", "</think>"), ("<thinking>", "</thinking>")];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Visible,
    Thinking { close: &'static str },
}

#[derive(Debug)]
pub struct ThinkScrubber {
    state: State,
    /// Bytes that might be the start of a tag; decided by the next push.
    held: String,
    /// Drop whitespace until the first visible non-whitespace after a closing tag.
    trim_visible_start: bool,
}

impl Default for ThinkScrubber {
    fn default() -> Self {
        Self::new()
    }
}

impl ThinkScrubber {
    pub fn new() -> Self {
        Self {
            state: State::Visible,
            held: String::new(),
            trim_visible_start: false,
        }
    }

    /// Feed one delta; returns the pieces that are now certain (adjacent pieces of the same
    /// kind are merged, empty pieces omitted).
    pub fn push(&mut self, chunk: &str) -> Vec<Scrubbed> {
        let mut buf = std::mem::take(&mut self.held);
        buf.push_str(chunk);
        let mut out = Vec::new();
        let mut rest = buf.as_str();
        loop {
            match self.state {
                State::Visible => match find_open(rest) {
                    Some((at, open_len, close)) => {
                        self.emit_text(&mut out, &rest[..at]);
                        rest = &rest[at + open_len..];
                        self.state = State::Thinking { close };
                    }
                    None => {
                        let keep = held_suffix_len(rest, TAGS.iter().map(|(open, _)| *open));
                        self.emit_text(&mut out, &rest[..rest.len() - keep]);
                        self.held = rest[rest.len() - keep..].to_string();
                        break;
                    }
                },
                State::Thinking { close } => match rest.find(close) {
                    Some(at) => {
                        push_piece(&mut out, Scrubbed::Reasoning(rest[..at].to_string()));
                        rest = &rest[at + close.len()..];
                        self.state = State::Visible;
                        self.trim_visible_start = true;
                    }
                    None => {
                        let keep = held_suffix_len(rest, std::iter::once(close));
                        let reasoning = rest[..rest.len() - keep].to_string();
                        push_piece(&mut out, Scrubbed::Reasoning(reasoning));
                        self.held = rest[rest.len() - keep..].to_string();
                        break;
                    }
                },
            }
        }
        out
    }

    /// End of stream: release anything held back. A held fragment was not a tag after all,
    /// so it belongs to whatever block is open.
    pub fn finish(&mut self) -> Vec<Scrubbed> {
        let held = std::mem::take(&mut self.held);
        let mut out = Vec::new();
        match self.state {
            State::Visible => self.emit_text(&mut out, &held),
            State::Thinking { .. } => push_piece(&mut out, Scrubbed::Reasoning(held)),
        }
        out
    }

    fn emit_text(&mut self, out: &mut Vec<Scrubbed>, text: &str) {
        let text = if self.trim_visible_start {
            let trimmed = text.trim_start();
            if !trimmed.is_empty() {
                self.trim_visible_start = false;
            }
            trimmed
        } else {
            text
        };
        push_piece(out, Scrubbed::Text(text.to_string()));
    }
}

fn push_piece(out: &mut Vec<Scrubbed>, piece: Scrubbed) {
    match (out.last_mut(), piece) {
        (_, Scrubbed::Text(t) | Scrubbed::Reasoning(t)) if t.is_empty() => {}
        (Some(Scrubbed::Text(prev)), Scrubbed::Text(t)) => prev.push_str(&t),
        (Some(Scrubbed::Reasoning(prev)), Scrubbed::Reasoning(t)) => prev.push_str(&t),
        (_, piece) => out.push(piece),
    }
}

/// The earliest open tag in `s`: (byte offset, tag length, matching close tag).
fn find_open(s: &str) -> Option<(usize, usize, &'static str)> {
    TAGS.iter()
        .filter_map(|(open, close)| s.find(open).map(|at| (at, open.len(), *close)))
        .min_by_key(|(at, _, _)| *at)
}

/// Length of the longest suffix of `s` that is a proper prefix of one of `tags`.
fn held_suffix_len<'t>(s: &str, tags: impl Iterator<Item = &'t str> + Clone) -> usize {
    let longest = tags.clone().map(str::len).max().unwrap_or(0);
    let max_keep = longest.saturating_sub(1).min(s.len());
    (1..=max_keep)
        .rev()
        .find(|&k| {
            let start = s.len() - k;
            s.is_char_boundary(start) && tags.clone().any(|tag| tag.starts_with(&s[start..]))
        })
        .unwrap_or(0)
}

#[cfg(test)]
#[path = "think_tests.rs"]
mod tests;
