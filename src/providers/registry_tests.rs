use std::collections::HashMap;

use super::*;

fn env_of(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
    let map: HashMap<String, String> = pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    move |k: &str| map.get(k).cloned()
}

fn model(provider: &str, base_url: &str) -> ModelConfig {
    ModelConfig {
        default: "some/model".into(),
        provider: provider.into(),
        base_url: base_url.into(),
        ..ModelConfig::default()
    }
}

fn resolve_with(
    m: &ModelConfig,
    env: &[(&str, &str)],
) -> Result<ResolvedProvider, ProviderSetupError> {
    resolve(m, &ProviderConfig::default(), &env_of(env))
}

#[test]
fn each_hosted_profile_resolves_with_its_key() {
    let cases = [
        (
            "openrouter",
            "OPENROUTER_API_KEY",
            "https://openrouter.ai/api/v1/chat/completions",
            ApiMode::ChatCompletions,
        ),
        (
            "openai",
            "OPENAI_API_KEY",
            "https://api.openai.com/v1/chat/completions",
            ApiMode::ChatCompletions,
        ),
        (
            "anthropic",
            "ANTHROPIC_API_KEY",
            "https://api.anthropic.com/v1/messages",
            ApiMode::AnthropicMessages,
        ),
        (
            "nous",
            "NOUS_API_KEY",
            "https://inference-api.nousresearch.com/v1/chat/completions",
            ApiMode::ChatCompletions,
        ),
    ];
    for (name, var, endpoint, mode) in cases {
        let r = resolve_with(&model(name, ""), &[(var, "k-123")]).unwrap();
        assert_eq!(r.name, name);
        assert_eq!(r.endpoint, endpoint);
        assert_eq!(r.api_mode, mode);
        assert_eq!(r.api_key, Some(Secret::new("k-123")));
        assert_eq!(r.model, "some/model");
        assert!(r.context_window >= 128_000);
        assert_eq!(r.retry.max_retries, 3);
        assert_eq!(r.stream_idle_timeout, Duration::from_secs(60));
    }
}

#[test]
fn missing_key_names_the_variable_and_env_file() {
    let err = resolve_with(&model("openrouter", ""), &[("OPENAI_API_KEY", "x")]).unwrap_err();
    assert_eq!(
        err,
        ProviderSetupError::MissingKey {
            provider: "openrouter".into(),
            env_var: "OPENROUTER_API_KEY".into()
        }
    );
    let text = err.to_string();
    assert!(
        text.contains("OPENROUTER_API_KEY") && text.contains("HERMES_HOME/.env"),
        "{text}"
    );
    // Blank values count as unset.
    assert!(resolve_with(&model("anthropic", ""), &[("ANTHROPIC_API_KEY", "  ")]).is_err());
}

#[test]
fn config_key_wins_over_env() {
    let mut m = model("openai", "");
    m.api_key = "from-config".into();
    let r = resolve_with(&m, &[("OPENAI_API_KEY", "from-env")]).unwrap();
    assert_eq!(r.api_key.unwrap().expose(), "from-config");
}

#[test]
fn unknown_provider_lists_valid_ones() {
    let err = resolve_with(&model("acme", ""), &[]).unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("acme") && text.contains("openrouter") && text.contains("custom"),
        "{text}"
    );
}

#[test]
fn custom_needs_a_base_url_but_no_key() {
    assert_eq!(
        resolve_with(&model("custom", ""), &[]).unwrap_err(),
        ProviderSetupError::MissingBaseUrl {
            provider: "custom".into()
        }
    );
    let r = resolve_with(&model("custom", "http://127.0.0.1:8080/v1/"), &[]).unwrap();
    assert_eq!(r.base_url, "http://127.0.0.1:8080/v1");
    assert_eq!(r.endpoint, "http://127.0.0.1:8080/v1/chat/completions");
    assert_eq!(r.api_key, None);
    assert_eq!(r.context_window, 32_768);
    let keyed = resolve_with(
        &model("custom", "http://127.0.0.1:8080/v1"),
        &[("OPENAI_API_KEY", "o"), ("CUSTOM_API_KEY", "c")],
    )
    .unwrap();
    assert_eq!(keyed.api_key.unwrap().expose(), "c");
}

#[test]
fn local_aliases_have_default_urls() {
    let r = resolve_with(&model("ollama", ""), &[]).unwrap();
    assert_eq!(r.endpoint, "http://127.0.0.1:11434/v1/chat/completions");
}

#[test]
fn inference_from_base_url_and_keys() {
    assert_eq!(
        resolve_with(&model("", "http://127.0.0.1:1234/v1"), &[])
            .unwrap()
            .name,
        "custom"
    );
    let own_host = resolve_with(
        &model("", "https://openrouter.ai/api/v1"),
        &[("OPENROUTER_API_KEY", "k")],
    )
    .unwrap();
    assert_eq!(own_host.name, "openrouter");
    let all = [
        ("NOUS_API_KEY", "n"),
        ("OPENAI_API_KEY", "o"),
        ("ANTHROPIC_API_KEY", "a"),
        ("OPENROUTER_API_KEY", "r"),
    ];
    assert_eq!(
        resolve_with(&model("", ""), &all).unwrap().name,
        "openrouter"
    );
    assert_eq!(
        resolve_with(&model("", ""), &all[..3]).unwrap().name,
        "anthropic"
    );
    assert_eq!(
        resolve_with(&model("", ""), &all[..2]).unwrap().name,
        "openai"
    );
    assert_eq!(
        resolve_with(&model("", ""), &all[..1]).unwrap().name,
        "nous"
    );
    assert_eq!(
        resolve_with(&model("", ""), &[]).unwrap_err(),
        ProviderSetupError::NoProvider
    );
}

#[test]
fn anthropic_format_from_suffix_or_api_mode() {
    let r = resolve_with(&model("custom", "https://api.minimax.io/anthropic"), &[]).unwrap();
    assert_eq!(r.api_mode, ApiMode::AnthropicMessages);
    assert_eq!(r.endpoint, "https://api.minimax.io/anthropic/v1/messages");
    let mut m = model("custom", "http://127.0.0.1:9000/v1");
    m.api_mode = "anthropic_messages".into();
    let r = resolve_with(&m, &[]).unwrap();
    assert_eq!(r.endpoint, "http://127.0.0.1:9000/v1/messages");
    m.api_mode = "grpc".into();
    assert_eq!(
        resolve_with(&m, &[]).unwrap_err(),
        ProviderSetupError::UnknownApiMode {
            mode: "grpc".into()
        }
    );
}

#[test]
fn overrides_and_limits() {
    let mut m = model("openrouter", "https://proxy.example.com/v1");
    m.context_length = 65_536;
    m.max_tokens = 4096;
    let p = ProviderConfig {
        stream_idle_timeout: 5,
        max_retries: 1,
    };
    let r = resolve(&m, &p, &env_of(&[("OPENROUTER_API_KEY", "k")])).unwrap();
    assert_eq!(r.endpoint, "https://proxy.example.com/v1/chat/completions");
    assert_eq!(r.context_window, 65_536);
    assert_eq!(r.max_tokens, Some(4096));
    assert_eq!(r.stream_idle_timeout, Duration::from_secs(5));
    assert_eq!(r.retry.max_retries, 1);
}

#[test]
fn invalid_base_urls_are_rejected() {
    assert!(matches!(
        resolve_with(&model("custom", "localhost:8080"), &[]),
        Err(ProviderSetupError::InvalidBaseUrl { .. })
    ));
    assert!(matches!(
        resolve_with(&model("custom", "not a url"), &[]),
        Err(ProviderSetupError::InvalidBaseUrl { .. })
    ));
}

#[test]
fn debug_never_shows_the_key() {
    let r = resolve_with(
        &model("openai", ""),
        &[("OPENAI_API_KEY", "sk-supersecret")],
    )
    .unwrap();
    let dbg = format!("{r:?}");
    assert!(!dbg.contains("supersecret"), "{dbg}");
    assert!(dbg.contains("***"));
}

#[test]
fn endpoint_normalisation() {
    assert_eq!(
        endpoint("http://h/v1/chat/completions", ApiMode::ChatCompletions),
        "http://h/v1/chat/completions"
    );
    assert_eq!(
        endpoint("http://h/v1/", ApiMode::ChatCompletions),
        "http://h/v1/chat/completions"
    );
    assert_eq!(
        endpoint("https://api.anthropic.com", ApiMode::AnthropicMessages),
        "https://api.anthropic.com/v1/messages"
    );
    assert_eq!(
        endpoint("http://h/v1/messages", ApiMode::AnthropicMessages),
        "http://h/v1/messages"
    );
}
