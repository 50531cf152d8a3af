use super::*;

#[test]
fn a_repeated_key_keeps_its_last_value_in_the_first_position() {
    let text = "colors:\n  a: \"#111111\"\n  b: \"#222222\"\n  a: \"#333333\"\nname: x\n";
    let parsed = from_str(text).unwrap();
    let colors = parsed.value.get("colors").unwrap().as_mapping().unwrap();
    let keys: Vec<&str> = colors.keys().map(|k| k.as_str().unwrap()).collect();
    assert_eq!(keys, ["a", "b"]);
    assert_eq!(colors.get("a").unwrap().as_str(), Some("#333333"));
    assert_eq!(
        parsed.repeated,
        vec![vec!["colors".to_string(), "a".to_string()]]
    );
    // serde_norway alone refuses the document.
    assert!(serde_norway::from_str::<Value>(text).is_err());
}

#[test]
fn without_repeats_it_equals_serde_norway() {
    let text = "a: 1\nb: [x, 2.5, true, ~]\nc:\n  d: !tag v\n  e: |\n    block\n";
    let parsed = from_str(text).unwrap();
    assert_eq!(parsed.value, serde_norway::from_str::<Value>(text).unwrap());
    assert!(parsed.repeated.is_empty());
}

#[test]
fn repeats_inside_lists_are_named_by_index() {
    let parsed = from_str("items:\n  - k: 1\n    k: 2\n").unwrap();
    assert_eq!(
        parsed.repeated,
        vec![vec!["items".to_string(), "0".to_string(), "k".to_string()]]
    );
}

#[test]
fn syntax_errors_keep_their_location() {
    let err = from_str("a: b\nc: d: e\n").unwrap_err();
    let expected = serde_norway::from_str::<Value>("a: b\nc: d: e\n").unwrap_err();
    assert_eq!(err.to_string(), expected.to_string());
    assert_eq!(err.location().map(|l| l.line()), Some(2));
}
