use super::*;
use crate::util::redact::values::STAND_IN_WORDS;

#[test]
fn words_split_identifiers() {
    assert_eq!(words("OPENAI_API_KEY"), ["OPENAI", "API", "KEY"]);
    assert_eq!(words("APIKey"), ["API", "Key"]);
    assert_eq!(words("clientSecret"), ["client", "Secret"]);
    assert_eq!(words("x-goog-api-key"), ["x", "goog", "api", "key"]);
    assert_eq!(words("S3Key"), ["S3", "Key"]);
    assert_eq!(words("--db.password"), ["db", "password"]);
}

#[test]
fn word_lists_are_sorted_lower_case_for_binary_search() {
    for list in [
        DESCRIBING,
        NEUTRAL_QUALIFIERS,
        PASSWORD_WORDS,
        STRONG_WORDS,
        WEAK_WORDS,
        STAND_IN_WORDS,
    ] {
        let mut sorted = list.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(list, sorted.as_slice());
        assert!(
            list.iter()
                .all(|w| *w == w.to_ascii_lowercase() && w.len() <= 24)
        );
    }
}

#[test]
fn names_get_the_right_strength() {
    let cases = [
        ("OPENAI_API_KEY", Strength::Strong),
        ("GITHUB_TOKEN", Strength::Strong),
        ("clientSecret", Strength::Strong),
        ("basic_auth", Strength::Strong),
        ("DB_PASS", Strength::Password),
        ("password", Strength::Password),
        ("key", Strength::Weak),
        ("token", Strength::Weak),
        ("auth", Strength::Weak),
        ("signature", Strength::Weak),
        ("KEYBOARD", Strength::None),
        ("MONKEY", Strength::None),
        ("tokenizer", Strength::None),
        ("author", Strength::None),
        ("sort_key", Strength::None),
        ("max_token", Strength::None),
        ("PASSWORD_MIN_LENGTH", Strength::None),
        ("api_key_env", Strength::None),
        ("SSH_AUTH_SOCK", Strength::None),
        ("PWD", Strength::None),
        ("authorization", Strength::None),
        ("averyveryverylongwordbeyondthebuffer_key", Strength::Strong),
    ];
    for (name, want) in cases {
        assert!(strength(name) == want, "{name}");
    }
}
