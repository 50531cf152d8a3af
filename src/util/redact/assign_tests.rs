use super::*;

#[test]
fn values_that_are_code_or_stand_ins_survive() {
    for (name, value) in [
        ("api_key", "api_key"),
        ("token", "self.token"),
        ("password", "String"),
        ("secret", "secretValue"),
        ("API_KEY", "process.env.API_KEY"),
        ("api_key", "Option<String>"),
    ] {
        assert!(!masks(name, value, Quoting::Bare), "{name}={value}");
    }
    for (name, value) in [
        ("password", "true"),
        ("api_key", "${API_KEY}"),
        ("api_key", "your_api_key"),
        ("api_key", "OPENAI_API_KEY"),
        ("secret", "xxxxxxxxxx"),
        ("credentials", "/home/u/.config/gcloud/creds.json"),
        ("auth_url", "https://example.com/oauth"),
    ] {
        assert!(!masks(name, value, Quoting::Quoted), "{name}={value}");
    }
    // A quoted literal is data, not code; a password under a path-looking value still is one.
    assert!(masks("secret", "secretValue1", Quoting::Quoted));
    assert!(masks("password", "/etc/s3cret", Quoting::Bare));
    assert!(masks("password", "$2b$12$abcdefghijk", Quoting::Quoted));
}

#[test]
fn values_are_read_in_every_quoting() {
    fn at(text: &str) -> Option<(&str, bool)> {
        value_at(text, 0).map(|(r, q)| (&text[r], q == Quoting::Quoted))
    }
    assert_eq!(at(r#" "a\"b" rest"#), Some((r#"a\"b"#, true)));
    assert_eq!(at(r#"\"abc\", x"#), Some(("abc", true)));
    assert_eq!(at("'it' x"), Some(("it", true)));
    assert_eq!(at("\tbare,next"), Some(("bare", false)));
    assert_eq!(at(r#""unterminated"#), None);
    assert_eq!(at(" \n"), None);
}
