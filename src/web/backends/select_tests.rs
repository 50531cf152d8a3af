use super::*;
use crate::web::backends::fakes::FAKE_KEY;
use crate::web::backends::fakes::FakeService;
use crate::web::backends::fakes::Kind;
use crate::web::backends::testing::Recorder;
use crate::web::backends::testing::client;
use crate::web::backends::testing::env_of;

fn web(backend: &str, search: &str, extract: &str) -> WebConfig {
    WebConfig {
        backend: backend.into(),
        search_backend: search.into(),
        extract_backend: extract.into(),
        ..WebConfig::default()
    }
}

fn pick(
    capability: Capability,
    config: &WebConfig,
    pairs: &[(&str, &str)],
) -> Result<BackendName, SelectError> {
    choose(capability, config, &env_of(pairs))
}

#[test]
fn keyless_defaults_are_ddgs_and_native() {
    let none = WebConfig::default();
    assert_eq!(pick(Capability::Search, &none, &[]), Ok(BackendName::Ddgs));
    assert_eq!(
        pick(Capability::Extract, &none, &[]),
        Ok(BackendName::Native)
    );
}

#[test]
fn auto_detect_follows_hermes_order() {
    let none = WebConfig::default();
    let all = [
        ("BRAVE_SEARCH_API_KEY", "b"),
        ("SEARXNG_URL", "http://127.0.0.1:8888"),
        ("FIRECRAWL_API_URL", "http://127.0.0.1:3002"),
        ("PARALLEL_API_KEY", "p"),
        ("EXA_API_KEY", "e"),
        ("TAVILY_API_KEY", "t"),
    ];
    // Dropping the front-runner each time walks Hermes's order.
    let expected_search = [
        BackendName::Tavily,
        BackendName::Exa,
        BackendName::Parallel,
        BackendName::Firecrawl,
        BackendName::Searxng,
        BackendName::BraveFree,
        BackendName::Ddgs,
    ];
    for (dropped, expected) in expected_search.iter().enumerate() {
        let keys = &all[..all.len() - dropped];
        assert_eq!(
            pick(Capability::Search, &none, keys),
            Ok(*expected),
            "keys {keys:?}"
        );
    }
    // Extract skips the search-only services, down to native.
    assert_eq!(
        pick(Capability::Extract, &none, &all[..3]),
        Ok(BackendName::Firecrawl)
    );
    assert_eq!(
        pick(Capability::Extract, &none, &all[..2]),
        Ok(BackendName::Native)
    );
    // Blank values count as absent.
    assert_eq!(
        pick(Capability::Search, &none, &[("TAVILY_API_KEY", "  ")]),
        Ok(BackendName::Ddgs)
    );
}

#[test]
fn per_capability_wins_over_shared_which_wins_over_keys() {
    let keys = [
        ("TAVILY_API_KEY", "t"),
        ("EXA_API_KEY", "e"),
        ("SEARXNG_URL", "http://127.0.0.1:1"),
    ];
    let config = web("exa", "searxng", "");
    assert_eq!(
        pick(Capability::Search, &config, &keys),
        Ok(BackendName::Searxng)
    );
    assert_eq!(
        pick(Capability::Extract, &config, &keys),
        Ok(BackendName::Exa)
    );
    assert_eq!(
        pick(Capability::Search, &web("ddgs", "", ""), &keys),
        Ok(BackendName::Ddgs)
    );
    assert_eq!(
        pick(Capability::Extract, &web("", "", "native"), &keys),
        Ok(BackendName::Native)
    );
}

#[test]
fn an_unavailable_specific_choice_falls_to_the_shared_one_else_names_its_key() {
    let keys = [("EXA_API_KEY", "e")];
    assert_eq!(
        pick(Capability::Search, &web("exa", "tavily", ""), &keys),
        Ok(BackendName::Exa),
        "Hermes: the per-capability key only when available, then web.backend"
    );
    let err = pick(Capability::Search, &web("", "tavily", ""), &keys).unwrap_err();
    assert_eq!(
        err.to_string(),
        "web_search: needs TAVILY_API_KEY for backend tavily"
    );
    let err = pick(Capability::Extract, &web("firecrawl", "", ""), &[]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "web_extract: needs FIRECRAWL_API_KEY or FIRECRAWL_API_URL for backend firecrawl"
    );
}

#[test]
fn search_only_backends_cannot_extract() {
    for name in ["searxng", "brave-free", "ddgs"] {
        let keys = [
            ("SEARXNG_URL", "http://127.0.0.1:1"),
            ("BRAVE_SEARCH_API_KEY", "b"),
        ];
        for config in [web("", "", name), web(name, "", "")] {
            let err = pick(Capability::Extract, &config, &keys).unwrap_err();
            assert!(
                matches!(err, SelectError::SearchOnly { .. }),
                "{name}: {err:?}"
            );
            let text = err.to_string();
            assert!(
                text.contains("is a search-only backend and cannot extract URL content"),
                "{text}"
            );
            assert!(
                text.contains(
                    "Set web.extract_backend to native, firecrawl, tavily, exa, or parallel"
                ),
                "{text}"
            );
        }
    }
    assert_eq!(
        SelectError::SearchOnly {
            backend: BackendName::BraveFree
        }
        .to_string()
        .split(" is ")
        .next(),
        Some("Brave Search")
    );
    let err = pick(Capability::Search, &web("", "native", ""), &[]).unwrap_err();
    assert_eq!(err, SelectError::ExtractOnly);
}

#[test]
fn unknown_names_list_the_valid_ones() {
    let err = pick(Capability::Search, &web("google", "", ""), &[]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "web.backend: unknown backend \"google\"; valid backends are native, ddgs, searxng, brave-free, tavily, exa, firecrawl, parallel"
    );
    let err = pick(Capability::Extract, &web("", "", "Firecrawl2"), &[]).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("web.extract_backend: unknown backend"),
        "{err}"
    );
    // Names are case-insensitive, as Hermes lower-cases them.
    assert_eq!(
        pick(Capability::Search, &web("DDGS", "", ""), &[]),
        Ok(BackendName::Ddgs)
    );
}

#[test]
fn status_reports_capabilities_availability_and_use() {
    let rows = status(&web("", "", ""), &env_of(&[("EXA_API_KEY", "e")]));
    let row = |b: BackendName| rows.iter().find(|r| r.backend == b).unwrap().clone();
    assert_eq!(rows.len(), BackendName::ALL.len());
    let exa = row(BackendName::Exa);
    assert!(exa.search && exa.extract && exa.unavailable.is_none());
    assert!(exa.used_for_search && exa.used_for_extract);
    let tavily = row(BackendName::Tavily);
    assert_eq!(tavily.unavailable.as_deref(), Some("needs TAVILY_API_KEY"));
    assert!(!row(BackendName::Searxng).extract);
    assert!(!row(BackendName::Native).search && row(BackendName::Native).unavailable.is_none());
    assert!(!row(BackendName::Ddgs).used_for_search);
}

#[tokio::test]
async fn built_backends_talk_to_their_configured_base_url() {
    let fake = FakeService::start(Kind::Tavily).await;
    let base = fake.base_url();
    let env = env_of(&[("TAVILY_API_KEY", FAKE_KEY), ("TAVILY_BASE_URL", &base)]);
    let config = WebConfig::default();
    let search = search_backend(&config, &env, &client()).unwrap();
    assert_eq!(search.name(), BackendName::Tavily);
    assert_eq!(search.search("q", 1).await.unwrap().len(), 1);
    let ExtractChoice::Service(extract) = extract_backend(&config, &env, &client()).unwrap() else {
        panic!("tavily extracts");
    };
    let pages = extract
        .extract(
            &["https://example.com/article".into()],
            &Recorder::default(),
        )
        .await;
    assert_eq!(pages[0].error, None);
    assert_eq!(fake.requests().len(), 2);

    assert!(matches!(
        extract_backend(&config, &env_of(&[]), &client()).unwrap(),
        ExtractChoice::Native
    ));
    let Err(err) = search_backend(
        &web("", "searxng", ""),
        &env_of(&[("SEARXNG_URL", "nope")]),
        &client(),
    ) else {
        panic!("a bad SEARXNG_URL is refused");
    };
    assert!(
        err.to_string().contains("SEARXNG_URL is not a usable URL"),
        "{err}"
    );
}
