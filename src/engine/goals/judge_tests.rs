use super::*;

#[test]
fn strict_json_is_read() {
    let judged = parse_verdict(r#"{"done": false, "reason": "2 of 4 files created; 2 remain."}"#);
    assert_eq!(judged.outcome, VerdictOutcome::Continue);
    assert_eq!(judged.reason, "2 of 4 files created; 2 remain.");
    let judged = parse_verdict(r#"{"done":true,"reason":"All four files exist."}"#);
    assert_eq!(judged.outcome, VerdictOutcome::Done);
}

#[test]
fn a_fence_or_a_sentence_around_the_object_is_tolerated() {
    let fenced = "```json\n{\"done\": true, \"reason\": \"ok\"}\n```";
    assert_eq!(parse_verdict(fenced).outcome, VerdictOutcome::Done);
    let chatty =
        "Sure! Here is my verdict: {\"done\": false, \"reason\": \"not yet\"} Hope it helps.";
    assert_eq!(parse_verdict(chatty).outcome, VerdictOutcome::Continue);
    let stringly = r#"{"done": "TRUE", "reason": "x"}"#;
    assert_eq!(parse_verdict(stringly).outcome, VerdictOutcome::Done);
}

#[test]
fn anything_else_is_unreadable_and_says_what_came() {
    for answer in [
        "",
        "yes, done",
        "{\"reason\": \"no done field\"}",
        "{\"done\": 1, \"reason\": \"number\"}",
        "[true]",
        "{not json}",
    ] {
        let judged = parse_verdict(answer);
        assert_eq!(judged.outcome, VerdictOutcome::Unreadable, "{answer:?}");
        assert!(judged.reason.contains("not the JSON"), "{}", judged.reason);
    }
    assert!(parse_verdict("").reason.contains("an empty answer"));
}

#[test]
fn a_missing_reason_is_named_and_a_long_one_is_cut() {
    assert_eq!(
        parse_verdict(r#"{"done": false}"#).reason,
        "(the judge gave no reason)"
    );
    let long = format!(r#"{{"done": false, "reason": "{}"}}"#, "x".repeat(1_000));
    let reason = parse_verdict(&long).reason;
    assert_eq!(reason.chars().count(), 400);
    assert!(reason.ends_with('…'));
}

#[test]
fn the_prompt_has_the_goal_the_criteria_and_the_end_of_the_reply() {
    let reply = format!("{}THE END", "a".repeat(10_000));
    let prompt = judge_prompt(
        "ship it",
        &["tests pass".to_string(), "docs updated".to_string()],
        &reply,
    );
    assert!(prompt.starts_with("Goal: ship it\n"));
    assert!(prompt.contains("1. tests pass\n2. docs updated\n"));
    assert!(prompt.contains("THE END"));
    let quoted = prompt.split("---\n").nth(1).unwrap();
    assert_eq!(quoted.trim_end().chars().count(), SNIPPET_CHARS);
    let none = judge_prompt("g", &[], "  ");
    assert!(none.contains("(the reply was empty)"));
    assert!(!none.contains("Additional criteria"));
}

#[test]
fn the_tail_is_cut_on_a_character_boundary() {
    let text = "é".repeat(10);
    assert_eq!(tail_chars(&text, 3), "ééé");
    assert_eq!(tail_chars("abc", 10), "abc");
}
