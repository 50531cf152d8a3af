use super::*;

fn yaml(text: &str) -> serde_norway::Value {
    serde_norway::from_str(text).unwrap()
}

#[test]
fn positive_integers_are_the_only_overrides() {
    assert_eq!(resolve(&yaml("8192"), OPENAI_DEFAULT), 8192);
    assert_eq!(resolve(&yaml("1"), OPENAI_DEFAULT), 1);
    for bad in [
        "0", "-5", "2.5", "\"8192\"", "abc", "true", "false", "~", "[1]", "{a: 1}",
    ] {
        assert_eq!(
            resolve(&yaml(bad), OPENAI_DEFAULT),
            OPENAI_DEFAULT,
            "{bad} must fall back"
        );
    }
    assert_eq!(
        resolve(&serde_norway::Value::Null, EDGE_DEFAULT),
        EDGE_DEFAULT
    );
}

#[test]
fn elevenlabs_caps_follow_the_model() {
    assert_eq!(elevenlabs_default("eleven_flash_v2_5"), 40_000);
    assert_eq!(elevenlabs_default("eleven_flash_v2"), 30_000);
    assert_eq!(elevenlabs_default("eleven_multilingual_v2"), 10_000);
    assert_eq!(elevenlabs_default("eleven_multilingual_v1"), 10_000);
    assert_eq!(elevenlabs_default("eleven_english_sts_v2"), 10_000);
    assert_eq!(elevenlabs_default("eleven_english_sts_v1"), 10_000);
    assert_eq!(elevenlabs_default("eleven_v3"), 5000);
    assert_eq!(elevenlabs_default("eleven_ttv_v3"), 5000);
    assert_eq!(elevenlabs_default("something_new"), 10_000);
}

#[test]
fn truncation_counts_characters_not_bytes() {
    assert_eq!(truncate("héllo wörld", 4), "héll");
    assert_eq!(truncate("日本語のテキスト", 3), "日本語");
    assert_eq!(truncate("short", 100), "short");
    assert_eq!(truncate("", 3), "");
    assert_eq!(truncate("abc", 0), "");
}
