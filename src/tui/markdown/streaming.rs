//! Rendering a message while it streams, without re-rendering all of it for every delta.
//!
//! The text is cut at its last block boundary — a blank line outside a code fence — into a
//! stable head, rendered once and cached (per width and theme; when it grows, only the new
//! blocks are rendered and appended), and a tail re-rendered each frame. Only the UI thread renders, so the cache is a thread-local holding one message.
//!
//! Invariant: the lines equal `render(complete_words(text))` for ordinary markdown
//! (paragraphs, headings, lists, quotes, fenced code): blocks separated by a blank line render
//! independently, with one blank line between them. A construct that spans a blank line (a
//! list item's indented continuation paragraph) may look different while streaming; the
//! finished message is always rendered whole.

use std::cell::RefCell;

use ratatui::text::Line;

use super::complete_words;
use super::render;
use crate::theme::Theme;

struct Head {
    text: String,
    width: u16,
    theme: Theme,
    lines: Vec<Line<'static>>,
}

thread_local! {
    static HEAD: RefCell<Option<Head>> = const { RefCell::new(None) };
}

/// Renders a message that is still streaming: complete words only (see `render_streaming`).
pub fn render_streaming(text: &str, width: u16, theme: &Theme) -> Vec<Line<'static>> {
    let shown = complete_words(text);
    let Some(cut) = block_boundary(shown) else {
        return render(shown, width, theme);
    };
    let (head, tail) = shown.split_at(cut);
    let mut lines = HEAD.with(|cache| {
        let mut cache = cache.borrow_mut();
        let same_view = |c: &Head| c.width == width && c.theme == *theme;
        match cache.as_mut() {
            Some(c) if same_view(c) && c.text == head => {}
            // The head grew by whole blocks: render only the new ones.
            Some(c) if same_view(c) && !c.text.is_empty() && head.starts_with(&c.text) => {
                let added = render(&head[c.text.len()..], width, theme);
                if !c.lines.is_empty() && !added.is_empty() {
                    c.lines.push(Line::default());
                }
                c.lines.extend(added);
                c.text = head.to_string();
            }
            _ => {
                *cache = Some(Head {
                    text: head.to_string(),
                    width,
                    theme: theme.clone(),
                    lines: render(head, width, theme),
                });
            }
        }
        cache.as_ref().map(|c| c.lines.clone()).unwrap_or_default()
    });
    let tail_lines = render(tail, width, theme);
    if !lines.is_empty() && !tail_lines.is_empty() {
        lines.push(Line::default());
    }
    lines.extend(tail_lines);
    lines
}

/// The byte offset just after the last blank line that is outside a code fence, if the text
/// has one with something after it.
fn block_boundary(text: &str) -> Option<usize> {
    let mut in_fence = false;
    let mut boundary = None;
    let mut offset = 0;
    let mut previous_blank = false;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            in_fence = !in_fence;
        }
        let blank = line.trim().is_empty();
        if !in_fence && previous_blank && !blank && offset > 0 {
            boundary = Some(offset);
        }
        previous_blank = blank && !in_fence;
        offset += line.len();
    }
    boundary.filter(|&cut| cut < text.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(lines: &[Line<'static>]) -> Vec<String> {
        lines
            .iter()
            .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
            .collect()
    }

    #[test]
    fn split_rendering_matches_whole_rendering_for_ordinary_markdown() {
        let theme = Theme::default();
        let samples = [
            "# Title\n\nFirst paragraph with **bold** text.\n\nSecond paragraph goes on ",
            "Intro:\n\n- one\n- two\n\n1. a\n2. b\n\n> quoted\n\nafter ",
            "Code:\n\n```rust\nfn main() {\n\n    println!(\"x\");\n}\n```\n\nDone and more ",
            "no boundary here at all yet ",
            "para\n\n\n\nafter several blank lines ",
        ];
        for text in samples {
            let whole = render(complete_words(text), 40, &theme);
            let split = render_streaming(text, 40, &theme);
            assert_eq!(plain(&split), plain(&whole), "{text:?}");
            // Again from the cache.
            let cached = render_streaming(text, 40, &theme);
            assert_eq!(plain(&cached), plain(&whole), "{text:?}");
        }
    }

    #[test]
    fn a_head_that_grows_block_by_block_matches_a_whole_render() {
        let theme = Theme::default();
        let mut text = String::new();
        for i in 0..12 {
            text.push_str(&format!("Paragraph {i} has **some** words in it.\n\n"));
            if i % 3 == 0 {
                text.push_str("- a list item\n- another\n\n");
            }
            text.push_str("tail words ");
            let whole = render(complete_words(&text), 30, &theme);
            assert_eq!(
                plain(&render_streaming(&text, 30, &theme)),
                plain(&whole),
                "{i}"
            );
            text.truncate(text.len() - "tail words ".len());
        }
    }

    #[test]
    fn a_blank_line_inside_a_code_fence_is_not_a_boundary() {
        assert_eq!(block_boundary("```\na\n\nb\n```\n"), None);
        assert_eq!(block_boundary("a\n\nb"), Some(3));
        assert_eq!(block_boundary("a\n\n"), None);
    }
}
