use super::*;

#[test]
fn hunk_for_a_mid_line_edit_shows_whole_lines() {
    let edit = plan("alpha beta gamma\nnext\n", "beta", "BETA", false).unwrap();
    assert_eq!(edit.new_content, "alpha BETA gamma\nnext\n");
    assert_eq!(
        edit.summary,
        "1 replacement\n@@ line 1: -1 +1 @@\n-alpha beta gamma\n+alpha BETA gamma"
    );
}
