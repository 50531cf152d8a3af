use super::*;
use crate::web::backends::fakes::FakeService;
use crate::web::backends::fakes::Fault;
use crate::web::backends::fakes::Kind;
use crate::web::backends::testing::client;
use crate::web::backends::testing::env_of;

async fn ddgs(fake: &FakeService) -> Ddgs {
    Ddgs::from_env(&env_of(&[(BASE_URL_VAR, &fake.base_url())]), client()).unwrap()
}

#[tokio::test]
async fn posts_the_query_as_a_form_and_reads_the_results_page() {
    let fake = FakeService::start(Kind::Ddgs).await;
    let hits = ddgs(&fake)
        .await
        .search("rust async runtime", 5)
        .await
        .unwrap();

    let requests = fake.requests();
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0].method, "POST");
    assert_eq!(requests[0].path, "/html/");
    let form: Vec<(String, String)> = form_urlencoded::parse(&requests[0].body)
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect();
    assert!(
        form.contains(&("q".into(), "rust async runtime".into())),
        "{form:?}"
    );
    assert!(requests[0].headers["user-agent"].starts_with("Mozilla/5.0"));

    assert_eq!(hits.len(), 5, "the limit is honoured");
    // The ad (first on the page) is left out; the uddg redirect is unwrapped.
    assert_eq!(
        hits[0],
        SearchHit {
            title: "Tokio - An asynchronous Rust runtime".into(),
            url: "https://tokio.rs/".into(),
            description: "Tokio is an asynchronous runtime for the Rust programming language. It provides the building blocks needed for writing network applications.".into(),
            position: 1,
        }
    );
    // A redirect whose target has its own query string keeps it whole.
    assert_eq!(
        hits[1].url,
        "https://rust-lang.github.io/async-book/01_getting_started/01_chapter.html?lang=en&x=1"
    );
    assert!(
        hits[1].description.contains("you're looking"),
        "entities decoded"
    );
    // A direct link stays as it is.
    assert_eq!(hits[2].url, "https://docs.rs/async-std/latest/async_std/");
    assert_eq!(
        hits.iter().map(|h| h.position).collect::<Vec<_>>(),
        [1, 2, 3, 4, 5]
    );
    assert!(hits.iter().all(|h| !h.url.contains("duckduckgo.com")));
}

#[tokio::test]
async fn the_anomaly_page_is_a_bot_check_not_an_empty_result() {
    let fake = FakeService::start_with(Kind::Ddgs, Some(Fault::Anomaly)).await;
    let err = ddgs(&fake).await.search("rust", 5).await.unwrap_err();
    assert!(
        matches!(
            err,
            WebError::Challenge {
                backend: "DuckDuckGo",
                ..
            }
        ),
        "{err:?}"
    );
    assert!(err.to_string().contains("CAPTCHA"), "{err}");
    assert!(err.to_string().contains("web.search_backend"), "{err}");
}

#[tokio::test]
async fn an_empty_202_is_a_bot_check_too() {
    let fake = FakeService::start_with(Kind::Ddgs, Some(Fault::EmptyAccepted)).await;
    let err = ddgs(&fake).await.search("rust", 5).await.unwrap_err();
    assert!(matches!(err, WebError::Challenge { .. }), "{err:?}");
}

#[test]
fn the_anomaly_page_is_recognised_even_with_status_200() {
    let err = parse_results(crate::web::backends::fakes::ddgs_pages::ANOMALY_PAGE, 5).unwrap_err();
    assert!(matches!(err, WebError::Challenge { .. }), "{err:?}");
}

#[tokio::test]
async fn no_results_is_an_empty_list() {
    let fake = FakeService::start_with(Kind::Ddgs, Some(Fault::NoResults)).await;
    assert_eq!(ddgs(&fake).await.search("qzxjvkwq", 5).await.unwrap(), []);
}

#[test]
fn a_page_without_a_results_list_says_the_layout_changed() {
    let err = parse_results("<html><body><p>Welcome</p></body></html>", 5).unwrap_err();
    assert!(matches!(err, WebError::BadResponse { .. }), "{err:?}");
    assert!(err.to_string().contains("layout"), "{err}");
}

#[tokio::test]
async fn rate_limited_and_server_errors_map_to_their_kinds() {
    let fake =
        FakeService::start_with(Kind::Ddgs, Some(Fault::RateLimited { retry_after: 9 })).await;
    let err = ddgs(&fake).await.search("rust", 5).await.unwrap_err();
    assert_eq!(
        err,
        WebError::RateLimited {
            backend: "DuckDuckGo",
            retry_after: Some(9)
        }
    );
    let fake = FakeService::start_with(Kind::Ddgs, Some(Fault::ServerError)).await;
    let err = ddgs(&fake).await.search("rust", 5).await.unwrap_err();
    assert!(
        matches!(err, WebError::Service { status: 500, .. }),
        "{err:?}"
    );
}

#[test]
fn result_links_are_unwrapped_and_ads_dropped() {
    assert_eq!(
        real_url("//duckduckgo.com/l/?uddg=https%3A%2F%2Fexample.com%2Fa%3Fb%3D1&rut=abc")
            .as_deref(),
        Some("https://example.com/a?b=1")
    );
    assert_eq!(
        real_url("https://duckduckgo.com/y.js?ad_domain=x.com"),
        None
    );
    // A redirect to something that is not a web page is not a result.
    assert_eq!(
        real_url("//duckduckgo.com/l/?uddg=javascript%3Aalert(1)"),
        None
    );
    assert_eq!(
        real_url("https://example.org/x").as_deref(),
        Some("https://example.org/x")
    );
    assert_eq!(real_url("mailto:someone@example.com"), None);
}

#[test]
fn an_ad_is_left_out_whatever_its_link() {
    let page = r#"<div id="links" class="results">
      <div class="result results_links result--ad"><div class="result__body">
        <h2 class="result__title"><a class="result__a" href="https://shop.example/">Buy now</a></h2>
        <a class="result__snippet" href="https://shop.example/">Ad text</a></div></div>
      <div class="result results_links web-result"><div class="result__body">
        <h2 class="result__title"><a class="result__a" href="https://real.example/">Real</a></h2>
        <a class="result__snippet" href="https://real.example/">Real text</a></div></div>
    </div>"#;
    let hits = parse_results(page, 5).unwrap();
    assert_eq!(hits.len(), 1);
    assert_eq!(
        (hits[0].url.as_str(), hits[0].position),
        ("https://real.example/", 1)
    );
}
