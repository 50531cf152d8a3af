//! Shaping text for the model: head + tail capping with the marker `[… N bytes omitted …]`,
//! lossy UTF-8 decoding, binary detection, `OutputBuffer`, a bounded store for process
//! output that keeps the first and the last bytes of an unbounded stream, and
//! `ProgressLines`, which turns that stream into bounded progress updates for a frontend.
//!
//! Every tool that returns possibly-large text goes through here, so the marker and the cut
//! rules are the same everywhere. Invariants: cuts fall on UTF-8 character boundaries (invalid
//! input is decoded lossily, never a panic); the omitted count is exact in bytes of the
//! original stream; memory is bounded by the caps whatever the stream's size or line shape,
//! and the work per byte is constant (nothing is done per line of output that is dropped).

use std::collections::VecDeque;
use std::time::Duration;

/// How many leading bytes binary detection inspects.
pub const BINARY_SNIFF_BYTES: usize = 8 * 1024;

/// The marker placed where output was cut.
pub fn omitted_marker(bytes: u64) -> String {
    format!("[… {bytes} bytes omitted …]")
}

/// Decode bytes as UTF-8, replacing invalid sequences with U+FFFD.
pub fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `text` without terminal escape sequences (CSI `ESC [ … final`, OSC `ESC ] … BEL|ESC \\`,
/// and two-byte `ESC x`), so a model never copies colour codes into files.
pub fn strip_ansi(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains('\u{1b}') {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\u{1b}' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('[') => {
                // Parameters and intermediates, then one final byte in @..~.
                for c in chars.by_ref() {
                    if ('@'..='~').contains(&c) {
                        break;
                    }
                }
            }
            Some(']') => {
                while let Some(c) = chars.next() {
                    if c == '\u{7}' {
                        break;
                    }
                    if c == '\u{1b}' && chars.peek() == Some(&'\\') {
                        chars.next();
                        break;
                    }
                }
            }
            Some(_) | None => {}
        }
    }
    std::borrow::Cow::Owned(out)
}

/// True when the first 8 KB contain a NUL byte (how git and grep tell binary from text).
pub fn looks_binary(bytes: &[u8]) -> bool {
    bytes[..bytes.len().min(BINARY_SNIFF_BYTES)].contains(&0)
}

/// A one-line stand-in for binary output the model cannot use.
pub fn binary_summary(total_bytes: u64) -> String {
    format!(
        "[binary output: {total_bytes} bytes, not shown (contains NUL bytes); redirect it to a file and inspect it with `file`, `xxd | head` or `strings`]"
    )
}

/// `text` unchanged if it fits in `max_bytes`, else its head and tail around the marker.
pub fn cap_text(text: &str, max_bytes: usize) -> String {
    if text.len() <= max_bytes {
        return text.to_string();
    }
    let (head, tail) = split_budget(max_bytes);
    let head = &text[..floor_boundary(text, head)];
    let tail = &text[ceil_boundary(text, text.len() - tail)..];
    join_cut(head, (text.len() - head.len() - tail.len()) as u64, tail)
}

/// Bytes as text for the model: binary summarised, invalid UTF-8 replaced, capped head + tail.
pub fn render_bytes(bytes: &[u8], max_bytes: usize) -> String {
    if looks_binary(bytes) {
        return binary_summary(bytes.len() as u64);
    }
    cap_text(&lossy(bytes), max_bytes)
}

fn split_budget(max_bytes: usize) -> (usize, usize) {
    let head = max_bytes / 2;
    (head, max_bytes - head)
}

fn join_cut(head: &str, omitted: u64, tail: &str) -> String {
    let mut out = String::with_capacity(head.len() + tail.len() + 40);
    out.push_str(head);
    if !head.is_empty() && !head.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(&omitted_marker(omitted));
    out.push('\n');
    out.push_str(tail);
    out
}

/// Largest char boundary `<= at` (MSRV 1.85 lacks `str::floor_char_boundary`).
fn floor_boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// Smallest char boundary `>= at`.
fn ceil_boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at += 1;
    }
    at
}

/// Length of `bytes` without a UTF-8 sequence cut off at its end.
fn complete_prefix_len(bytes: &[u8]) -> usize {
    let n = bytes.len();
    // A sequence is at most 4 bytes: look back over at most 3 continuation bytes.
    for back in 1..=n.min(4) {
        let b = bytes[n - back];
        if b & 0xC0 == 0x80 {
            continue;
        }
        let needed = match b {
            0xC0..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF7 => 4,
            _ => 1,
        };
        return if needed > back { n - back } else { n };
    }
    n
}

/// Leading continuation bytes of `bytes` (the rest of a sequence cut at its start).
fn partial_start_len(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .take(3)
        .take_while(|b| **b & 0xC0 == 0x80)
        .count()
}

/// Keeps the first `head_cap` and the last `tail_cap` bytes of a stream, and its total length.
#[derive(Debug, Clone)]
pub struct OutputBuffer {
    head: Vec<u8>,
    tail: VecDeque<u8>,
    head_cap: usize,
    tail_cap: usize,
    total: u64,
}

impl OutputBuffer {
    pub fn new(head_cap: usize, tail_cap: usize) -> Self {
        Self {
            head: Vec::new(),
            tail: VecDeque::new(),
            head_cap,
            tail_cap,
            total: 0,
        }
    }

    pub fn push(&mut self, mut bytes: &[u8]) {
        self.total += bytes.len() as u64;
        let room = self.head_cap.saturating_sub(self.head.len());
        if room > 0 {
            let take = room.min(bytes.len());
            self.head.extend_from_slice(&bytes[..take]);
            bytes = &bytes[take..];
        }
        if bytes.len() >= self.tail_cap {
            self.tail.clear();
            // `extend(&[u8])` copies slices; a per-byte iterator is slow in debug builds.
            self.tail.extend(&bytes[bytes.len() - self.tail_cap..]);
            return;
        }
        let overflow = (self.tail.len() + bytes.len()).saturating_sub(self.tail_cap);
        self.tail.drain(..overflow);
        self.tail.extend(bytes);
    }

    /// Bytes written so far, retained or not.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// The retained head and tail, as bytes (they meet without a gap when nothing was cut).
    pub fn retained(&self) -> (&[u8], Vec<u8>) {
        (&self.head, self.tail_bytes())
    }

    fn tail_bytes(&self) -> Vec<u8> {
        let (a, b) = self.tail.as_slices();
        [a, b].concat()
    }

    fn gap(&self) -> u64 {
        self.total - (self.head.len() + self.tail.len()) as u64
    }

    /// The retained output as text, capped to `max_bytes` (head + tail), binary summarised.
    pub fn render(&self, max_bytes: usize) -> String {
        let tail = self.tail_bytes();
        let tail_sniff = &tail[tail.len().saturating_sub(BINARY_SNIFF_BYTES)..];
        if looks_binary(&self.head) || looks_binary(tail_sniff) {
            return binary_summary(self.total);
        }
        if self.gap() == 0 && self.total <= max_bytes as u64 {
            let mut all = self.head.clone();
            all.extend_from_slice(&tail);
            return render_bytes(&all, max_bytes);
        }
        let (head_budget, tail_budget) = split_budget(max_bytes);
        let head = &self.head[..head_budget.min(self.head.len())];
        let head = &head[..complete_prefix_len(head)];
        let tail = &tail[tail.len().saturating_sub(tail_budget)..];
        let tail = &tail[partial_start_len(tail)..];
        let omitted = self.total - (head.len() + tail.len()) as u64;
        join_cut(&lossy(head), omitted, &lossy(tail))
    }

    /// Output from absolute byte `offset` on, as far as it is retained, plus how many bytes
    /// after `offset` were no longer retained (and so are skipped).
    pub fn since(&self, offset: u64) -> (Vec<u8>, u64) {
        let head_len = self.head.len() as u64;
        let tail_start = self.total - self.tail.len() as u64;
        let mut out = Vec::new();
        let mut skipped = 0;
        if offset < head_len {
            out.extend_from_slice(&self.head[offset as usize..]);
            skipped = tail_start - head_len;
        } else if offset < tail_start {
            skipped = tail_start - offset;
        }
        let from_tail = (offset.saturating_sub(tail_start) as usize).min(self.tail.len());
        out.extend_from_slice(&self.tail_bytes()[from_tail..]);
        (out, skipped)
    }

    /// `since(offset)` as text for the model, capped to `max_bytes`.
    pub fn render_since(&self, offset: u64, max_bytes: usize) -> String {
        let (bytes, skipped) = self.since(offset);
        let body = render_bytes(&bytes, max_bytes);
        if skipped == 0 {
            body
        } else {
            format!("{}\n{body}", omitted_marker(skipped))
        }
    }
}

/// Newest complete lines one progress update carries per stream; older lines of a burst are
/// dropped unseen (a frontend shows the last few anyway).
pub const PROGRESS_LINES: usize = 32;
/// Longest progress line: longer lines, and output without newlines (so that it still shows
/// progress), are shown in pieces this long.
pub const PROGRESS_LINE_BYTES: usize = 1024;
/// Least time between two progress updates of one tool call, so a command printing millions
/// of short lines sends a few updates a second, not one event per line.
pub const PROGRESS_INTERVAL: Duration = Duration::from_millis(100);

/// Assembles one stream's bytes into its newest lines for progress updates.
///
/// Holds at most `PROGRESS_LINES` lines of at most `PROGRESS_LINE_BYTES` each plus one partial
/// line. A chunk is searched from its end, so only the lines that are kept are looked at:
/// the cost of a chunk does not depend on how many lines it has.
#[derive(Debug, Default)]
pub struct ProgressLines {
    partial: Vec<u8>,
    pending: VecDeque<String>,
}

impl ProgressLines {
    /// Feed the next bytes of the stream.
    pub fn feed(&mut self, bytes: &[u8]) {
        // `contains` on bytes is memchr, fast even in a debug build: output without newlines
        // is not scanned byte by byte.
        let last_newline = if bytes.contains(&b'\n') {
            bytes.iter().rposition(|&b| b == b'\n')
        } else {
            None
        };
        let Some(last_newline) = last_newline else {
            self.extend_partial(bytes);
            return;
        };
        let complete = &bytes[..last_newline];
        // The newest lines of `complete`, newest first; `reached_start` says whether the
        // oldest of them is the first line, which continues the partial line.
        let mut newest = Vec::with_capacity(PROGRESS_LINES);
        let mut end = complete.len();
        let reached_start = loop {
            let start = complete[..end]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1);
            newest.push(&complete[start..end]);
            if start == 0 {
                break true;
            }
            if newest.len() == PROGRESS_LINES {
                break false;
            }
            end = start - 1;
        };
        let mut lines = newest.into_iter().rev();
        if reached_start {
            if let Some(first) = lines.next() {
                self.extend_partial(first);
                let line = std::mem::take(&mut self.partial);
                self.push_line(&line);
            }
        } else {
            // Superseded by newer lines: a partial line is dropped with the lines after it.
            self.partial.clear();
        }
        for line in lines {
            self.push_line(line);
        }
        self.extend_partial(&bytes[last_newline + 1..]);
    }

    /// The stream ended: what is left of a last line without a newline becomes a line.
    pub fn finish(&mut self) {
        let line = std::mem::take(&mut self.partial);
        self.push_line(&line);
    }

    pub fn has_pending(&self) -> bool {
        !self.pending.is_empty()
    }

    /// The lines gathered since the last call (oldest first), emptied.
    pub fn take(&mut self) -> Vec<String> {
        self.pending.drain(..).collect()
    }

    fn extend_partial(&mut self, mut bytes: &[u8]) {
        while !bytes.is_empty() {
            let room = PROGRESS_LINE_BYTES - self.partial.len();
            let take = room.min(bytes.len());
            self.partial.extend_from_slice(&bytes[..take]);
            bytes = &bytes[take..];
            if self.partial.len() == PROGRESS_LINE_BYTES {
                // A character cut at the end of a piece starts the next one.
                let cut = complete_prefix_len(&self.partial);
                let rest = self.partial.split_off(cut);
                let piece = std::mem::replace(&mut self.partial, rest);
                self.push_piece(&piece);
            }
        }
    }

    /// A complete line, in pieces of at most `PROGRESS_LINE_BYTES` cut between characters.
    fn push_line(&mut self, mut line: &[u8]) {
        while line.len() > PROGRESS_LINE_BYTES {
            let cut = complete_prefix_len(&line[..PROGRESS_LINE_BYTES]);
            // Not valid UTF-8 there: cut anyway (the piece is decoded lossily).
            let cut = if cut == 0 { PROGRESS_LINE_BYTES } else { cut };
            self.push_piece(&line[..cut]);
            line = &line[cut..];
        }
        self.push_piece(line);
    }

    fn push_piece(&mut self, piece: &[u8]) {
        let text = String::from_utf8_lossy(piece);
        let text = text.trim_end_matches('\r');
        if text.trim().is_empty() {
            return;
        }
        if self.pending.len() == PROGRESS_LINES {
            self.pending.pop_front();
        }
        self.pending.push_back(text.to_string());
    }
}

#[cfg(test)]
#[path = "output_tests.rs"]
mod tests;
