use super::*;

#[derive(Deserialize, Debug)]
struct Sample {
    name: String,
    #[serde(default, deserialize_with = "lenient_u64")]
    count: Option<u64>,
    #[serde(default, deserialize_with = "lenient_f64")]
    secs: Option<f64>,
    #[serde(default, deserialize_with = "lenient_bool")]
    flag: bool,
}

#[test]
fn parses_lenient_fields() {
    let s: Sample = parse(
        "t",
        serde_json::json!({"name": "a", "count": "12", "secs": 1.5, "flag": "true"}),
    )
    .unwrap();
    assert_eq!(
        (s.name.as_str(), s.count, s.secs, s.flag),
        ("a", Some(12), Some(1.5), true)
    );
    let s: Sample = parse("t", serde_json::json!({"name": "a", "count": 3.0})).unwrap();
    assert_eq!((s.count, s.secs, s.flag), (Some(3), None, false));
}

#[test]
fn accepts_json_encoded_string_arguments() {
    let s: Sample = parse("t", serde_json::json!("{\"name\": \"x\"}")).unwrap();
    assert_eq!(s.name, "x");
}

#[test]
fn reports_bad_arguments() {
    let err = parse::<Sample>("read_file", serde_json::json!({"count": 1})).unwrap_err();
    assert_eq!(err.outcome, crate::tools::ToolOutcome::Error);
    assert!(
        err.content.contains("invalid arguments for read_file"),
        "{}",
        err.content
    );
    assert!(err.content.contains("name"), "{}", err.content);
    let err = parse::<Sample>("t", serde_json::json!({"name": "a", "count": -1})).unwrap_err();
    assert!(err.content.contains("non-negative"), "{}", err.content);
}

#[test]
fn previews_first_line() {
    assert_eq!(preview_text("echo hi", 80), "echo hi");
    assert_eq!(preview_text("a\nb", 80), "a…");
    assert_eq!(preview_text("abcdef", 3), "abc…");
}
