use std::time::Duration;

use reqwest::header::HeaderMap;
use reqwest::header::HeaderValue;

use super::*;
use crate::web::backends::testing::Recorder;
use crate::web::backends::testing::client;
use crate::web::backends::testing::env_of;

fn service(key: Option<&str>) -> Service {
    let service = Service::new(
        BackendName::Tavily,
        client(),
        "http://127.0.0.1:9".into(),
        Duration::from_secs(5),
    );
    match key {
        Some(key) => service.with_key("TAVILY_API_KEY", Some(key.into())),
        None => service,
    }
}

fn failure(status: u16, body: &str) -> Failure {
    Failure {
        status,
        retry_after: None,
        body: body.into(),
    }
}

#[test]
fn retry_after_in_seconds_a_date_or_brave_reset() {
    let mut headers = HeaderMap::new();
    headers.insert("retry-after", HeaderValue::from_static("17"));
    assert_eq!(retry_after(&headers), Some(17));

    let soon = chrono::Utc::now() + chrono::Duration::seconds(120);
    let mut headers = HeaderMap::new();
    headers.insert(
        "retry-after",
        HeaderValue::from_str(&soon.to_rfc2822()).unwrap(),
    );
    let wait = retry_after(&headers).unwrap();
    assert!((118..=120).contains(&wait), "{wait}");

    let mut headers = HeaderMap::new();
    headers.insert("x-ratelimit-reset", HeaderValue::from_static("1, 1419704"));
    assert_eq!(retry_after(&headers), Some(1));
    assert_eq!(retry_after(&HeaderMap::new()), None);
}

#[test]
fn status_mapping() {
    let keyed = service(Some("tvly-secret"));
    assert_eq!(
        keyed.failure(&failure(401, "")),
        WebError::Unauthorized {
            backend: "Tavily",
            status: 401,
            key_hint: "TAVILY_API_KEY".into()
        }
    );
    assert!(matches!(
        keyed.failure(&failure(403, "")),
        WebError::Unauthorized { status: 403, .. }
    ));
    let mut limited = failure(429, "{}");
    limited.retry_after = Some(4);
    assert_eq!(
        keyed.failure(&limited),
        WebError::RateLimited {
            backend: "Tavily",
            retry_after: Some(4)
        }
    );
    assert_eq!(
        keyed.failure(&failure(502, "upstream gone")),
        WebError::Service {
            backend: "Tavily",
            status: 502,
            detail: Some("upstream gone".into())
        }
    );
    // Without a key variable, 401 is the service's own business.
    assert!(matches!(
        service(None).failure(&failure(401, "")),
        WebError::Service { .. }
    ));
}

#[test]
fn details_are_short_key_free_and_never_html() {
    let svc = service(Some("tvly-secret"));
    assert_eq!(
        svc.detail(r#"{"detail":{"error":"bad key tvly-secret"}}"#)
            .as_deref(),
        Some("bad key [key]")
    );
    assert_eq!(svc.detail(r#"{"error":"plain"}"#).as_deref(), Some("plain"));
    assert_eq!(
        svc.detail(r#"{"error":{"message":"nested"}}"#).as_deref(),
        Some("nested")
    );
    assert_eq!(svc.detail(r#"{"message":"top"}"#).as_deref(), Some("top"));
    assert_eq!(svc.detail("<!doctype html><h1>Oops</h1>"), None);
    assert_eq!(svc.detail(r#"{"unrelated":1}"#), None);
    let long = svc.detail(&"x".repeat(1000)).unwrap();
    assert_eq!(long.chars().count(), 201, "200 characters and an ellipsis");
}

#[test]
fn base_urls_must_be_http_and_lose_their_trailing_slash() {
    let env = env_of(&[("X_URL", "https://example.com/api/")]);
    assert_eq!(
        base_url(&env, "X_URL", "https://d").unwrap(),
        "https://example.com/api"
    );
    assert_eq!(
        base_url(&env_of(&[]), "X_URL", "https://d.example").unwrap(),
        "https://d.example"
    );
    assert!(base_url(&env_of(&[("X_URL", "ftp://example.com")]), "X_URL", "").is_err());
    assert!(base_url(&env_of(&[("X_URL", "example.com")]), "X_URL", "").is_err());
}

#[tokio::test]
async fn an_unreachable_service_names_itself() {
    // Port 9 (discard) on loopback: nothing listens there in the test environment.
    let svc = service(Some("k"));
    let err = svc
        .json::<serde_json::Value>(svc.request(reqwest::Method::GET, "/x"))
        .await
        .unwrap_err();
    assert!(
        matches!(
            err,
            WebError::Unreachable {
                backend: "Tavily",
                ..
            }
        ),
        "{err:?}"
    );
}

#[test]
fn results_follow_the_request_order() {
    let urls: Vec<String> = [
        "https://a.example/",
        "https://b.example/x",
        "https://c.example/",
    ]
    .map(String::from)
    .into();
    let found = vec![
        PageResult {
            url: "https://b.example/x/".into(),
            title: "B".into(),
            ..PageResult::default()
        },
        PageResult {
            url: "https://a.example/".into(),
            title: "A".into(),
            ..PageResult::default()
        },
    ];
    let progress = Recorder::default();
    let pages = in_request_order(&urls, found, &progress);
    assert_eq!(
        pages.iter().map(|p| p.title.as_str()).collect::<Vec<_>>(),
        ["A", "B", ""]
    );
    assert_eq!(pages[1].url, urls[1], "the requested URL is kept");
    assert_eq!(pages[1].final_url.as_deref(), Some("https://b.example/x/"));
    assert_eq!(pages[2].error.as_deref(), Some("extraction failed"));
    assert_eq!(progress.events().len(), 3);
}
