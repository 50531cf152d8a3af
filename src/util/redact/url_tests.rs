use super::*;

#[test]
fn userinfo_is_removed_and_the_rest_kept() {
    let cases = [
        ("http://admin:pw@host/v1", "http://host/v1"),
        (
            "https://user:p%40ss@example.com:8443/v1?x=1#f",
            "https://example.com:8443/v1?x=1#f",
        ),
        ("http://token@127.0.0.1:9000", "http://127.0.0.1:9000"),
        ("http://a:b@c@host/v1", "http://host/v1"),
        ("admin:pw@host/v1", "host/v1"),
    ];
    for (input, want) in cases {
        assert_eq!(strip_url_credentials(input), want, "input {input:?}");
    }
}

#[test]
fn urls_without_userinfo_come_back_borrowed() {
    for url in [
        "https://api.openai.com/v1",
        "http://127.0.0.1:8080/v1?email=a@b.c",
        "http://host/v1/user@x",
        "",
        "not a url",
    ] {
        assert!(
            matches!(strip_url_credentials(url), Cow::Borrowed(u) if u == url),
            "{url:?}"
        );
    }
}
