//! Wrapping of styled text to a display width (unicode-width aware).
//!
//! `wrap_spans` is a greedy word wrapper: words move to the next line whole when they fit on
//! one, longer words are broken by character; whitespace at a wrap point is dropped. `hard_wrap`
//! breaks by character only (code, tool output), keeping whitespace. Neither knows markdown.
//!
//! Invariant: every returned line is at most `width` columns wide (a single character wider
//! than `width` is the only exception), and at least one line is returned.

use ratatui::style::Style;
use ratatui::text::Span;
use unicode_width::UnicodeWidthChar;
use unicode_width::UnicodeWidthStr;

/// A wrapped line: styled pieces, adjacent equal styles merged.
pub type SpanLine = Vec<Span<'static>>;

pub fn display_width(s: &str) -> usize {
    UnicodeWidthStr::width(s)
}

fn char_width(c: char) -> usize {
    UnicodeWidthChar::width(c).unwrap_or(0)
}

/// Appends `text` in `style`, extending the last span when the style is the same.
pub fn push_styled(line: &mut SpanLine, text: &str, style: Style) {
    if text.is_empty() {
        return;
    }
    if let Some(last) = line.last_mut()
        && last.style == style
    {
        last.content.to_mut().push_str(text);
        return;
    }
    line.push(Span::styled(text.to_string(), style));
}

/// A run of non-space pieces (a word may change style midway: `**bold**,`).
#[derive(Default)]
struct Word<'a> {
    pieces: Vec<(&'a str, Style)>,
    width: usize,
}

enum Token<'a> {
    Space(Vec<(&'a str, Style)>, usize),
    Word(Word<'a>),
}

fn tokenize<'a>(spans: &'a [Span<'static>]) -> Vec<Token<'a>> {
    let mut tokens: Vec<Token<'a>> = Vec::new();
    for span in spans {
        let text: &'a str = &span.content;
        let mut start = 0;
        let mut current_is_space: Option<bool> = None;
        for (i, c) in text.char_indices() {
            let is_space = c.is_whitespace();
            if current_is_space.is_some_and(|s| s != is_space) {
                append_piece(&mut tokens, &text[start..i], span.style, !is_space);
                start = i;
            }
            current_is_space = Some(is_space);
        }
        if let Some(is_space) = current_is_space {
            append_piece(&mut tokens, &text[start..], span.style, is_space);
        }
    }
    tokens
}

fn append_piece<'a>(tokens: &mut Vec<Token<'a>>, piece: &'a str, style: Style, is_space: bool) {
    let width = display_width(piece);
    match (tokens.last_mut(), is_space) {
        (Some(Token::Space(pieces, w)), true) => {
            pieces.push((piece, style));
            *w += width;
        }
        (Some(Token::Word(word)), false) => {
            word.pieces.push((piece, style));
            word.width += width;
        }
        (_, true) => tokens.push(Token::Space(vec![(piece, style)], width)),
        (_, false) => tokens.push(Token::Word(Word {
            pieces: vec![(piece, style)],
            width,
        })),
    }
}

/// Greedy word wrap of `spans` into lines of at most `width` columns.
pub fn wrap_spans(spans: &[Span<'static>], width: usize) -> Vec<SpanLine> {
    let width = width.max(1);
    let mut lines: Vec<SpanLine> = Vec::new();
    let mut line: SpanLine = Vec::new();
    let mut line_width = 0;
    let mut pending: Vec<(&str, Style)> = Vec::new();
    let mut pending_width = 0;
    for token in tokenize(spans) {
        match token {
            Token::Space(pieces, w) => {
                // Spaces at the start of a continuation line are dropped; leading
                // indentation of the first line is kept.
                if line_width > 0 || lines.is_empty() {
                    pending.extend(pieces);
                    pending_width += w;
                }
            }
            Token::Word(word) => {
                if line_width + pending_width + word.width <= width {
                    for (text, style) in pending.drain(..) {
                        push_styled(&mut line, text, style);
                    }
                    line_width += pending_width + word.width;
                    for (text, style) in word.pieces {
                        push_styled(&mut line, text, style);
                    }
                } else if word.width <= width {
                    if line_width > 0 {
                        lines.push(std::mem::take(&mut line));
                    }
                    line_width = word.width;
                    for (text, style) in word.pieces {
                        push_styled(&mut line, text, style);
                    }
                } else {
                    // Too long for any line: start it where we are and break by character.
                    if line_width + pending_width < width && line_width > 0 {
                        for (text, style) in pending.drain(..) {
                            push_styled(&mut line, text, style);
                        }
                        line_width += pending_width;
                    } else if line_width > 0 {
                        lines.push(std::mem::take(&mut line));
                        line_width = 0;
                    }
                    for (text, style) in word.pieces {
                        break_chars(text, style, width, &mut lines, &mut line, &mut line_width);
                    }
                }
                pending.clear();
                pending_width = 0;
            }
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

fn break_chars(
    text: &str,
    style: Style,
    width: usize,
    lines: &mut Vec<SpanLine>,
    line: &mut SpanLine,
    line_width: &mut usize,
) {
    let mut start = 0;
    for (i, c) in text.char_indices() {
        let w = char_width(c);
        if *line_width + w > width && *line_width > 0 {
            push_styled(line, &text[start..i], style);
            lines.push(std::mem::take(line));
            *line_width = 0;
            start = i;
        }
        *line_width += w;
    }
    push_styled(line, &text[start..], style);
}

/// Breaks `spans` every `width` columns, keeping all whitespace (code, tool output).
pub fn hard_wrap(spans: &[Span<'static>], width: usize) -> Vec<SpanLine> {
    let width = width.max(1);
    let mut lines = Vec::new();
    let mut line = Vec::new();
    let mut line_width = 0;
    for span in spans {
        break_chars(
            &span.content,
            span.style,
            width,
            &mut lines,
            &mut line,
            &mut line_width,
        );
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// Cuts `text` to `width` columns, ending with `…` when something was cut.
pub fn truncate(text: &str, width: usize) -> String {
    if display_width(text) <= width {
        return text.to_string();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in text.chars() {
        let w = char_width(c);
        if used + w + 1 > width {
            break;
        }
        out.push(c);
        used += w;
    }
    out.push('…');
    out
}

/// Makes text safe to put in a terminal cell: tabs become four spaces, other control
/// characters (escape sequences from tool output, `\r`) are dropped, and so is variation
/// selector 16. `⚠️` is one column in tmux but two by unicode-width; the disagreement shifts
/// the rest of the row and pushes out the pane's border. Without it both say one.
pub fn sanitize(text: &str) -> std::borrow::Cow<'_, str> {
    let unsafe_char = |c: char| (c.is_control() && c != '\n') || c == VARIATION_SELECTOR_16;
    if !text.chars().any(unsafe_char) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\t' => out.push_str("    "),
            '\n' => out.push('\n'),
            VARIATION_SELECTOR_16 => {}
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}

const VARIATION_SELECTOR_16: char = '\u{FE0F}';
