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

fn parallel(fake: &FakeService, extra: &[(&str, &str)]) -> Parallel {
    let base = fake.base_url();
    let mut pairs = vec![(KEY_VAR, FAKE_KEY), (BASE_URL_VAR, base.as_str())];
    pairs.extend_from_slice(extra);
    Parallel::from_env(&env_of(&pairs), client())
        .unwrap()
        .unwrap()
}

#[tokio::test]
async fn search_request_shape_and_excerpts() {
    let fake = FakeService::start(Kind::Parallel).await;
    let hits = parallel(&fake, &[])
        .search("rust executors", 40)
        .await
        .unwrap();

    let request = &fake.requests()[0];
    assert_eq!(
        (request.method.as_str(), request.path.as_str()),
        ("POST", "/v1beta/search")
    );
    assert_eq!(request.headers["x-api-key"], FAKE_KEY);
    assert_eq!(
        request.headers["parallel-beta"],
        "search-extract-2025-10-10"
    );
    assert_eq!(
        body_json(request),
        json!({
            "search_queries": ["rust executors"],
            "objective": "rust executors",
            "mode": "agentic",
            "max_results": 20
        })
    );
    assert_eq!(
        hits[0].description,
        "Excerpt A on rust executors. Excerpt B 1."
    );
    assert_eq!(hits[0].position, 1);
}

#[tokio::test]
async fn search_mode_comes_from_the_environment() {
    let fake = FakeService::start(Kind::Parallel).await;
    parallel(&fake, &[(MODE_VAR, "Fast")])
        .search("x", 5)
        .await
        .unwrap();
    assert_eq!(body_json(&fake.requests()[0])["mode"], "fast");
    assert_eq!(search_mode(Some("one-shot")), "one-shot");
    assert_eq!(
        search_mode(Some("turbo")),
        "agentic",
        "unknown modes fall back as Hermes's do"
    );
}

#[tokio::test]
async fn extract_full_content_and_errors() {
    let fake = FakeService::start(Kind::Parallel).await;
    let urls: Vec<String> = ["https://example.com/article", "https://gone.example/"]
        .map(String::from)
        .into();
    let pages = parallel(&fake, &[])
        .extract(&urls, &Recorder::default())
        .await;
    let request = &fake.requests()[0];
    assert_eq!(request.path, "/v1beta/extract");
    assert_eq!(
        body_json(request),
        json!({ "urls": urls, "full_content": true })
    );
    assert_eq!(pages[0].title, "An Example Article");
    assert!(pages[0].content.starts_with("# An Example Article"));
    assert_eq!(pages[1].error.as_deref(), Some("HTTP 404: Not Found"));
}

#[tokio::test]
async fn error_modes() {
    let fake = FakeService::start_with(Kind::Parallel, Some(Fault::Unauthorized)).await;
    let err = parallel(&fake, &[]).search("x", 5).await.unwrap_err();
    assert!(err.to_string().contains("PARALLEL_API_KEY"), "{err}");
    let fake =
        FakeService::start_with(Kind::Parallel, Some(Fault::RateLimited { retry_after: 2 })).await;
    assert!(matches!(
        parallel(&fake, &[]).search("x", 5).await.unwrap_err(),
        WebError::RateLimited {
            retry_after: Some(2),
            ..
        }
    ));
    let fake = FakeService::start_with(Kind::Parallel, Some(Fault::MalformedJson)).await;
    assert!(matches!(
        parallel(&fake, &[]).search("x", 5).await.unwrap_err(),
        WebError::BadResponse { .. }
    ));
    let fake = FakeService::start_with(Kind::Parallel, Some(Fault::ServerError)).await;
    assert_eq!(
        parallel(&fake, &[])
            .search("x", 5)
            .await
            .unwrap_err()
            .to_string(),
        "Parallel answered HTTP 500: Internal server error"
    );
}
