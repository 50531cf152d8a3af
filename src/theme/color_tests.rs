#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;

#[test]
fn parses_hex_and_names() {
    assert_eq!(parse_color("#FFD700"), Some((255, 215, 0)));
    assert_eq!(parse_color("#fd0"), Some((255, 221, 0)));
    assert_eq!(parse_color("white"), Some((229, 229, 229)));
    assert_eq!(parse_color("#12345"), None);
}
