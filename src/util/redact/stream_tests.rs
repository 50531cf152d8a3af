//! The registry is process-wide and tests run in parallel: every test here uses values of its
//! own, with first characters no other test's text is likely to end in.

use super::super::redact_known;
use super::super::register_known_secrets;
use super::*;

fn streamed(pieces: &[&str]) -> (Vec<String>, String) {
    let mut stream = KnownStream::new();
    let mut released: Vec<String> = pieces.iter().map(|p| stream.push(p)).collect();
    released.push(stream.finish());
    let joined = released.concat();
    (released, joined)
}

#[test]
fn a_value_split_across_two_pieces_is_masked() {
    register_known_secrets(["Ⓠq9xK2mP7vR4tL8wN3bH"]);
    let (released, joined) = streamed(&["the key is Ⓠq9xK2", "mP7vR4tL8wN3bH, done"]);
    assert_eq!(joined, "the key is ***, done");
    // The start of the value waited for the second piece; the text before it did not.
    assert_eq!(released[0], "the key is ");
    assert!(
        released.iter().all(|r| !r.contains("Ⓠq9xK2")),
        "{released:?}"
    );
}

#[test]
fn text_that_cannot_start_a_value_is_released_at_once() {
    register_known_secrets(["Ⓡst9xK2mP7vR4tL8wN3"]);
    let mut stream = KnownStream::new();
    assert_eq!(stream.push("hello "), "hello ");
    assert!(!stream.is_holding());
    // A tail that starts the value is held, and released when it turns out not to be one.
    assert_eq!(stream.push("Ⓡst9"), "");
    assert!(stream.is_holding());
    assert_eq!(stream.push("!"), "Ⓡst9!");
    assert_eq!(stream.push("Ⓡs"), "");
    assert_eq!(stream.finish(), "Ⓡs");
}

#[test]
fn any_split_masks_exactly_as_the_whole_text() {
    // A value that is a prefix of another, touching values, a value at the very end, and
    // multi-byte characters around them.
    register_known_secrets(["Ⓢab12cd34", "Ⓢab12cd34ef56gh", "Ⓣzz98yy76"]);
    let text = "é Ⓢab12cd34ef56gh·Ⓢab12cd34Ⓣzz98yy76 Ⓢab12c Ⓢab12cd34";
    let whole = redact_known(text).into_owned();
    assert_eq!(whole, "é ***·*** Ⓢab12c ***");
    let cuts: Vec<usize> = (0..=text.len())
        .filter(|&i| text.is_char_boundary(i))
        .collect();
    for &a in &cuts {
        for &b in cuts.iter().filter(|&&b| b >= a) {
            let (_, joined) = streamed(&[&text[..a], &text[a..b], &text[b..]]);
            assert_eq!(joined, whole, "cut at {a} and {b}");
        }
    }
    // One character at a time, as a slow stream delivers it.
    let chars: Vec<String> = text.chars().map(String::from).collect();
    let pieces: Vec<&str> = chars.iter().map(String::as_str).collect();
    assert_eq!(streamed(&pieces).1, whole);
}
