//! The incremental sentence splitter behind streaming TTS (spec-002c §3.6): reply text arrives
//! in deltas, complete sentences come out as soon as they are certain, cleaned for speech.
//!
//! A sentence ends at `.` `!` `?` `…` followed by whitespace (closing quotes, brackets and
//! emphasis marks may sit between), at CJK `。` `！` `？`, at a blank line, and at the end of a
//! heading, list item or table row. A `.` never ends a sentence inside an abbreviation (`e.g.`,
//! `Dr.`, `U.S.`, initials) or when no whitespace follows (`3.14`, `v1.2.3`, `main.rs`, URLs).
//! Pieces shorter than [`MIN_SENTENCE_CHARS`] are merged into the next sentence.
//!
//! Removed: fenced code blocks (``` and ~~~), `<think>…</think>` blocks, and markdown syntax
//! (heading marks, list bullets, table pipes, emphasis, inline-code backticks, link targets —
//! link and code text is kept). Not handled: HTML, indented code blocks, nested emphasis
//! subtleties; this is for speech, not rendering.
//!
//! Invariant: the output does not depend on how the text was cut into deltas — a decision that
//! needs more input waits for it, so any split gives the same sentences as one push.

use super::clean::clean_inline;

/// Shorter pieces wait and are spoken together with the next sentence.
pub const MIN_SENTENCE_CHARS: usize = 20;

const THINK_OPEN: &str = "<think>";
const THINK_CLOSE: &str = "</think>";
/// Characters that may follow sentence punctuation before the whitespace.
const CLOSERS: &[char] = &[
    ')', ']', '"', '\'', '”', '’', '»', '」', '』', '）', '*', '_', '`', '~',
];
/// Lower-cased words that a `.` follows without ending the sentence.
const ABBREVIATIONS: &[&str] = &[
    "mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "vs", "etc", "inc", "ltd", "corp", "fig",
    "approx", "cf", "al", "dept", "vol", "pp", "mt", "gen", "col", "lt", "sgt", "capt", "rev",
    "ave", "blvd", "rd", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct",
    "nov", "dec", "no", "nos",
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Text,
    Think,
    /// Inside a fenced code block opened by `len` × `ch`.
    Fence {
        ch: char,
        len: usize,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LineKind {
    Plain,
    /// A list item: its end of line ends the piece.
    Item,
}

/// What the start of a line turned out to be.
#[derive(Debug, PartialEq, Eq)]
enum LineStart {
    /// Not decidable yet: wait for more text.
    Wait,
    /// A blank line (paragraph break); consumes the line.
    Blank(usize),
    /// A fence opener; consumes the marker run (the rest of the line is dropped as code).
    Fence {
        ch: char,
        len: usize,
        consumed: usize,
    },
    /// A line spoken as one piece (heading, table row; empty for rules and table separators).
    Whole { text: String, consumed: usize },
    /// A list item; consumes the bullet.
    Item(usize),
    /// Ordinary text (also block quotes); consumes the indentation and `>` marks.
    Plain(usize),
}

/// Splits streamed reply text into speakable sentences. See the module docs.
#[derive(Debug, Clone)]
pub struct SentenceSplitter {
    raw: String,
    mode: Mode,
    line_start: bool,
    line_kind: LineKind,
    /// Raw text of the sentence being built.
    pending: String,
    /// Cleaned short pieces waiting to be merged into the next sentence.
    carry: String,
    min_chars: usize,
}

impl Default for SentenceSplitter {
    fn default() -> Self {
        Self::new()
    }
}

impl SentenceSplitter {
    pub fn new() -> Self {
        Self::with_min_chars(MIN_SENTENCE_CHARS)
    }

    /// A splitter that merges pieces shorter than `min_chars` (0: never merge).
    pub fn with_min_chars(min_chars: usize) -> Self {
        Self {
            raw: String::new(),
            mode: Mode::Text,
            line_start: true,
            line_kind: LineKind::Plain,
            pending: String::new(),
            carry: String::new(),
            min_chars,
        }
    }

    /// Feed a delta; returns the sentences it completed, in order.
    pub fn push(&mut self, delta: &str) -> Vec<String> {
        self.raw.push_str(delta);
        let mut out = Vec::new();
        self.scan(false, &mut out);
        out
    }

    /// The end of the reply: whatever is left, as sentences (short ones included). The
    /// splitter is then empty and ready for the next reply.
    pub fn finish(&mut self) -> Vec<String> {
        let mut out = Vec::new();
        self.scan(true, &mut out);
        if self.line_kind == LineKind::Item && !self.line_start {
            self.end_block(&mut out);
        }
        self.boundary(&mut out);
        if !self.carry.is_empty() {
            out.push(std::mem::take(&mut self.carry));
        }
        *self = Self::with_min_chars(self.min_chars);
        out
    }

    /// Forget everything buffered (a new reply, or speech stopped).
    pub fn reset(&mut self) {
        *self = Self::with_min_chars(self.min_chars);
    }

    fn scan(&mut self, at_end: bool, out: &mut Vec<String>) {
        let raw = std::mem::take(&mut self.raw);
        let mut i = 0;
        while i < raw.len() {
            let rest = &raw[i..];
            let step = match self.mode {
                Mode::Think => self.scan_think(rest, at_end),
                Mode::Fence { ch, len } => self.scan_fence(rest, at_end, ch, len),
                Mode::Text if self.line_start => self.scan_line_start(rest, at_end, out),
                Mode::Text => self.scan_text(rest, at_end, out),
            };
            match step {
                Some(n) => i += n,
                None => break,
            }
        }
        self.raw = raw[i..].to_string();
    }

    /// Inside `<think>`: drop up to `</think>`, keeping a tail that may start the close tag.
    fn scan_think(&mut self, rest: &str, at_end: bool) -> Option<usize> {
        if let Some(p) = rest.find(THINK_CLOSE) {
            self.mode = Mode::Text;
            // A block that stood alone leaves the text at a line start (`</think># Title`).
            if self.pending.is_empty() {
                self.line_start = true;
            }
            return Some(p + THINK_CLOSE.len());
        }
        if at_end {
            return Some(rest.len());
        }
        let keep = (1..THINK_CLOSE.len())
            .rev()
            .find(|&k| rest.ends_with(&THINK_CLOSE[..k]))
            .unwrap_or(0);
        let drop = rest.len() - keep;
        (drop > 0).then_some(drop)
    }

    /// Inside a code fence: drop whole lines until the closing fence.
    fn scan_fence(&mut self, rest: &str, at_end: bool, ch: char, len: usize) -> Option<usize> {
        match rest.find('\n') {
            Some(p) => {
                let line = rest[..p].trim();
                let run = line.chars().take_while(|&c| c == ch).count();
                if run >= len && run == line.chars().count() {
                    self.mode = Mode::Text;
                    self.line_start = true;
                }
                Some(p + 1)
            }
            None if at_end => Some(rest.len()),
            None => None,
        }
    }

    fn scan_line_start(
        &mut self,
        rest: &str,
        at_end: bool,
        out: &mut Vec<String>,
    ) -> Option<usize> {
        match classify_line_start(rest, at_end) {
            LineStart::Wait => None,
            LineStart::Blank(n) => {
                self.boundary(out);
                Some(n)
            }
            LineStart::Fence { ch, len, consumed } => {
                self.boundary(out);
                self.mode = Mode::Fence { ch, len };
                Some(consumed)
            }
            LineStart::Whole { text, consumed } => {
                self.boundary(out);
                self.pending.push_str(&text);
                self.end_block(out);
                Some(consumed)
            }
            LineStart::Item(n) => {
                self.boundary(out);
                self.line_start = false;
                self.line_kind = LineKind::Item;
                Some(n)
            }
            LineStart::Plain(n) => {
                self.line_start = false;
                self.line_kind = LineKind::Plain;
                Some(n)
            }
        }
    }

    fn scan_text(&mut self, rest: &str, at_end: bool, out: &mut Vec<String>) -> Option<usize> {
        let c = rest.chars().next()?;
        match c {
            '\n' => {
                if self.line_kind == LineKind::Item {
                    self.end_block(out);
                } else {
                    self.push_space();
                }
                self.line_start = true;
                self.line_kind = LineKind::Plain;
                Some(1)
            }
            '<' if rest.starts_with(THINK_OPEN) => {
                self.mode = Mode::Think;
                Some(THINK_OPEN.len())
            }
            '<' if !at_end && THINK_OPEN.starts_with(rest) => None,
            '.' | '!' | '?' | '…' => self.scan_punct(rest, at_end, out),
            '。' | '！' | '？' => {
                let end = c.len_utf8() + closers_len(&rest[c.len_utf8()..]);
                if end == rest.len() && !at_end {
                    return None;
                }
                self.pending.push_str(&rest[..end]);
                self.boundary(out);
                Some(end)
            }
            c if c.is_whitespace() => {
                self.push_space();
                Some(c.len_utf8())
            }
            c => {
                self.pending.push(c);
                Some(c.len_utf8())
            }
        }
    }

    /// A run of sentence punctuation: does it end the sentence?
    fn scan_punct(&mut self, rest: &str, at_end: bool, out: &mut Vec<String>) -> Option<usize> {
        let run: usize = rest
            .chars()
            .take_while(|c| matches!(c, '.' | '!' | '?' | '…'))
            .map(char::len_utf8)
            .sum();
        let end = run + closers_len(&rest[run..]);
        let ends = match rest[end..].chars().next() {
            None if !at_end => return None,
            None => true,
            Some(next) if next.is_whitespace() => {
                !(run == 1 && rest.starts_with('.') && is_abbreviation(&self.pending))
            }
            Some(_) => false,
        };
        if ends {
            self.pending.push_str(&rest[..end]);
            self.boundary(out);
            Some(end)
        } else {
            self.pending.push_str(&rest[..run]);
            Some(run)
        }
    }

    fn push_space(&mut self) {
        if !self.pending.is_empty() && !self.pending.ends_with(' ') {
            self.pending.push(' ');
        }
    }

    /// The end of a heading, list item or table row: a piece of its own, with a full stop so
    /// the voice pauses.
    fn end_block(&mut self, out: &mut Vec<String>) {
        let cleaned = clean_inline(&self.pending);
        if cleaned.chars().last().is_some_and(char::is_alphanumeric) {
            self.pending = format!("{cleaned}.");
        }
        self.boundary(out);
    }

    /// The pending text is a finished piece: emit it, or keep it to merge if it is short.
    fn boundary(&mut self, out: &mut Vec<String>) {
        let text = clean_inline(&std::mem::take(&mut self.pending));
        if text.is_empty() {
            return;
        }
        let combined = if self.carry.is_empty() {
            text
        } else if self.carry.ends_with(['。', '！', '？']) {
            format!("{}{text}", std::mem::take(&mut self.carry))
        } else {
            format!("{} {text}", std::mem::take(&mut self.carry))
        };
        if combined.chars().count() < self.min_chars {
            self.carry = combined;
        } else {
            out.push(combined);
        }
    }
}

/// Bytes of closing quotes, brackets and emphasis marks at the start of `text`.
fn closers_len(text: &str) -> usize {
    text.chars()
        .take_while(|c| CLOSERS.contains(c))
        .map(char::len_utf8)
        .sum()
}

/// Whether the word at the end of `before` is an abbreviation or an initial, so the `.` after
/// it does not end the sentence.
fn is_abbreviation(before: &str) -> bool {
    let word = before.rsplit(char::is_whitespace).next().unwrap_or("");
    let word = word.trim_start_matches(|c: char| !c.is_alphanumeric());
    if word.is_empty() {
        return false;
    }
    let mut chars = word.chars();
    if let (Some(first), None) = (chars.next(), chars.next()) {
        return first.is_uppercase();
    }
    let lower = word.to_lowercase();
    if ABBREVIATIONS.contains(&lower.as_str()) {
        return true;
    }
    // Dotted abbreviations: e.g, i.e, U.S, a.m, Ph.D.
    lower.contains('.')
        && lower
            .split('.')
            .all(|part| (1..=2).contains(&part.len()) && part.chars().all(char::is_alphabetic))
}

/// Decides what a line starts with, or asks for more text (see [`LineStart`]).
fn classify_line_start(rest: &str, at_end: bool) -> LineStart {
    let (line, complete, line_len) = match rest.find('\n') {
        Some(p) => (&rest[..p], true, p + 1),
        None => (rest, at_end, rest.len()),
    };
    let body = line.trim_start();
    let indent = line.len() - body.len();
    if body.trim().is_empty() {
        return if complete {
            LineStart::Blank(line_len)
        } else {
            LineStart::Wait
        };
    }
    let Some(first) = body.chars().next() else {
        return LineStart::Wait;
    };
    let run = body.chars().take_while(|&c| c == first).count();
    // Still only marker characters: the line could become anything.
    let undecided = !complete && run == body.chars().count();
    match first {
        '`' | '~' if run >= 3 => LineStart::Fence {
            ch: first,
            len: run,
            consumed: indent + run,
        },
        '`' | '~' if undecided => LineStart::Wait,
        '#' if undecided => LineStart::Wait,
        '#' if run <= 6 && body[run..].chars().next().is_none_or(char::is_whitespace) => {
            if !complete {
                return LineStart::Wait;
            }
            let text = body[run..].trim().trim_end_matches('#').trim();
            LineStart::Whole {
                text: text.to_string(),
                consumed: line_len,
            }
        }
        '|' => table_row(body, complete, line_len),
        '-' | '*' | '+' | '_' => bullet_or_rule(body, first, complete, indent, line_len),
        '0'..='9' => ordered_item(body, complete, indent),
        '>' => {
            let marks = body.len() - body.trim_start_matches(['>', ' ', '\t']).len();
            if marks == body.len() && !complete {
                LineStart::Wait
            } else {
                LineStart::Plain(indent + marks)
            }
        }
        _ => LineStart::Plain(indent),
    }
}

fn table_row(body: &str, complete: bool, line_len: usize) -> LineStart {
    if !complete {
        return LineStart::Wait;
    }
    let separator = body
        .chars()
        .all(|c| matches!(c, '|' | ':' | '-' | ' ' | '\t'));
    let text = if separator {
        String::new()
    } else {
        body.split('|')
            .map(str::trim)
            .filter(|cell| !cell.is_empty())
            .collect::<Vec<_>>()
            .join(", ")
    };
    LineStart::Whole {
        text,
        consumed: line_len,
    }
}

fn bullet_or_rule(
    body: &str,
    first: char,
    complete: bool,
    indent: usize,
    line_len: usize,
) -> LineStart {
    let rule_chars = body.chars().all(|c| c == first || c == ' ' || c == '\t');
    if rule_chars {
        if !complete {
            return LineStart::Wait;
        }
        // A horizontal rule, or a lone bullet: nothing to say.
        return LineStart::Whole {
            text: String::new(),
            consumed: line_len,
        };
    }
    let after = &body[first.len_utf8()..];
    if first != '_' && after.starts_with([' ', '\t']) {
        LineStart::Item(indent + first.len_utf8())
    } else {
        LineStart::Plain(indent)
    }
}

fn ordered_item(body: &str, complete: bool, indent: usize) -> LineStart {
    let digits = body.chars().take_while(char::is_ascii_digit).count();
    let mut after = body[digits..].chars();
    match (after.next(), after.next()) {
        (None, _) if !complete => LineStart::Wait,
        (Some('.' | ')'), None) if !complete => LineStart::Wait,
        (Some('.' | ')'), Some(' ' | '\t')) => LineStart::Item(indent + digits + 1),
        _ => LineStart::Plain(indent),
    }
}

#[cfg(test)]
#[path = "sentences_tests.rs"]
mod tests;
