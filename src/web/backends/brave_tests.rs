use super::*;
use crate::web::backends::fakes::FAKE_KEY;
use crate::web::backends::fakes::FakeService;
use crate::web::backends::fakes::Fault;
use crate::web::backends::fakes::Kind;
use crate::web::backends::fakes::query;
use crate::web::backends::testing::client;
use crate::web::backends::testing::env_of;

fn brave(fake: &FakeService, key: &str) -> Brave {
    Brave::from_env(
        &env_of(&[(KEY_VAR, key), (BASE_URL_VAR, &fake.base_url())]),
        client(),
    )
    .unwrap()
    .unwrap()
}

#[test]
fn unavailable_without_a_key() {
    assert!(Brave::from_env(&env_of(&[]), client()).is_none());
}

#[tokio::test]
async fn sends_the_subscription_token_and_clamps_count() {
    let fake = FakeService::start(Kind::Brave).await;
    let hits = brave(&fake, FAKE_KEY).search("tokio", 50).await.unwrap();

    let requests = fake.requests();
    let (path, params) = query(&requests[0]);
    assert_eq!(
        (requests[0].method.as_str(), path.as_str()),
        ("GET", "/res/v1/web/search")
    );
    assert_eq!(requests[0].headers["x-subscription-token"], FAKE_KEY);
    assert_eq!(params["q"], "tokio");
    assert_eq!(params["count"], "20", "Brave's count is at most 20");
    assert!(
        !requests[0].path.contains(FAKE_KEY),
        "the key is a header, not in the URL"
    );

    assert_eq!(hits.len(), 3);
    assert_eq!(
        hits[0],
        SearchHit {
            title: "Brave result 1 for tokio".into(),
            url: "https://example.com/brave/1".into(),
            description: "The tokio page number 1.".into(),
            position: 1,
        },
        "<strong> highlight markup is dropped"
    );
}

#[tokio::test]
async fn limit_below_the_results_cuts_them() {
    let fake = FakeService::start(Kind::Brave).await;
    let hits = brave(&fake, FAKE_KEY).search("tokio", 2).await.unwrap();
    assert_eq!(query(&fake.requests()[0]).1["count"], "2");
    assert_eq!(hits.len(), 2);
}

#[tokio::test]
async fn an_invalid_token_is_a_key_problem_naming_the_variable() {
    let fake = FakeService::start(Kind::Brave).await;
    let err = brave(&fake, "wrong-key")
        .search("tokio", 5)
        .await
        .unwrap_err();
    assert_eq!(
        err,
        WebError::Unauthorized {
            backend: "Brave Search",
            status: 422,
            key_hint: KEY_VAR.into()
        }
    );
    assert!(err.to_string().contains("BRAVE_SEARCH_API_KEY"), "{err}");
    assert!(!err.to_string().contains("wrong-key"));

    let fake = FakeService::start_with(Kind::Brave, Some(Fault::Unauthorized)).await;
    let err = brave(&fake, FAKE_KEY).search("tokio", 5).await.unwrap_err();
    assert!(
        matches!(err, WebError::Unauthorized { status: 401, .. }),
        "{err:?}"
    );
}

#[tokio::test]
async fn error_modes() {
    let fake =
        FakeService::start_with(Kind::Brave, Some(Fault::RateLimited { retry_after: 1 })).await;
    assert_eq!(
        brave(&fake, FAKE_KEY).search("x", 5).await.unwrap_err(),
        WebError::RateLimited {
            backend: "Brave Search",
            retry_after: Some(1)
        }
    );
    let fake = FakeService::start_with(Kind::Brave, Some(Fault::MalformedJson)).await;
    let err = brave(&fake, FAKE_KEY).search("x", 5).await.unwrap_err();
    assert!(matches!(err, WebError::BadResponse { .. }), "{err:?}");
    let fake = FakeService::start_with(Kind::Brave, Some(Fault::ServerError)).await;
    let err = brave(&fake, FAKE_KEY).search("x", 5).await.unwrap_err();
    assert_eq!(
        err,
        WebError::Service {
            backend: "Brave Search",
            status: 500,
            detail: Some("Internal server error".into())
        }
    );
}
