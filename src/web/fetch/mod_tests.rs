use super::*;

#[test]
fn binary_media_types_are_refused_before_download() {
    for mime in [
        "image/png",
        "image/svg+xml",
        "video/mp4",
        "audio/mpeg",
        "font/woff2",
        "application/zip",
    ] {
        assert!(is_binary(mime), "{mime}");
    }
    for mime in [
        "text/html",
        "application/pdf",
        "application/json",
        "application/octet-stream",
    ] {
        assert!(!is_binary(mime), "{mime}");
    }
}

#[test]
fn media_type_and_charset_of_a_page() {
    let page = FetchedPage {
        final_url: Url::parse("https://example.com/").unwrap(),
        status: 200,
        content_type: Some("Text/HTML; charset=windows-1251".into()),
        body: Vec::new(),
    };
    assert_eq!(page.mime().as_deref(), Some("text/html"));
    assert_eq!(page.charset(), Some("windows-1251"));
}

#[test]
fn options_follow_the_config() {
    let web = WebConfig {
        timeout: 7,
        ..WebConfig::default()
    };
    let options = FetchOptions::from_config(&web, PrivateAddresses::Allowed);
    assert_eq!(options.timeout, Duration::from_secs(7));
    assert_eq!(options.private, PrivateAddresses::Allowed);
    assert_eq!(options.max_bytes, 10 * 1024 * 1024);
    assert_eq!(options.max_redirects, 10);
    let zero = WebConfig {
        timeout: 0,
        ..WebConfig::default()
    };
    assert_eq!(
        FetchOptions::from_config(&zero, PrivateAddresses::Refused).timeout,
        Duration::from_secs(30)
    );
}

#[test]
fn redirect_refusals_name_the_hop() {
    let to = Url::parse("http://localhost:8080/admin").unwrap();
    let err = redirected(
        &to,
        WebError::Blocked {
            reason: "localhost resolves to 127.0.0.1, a loopback address".into(),
        },
    );
    assert_eq!(
        err.to_string(),
        "blocked: redirect to http://localhost:8080/admin refused: localhost resolves to \
         127.0.0.1, a loopback address"
    );
}
