#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;

#[test]
fn finds_nested_key() {
    let text = "name: x\ncolors:\n  # c\n  ui_accent: \"#fff\"\n";
    assert_eq!(locate(text, &["colors", "ui_accent"]), Some(4));
}
