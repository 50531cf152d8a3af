use super::*;

/// Feeds `parts` and returns (visible, reasoning) concatenated.
fn run(parts: &[&str]) -> (String, String) {
    let mut s = ThinkScrubber::new();
    let mut pieces = Vec::new();
    for p in parts {
        pieces.extend(s.push(p));
    }
    pieces.extend(s.finish());
    let mut text = String::new();
    let mut reasoning = String::new();
    for piece in pieces {
        match piece {
            Scrubbed::Text(t) => text.push_str(&t),
            Scrubbed::Reasoning(r) => reasoning.push_str(&r),
        }
    }
    (text, reasoning)
}

#[test]
fn whole_block_in_one_delta() {
    let (text, reasoning) = run(&["<think>plan it</think>\n\nHello"]);
    assert_eq!(text, "Hello");
    assert_eq!(reasoning, "plan it");
}

#[test]
fn split_at_every_position_gives_same_result() {
    let input = "Hi <think>step 1 < 2</think> there <thinking>more</thinking>end <thin";
    for a in 0..=input.len() {
        for b in a..=input.len() {
            let (text, reasoning) = run(&[&input[..a], &input[a..b], &input[b..]]);
            assert_eq!(text, "Hi there end <thin", "split at {a},{b}");
            assert_eq!(reasoning, "step 1 < 2more", "split at {a},{b}");
        }
    }
}

#[test]
fn byte_by_byte_with_multibyte_chars() {
    let input = "é<think>ü</think>ß";
    let mut s = ThinkScrubber::new();
    let mut text = String::new();
    let mut reasoning = String::new();
    // Feed char by char (a delta is always valid UTF-8).
    for ch in input.chars() {
        for piece in s.push(&ch.to_string()) {
            match piece {
                Scrubbed::Text(t) => {
                    assert!(!t.contains('<'), "tag leaked: {t}");
                    text.push_str(&t)
                }
                Scrubbed::Reasoning(r) => reasoning.push_str(&r),
            }
        }
    }
    assert!(s.finish().is_empty());
    assert_eq!(text, "éß");
    assert_eq!(reasoning, "ü");
}

#[test]
fn visible_text_is_released_as_soon_as_it_cannot_be_a_tag() {
    let mut s = ThinkScrubber::new();
    assert_eq!(s.push("Hello <"), vec![Scrubbed::Text("Hello ".into())]);
    assert_eq!(s.push("b>"), vec![Scrubbed::Text("<b>".into())]);
}

#[test]
fn unclosed_block_is_reasoning() {
    let (text, reasoning) = run(&["<think>never ", "closed </thi"]);
    assert_eq!(text, "");
    assert_eq!(reasoning, "never closed </thi");
}

#[test]
fn mismatched_close_does_not_end_block() {
    let (text, reasoning) = run(&["<think>a</thinking>b</think>c"]);
    assert_eq!(text, "c");
    assert_eq!(reasoning, "a</thinking>b");
}

#[test]
fn plain_text_passes_through() {
    let (text, reasoning) = run(&["a < b and c > d"]);
    assert_eq!(text, "a < b and c > d");
    assert_eq!(reasoning, "");
}
