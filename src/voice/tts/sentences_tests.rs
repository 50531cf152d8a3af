use pretty_assertions::assert_eq;

use super::*;

/// All sentences of `text` pushed in one delta.
fn split(text: &str) -> Vec<String> {
    let mut s = SentenceSplitter::new();
    let mut out = s.push(text);
    out.extend(s.finish());
    out
}

/// All sentences of `text` pushed in the given pieces.
fn split_pieces(pieces: &[&str]) -> Vec<String> {
    let mut s = SentenceSplitter::new();
    let mut out = Vec::new();
    for piece in pieces {
        out.extend(s.push(piece));
    }
    out.extend(s.finish());
    out
}

const SAMPLE: &str = "<think>The user wants a summary. Let me think about it.</think>\
# Release notes\n\n\
Hello there! This is **hermes**, an agent written in Rust. It speaks e.g. replies, i.e. text, \
while Dr. Smith and Mr. Jones listen in the U.S. today. Pi is 3.14 and the version is v1.2.3, \
see `main.rs` or https://example.com/docs.html for more.\n\
\n\
```rust\nfn main() { println!(\"Do not read this. Ever.\"); }\n```\n\
- First item of the list, with a [link](https://example.com/x.y) inside\n\
- Second item is short\n\
1. Ordered item number one here\n\
\n\
| Name | Age |\n|------|-----|\n| Alice | 30 |\n\
\n\
> A quoted line that ends here. And then… it goes on?! Yes.\n\
Unicode: 你好世界。这是第二句话，它足够长吗？好的。\n\
Ending without punctuation";

#[test]
fn the_sample_splits_into_clean_sentences() {
    assert_eq!(
        split(SAMPLE),
        vec![
            "Release notes. Hello there!",
            "This is hermes, an agent written in Rust.",
            "It speaks e.g. replies, i.e. text, while Dr. Smith and Mr. Jones listen in the U.S. today.",
            "Pi is 3.14 and the version is v1.2.3, see main.rs or https://example.com/docs.html for more.",
            "First item of the list, with a link inside.",
            "Second item is short.",
            "Ordered item number one here.",
            "Name, Age. Alice, 30.",
            "A quoted line that ends here.",
            "And then… it goes on?!",
            "Yes. Unicode: 你好世界。这是第二句话，它足够长吗？",
            "好的。Ending without punctuation",
        ]
    );
}

#[test]
fn every_single_split_point_gives_the_same_sentences() {
    let whole = split(SAMPLE);
    for (at, _) in SAMPLE.char_indices().skip(1) {
        assert_eq!(
            split_pieces(&[&SAMPLE[..at], &SAMPLE[at..]]),
            whole,
            "split at byte {at}: {:?}",
            &SAMPLE[..at]
        );
    }
}

#[test]
fn character_by_character_gives_the_same_sentences() {
    let chars: Vec<String> = SAMPLE.chars().map(String::from).collect();
    let pieces: Vec<&str> = chars.iter().map(String::as_str).collect();
    assert_eq!(split_pieces(&pieces), split(SAMPLE));
}

#[test]
fn random_multi_way_splits_give_the_same_sentences() {
    let whole = split(SAMPLE);
    let bounds: Vec<usize> = SAMPLE.char_indices().map(|(i, _)| i).collect();
    let mut rng = fastrand::Rng::with_seed(7);
    for _ in 0..300 {
        let mut cuts: Vec<usize> = (0..rng.usize(2..12))
            .map(|_| bounds[rng.usize(..bounds.len())])
            .collect();
        cuts.push(0);
        cuts.push(SAMPLE.len());
        cuts.sort_unstable();
        cuts.dedup();
        let pieces: Vec<&str> = cuts.windows(2).map(|w| &SAMPLE[w[0]..w[1]]).collect();
        assert_eq!(split_pieces(&pieces), whole, "pieces {pieces:?}");
    }
}

#[test]
fn sentences_come_out_as_soon_as_they_are_certain() {
    let mut s = SentenceSplitter::new();
    assert_eq!(s.push("The first sentence is here."), Vec::<String>::new());
    // The space proves the full stop ends the sentence.
    assert_eq!(s.push(" The"), vec!["The first sentence is here."]);
    assert_eq!(s.push(" second one is still open"), Vec::<String>::new());
    assert_eq!(s.finish(), vec!["The second one is still open"]);
}

#[test]
fn short_pieces_merge_into_the_next_sentence() {
    assert_eq!(
        split("Sure! Yes. Here is the longer sentence that follows."),
        vec!["Sure! Yes. Here is the longer sentence that follows."]
    );
    // A short tail is still spoken at the end.
    assert_eq!(
        split("This sentence is long enough to stand alone. Ok."),
        vec!["This sentence is long enough to stand alone.", "Ok."]
    );
    assert_eq!(split("Hi."), vec!["Hi."]);
    assert_eq!(split(""), Vec::<String>::new());
    assert_eq!(split("   \n\n  "), Vec::<String>::new());
}

#[test]
fn abbreviations_and_dotted_words_do_not_end_sentences() {
    let cases = [
        "We met Dr. Who and Mrs. Hudson at noon today.",
        "Bring fruit, e.g. apples, and so on, i.e. food.",
        "Cats vs. dogs is a debate etc. that never ends.",
        "The U.S. and the U.K. signed it in the morning.",
        "Edit src/main.rs and config.yaml then run v1.2.3 now.",
        "Visit https://docs.rs/tokio/1.0/tokio.html for the details.",
        "The value 3.14159 is close to pi in most cases.",
        "J. R. R. Tolkien wrote a great many books.",
    ];
    for case in cases {
        let got = split(&format!("{case} Then a second sentence follows here."));
        assert_eq!(got.len(), 2, "{case}: {got:?}");
        assert_eq!(got[0], case);
    }
}

#[test]
fn fenced_code_is_dropped_even_when_the_fence_is_split() {
    let text = "Here is the code you asked for today.\n```python\nprint('Not spoken. At all.')\n```\nAnd that is the end of the answer.";
    let expected = vec![
        "Here is the code you asked for today.",
        "And that is the end of the answer.",
    ];
    assert_eq!(split(text), expected);
    assert_eq!(
        split_pieces(&[
            "Here is the code you asked for today.\n`",
            "`",
            "`py",
            "thon\nprint('Not spoken. At all.')\n`",
            "``\nAnd that is the end of the answer."
        ]),
        expected
    );
    // Tilde fences, longer fences, and an unclosed fence at the end.
    assert_eq!(
        split(
            "Look at this example below.\n~~~~\n```\nnot a close\n~~~~\nAfter the fence comes text.\n```\nnever closed. Never spoken."
        ),
        vec!["Look at this example below.", "After the fence comes text."]
    );
}

#[test]
fn think_blocks_are_dropped_even_when_split() {
    let expected = vec!["The answer is forty-two, of course."];
    assert_eq!(
        split("<think>Hmm. Let me reason. 6 × 7.</think>The answer is forty-two, of course."),
        expected
    );
    assert_eq!(
        split_pieces(&[
            "<th",
            "ink>Hmm. Secret. </thi",
            "nk",
            ">The answer is forty-two, of course."
        ]),
        expected
    );
    // A think block in the middle, and one never closed.
    assert_eq!(
        split(
            "Before the thought. <think>hidden</think>After the thought it continues. <think>never closed."
        ),
        vec!["Before the thought. After the thought it continues."]
    );
    // A lone `<` is text.
    assert_eq!(
        split("Use a < b and a <b> tag in the markup."),
        vec!["Use a < b and a <b> tag in the markup."]
    );
}

#[test]
fn markdown_is_stripped() {
    assert_eq!(
        split(
            "## A heading ##\nSome *emphasis*, __strong__, ~~gone~~ and `code` with snake_case_name here."
        ),
        vec!["A heading. Some emphasis, strong, gone and code with snake_case_name here."]
    );
    assert_eq!(
        split("See [the docs](https://x.io/a.b) and ![a diagram](d.png) and [ref][1] for more."),
        vec!["See the docs and a diagram and ref for more."]
    );
    assert_eq!(
        split(
            "* star bullet item text is here\n+ plus bullet item text is here\n2) paren item text is here"
        ),
        vec![
            "star bullet item text is here.",
            "plus bullet item text is here.",
            "paren item text is here.",
        ]
    );
    assert_eq!(
        split("Above the rule there is text.\n\n---\n\nBelow the rule there is text."),
        vec![
            "Above the rule there is text.",
            "Below the rule there is text."
        ]
    );
}

#[test]
fn blank_lines_end_sentences_without_punctuation() {
    assert_eq!(
        split("A paragraph without a full stop\n\nAnother paragraph without one"),
        vec![
            "A paragraph without a full stop",
            "Another paragraph without one"
        ]
    );
    // A single newline is only a space.
    assert_eq!(
        split("One sentence that is\nwrapped over two lines."),
        vec!["One sentence that is wrapped over two lines."]
    );
}

#[test]
fn emphasis_and_quotes_after_punctuation_stay_with_the_sentence() {
    assert_eq!(
        split("**This is important.** \"And so is this!\" Then plain text follows."),
        vec![
            "This is important. \"And so is this!\"",
            "Then plain text follows."
        ]
    );
}

#[test]
fn number_lines_that_are_not_lists_are_text() {
    assert_eq!(
        split("2024 was a year with many releases.\n3.14 is an approximation of pi."),
        vec![
            "2024 was a year with many releases.",
            "3.14 is an approximation of pi."
        ]
    );
}

#[test]
fn finish_resets_for_the_next_reply() {
    let mut s = SentenceSplitter::new();
    s.push("```\nunfinished code");
    assert_eq!(s.finish(), Vec::<String>::new());
    assert_eq!(
        s.push("A new reply starts fresh here. "),
        vec!["A new reply starts fresh here."]
    );
    s.reset();
    assert_eq!(s.finish(), Vec::<String>::new());
}

#[test]
fn min_chars_zero_never_merges() {
    let mut s = SentenceSplitter::with_min_chars(0);
    let mut out = s.push("Hi. Yo. ");
    out.extend(s.finish());
    assert_eq!(out, vec!["Hi.", "Yo."]);
}
