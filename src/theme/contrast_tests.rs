#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;

#[test]
fn black_on_white_is_21() {
    assert!((contrast_ratio((0, 0, 0), (255, 255, 255)) - 21.0).abs() < 1e-9);
}
