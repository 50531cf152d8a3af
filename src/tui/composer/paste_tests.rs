use super::*;
use pretty_assertions::assert_eq;

#[test]
fn labels_count_lines_or_chars_and_stay_unique() {
    let mut p = PendingPastes::default();
    assert_eq!(p.add("a\nb\nc\n".repeat(400)), "[Pasted 1200 lines]");
    assert_eq!(p.add("x".repeat(1500)), "[Pasted 1500 chars]");
    assert_eq!(p.add("x".repeat(1500)), "[Pasted 1500 chars #2]");
    assert_eq!(p.add("x".repeat(1500)), "[Pasted 1500 chars #3]");
}

#[test]
fn cr_newlines_are_counted_and_normalised_on_expand() {
    let mut p = PendingPastes::default();
    let label = p.add("line\r\n".repeat(300));
    assert_eq!(label, "[Pasted 300 lines]");
    assert_eq!(p.expand(&label), "line\n".repeat(300));
    let label = p.add("old mac\r".repeat(200));
    assert_eq!(label, "[Pasted 200 lines]");
    assert_eq!(p.expand(&label), "old mac\n".repeat(200));
}

#[test]
fn expand_replaces_each_label_once_in_one_pass() {
    let mut p = PendingPastes::default();
    let a = p.add("AAA [Pasted 5 chars]".to_owned());
    let b = p.add("BBBBB".to_owned());
    assert_eq!(b, "[Pasted 5 chars]");
    let text = format!("x {a} y {b} z");
    assert_eq!(p.expand(&text), "x AAA [Pasted 5 chars] y BBBBB z");
    assert_eq!(p.expand("no labels"), "no labels");
}

#[test]
fn spans_and_adjacency_use_char_columns() {
    let mut p = PendingPastes::default();
    let label = p.add("é".repeat(1001));
    assert_eq!(label, "[Pasted 1001 chars]");
    let line = format!("é {label}!");
    let len = label.chars().count();
    assert_eq!(p.spans_in(&line), vec![(2, 2 + len)]);
    assert_eq!(p.label_ending_at(&line, 2 + len), Some(len));
    assert_eq!(p.label_ending_at(&line, 1 + len), None);
    assert_eq!(p.label_starting_at(&line, 2), Some(len));
    assert_eq!(p.label_around(&line, 5), Some((2, 2 + len)));
    assert_eq!(p.label_around(&line, 2), None);
}

#[test]
fn normalises_newlines_and_detects_large() {
    assert_eq!(normalise_newlines("a\r\nb\rc\n"), "a\nb\nc\n");
    assert_eq!(normalise_newlines("\r\r\n\n"), "\n\n\n");
    assert!(!is_large(&"x".repeat(1000)));
    assert!(is_large(&"x".repeat(1001)));
    // 600 two-byte chars: over 1000 bytes but not over 1000 chars.
    assert!(!is_large(&"é".repeat(600)));
}
