use super::*;
use pretty_assertions::assert_eq;
use ratatui_textarea::CursorMove;
use ratatui_textarea::TextArea;
use ratatui_textarea::WrapMode;

/// Rows the real textarea uses for `line` at `width`, read from its screen cursor at the end.
fn textarea_rows(line: &str, width: u16) -> usize {
    let mut ta = TextArea::new(vec![line.to_owned()]);
    ta.set_wrap_mode(WrapMode::WordOrGlyph);
    let area = Rect::new(0, 0, width, 50);
    let mut buf = Buffer::empty(area);
    (&ta).render(area, &mut buf);
    ta.move_cursor(CursorMove::Head);
    ta.move_cursor(CursorMove::End);
    // Render again so the screen map matches the final cursor.
    (&ta).render(area, &mut buf);
    let rows_with_text = (0..50u16)
        .filter(|y| (0..width).any(|x| buf[(x, *y)].symbol() != " "))
        .max()
        .map_or(0, |y| usize::from(y) + 1);
    rows_with_text.max(1)
}

#[test]
fn estimate_matches_the_textarea_for_typical_text() {
    let samples = [
        "short",
        "the quick brown fox jumps over the lazy dog and keeps on running far away",
        "averyveryverylongwordthatmustbesplitbyglyph then some words after it",
        "can't stop, won't stop: e.g. 3.14 is pi; see https://example.com/a/b?c=d",
        "日本語のテキストは幅が二つのセルを使います、そして折り返されます",
        "mixed 日本 text with words and 漢字 again and again and again",
        "a b c d e f g h i j k l m n o p q r s t u v w x y z a b c d e f g",
        "snake_case_identifier another_one and_more_of_them everywhere here",
    ];
    for sample in samples {
        for width in [8u16, 13, 20, 31] {
            assert_eq!(
                wrapped_rows(sample, usize::from(width)),
                textarea_rows(sample, width),
                "{sample:?} at width {width}"
            );
        }
    }
}

#[test]
fn short_lines_take_one_row() {
    assert_eq!(wrapped_rows("", 10), 1);
    assert_eq!(wrapped_rows("0123456789", 10), 1);
    assert_eq!(wrapped_rows("0123456789a", 10), 2);
}

#[test]
fn chunks_follow_word_boundaries() {
    assert_eq!(
        chunks("can't  stop, 3.14"),
        vec!["can't", "  ", "stop", ",", " ", "3.14"]
    );
    assert_eq!(chunks("日本a"), vec!["日", "本", "a"]);
}

#[test]
fn busy_hints_name_the_enter_action() {
    assert_eq!(
        busy_hint_text("interrupt"),
        "agent working — Enter interrupts · Tab queues"
    );
    assert!(busy_hint_text("queue").contains("Enter queues"));
    assert!(busy_hint_text("steer").contains("Enter steers"));
    assert!(busy_hint_text("custom").contains("custom"));
}
