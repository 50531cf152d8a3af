#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;

#[test]
fn colorfgbg() {
    assert_eq!(from_colorfgbg("15;0"), Some(Background::Dark));
    assert_eq!(from_colorfgbg("0;15"), Some(Background::Light));
    assert_eq!(from_colorfgbg("default;default"), None);
}
