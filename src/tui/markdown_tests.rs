use pretty_assertions::assert_eq;
#[allow(clippy::disallowed_types)] // the test checks that code blocks get RGB colours
use ratatui::style::Color;
use ratatui::style::Modifier;

use super::*;

fn theme() -> Theme {
    Theme::default()
}

fn texts(lines: &[Line<'_>]) -> Vec<String> {
    lines
        .iter()
        .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
        .collect()
}

fn render_text(md: &str, width: u16) -> Vec<String> {
    texts(&render(md, width, &theme()))
}

#[test]
fn headings_use_the_heading_role() {
    let lines = render("# Title\n\ntext", 40, &theme());
    assert_eq!(texts(&lines), ["# Title", "", "text"]);
    let heading = theme().style(Role::Heading);
    assert!(lines[0].spans.iter().all(|s| s.style == heading));
}

#[test]
fn emphasis_strong_and_inline_code_are_styled() {
    let lines = render("a *b* **c** `d`", 40, &theme());
    let spans = &lines[0].spans;
    let find = |t: &str| spans.iter().find(|s| s.content == t).map(|s| s.style);
    assert!(find("b").is_some_and(|s| s.add_modifier.contains(Modifier::ITALIC)));
    assert!(find("c").is_some_and(|s| s.add_modifier.contains(Modifier::BOLD)));
    assert_eq!(find("d"), Some(theme().style(Role::Code)));
}

#[test]
fn lists_nest_with_markers_and_indentation() {
    let md = "- one\n- two\n  - nested item that wraps around\n1. first\n2. second\n";
    assert_eq!(
        render_text(md, 20),
        [
            "• one",
            "• two",
            "  ◦ nested item that",
            "    wraps around",
            "",
            "1. first",
            "2. second",
        ]
    );
}

#[test]
fn quotes_links_and_rules() {
    let md = "> quoted\n\n[site](https://x.io) and <https://y.io>\n\n---\n";
    assert_eq!(
        render_text(md, 12),
        [
            "│ quoted",
            "",
            "site (https:",
            "//x.io) and",
            "https://y.io",
            "",
            "────────────",
        ]
    );
}

#[test]
fn code_blocks_are_highlighted_with_rgb_spans() {
    let md = "```rust\nfn main() { let x = 1; }\n```\n";
    let lines = render(md, 60, &theme());
    assert_eq!(texts(&lines), ["  fn main() { let x = 1; }"]);
    let colours: Vec<_> = lines[0].spans.iter().filter_map(|s| s.style.fg).collect();
    assert!(
        colours.iter().any(|c| matches!(c, Color::Rgb(..))),
        "syntect colours: {colours:?}"
    );
    assert!(lines[0].spans.len() > 3, "tokens get their own spans");
}

#[test]
fn unknown_language_is_plain_code() {
    let lines = render("```nosuchlang\nx = 1\n```\n", 40, &theme());
    assert_eq!(texts(&lines), ["  x = 1"]);
    assert_eq!(lines[0].spans[1].style, theme().style(Role::Code));
}

#[test]
fn long_code_lines_break_by_character() {
    let lines = render_text("```\nabcdefghij\n```\n", 6);
    assert_eq!(lines, ["  abcd", "  efgh", "  ij"]);
}

#[test]
fn wrapping_respects_width_including_wide_characters() {
    let md = "漢字漢字漢字 words that wrap and averyveryverylongwordthatbreaks";
    for width in [5_u16, 9, 13, 40] {
        for line in render(md, width, &theme()) {
            assert!(
                line.width() <= usize::from(width),
                "{line:?} wider than {width}"
            );
        }
    }
}

#[test]
fn streaming_renders_only_complete_words() {
    assert_eq!(complete_words("nospace"), "");
    assert_eq!(complete_words("one tw"), "one");
    assert_eq!(complete_words("one\ntwo"), "one");
    let t = theme();
    assert!(render_streaming("Hel", 40, &t).is_empty());
    assert_eq!(
        texts(&render_streaming("# Heading\nsecond li", 40, &t)),
        ["# Heading", "", "second"]
    );
}

#[test]
fn streaming_code_block_highlights_incrementally_and_matches_a_full_render() {
    let t = theme();
    let full = "```python\ndef f(x):\n    return x + 1\nprint(f(2))\n```\n";
    let mut text = String::new();
    for ch in full.chars() {
        text.push(ch);
        let _ = render_streaming(&text, 40, &t);
    }
    assert_eq!(render(full, 40, &t), render(full, 40, &t));
    let fresh = render(full, 40, &t);
    assert_eq!(
        texts(&fresh),
        ["  def f(x):", "      return x + 1", "  print(f(2))"]
    );
}

#[test]
fn wrap_helpers() {
    use wrap::*;
    let line = wrap_spans(&[Span::raw("aaa bbb ccc")], 7);
    let texts: Vec<String> = line
        .iter()
        .map(|l| l.iter().map(|s| s.content.as_ref()).collect())
        .collect();
    assert_eq!(texts, ["aaa bbb", "ccc"]);
    assert_eq!(truncate("abcdef", 4), "abc…");
    assert_eq!(truncate("abc", 4), "abc");
    assert_eq!(sanitize("a\tb\x1b[0m\r"), "a    b[0m");
    // Variation selector 16 goes: `⚠️` is one column in tmux, two by unicode-width.
    assert_eq!(sanitize("⚠\u{FE0F} careful"), "⚠ careful");
    assert_eq!(
        unicode_width::UnicodeWidthStr::width(sanitize("⚠\u{FE0F}").as_ref()),
        1
    );
    assert_eq!(wrap_spans(&[], 5).len(), 1);
}
