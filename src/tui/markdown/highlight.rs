//! Syntax highlighting of fenced code blocks with syntect.
//!
//! The syntax and theme sets load once (`LazyLock`). Highlighting is line by line; the parser
//! state after each block is kept in a small cache so a block that grows while streaming only
//! highlights its new lines, and re-rendering a block (resize, scrolling back) costs nothing.
//! Colours reach ratatui only through `Theme::rgb`.
//!
//! Not handled here: wrapping, unknown languages (the caller renders those as plain code), and
//! blocks beyond the size caps, which fall back to plain text to keep a frame cheap.

use std::cell::RefCell;
use std::sync::LazyLock;

use ratatui::style::Modifier;
use ratatui::style::Style;
use ratatui::text::Span;
use syntect::highlighting::FontStyle;
use syntect::highlighting::HighlightIterator;
use syntect::highlighting::HighlightState;
use syntect::highlighting::Highlighter;
use syntect::parsing::ParseState;
use syntect::parsing::ScopeStack;
use syntect::parsing::SyntaxSet;

use crate::theme::Theme;

/// Larger blocks, or blocks with longer lines, are not highlighted (regex cost).
const MAX_HIGHLIGHT_BYTES: usize = 128 * 1024;
const MAX_HIGHLIGHT_LINE_BYTES: usize = 2_000;
/// Blocks whose parser state is remembered.
const CACHE_BLOCKS: usize = 16;
const SYNTECT_THEME: &str = "base16-ocean.dark";

struct Assets {
    syntaxes: SyntaxSet,
    theme: Option<syntect::highlighting::Theme>,
}

static ASSETS: LazyLock<Assets> = LazyLock::new(|| {
    let mut themes = syntect::highlighting::ThemeSet::load_defaults().themes;
    let theme = themes
        .remove(SYNTECT_THEME)
        .or_else(|| themes.into_values().next());
    Assets {
        syntaxes: SyntaxSet::load_defaults_newlines(),
        theme,
    }
});

/// Languages whose regexes `preload` compiles ahead of time (syntect compiles a syntax's
/// regexes on its first use, which costs tens of milliseconds for the big grammars).
const PRELOAD_LANGUAGES: [&str; 6] = ["rust", "python", "bash", "js", "json", "diff"];

pub fn preload() {
    let assets = &*ASSETS;
    let Some(theme) = assets.theme.as_ref() else {
        return;
    };
    let highlighter = Highlighter::new(theme);
    for lang in PRELOAD_LANGUAGES {
        if let Some(syntax) = assets.syntaxes.find_syntax_by_token(lang) {
            let mut parse = ParseState::new(syntax);
            let mut state = HighlightState::new(&highlighter, ScopeStack::new());
            let _ = highlight_line("x = \"1\" // 2\n", &mut parse, &mut state, &highlighter);
        }
    }
}

/// One highlighted token: colour and font style as syntect gave them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Token {
    rgb: (u8, u8, u8),
    bold: bool,
    italic: bool,
    len: usize,
}

/// A block highlighted up to the end of `code` (which ends with a newline).
struct Highlighted {
    lang: String,
    code: String,
    lines: Vec<Vec<Token>>,
    parse: ParseState,
    highlight: HighlightState,
}

thread_local! {
    static CACHE: RefCell<Vec<Highlighted>> = const { RefCell::new(Vec::new()) };
}

/// Highlights `code` as `lang`; one entry per line of `code`. `None` when the language is
/// unknown or the block is over the size caps.
pub fn highlight(code: &str, lang: &str, theme: &Theme) -> Option<Vec<Vec<Span<'static>>>> {
    if lang.is_empty() || code.len() > MAX_HIGHLIGHT_BYTES {
        return None;
    }
    if code.lines().any(|l| l.len() > MAX_HIGHLIGHT_LINE_BYTES) {
        return None;
    }
    let assets = &*ASSETS;
    let syntect_theme = assets.theme.as_ref()?;
    let syntax = assets.syntaxes.find_syntax_by_token(lang)?;
    let highlighter = Highlighter::new(syntect_theme);

    // Only complete lines are cached; a trailing partial line is highlighted on a copy.
    let complete_len = code.rfind('\n').map_or(0, |i| i + 1);
    let (complete, rest) = code.split_at(complete_len);

    let cached = CACHE.with_borrow_mut(|cache| take_resumable(cache, lang, complete));
    let mut block = cached.unwrap_or_else(|| Highlighted {
        lang: lang.to_string(),
        code: String::new(),
        lines: Vec::new(),
        parse: ParseState::new(syntax),
        highlight: HighlightState::new(&highlighter, ScopeStack::new()),
    });
    let new_part = complete[block.code.len()..].to_string();
    for line in new_part.split_inclusive('\n') {
        let tokens = highlight_line(line, &mut block.parse, &mut block.highlight, &highlighter)?;
        block.lines.push(tokens);
    }
    block.code.push_str(&new_part);

    let mut lines: Vec<Vec<Token>> = block.lines.clone();
    if !rest.is_empty() {
        let mut parse = block.parse.clone();
        let mut state = block.highlight.clone();
        lines.push(highlight_line(rest, &mut parse, &mut state, &highlighter)?);
    }
    let rendered = lines
        .iter()
        .zip(code.split_inclusive('\n'))
        .map(|(tokens, text)| to_spans(tokens, text, theme))
        .collect();
    CACHE.with_borrow_mut(|cache| {
        if cache.len() >= CACHE_BLOCKS {
            cache.remove(0);
        }
        cache.push(block);
    });
    Some(rendered)
}

/// Removes and returns the cached block that `complete` extends (or equals), if any.
fn take_resumable(cache: &mut Vec<Highlighted>, lang: &str, complete: &str) -> Option<Highlighted> {
    let pos = cache
        .iter()
        .rposition(|b| b.lang == lang && complete.starts_with(b.code.as_str()))?;
    Some(cache.remove(pos))
}

fn highlight_line(
    line: &str,
    parse: &mut ParseState,
    state: &mut HighlightState,
    highlighter: &Highlighter<'_>,
) -> Option<Vec<Token>> {
    let ops = parse.parse_line(line, &ASSETS.syntaxes).ok()?;
    let tokens = HighlightIterator::new(state, &ops, line, highlighter)
        .map(|(style, text)| Token {
            rgb: (style.foreground.r, style.foreground.g, style.foreground.b),
            bold: style.font_style.contains(FontStyle::BOLD),
            italic: style.font_style.contains(FontStyle::ITALIC),
            len: text.len(),
        })
        .collect();
    Some(tokens)
}

fn to_spans(tokens: &[Token], text: &str, theme: &Theme) -> Vec<Span<'static>> {
    let mut spans: Vec<Span<'static>> = Vec::new();
    let mut at = 0;
    for token in tokens {
        let end = (at + token.len).min(text.len());
        let piece = text.get(at..end).unwrap_or_default().trim_end_matches('\n');
        at = end;
        let mut style: Style = theme.rgb(token.rgb.0, token.rgb.1, token.rgb.2);
        if token.bold {
            style = style.add_modifier(Modifier::BOLD);
        }
        if token.italic {
            style = style.add_modifier(Modifier::ITALIC);
        }
        super::wrap::push_styled(&mut spans, piece, style);
    }
    spans
}
