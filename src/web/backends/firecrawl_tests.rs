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

fn firecrawl(fake: &FakeService, key: Option<&str>) -> Firecrawl {
    let base = fake.base_url();
    let mut pairs = vec![(URL_VAR, base.as_str())];
    if let Some(key) = key {
        pairs.push((KEY_VAR, key));
    }
    Firecrawl::from_env(&env_of(&pairs), client())
        .unwrap()
        .unwrap()
}

#[test]
fn needs_a_key_or_a_self_hosted_url() {
    assert!(Firecrawl::from_env(&env_of(&[]), client()).is_none());
    assert!(Firecrawl::from_env(&env_of(&[(KEY_VAR, "fc-1")]), client()).is_some());
    assert!(
        Firecrawl::from_env(&env_of(&[(URL_VAR, "http://127.0.0.1:3002")]), client()).is_some()
    );
}

#[tokio::test]
async fn search_uses_v2_with_the_bearer_key() {
    let fake = FakeService::start(Kind::Firecrawl).await;
    let hits = firecrawl(&fake, Some(FAKE_KEY))
        .search("crawler", 2)
        .await
        .unwrap();
    let request = &fake.requests()[0];
    assert_eq!(
        (request.method.as_str(), request.path.as_str()),
        ("POST", "/v2/search")
    );
    assert_eq!(
        request.headers["authorization"],
        format!("Bearer {FAKE_KEY}")
    );
    assert_eq!(
        body_json(request),
        json!({ "query": "crawler", "limit": 2 })
    );
    assert_eq!(
        hits[1],
        SearchHit {
            title: "Firecrawl result 2".into(),
            url: "https://example.com/firecrawl/2".into(),
            description: "About crawler, part 2.".into(),
            position: 2,
        }
    );
}

#[tokio::test]
async fn scrape_asks_for_markdown_and_reads_metadata() {
    let fake = FakeService::start(Kind::Firecrawl).await;
    let urls: Vec<String> = [
        "https://example.com/article",
        "https://example.net/missing",
        "https://unreachable.example/",
        "https://example.org/docs",
    ]
    .map(String::from)
    .into();
    let progress = Recorder::default();
    let pages = firecrawl(&fake, Some(FAKE_KEY))
        .extract(&urls, &progress)
        .await;

    let scrape = fake
        .requests()
        .into_iter()
        .find(|r| body_json(r)["url"] == "https://example.com/article")
        .unwrap();
    assert_eq!(scrape.path, "/v2/scrape");
    assert_eq!(
        body_json(&scrape),
        json!({ "url": "https://example.com/article", "formats": ["markdown"], "onlyMainContent": true })
    );
    assert_eq!(
        pages.iter().map(|p| p.url.as_str()).collect::<Vec<_>>(),
        urls,
        "request order"
    );
    assert_eq!(pages[0].title, "An Example Article");
    assert_eq!(pages[0].content_type.as_deref(), Some("text/html"));
    assert_eq!(pages[0].final_url, None, "same URL: no final_url");
    assert_eq!(
        pages[1].error.as_deref(),
        Some("HTTP 404 Not Found"),
        "the target's status"
    );
    let failed = pages[2].error.as_deref().unwrap();
    assert!(failed.contains("All scraping engines failed"), "{failed}");
    assert!(pages[3].content.contains("| option | meaning |"));
    assert_eq!(progress.events().len(), 8);
}

#[tokio::test]
async fn a_self_hosted_v1_instance_without_a_key() {
    let fake = FakeService::start(Kind::FirecrawlSelfHostedV1).await;
    let backend = firecrawl(&fake, None);
    let hits = backend.search("crawler", 5).await.unwrap();
    assert_eq!(hits.len(), 3, "v1's flat data list");
    let pages = backend
        .extract(
            &["https://example.com/article".into()],
            &Recorder::default(),
        )
        .await;
    assert_eq!(pages[0].error, None, "{pages:?}");
    let paths: Vec<String> = fake.requests().iter().map(|r| r.path.clone()).collect();
    assert_eq!(
        paths,
        ["/v2/search", "/v1/search", "/v2/scrape", "/v1/scrape"]
    );
    assert!(
        fake.requests()
            .iter()
            .all(|r| !r.headers.contains_key("authorization")),
        "no key, no Authorization header"
    );
}

#[test]
fn search_results_are_read_from_every_shape() {
    let item = json!({ "url": "u", "title": "t" });
    for response in [
        json!({ "success": true, "data": { "web": [item] } }),
        json!({ "success": true, "data": [item] }),
        json!({ "data": { "results": [item] } }),
        json!({ "web": [item] }),
        json!({ "results": [item] }),
    ] {
        assert_eq!(
            search_items(&response),
            std::slice::from_ref(&item),
            "{response}"
        );
    }
}

#[tokio::test]
async fn error_modes() {
    let fake = FakeService::start(Kind::Firecrawl).await;
    let err = firecrawl(&fake, Some("fc-wrong"))
        .search("x", 5)
        .await
        .unwrap_err();
    assert!(
        matches!(err, WebError::Unauthorized { status: 401, .. }),
        "{err:?}"
    );
    assert!(err.to_string().contains("FIRECRAWL_API_KEY"));
    let fake = FakeService::start_with(
        Kind::Firecrawl,
        Some(Fault::RateLimited { retry_after: 39 }),
    )
    .await;
    assert_eq!(
        firecrawl(&fake, Some(FAKE_KEY))
            .search("x", 5)
            .await
            .unwrap_err(),
        WebError::RateLimited {
            backend: "Firecrawl",
            retry_after: Some(39)
        }
    );
    let fake = FakeService::start_with(Kind::Firecrawl, Some(Fault::MalformedJson)).await;
    assert!(matches!(
        firecrawl(&fake, Some(FAKE_KEY))
            .search("x", 5)
            .await
            .unwrap_err(),
        WebError::BadResponse { .. }
    ));
    let fake = FakeService::start_with(Kind::Firecrawl, Some(Fault::ServerError)).await;
    let pages = firecrawl(&fake, Some(FAKE_KEY))
        .extract(
            &["https://example.com/article".into()],
            &Recorder::default(),
        )
        .await;
    assert_eq!(
        pages[0].error.as_deref(),
        Some("Firecrawl answered HTTP 500: Internal server error")
    );
}
