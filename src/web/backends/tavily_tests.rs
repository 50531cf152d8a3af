use serde_json::json;

use super::*;
use crate::web::backends::fakes::FAKE_KEY;
use crate::web::backends::fakes::FakeService;
use crate::web::backends::fakes::Fault;
use crate::web::backends::fakes::Kind;
use crate::web::backends::testing::Recorder;
use crate::web::backends::testing::body_json;
use crate::web::backends::testing::client;
use crate::web::backends::testing::env_of;

fn tavily(fake: &FakeService, key: &str) -> Tavily {
    Tavily::from_env(
        &env_of(&[(KEY_VAR, key), (BASE_URL_VAR, &fake.base_url())]),
        client(),
    )
    .unwrap()
    .unwrap()
}

#[test]
fn unavailable_without_a_key() {
    assert!(Tavily::from_env(&env_of(&[(BASE_URL_VAR, "http://127.0.0.1:1")]), client()).is_none());
}

#[tokio::test]
async fn search_request_and_normalisation() {
    let fake = FakeService::start(Kind::Tavily).await;
    let hits = tavily(&fake, FAKE_KEY)
        .search("tokio runtime", 30)
        .await
        .unwrap();

    let request = &fake.requests()[0];
    assert_eq!(
        (request.method.as_str(), request.path.as_str()),
        ("POST", "/search")
    );
    assert_eq!(
        request.headers["authorization"],
        format!("Bearer {FAKE_KEY}")
    );
    assert_eq!(
        body_json(request),
        json!({
            "query": "tokio runtime",
            "max_results": 20,
            "include_raw_content": false,
            "include_images": false
        }),
        "max_results capped at 20 as Hermes does; the key is not in the body"
    );
    assert_eq!(
        hits[0],
        SearchHit {
            title: "Tavily result 1".into(),
            url: "https://example.com/tavily/1".into(),
            description: "Snippet 1 about tokio runtime.".into(),
            position: 1,
        }
    );
    assert_eq!(hits.len(), 3);
}

#[tokio::test]
async fn extract_keeps_request_order_and_reports_failed_urls() {
    let fake = FakeService::start(Kind::Tavily).await;
    let urls: Vec<String> = [
        "https://example.org/docs",
        "https://nowhere.example/gone",
        "https://example.com/article",
    ]
    .map(String::from)
    .into();
    let progress = Recorder::default();
    let pages = tavily(&fake, FAKE_KEY).extract(&urls, &progress).await;

    assert_eq!(
        body_json(&fake.requests()[0]),
        json!({ "urls": urls, "include_images": false })
    );
    assert_eq!(
        pages.iter().map(|p| p.url.as_str()).collect::<Vec<_>>(),
        urls
    );
    assert_eq!(pages[0].title, "Example Docs");
    assert!(
        pages[0].content.contains("| `-v` | verbose |"),
        "markdown kept"
    );
    assert_eq!(pages[0].error, None);
    assert_eq!(pages[1].error.as_deref(), Some("Failed to fetch url"));
    assert_eq!(pages[1].content, "");
    assert!(pages[2].content.starts_with("# An Example Article"));
    let events = progress.events();
    assert_eq!(events.len(), 6, "{events:?}");
    assert!(
        events[..3].iter().all(|e| e.starts_with("started")),
        "{events:?}"
    );
}

#[tokio::test]
async fn a_refused_key_fails_every_url_naming_the_variable() {
    let fake = FakeService::start(Kind::Tavily).await;
    let urls = vec!["https://example.com/article".to_string()];
    let pages = tavily(&fake, "tvly-wrong")
        .extract(&urls, &Recorder::default())
        .await;
    let error = pages[0].error.as_deref().unwrap();
    assert!(
        error.contains("rejected the API key") && error.contains("TAVILY_API_KEY"),
        "{error}"
    );
    assert!(!error.contains("tvly-wrong"));

    let err = tavily(&fake, "tvly-wrong")
        .search("x", 5)
        .await
        .unwrap_err();
    assert!(
        matches!(
            err,
            WebError::Unauthorized {
                backend: "Tavily",
                status: 401,
                ..
            }
        ),
        "{err:?}"
    );
}

#[tokio::test]
async fn error_modes() {
    let fake =
        FakeService::start_with(Kind::Tavily, Some(Fault::RateLimited { retry_after: 12 })).await;
    let err = tavily(&fake, FAKE_KEY).search("x", 5).await.unwrap_err();
    assert_eq!(
        err.to_string(),
        "Tavily is rate limiting (HTTP 429); retry after 12 s"
    );
    let fake = FakeService::start_with(Kind::Tavily, Some(Fault::MalformedJson)).await;
    let err = tavily(&fake, FAKE_KEY).search("x", 5).await.unwrap_err();
    assert!(
        matches!(
            err,
            WebError::BadResponse {
                backend: "Tavily",
                ..
            }
        ),
        "{err:?}"
    );
    let fake = FakeService::start_with(Kind::Tavily, Some(Fault::ServerError)).await;
    let err = tavily(&fake, FAKE_KEY).search("x", 5).await.unwrap_err();
    assert_eq!(
        err.to_string(),
        "Tavily answered HTTP 500: Internal server error",
        "Tavily's {{detail: {{error}}}} body is the detail"
    );
}
