use super::*;

#[test]
fn plain_text_only_has_its_whitespace_collapsed() {
    assert_eq!(
        clean_inline("  Hello,   world!\tFine.  "),
        "Hello, world! Fine."
    );
    assert_eq!(clean_inline(""), "");
}

#[test]
fn emphasis_and_code_marks_go_but_their_text_stays() {
    assert_eq!(clean_inline("**bold** *it* ***both***"), "bold it both");
    assert_eq!(
        clean_inline("__strong__ _em_ ~~strike~~"),
        "strong em strike"
    );
    assert_eq!(clean_inline("run `cargo test` now"), "run cargo test now");
    assert_eq!(
        clean_inline("keep snake_case and a_b_c"),
        "keep snake_case and a_b_c"
    );
    // A single tilde is text.
    assert_eq!(clean_inline("~5 minutes"), "~5 minutes");
}

#[test]
fn links_and_images_keep_their_labels() {
    assert_eq!(
        clean_inline("see [the **docs**](https://x.y/z)"),
        "see the docs"
    );
    assert_eq!(clean_inline("![alt text](img.png) here"), "alt text here");
    assert_eq!(clean_inline("[ref style][1] link"), "ref style link");
    // Not links: brackets without a target, an unclosed target, a spaced target.
    assert_eq!(clean_inline("an [aside] only"), "an [aside] only");
    assert_eq!(clean_inline("[open](no close"), "[open](no close");
    assert_eq!(clean_inline("[a] (b c)"), "[a] (b c)");
    assert_eq!(clean_inline("wow! [x](y)"), "wow! x");
}
