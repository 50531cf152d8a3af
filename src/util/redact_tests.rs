use super::*;

fn r(text: &str) -> String {
    redact(text, &[]).into_owned()
}

#[test]
fn provider_key_formats() {
    let cases = [
        (
            "key sk-abcdefghijklmnopqrstuvwxyz123456 end",
            "key sk-*** end",
        ),
        ("sk-ant-api03-AbCdEfGhIjKlMnOpQrStUv-_xyz", "sk-ant-***"),
        ("sk-or-v1-0123456789abcdef0123456789abcdef", "sk-or-***"),
        ("sk-proj-0123456789abcdef0123456789", "sk-proj-***"),
        ("ghp_0123456789abcdefghijABCDEFGHIJ1234", "ghp_***"),
        ("AIzaSyA0123456789abcdefghijklmnopqrstuv", "AIza***"),
        ("hf_abcdefghijklmnopqrstuvwxyz", "hf_***"),
        ("xoxb-1234567890-abcdefghij", "xoxb-***"),
        ("AKIAABCDEFGHIJKLMNOP", "AKIA***"),
    ];
    for (input, want) in cases {
        assert_eq!(r(input), want, "input {input:?}");
    }
}

#[test]
fn headers_and_bearer() {
    assert_eq!(
        r("Authorization: Bearer abc.def-ghi_jkl"),
        "Authorization: Bearer ***"
    );
    assert_eq!(
        r("authorization=Basic dXNlcjpwYXNz"),
        "authorization=Basic ***"
    );
    assert_eq!(r("x-api-key: sk-ant-xyz"), "x-api-key: ***");
    assert_eq!(
        r(r#"{"x-api-key": "abcd1234efgh", "model": "m"}"#),
        r#"{"x-api-key": "***", "model": "m"}"#
    );
    assert_eq!(r("sent Bearer eyJhbGciOiJIUzI1NiJ9.x"), "sent Bearer ***");
    assert_eq!(
        r("headers: {\"authorization\": \"Bearer tok12345678\"}"),
        "headers: {\"authorization\": \"Bearer ***\"}"
    );
}

#[test]
fn assignments() {
    assert_eq!(r("OPENAI_API_KEY=abcdefgh123"), "OPENAI_API_KEY=***");
    assert_eq!(r(r#""api_key": "k-12345678""#), r#""api_key": "***""#);
    assert_eq!(r("GITHUB_TOKEN: gh-something-long"), "GITHUB_TOKEN: ***");
    assert_eq!(r("password = hunter2hunter2"), "password = ***");
}

#[test]
fn known_secret_values() {
    let secrets = vec!["my-local-secret-9".to_string(), "abc".to_string()];
    let out = redact("using my-local-secret-9 and abc", &secrets);
    assert_eq!(out, "using *** and abc");
}

#[test]
fn ordinary_text_is_untouched_and_borrowed() {
    let texts = [
        "The task-list-management-system is risky: risk-assessment-procedures apply.",
        "max_tokens: 4096, tokens=500, token: 5",
        "Install scikit-learn with pip; see sk-learn docs.",
        "The bearer of bad news arrived.",
        "The bearer responsibility matters.",
        "authorization was granted by the board",
        "api_key is empty",
        "base_url: http://localhost:8080/v1",
    ];
    for text in texts {
        let out = redact(text, &[]);
        assert!(
            matches!(out, Cow::Borrowed(_)),
            "changed {text:?} to {out:?}"
        );
    }
}
