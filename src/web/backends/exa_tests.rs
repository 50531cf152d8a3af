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

fn exa(fake: &FakeService, key: &str) -> Exa {
    Exa::from_env(
        &env_of(&[(KEY_VAR, key), (BASE_URL_VAR, &fake.base_url())]),
        client(),
    )
    .unwrap()
    .unwrap()
}

#[tokio::test]
async fn search_asks_for_highlights_and_joins_them() {
    let fake = FakeService::start(Kind::Exa).await;
    let hits = exa(&fake, FAKE_KEY).search("io uring", 2).await.unwrap();

    let request = &fake.requests()[0];
    assert_eq!(
        (request.method.as_str(), request.path.as_str()),
        ("POST", "/search")
    );
    assert_eq!(request.headers["x-api-key"], FAKE_KEY);
    assert_eq!(
        body_json(request),
        json!({ "query": "io uring", "numResults": 2, "contents": { "highlights": true } })
    );
    assert_eq!(
        hits[0],
        SearchHit {
            title: "Exa result 1".into(),
            url: "https://example.com/exa/1".into(),
            description: "First highlight on io uring. Second highlight 1.".into(),
            position: 1,
        }
    );
    assert_eq!(hits.len(), 2);
}

#[tokio::test]
async fn contents_asks_for_text_and_reports_failed_statuses() {
    let fake = FakeService::start(Kind::Exa).await;
    let urls: Vec<String> = ["https://missing.example/x", "https://example.com/article"]
        .map(String::from)
        .into();
    let pages = exa(&fake, FAKE_KEY)
        .extract(&urls, &Recorder::default())
        .await;

    let request = &fake.requests()[0];
    assert_eq!(request.path, "/contents");
    assert_eq!(body_json(request), json!({ "urls": urls, "text": true }));
    assert_eq!(pages[0].url, urls[0]);
    assert_eq!(
        pages[0].error.as_deref(),
        Some("CRAWL_NOT_FOUND (HTTP 404)")
    );
    assert_eq!(pages[1].title, "An Example Article");
    assert!(
        pages[1]
            .content
            .contains("[link](https://example.com/next)")
    );
}

#[tokio::test]
async fn error_modes() {
    let fake = FakeService::start(Kind::Exa).await;
    let err = exa(&fake, "bad").search("x", 5).await.unwrap_err();
    assert!(err.to_string().contains("EXA_API_KEY"), "{err}");
    let fake =
        FakeService::start_with(Kind::Exa, Some(Fault::RateLimited { retry_after: 3 })).await;
    assert_eq!(
        exa(&fake, FAKE_KEY).search("x", 5).await.unwrap_err(),
        WebError::RateLimited {
            backend: "Exa",
            retry_after: Some(3)
        }
    );
    let fake = FakeService::start_with(Kind::Exa, Some(Fault::MalformedJson)).await;
    let pages = exa(&fake, FAKE_KEY)
        .extract(
            &["https://example.com/article".into()],
            &Recorder::default(),
        )
        .await;
    assert!(
        pages[0]
            .error
            .as_deref()
            .unwrap()
            .contains("could not read"),
        "{pages:?}"
    );
    let fake = FakeService::start_with(Kind::Exa, Some(Fault::ServerError)).await;
    let err = exa(&fake, FAKE_KEY).search("x", 5).await.unwrap_err();
    assert_eq!(
        err.to_string(),
        "Exa answered HTTP 500: Internal server error"
    );
}
