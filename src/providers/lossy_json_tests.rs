use serde_json::Value;

use super::*;

#[test]
fn a_lone_high_surrogate_becomes_the_replacement_character() {
    let v: Value = from_str(r#"{"content":"smile \ud83d now"}"#).unwrap();
    assert_eq!(v["content"], "smile \u{fffd} now");
}

#[test]
fn a_lone_low_surrogate_and_one_at_the_end_are_replaced() {
    let v: Value = from_str(r#"["\ude00x","y\ud800"]"#).unwrap();
    assert_eq!(v[0], "\u{fffd}x");
    assert_eq!(v[1], "y\u{fffd}");
}

#[test]
fn a_proper_pair_and_other_escapes_are_kept() {
    let text = r#"{"a":"\ud83d\ude00","b":"\\ud800 is text","c":"\u00e9\n"}"#;
    let v: Value = from_str(text).unwrap();
    assert_eq!(v["a"], "😀");
    assert_eq!(v["b"], "\\ud800 is text");
    assert_eq!(v["c"], "é\n");
    assert_eq!(replace_lone_surrogates(text), text);
}

#[test]
fn malformed_json_is_still_an_error() {
    assert!(from_str::<Value>(r#"{"a": "\ud800"#).is_err());
    assert!(from_str::<Value>("{not json").is_err());
}

#[test]
fn null_reads_as_an_empty_list() {
    #[derive(serde::Deserialize)]
    struct Chunk {
        #[serde(default, deserialize_with = "null_as_default")]
        choices: Vec<u8>,
    }
    let c: Chunk = serde_json::from_str(r#"{"choices":null}"#).unwrap();
    assert!(c.choices.is_empty());
    let c: Chunk = serde_json::from_str(r#"{}"#).unwrap();
    assert!(c.choices.is_empty());
    let c: Chunk = serde_json::from_str(r#"{"choices":[1]}"#).unwrap();
    assert_eq!(c.choices, vec![1]);
}
