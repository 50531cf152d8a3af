#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;

const TEXT: &str = "# a skin\nname: x\ncolors:\n  # comment: not a key\n  ui_accent: \"#fff\"\n  \"ui_ok\": \"#0f0\"\nbanner_logo: |\n  colors:\n    ui_warn: inside art\nbranding: {agent_name: A}\nspinner:\n  wings:\n    - [\"<\", \">\"]\ntool_prefix: \"|\"\n";

#[test]
fn finds_nested_and_quoted_keys() {
    assert_eq!(locate(TEXT, &["name"]), Some(2));
    assert_eq!(locate(TEXT, &["colors", "ui_accent"]), Some(5));
    assert_eq!(locate(TEXT, &["colors", "ui_ok"]), Some(6));
    assert_eq!(locate(TEXT, &["spinner", "wings"]), Some(12));
    assert_eq!(locate(TEXT, &["tool_prefix"]), Some(14));
}

#[test]
fn skips_block_scalars_and_falls_back_to_the_parent() {
    // `ui_warn` only appears inside the banner art: the nearest real key is `colors`.
    assert_eq!(locate(TEXT, &["colors", "ui_warn"]), Some(3));
    // Inside a flow mapping: the enclosing key's line.
    assert_eq!(locate(TEXT, &["branding", "agent_name"]), Some(10));
    assert_eq!(locate(TEXT, &["nothing"]), None);
}

#[test]
fn handles_crlf() {
    let text = "colors:\r\n  ui_ok: \"#0f0\"\r\n";
    assert_eq!(locate(text, &["colors", "ui_ok"]), Some(2));
}

#[test]
fn locate_all_finds_every_line_of_a_repeated_key() {
    let text = "colors:\n  status_bar_bg: \"#111111\"\n  ui_ok: \"#0f0\"\n  status_bar_bg: \"#222222\"\nstatus_bar_bg: top\n";
    assert_eq!(locate_all(text, &["colors", "status_bar_bg"]), vec![2, 4]);
    assert_eq!(locate_all(text, &["status_bar_bg"]), vec![5]);
    assert!(locate_all(text, &["colors", "missing"]).is_empty());
}
