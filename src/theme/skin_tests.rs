#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;

#[test]
fn edit_distance_counts_edits() {
    assert_eq!(edit_distance("colours", "colors"), 1);
}
