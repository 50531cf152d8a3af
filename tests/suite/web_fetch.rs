//! The native `web_extract` pipeline (guarded fetch + extraction) against the loopback site
//! in `tests/support/web_site.rs`: real-world-like pages come out as clean markdown, each
//! failure says what happened, and the SSRF guard refuses loopback (directly and through
//! redirects) unless private addresses are allowed.

use std::sync::Mutex;
use std::time::Duration;
use std::time::Instant;

use hermes::web::PageResult;
use hermes::web::WebError;
use hermes::web::backends::ExtractBackend;
use hermes::web::backends::ExtractProgress;
use hermes::web::backends::native::NativeExtract;
use hermes::web::fetch::FetchOptions;
use hermes::web::fetch::Fetcher;
use hermes::web::guard::PrivateAddresses;

use crate::support::web_site::WebSite;

fn allowed() -> FetchOptions {
    FetchOptions {
        private: PrivateAddresses::Allowed,
        timeout: Duration::from_secs(10),
        ..FetchOptions::default()
    }
}

/// Private addresses refused, except the site's own literal address (so the first hop
/// works and the refusal of later hops can be seen).
fn refused_but_site(site: &WebSite) -> FetchOptions {
    FetchOptions {
        private: PrivateAddresses::Refused,
        timeout: Duration::from_secs(10),
        trusted: vec![site.addr()],
        ..FetchOptions::default()
    }
}

async fn page(site: &WebSite, path: &str) -> PageResult {
    let native = NativeExtract::new(allowed()).unwrap();
    native.extract_one(&site.url(path)).await
}

fn ok(result: &PageResult) -> &str {
    assert_eq!(result.error, None, "{result:?}");
    &result.content
}

#[tokio::test]
async fn article_keeps_the_story_and_drops_the_furniture() {
    let site = WebSite::start().await;
    let result = page(&site, "/article").await;
    let text = ok(&result);
    assert_eq!(
        result.title,
        "How the Harbour Bridge Was Repainted Without Closing a Lane"
    );
    for kept in [
        "A crew of sixty abseilers",
        "## Working at night, in the wind",
        "## What it cost, and what comes next",
        "Paint: 270,000 litres in three coats",
        "We never once had to stop a train.",
        "where work can only happen during the two hours",
    ] {
        assert!(text.contains(kept), "missing {kept:?} in:\n{text}");
    }
    let link = format!(
        "[Ferry timetables change in June]({})",
        site.url("/city/ferry-timetable-changes")
    );
    assert!(text.contains(&link), "links kept, absolute:\n{text}");
    assert!(
        text.starts_with("By Mira Okafor"),
        "the byline leads:\n{text}"
    );
    for dropped in [
        "Refinance today",
        "Accept all",
        "Subscribe for $1",
        "harbourwatcher",
        "Most read",
        "Get the morning briefing",
        "All rights reserved",
        "dataLayer",
    ] {
        assert!(
            !text.contains(dropped),
            "boilerplate {dropped:?} kept:\n{text}"
        );
    }
    assert_eq!(result.content_type.as_deref(), Some("text/html"));
    assert_eq!(result.final_url, None);
}

#[tokio::test]
async fn docs_page_keeps_code_blocks_with_language_tables_and_lists() {
    let site = WebSite::start().await;
    let result = page(&site, "/docs").await;
    let text = ok(&result);
    assert!(text.contains("```rust\nuse tidepool::Client;"), "{text}");
    assert!(text.contains("```toml\n[server]\nport = 8420"), "{text}");
    assert!(text.contains("```bash\ntidepool serve"), "{text}");
    assert!(
        text.contains("async fn main() -> Result<(), tidepool::Error> {"),
        "{text}"
    );
    assert!(
        text.contains("| Key | Type | Default | Meaning |"),
        "{text}"
    );
    assert!(text.contains("| `port` | integer | 8420 |"), "{text}");
    assert!(
        text.contains("1. Points older than `retention_days`"),
        "{text}"
    );
    assert!(
        !text.contains("Search docs") && !text.contains("Built with Sphinx"),
        "{text}"
    );
}

#[tokio::test]
async fn an_index_page_falls_back_to_the_body_without_nav_and_footer() {
    let site = WebSite::start().await;
    let result = page(&site, "/hub").await;
    let text = ok(&result);
    assert_eq!(result.title, "Tidepool documentation");
    assert!(text.contains("Configuration reference"), "{text}");
    assert!(text.contains("Every key of tidepool.toml"), "{text}");
    assert!(
        !text.contains("Community") && !text.contains("© 2024"),
        "{text}"
    );
}

#[tokio::test]
async fn windows_1251_pages_decode_from_meta_or_header() {
    let site = WebSite::start().await;
    for path in ["/ru", "/ru-header"] {
        let result = page(&site, path).await;
        let text = ok(&result);
        assert_eq!(
            result.title, "Байкал замерзает всё позже - Новости науки",
            "{path}"
        );
        assert!(
            text.contains("Исследователи Лимнологического института"),
            "{path}: {text}"
        );
        assert!(
            text.contains("байкальского омуля и нерпу"),
            "{path}: {text}"
        );
    }
}

#[tokio::test]
async fn chinese_and_arabic_text_survive() {
    let site = WebSite::start().await;
    let zh = page(&site, "/zh").await;
    assert!(
        ok(&zh).contains("三峡水库蓄水以来，库区泥沙淤积一直是工程界关注的焦点。"),
        "{zh:?}"
    );
    assert!(!zh.content.contains("广告"), "{zh:?}");
    let ar = page(&site, "/ar").await;
    assert!(
        ok(&ar).contains("تقع مكتبة الإسكندرية الجديدة على شاطئ البحر الأبيض المتوسط"),
        "{ar:?}"
    );
    assert!(!ar.content.contains("إعلان"), "{ar:?}");
}

#[tokio::test]
async fn pdf_json_and_text_documents() {
    let site = WebSite::start().await;
    let pdf = page(&site, "/report.pdf").await;
    let text = ok(&pdf);
    assert!(
        text.contains("The widget factory produced 1,204 widgets"),
        "{text}"
    );
    assert!(text.contains("Zürich and Kraków"), "{text}");
    assert!(
        text.contains("Appendix: the inspection line"),
        "second page: {text}"
    );
    assert_eq!(pdf.title, "Quarterly Widget Report");
    assert_eq!(pdf.content_type.as_deref(), Some("application/pdf"));

    let scan = page(&site, "/scanned.pdf").await;
    assert_eq!(
        scan.error,
        Some(WebError::PdfNoText.to_string()),
        "{scan:?}"
    );

    let json = page(&site, "/data.json").await;
    assert!(
        ok(&json).contains("\n  \"station\": \"harbour-north\",\n"),
        "{json:?}"
    );
    let txt = page(&site, "/notes.txt").await;
    assert!(
        ok(&txt).starts_with("Release checklist for Tidepool 2.3\n\n1. Bump"),
        "{txt:?}"
    );
}

#[tokio::test]
async fn binary_and_error_statuses_say_what_happened() {
    let site = WebSite::start().await;
    let cases = [
        ("/image.png", "not a text document (image/png)"),
        (
            "/download",
            "not a text document (application/octet-stream)",
        ),
        ("/missing", "HTTP 404 Not Found"),
        ("/forbidden", "HTTP 403 Forbidden"),
    ];
    for (path, error) in cases {
        let result = page(&site, path).await;
        assert_eq!(result.error.as_deref(), Some(error), "{path}: {result:?}");
        assert!(result.content.is_empty());
    }
}

#[tokio::test]
async fn gzip_encoded_pages_are_decoded() {
    let site = WebSite::start().await;
    let result = page(&site, "/gzip").await;
    assert!(
        ok(&result).contains("A crew of sixty abseilers"),
        "{result:?}"
    );
}

#[tokio::test]
async fn pages_over_the_cap_are_abandoned() {
    let site = WebSite::start().await;
    for path in ["/big", "/big-declared"] {
        let started = Instant::now();
        let result = page(&site, path).await;
        assert_eq!(
            result.error.as_deref(),
            Some("larger than the 10 MB download cap"),
            "{path}: {result:?}"
        );
        assert!(
            started.elapsed() < Duration::from_secs(8),
            "{path} took {:?}",
            started.elapsed()
        );
    }
}

#[tokio::test]
async fn a_page_that_never_finishes_times_out() {
    let site = WebSite::start().await;
    let fetcher = Fetcher::new(FetchOptions {
        timeout: Duration::from_secs(2),
        ..allowed()
    })
    .unwrap();
    let started = Instant::now();
    let err = fetcher.fetch(&site.url("/slow")).await.unwrap_err();
    assert_eq!(err, WebError::Timeout { seconds: 2 });
    assert!(
        started.elapsed() < Duration::from_secs(6),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn redirects_are_followed_and_the_final_url_reported() {
    let site = WebSite::start().await;
    let requested = site.url("/redirect/ok");
    let native = NativeExtract::new(allowed()).unwrap();
    let result = native.extract_one(&requested).await;
    assert!(ok(&result).contains("sixty abseilers"));
    assert_eq!(result.url, requested);
    assert_eq!(result.final_url, Some(site.url("/article")));

    let loop_result = native.extract_one(&site.url("/redirect/loop")).await;
    assert_eq!(loop_result.error.as_deref(), Some("more than 10 redirects"));
}

#[tokio::test]
async fn the_guard_refuses_loopback_when_private_addresses_are_off() {
    let site = WebSite::start().await;
    let fetcher = Fetcher::new(FetchOptions::default()).unwrap();
    let err = fetcher.fetch(&site.url("/article")).await.unwrap_err();
    assert_eq!(
        err.to_string(),
        "blocked: 127.0.0.1 is a loopback address (set web.allow_private_urls: true to allow \
         private addresses)"
    );
    let by_name = format!("http://localhost:{}/article", site.addr().port());
    let err = fetcher.fetch(&by_name).await.unwrap_err().to_string();
    assert!(err.starts_with("blocked: localhost resolves to "), "{err}");
    assert!(err.contains("a loopback address"), "{err}");
    assert_eq!(site.hits("/article"), 0, "nothing reached the site");
}

#[tokio::test]
async fn redirects_to_private_addresses_are_refused_on_the_hop() {
    let site = WebSite::start().await;
    let fetcher = Fetcher::new(refused_but_site(&site)).unwrap();
    let port = site.addr().port();

    let err = fetcher
        .fetch(&site.url("/redirect/localhost"))
        .await
        .unwrap_err()
        .to_string();
    let expected = format!(
        "blocked: redirect to http://localhost:{port}/secret refused: localhost resolves to "
    );
    assert!(err.starts_with(&expected), "{err}");
    assert!(err.contains("a loopback address"), "{err}");

    let err = fetcher
        .fetch(&site.url("/redirect/literal"))
        .await
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        format!(
            "blocked: redirect to http://127.0.0.2:{port}/secret refused: 127.0.0.2 is a \
             loopback address (set web.allow_private_urls: true to allow private addresses)"
        )
    );
    assert_eq!(
        site.hits("/secret"),
        0,
        "the refused hop was never requested"
    );
    assert_eq!(
        site.hits("/redirect/localhost2"),
        1,
        "the chain was followed up to it"
    );
}

#[tokio::test]
async fn a_redirect_to_cloud_metadata_is_refused_even_with_private_allowed() {
    let site = WebSite::start().await;
    let fetcher = Fetcher::new(allowed()).unwrap();
    let err = fetcher
        .fetch(&site.url("/redirect/metadata"))
        .await
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "blocked: redirect to http://metadata.google.internal/computeMetadata/v1/instance/ \
         refused: metadata.google.internal is a cloud metadata endpoint"
    );
}

#[derive(Default)]
struct Recorder {
    events: Mutex<Vec<String>>,
}

impl ExtractProgress for Recorder {
    fn started(&self, url: &str) {
        self.events.lock().unwrap().push(format!("start {url}"));
    }
    fn finished(&self, result: &PageResult) {
        let state = if result.error.is_some() {
            "failed"
        } else {
            "ok"
        };
        self.events
            .lock()
            .unwrap()
            .push(format!("{state} {}", result.url));
    }
}

#[tokio::test]
async fn many_urls_come_back_in_order_with_per_url_errors_and_progress() {
    let site = WebSite::start().await;
    let paths = [
        "/article",
        "/missing",
        "/docs",
        "/image.png",
        "/zh",
        "/ar",
        "/data.json",
    ];
    let urls: Vec<String> = paths.iter().map(|p| site.url(p)).collect();
    let native = NativeExtract::new(allowed()).unwrap();
    let recorder = Recorder::default();
    let results = native.extract(&urls, &recorder).await;
    let got: Vec<&str> = results.iter().map(|r| r.url.as_str()).collect();
    assert_eq!(got, urls.iter().map(String::as_str).collect::<Vec<_>>());
    let failed: Vec<bool> = results.iter().map(|r| r.error.is_some()).collect();
    assert_eq!(failed, [false, true, false, true, false, false, false]);
    let events = recorder.events.lock().unwrap();
    assert_eq!(events.len(), 2 * urls.len(), "{events:?}");
    for url in &urls {
        assert!(events.contains(&format!("start {url}")), "{events:?}");
    }
}
