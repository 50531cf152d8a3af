use super::*;
use crate::web::backends::fakes::FakeService;
use crate::web::backends::fakes::Fault;
use crate::web::backends::fakes::Kind;
use crate::web::backends::fakes::query;
use crate::web::backends::testing::client;
use crate::web::backends::testing::env_of;

fn searxng(fake: &FakeService) -> Searxng {
    Searxng::from_env(
        &env_of(&[(URL_VAR, &format!("{}/", fake.base_url()))]),
        client(),
    )
    .unwrap()
    .unwrap()
}

#[test]
fn unavailable_without_searxng_url() {
    assert!(Searxng::from_env(&env_of(&[]), client()).is_none());
    assert!(Searxng::from_env(&env_of(&[(URL_VAR, "  ")]), client()).is_none());
    let bad = Searxng::from_env(&env_of(&[(URL_VAR, "localhost:8080")]), client()).unwrap();
    assert!(bad.is_err(), "a URL without http(s) is refused");
}

#[tokio::test]
async fn asks_for_json_and_ranks_by_score() {
    let fake = FakeService::start(Kind::Searxng).await;
    let hits = searxng(&fake).search("rust lang", 2).await.unwrap();

    let requests = fake.requests();
    assert_eq!(requests[0].method, "GET");
    let (path, params) = query(&requests[0]);
    assert_eq!(
        path, "/search",
        "the trailing / of SEARXNG_URL is not doubled"
    );
    assert_eq!(params["q"], "rust lang");
    assert_eq!(params["format"], "json");
    assert_eq!(params["pageno"], "1");
    assert_eq!(requests[0].headers["accept"], "application/json");

    // Scores 1.25, 9.0, 3.5: sorted highest first, then cut to the limit.
    assert_eq!(
        hits,
        [
            SearchHit {
                title: "Rust Programming Language".into(),
                url: "https://www.rust-lang.org/".into(),
                description: "A language empowering everyone to build reliable and efficient software.".into(),
                position: 1,
            },
            SearchHit {
                title: "Rust (programming language) - Wikipedia".into(),
                url: "https://en.wikipedia.org/wiki/Rust_(programming_language)".into(),
                description: "Rust is a general-purpose programming language emphasizing performance, type safety, and concurrency.".into(),
                position: 2,
            },
        ]
    );
}

#[tokio::test]
async fn forbidden_means_the_json_format_is_off() {
    let fake = FakeService::start_with(Kind::Searxng, Some(Fault::Forbidden)).await;
    let err = searxng(&fake).search("rust", 5).await.unwrap_err();
    assert!(
        matches!(err, WebError::Service { status: 403, .. }),
        "{err:?}"
    );
    assert!(
        err.to_string()
            .contains("JSON format not enabled in settings.yml"),
        "{err}"
    );
}

#[tokio::test]
async fn error_modes() {
    let fake =
        FakeService::start_with(Kind::Searxng, Some(Fault::RateLimited { retry_after: 30 })).await;
    assert_eq!(
        searxng(&fake).search("rust", 5).await.unwrap_err(),
        WebError::RateLimited {
            backend: "SearXNG",
            retry_after: Some(30)
        }
    );
    let fake = FakeService::start_with(Kind::Searxng, Some(Fault::MalformedJson)).await;
    let err = searxng(&fake).search("rust", 5).await.unwrap_err();
    assert!(
        matches!(
            err,
            WebError::BadResponse {
                backend: "SearXNG",
                ..
            }
        ),
        "{err:?}"
    );
    let fake = FakeService::start_with(Kind::Searxng, Some(Fault::ServerError)).await;
    let err = searxng(&fake).search("rust", 5).await.unwrap_err();
    assert_eq!(
        err,
        WebError::Service {
            backend: "SearXNG",
            status: 500,
            detail: None
        },
        "an HTML error page gives no detail"
    );
    // A keyless service's 401 is not about a key of ours.
    let fake = FakeService::start_with(Kind::Searxng, Some(Fault::Unauthorized)).await;
    let err = searxng(&fake).search("rust", 5).await.unwrap_err();
    assert!(
        matches!(err, WebError::Service { status: 401, .. }),
        "{err:?}"
    );
}
