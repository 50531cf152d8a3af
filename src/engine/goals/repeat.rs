//! The repeated-reply guard: a goal loop whose last replies are nearly the same text is going
//! round in circles, and pausing it saves the budget.
//!
//! "Nearly the same" is deliberately narrow, so genuine progress is never taken for a loop:
//! replies are compared after case, whitespace and punctuation are normalised; equal text
//! always counts, and similar text counts only when it is long (short progress notes such as
//! "Created note_2.txt" and "Created note_3.txt" differ in the one thing that matters) and at
//! least [`SIMILARITY`] alike by normalised Levenshtein distance. Digits are kept for the same
//! reason. Comparison is bounded to the last [`COMPARED_CHARS`] characters.

/// Characters of a reply kept and compared.
pub const COMPARED_CHARS: usize = 2_000;
/// Replies shorter than this must match exactly (after normalising).
pub const MIN_FUZZY_CHARS: usize = 80;
/// Normalised Levenshtein similarity at which long replies count as the same.
pub const SIMILARITY: f64 = 0.95;

/// Lower case, words joined by single spaces, punctuation dropped; the last
/// [`COMPARED_CHARS`] characters.
pub fn normalise(reply: &str) -> String {
    let words: Vec<String> = reply
        .split_whitespace()
        .map(|w| {
            w.chars()
                .filter(|c| c.is_alphanumeric())
                .flat_map(char::to_lowercase)
                .collect::<String>()
        })
        .filter(|w| !w.is_empty())
        .collect();
    let joined = words.join(" ");
    let skip = joined.chars().count().saturating_sub(COMPARED_CHARS);
    joined.chars().skip(skip).collect()
}

/// Whether two normalised replies are nearly the same.
pub fn near_identical(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    let shorter = a.chars().count().min(b.chars().count());
    shorter >= MIN_FUZZY_CHARS && strsim::normalized_levenshtein(a, b) >= SIMILARITY
}

/// Whether the last `limit` normalised replies are all nearly the same as the newest.
pub fn stuck(recent: &[String], limit: usize) -> bool {
    if limit < 2 || recent.len() < limit {
        return false;
    }
    let window = &recent[recent.len() - limit..];
    let newest = &window[limit - 1];
    window[..limit - 1]
        .iter()
        .all(|r| near_identical(r, newest))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn norm(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| normalise(s)).collect()
    }

    #[test]
    fn identical_replies_in_a_row_are_stuck() {
        let same = "I could not find the file. Let me try again.";
        assert!(stuck(&norm(&[same, same, same]), 3));
        assert!(!stuck(&norm(&[same, same]), 3), "two are not three");
    }

    #[test]
    fn case_space_and_punctuation_do_not_hide_a_repeat() {
        let replies = norm(&[
            "I could not find the file.  Let me try again!",
            "i could not find the file — let me try again",
            "I could NOT find the file; let me try again.",
        ]);
        assert!(stuck(&replies, 3));
    }

    #[test]
    fn short_progress_notes_are_progress() {
        let replies = norm(&[
            "Created /tmp/note_1.txt.",
            "Created /tmp/note_2.txt.",
            "Created /tmp/note_3.txt.",
        ]);
        assert!(!stuck(&replies, 3));
    }

    #[test]
    fn long_replies_that_differ_a_little_are_stuck_and_ones_that_differ_more_are_not() {
        let base = "I ran the test suite again and the same three tests in tests/parser.rs \
                    still fail with the same assertion about the token stream. ";
        let a = format!("{base}Trying again.");
        let b = format!("{base}Trying again soon.");
        let c = format!("{base}Trying again now.");
        assert!(stuck(&norm(&[&a, &b, &c]), 3));
        let d = "I fixed the parser: two of the three failing tests now pass; the last one \
                 needs the lexer to keep comments, which I will change next.";
        assert!(!stuck(&norm(&[&a, &b, d]), 3));
    }

    #[test]
    fn only_the_last_replies_count() {
        let same = "Nothing changed.";
        let replies = norm(&["Different first.", same, same, same]);
        assert!(stuck(&replies, 3));
        let replies = norm(&[same, same, "Progress at last."]);
        assert!(!stuck(&replies, 3));
    }

    #[test]
    fn normalise_keeps_digits_and_bounds_length() {
        assert_eq!(normalise("Step 2 of 4: done."), "step 2 of 4 done");
        let long = "word ".repeat(2_000);
        assert_eq!(normalise(&long).chars().count(), COMPARED_CHARS);
    }
}
