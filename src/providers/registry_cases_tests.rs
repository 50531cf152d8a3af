//! Resolution one provider at a time: each profile's quirks (Kimi, LM Studio, Gemini,
//! Anthropic OAuth, Azure Foundry, OpenCode, Bedrock, Nous), OAuth-only and unknown names,
//! key and URL rules, named `providers:` entries. The table-driven cases are in the parent.

use super::*;
#[test]
fn kimi_code_keys_go_to_kimi_code() {
    let r = resolve_env(
        &model("kimi-coding", ""),
        &[("KIMI_API_KEY", "sk-kimi-abc")],
    )
    .unwrap();
    assert_eq!(r.base_url, "https://api.kimi.com/coding");
    assert_eq!(r.endpoint, "https://api.kimi.com/coding/v1/messages");
    assert_eq!((r.api_mode, r.auth), (Messages, XApiKey));
    assert_eq!(header(&r, "User-Agent"), Some("claude-code/0.1.0"));
    let r = resolve_env(
        &model("kimi-coding-cn", ""),
        &[("KIMI_CN_API_KEY", "sk-kimi-abc")],
    )
    .unwrap();
    assert_eq!(r.base_url, "https://api.kimi.com/coding");
    // KIMI_BASE_URL wins over the key's shape.
    let r = resolve_env(
        &model("kimi", ""),
        &[
            ("KIMI_API_KEY", "sk-kimi-abc"),
            ("KIMI_BASE_URL", "https://api.moonshot.ai/v1"),
        ],
    )
    .unwrap();
    assert_eq!(
        (r.base_url.as_str(), r.api_mode),
        ("https://api.moonshot.ai/v1", Chat)
    );
}

#[test]
fn lmstudio_needs_no_key_and_normalises_its_url() {
    let r = resolve_env(&model("lmstudio", ""), &[]).unwrap();
    assert_eq!(r.endpoint, "http://127.0.0.1:1234/v1/chat/completions");
    assert_eq!(
        r.api_key,
        Some(Secret::new(profiles::LMSTUDIO_PLACEHOLDER_KEY))
    );
    let r = resolve_env(
        &model("lm-studio", ""),
        &[
            ("LM_BASE_URL", "http://10.1.1.1:1234/api/v1"),
            ("LM_API_KEY", "lm-real"),
        ],
    )
    .unwrap();
    assert_eq!(r.base_url, "http://10.1.1.1:1234/v1");
    assert_eq!(r.api_key, Some(Secret::new("lm-real")));
}

#[test]
fn gemini_uses_the_openai_compatible_surface() {
    let r = resolve_env(
        &model(
            "gemini",
            "https://generativelanguage.googleapis.com/v1beta/openai/",
        ),
        &[("GEMINI_API_KEY", "AIza-1")],
    )
    .unwrap();
    assert_eq!(
        r.endpoint,
        "https://generativelanguage.googleapis.com/v1beta/openai/chat/completions"
    );
    let r = resolve_env(
        &model("google", ""),
        &[
            ("GOOGLE_API_KEY", "AIza-1"),
            ("GEMINI_BASE_URL", "http://127.0.0.1:9/v1"),
        ],
    )
    .unwrap();
    assert_eq!(r.endpoint, "http://127.0.0.1:9/v1/chat/completions");
}

#[test]
fn anthropic_oauth_tokens_use_bearer_on_anthropic_only() {
    let oauth = [("ANTHROPIC_TOKEN", "sk-ant-oat01-abc")];
    let r = resolve_env(&model("anthropic", ""), &oauth).unwrap();
    assert_eq!(r.auth, Bearer);
    assert_eq!(header(&r, "anthropic-beta"), Some("oauth-2025-04-20"));
    let r = resolve_env(
        &model("claude", ""),
        &[("ANTHROPIC_API_KEY", "sk-ant-api03-x")],
    )
    .unwrap();
    assert_eq!(r.auth, XApiKey);
    assert!(r.headers.is_empty());
    let r = resolve_env(&model("anthropic", "http://127.0.0.1:9"), &oauth).unwrap();
    assert_eq!(r.auth, XApiKey);
    // Setup tokens come before API keys (Hermes's runtime order).
    let r = resolve_env(
        &model("anthropic", ""),
        &[
            ("ANTHROPIC_API_KEY", "sk-ant-api03-x"),
            ("CLAUDE_CODE_OAUTH_TOKEN", "cc-token"),
        ],
    )
    .unwrap();
    assert_eq!(r.api_key, Some(Secret::new("cc-token")));
}

#[test]
fn azure_foundry_needs_its_endpoint_and_picks_the_api_by_model() {
    let key = [("AZURE_FOUNDRY_API_KEY", "az-key")];
    assert_eq!(
        resolve_env(&model("azure", ""), &key).unwrap_err(),
        ProviderSetupError::MissingEndpoint {
            provider: "azure-foundry".into(),
            env_var: "AZURE_FOUNDRY_BASE_URL".into()
        }
    );
    let base = [
        ("AZURE_FOUNDRY_API_KEY", "az-key"),
        (
            "AZURE_FOUNDRY_BASE_URL",
            "https://r.openai.azure.com/openai/v1",
        ),
    ];
    let r = resolve_env(&model("azure-foundry", ""), &base).unwrap();
    assert_eq!(
        r.endpoint,
        "https://r.openai.azure.com/openai/v1/chat/completions"
    );
    let mut gpt5 = model("azure-foundry", "");
    gpt5.default = "gpt-5.4".into();
    assert_eq!(resolve_env(&gpt5, &base).unwrap().api_mode, Responses);
    let mut claude = model(
        "azure-foundry",
        "https://r.services.ai.azure.com/anthropic/v1",
    );
    claude.api_mode = "anthropic_messages".into();
    let r = resolve_env(&claude, &key).unwrap();
    assert_eq!(
        r.endpoint,
        "https://r.services.ai.azure.com/anthropic/v1/messages"
    );
    assert_eq!(r.auth, Bearer);
}

#[test]
fn opencode_routes_each_model_family() {
    let key = [
        ("OPENCODE_ZEN_API_KEY", "oc-key"),
        ("OPENCODE_GO_API_KEY", "oc-key"),
    ];
    let case = |provider: &str, model_id: &str, base: &str| {
        let mut m = model(provider, base);
        m.default = model_id.into();
        m.api_mode = "chat_completions".into(); // ignored: the model decides
        let r = resolve_env(&m, &key).unwrap();
        (r.api_mode, r.endpoint)
    };
    assert_eq!(
        case("opencode-zen", "claude-sonnet-4", ""),
        (Messages, "https://opencode.ai/zen/v1/messages".into())
    );
    assert_eq!(
        case("opencode-zen", "gpt-5.4", ""),
        (Responses, "https://opencode.ai/zen/v1/responses".into())
    );
    assert_eq!(
        case("opencode-go", "opencode-go/minimax-m2.7", ""),
        (Messages, "https://opencode.ai/zen/go/v1/messages".into())
    );
    // A URL Hermes stripped for the Messages format gets its /v1 back.
    assert_eq!(
        case("opencode-go", "glm-5", "https://opencode.ai/zen/go"),
        (
            Chat,
            "https://opencode.ai/zen/go/v1/chat/completions".into()
        )
    );
}

#[test]
fn bedrock_needs_no_key_and_builds_the_regional_url() {
    let r = resolve_env(&model("bedrock", ""), &[]).unwrap();
    assert_eq!(
        r.base_url,
        "https://bedrock-runtime.us-east-1.amazonaws.com"
    );
    assert_eq!((r.api_mode, r.api_key), (ApiMode::BedrockConverse, None));
    let r = resolve_env(&model("aws", ""), &[("AWS_DEFAULT_REGION", "ap-south-1")]).unwrap();
    assert_eq!(
        r.base_url,
        "https://bedrock-runtime.ap-south-1.amazonaws.com"
    );
    let endpoints = ProviderEndpoints {
        bedrock_region: "eu-west-1".into(),
        ..ProviderEndpoints::default()
    };
    let r = resolve_named(
        &model("bedrock", ""),
        &endpoints,
        &[("AWS_REGION", "us-west-2")],
    )
    .unwrap();
    assert_eq!(
        r.base_url,
        "https://bedrock-runtime.eu-west-1.amazonaws.com"
    );
    let r = resolve_env(
        &model("bedrock", ""),
        &[
            ("BEDROCK_BASE_URL", "http://127.0.0.1:9"),
            ("AWS_REGION", "us-west-2"),
        ],
    )
    .unwrap();
    assert_eq!(r.base_url, "http://127.0.0.1:9");
}

#[test]
fn nous_uses_the_stored_login_then_its_key() {
    let login = StoredLogin {
        access: Secret::new("portal-token"),
        inference_base_url: Some("https://inference.example.com/v1".into()),
    };
    let with_login = |env: &[(&str, &str)]| {
        let lookup = env_of(env);
        let login = login.clone();
        let stored = move |id: &str| (id == "nous").then(|| login.clone());
        let sources = CredentialSources {
            env: &lookup,
            login: &stored,
            active_login: None,
        };
        resolve_with(&model("nous", ""), &ProviderConfig::default(), &sources)
    };
    let r = with_login(&[("NOUS_API_KEY", "nous-key")]).unwrap();
    assert_eq!(r.api_key, Some(Secret::new("portal-token")));
    assert_eq!(
        r.endpoint,
        "https://inference.example.com/v1/chat/completions"
    );
    // The login's URL (which the login layer derives with NOUS_INFERENCE_BASE_URL) wins.
    let r = with_login(&[("NOUS_INFERENCE_BASE_URL", "http://127.0.0.1:9/v1")]).unwrap();
    assert_eq!(r.base_url, "https://inference.example.com/v1");
    let r = resolve_env(&model("nous-portal", ""), &[("NOUS_API_KEY", "nous-key")]).unwrap();
    assert_eq!(
        r.endpoint,
        "https://inference-api.nousresearch.com/v1/chat/completions"
    );
    let err = resolve_env(&model("nous", ""), &[]).unwrap_err();
    assert_eq!(
        err,
        ProviderSetupError::NeedsLogin {
            provider: "nous".into()
        }
    );
    assert!(err.to_string().contains("hermes login nous"), "{err}");
}

#[test]
fn oauth_only_providers_give_one_line_naming_the_alternative() {
    let cases = [
        ("openai-codex", "`openai-api` with OPENAI_API_KEY"),
        ("codex", "`openai-api` with OPENAI_API_KEY"),
        ("xai-oauth", "`xai` with XAI_API_KEY"),
        ("qwen-oauth", "`alibaba` with DASHSCOPE_API_KEY"),
        ("copilot", "OPENROUTER_API_KEY"),
        ("github-models", "OPENROUTER_API_KEY"),
        ("copilot-acp", "OPENROUTER_API_KEY"),
        ("minimax-oauth", "`minimax` with MINIMAX_API_KEY"),
        ("vertex", "`gemini` with GOOGLE_API_KEY"),
    ];
    for (name, instead) in cases {
        let err = resolve_env(&model(name, ""), &[("OPENAI_API_KEY", "sk-proj-1")]).unwrap_err();
        assert!(
            matches!(err, ProviderSetupError::Unsupported { .. }),
            "{name}: {err:?}"
        );
        let text = err.to_string();
        assert!(
            !text.contains('\n') && text.contains(instead),
            "{name}: {text}"
        );
        assert!(
            text.contains("model.provider") && text.contains("does not"),
            "{text}"
        );
    }
}

#[test]
fn unknown_provider_suggests_and_says_where() {
    let err = resolve_env(&model("openroutr", ""), &[]).unwrap_err();
    let text = err.to_string();
    assert!(text.contains("`openroutr` in model.provider"), "{text}");
    assert!(text.contains("did you mean `openrouter`?"), "{text}");
    assert!(
        text.contains("deepseek") && text.contains("custom"),
        "{text}"
    );
    let text = resolve_env(&model("acme-llm-corp", ""), &[])
        .unwrap_err()
        .to_string();
    assert!(!text.contains("did you mean"), "{text}");
    let text = resolve_env(&model("custom:nothing", ""), &[])
        .unwrap_err()
        .to_string();
    assert!(text.contains("unknown provider `custom:nothing`"), "{text}");
}

#[test]
fn placeholder_keys_count_as_unset() {
    for value in ["changeme", "***", "abc", "  ", "your_api_key"] {
        assert!(
            resolve_env(&model("deepseek", ""), &[("DEEPSEEK_API_KEY", value)]).is_err(),
            "{value}"
        );
    }
}

#[test]
fn config_key_wins_over_env() {
    let mut m = model("openai", "");
    m.api_key = "from-config".into();
    let r = resolve_env(&m, &[("OPENAI_API_KEY", "from-env")]).unwrap();
    assert_eq!(r.api_key.unwrap().expose(), "from-config");
}

#[test]
fn custom_needs_a_base_url_and_keeps_other_providers_keys_to_their_hosts() {
    assert_eq!(
        resolve_env(&model("custom", ""), &[]).unwrap_err(),
        ProviderSetupError::MissingBaseUrl {
            provider: "custom".into()
        }
    );
    let r = resolve_env(&model("custom", "http://127.0.0.1:8080/v1/"), &[]).unwrap();
    assert_eq!(r.base_url, "http://127.0.0.1:8080/v1");
    assert_eq!(r.endpoint, "http://127.0.0.1:8080/v1/chat/completions");
    assert_eq!(r.api_key, None);
    assert_eq!(r.context_window, 32_768);
    // An OpenAI or OpenRouter key never goes to a local server (Hermes #28660).
    let leaky = [
        ("OPENAI_API_KEY", "sk-openai"),
        ("OPENROUTER_API_KEY", "sk-or-x"),
    ];
    let r = resolve_env(&model("custom", "http://127.0.0.1:8080/v1"), &leaky).unwrap();
    assert_eq!(r.api_key, None);
    let r = resolve_env(
        &model("custom", "http://127.0.0.1:8080/v1"),
        &[
            ("OPENAI_API_KEY", "sk-openai"),
            ("CUSTOM_API_KEY", "custom-key"),
        ],
    )
    .unwrap();
    assert_eq!(r.api_key.unwrap().expose(), "custom-key");
    // The host's own variable: api.deepseek.com → DEEPSEEK_API_KEY.
    let r = resolve_env(
        &model("custom", "https://api.deepseek.com/v1"),
        &[("DEEPSEEK_API_KEY", "sk-ds-1")],
    )
    .unwrap();
    assert_eq!(r.api_key.unwrap().expose(), "sk-ds-1");
}

#[test]
fn local_aliases_have_default_urls() {
    let r = resolve_env(&model("ollama", ""), &[]).unwrap();
    assert_eq!(r.endpoint, "http://127.0.0.1:11434/v1/chat/completions");
    assert_eq!(r.name, "custom");
    let r = resolve_env(&model("vllm", ""), &[]).unwrap();
    assert_eq!(r.endpoint, "http://127.0.0.1:8000/v1/chat/completions");
}

#[test]
fn anthropic_format_from_suffix_or_api_mode() {
    let r = resolve_env(&model("custom", "https://api.minimax.io/anthropic"), &[]).unwrap();
    assert_eq!(r.api_mode, Messages);
    assert_eq!(r.endpoint, "https://api.minimax.io/anthropic/v1/messages");
    assert_eq!(r.auth, Bearer);
    let mut m = model("custom", "http://127.0.0.1:9000/v1");
    m.api_mode = "anthropic_messages".into();
    let r = resolve_env(&m, &[]).unwrap();
    assert_eq!(r.endpoint, "http://127.0.0.1:9000/v1/messages");
    assert_eq!(r.auth, XApiKey);
    m.api_mode = "grpc".into();
    assert_eq!(
        resolve_env(&m, &[]).unwrap_err(),
        ProviderSetupError::UnknownApiMode {
            mode: "grpc".into()
        }
    );
    // An explicit Responses mode on a custom endpoint is kept (Hermes drops it).
    m.api_mode = "codex_responses".into();
    let r = resolve_env(&m, &[]).unwrap();
    assert_eq!(
        (r.api_mode, r.endpoint.as_str()),
        (Responses, "http://127.0.0.1:9000/v1/responses")
    );
    // The minimax profile on its OpenAI-compatible URL speaks chat completions.
    let r = resolve_env(
        &model("minimax", "https://api.minimax.io/v1"),
        &[("MINIMAX_API_KEY", "mm-key")],
    )
    .unwrap();
    assert_eq!(r.api_mode, Chat);
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
    let r = resolve(&m, &p, &env_of(&[("OPENROUTER_API_KEY", "sk-or-key")])).unwrap();
    assert_eq!(r.endpoint, "https://proxy.example.com/v1/chat/completions");
    assert_eq!(r.context_window, 65_536);
    assert_eq!(r.max_tokens, Some(4096));
    assert_eq!(r.stream_idle_timeout, Duration::from_secs(5));
    assert_eq!(r.retry.max_retries, 1);
}

#[test]
fn invalid_base_urls_are_rejected() {
    assert!(matches!(
        resolve_env(&model("custom", "localhost:8080"), &[]),
        Err(ProviderSetupError::InvalidBaseUrl { .. })
    ));
    assert!(matches!(
        resolve_env(&model("custom", "not a url"), &[]),
        Err(ProviderSetupError::InvalidBaseUrl { .. })
    ));
}

#[test]
fn debug_never_shows_keys_or_header_values() {
    let entry = NamedProvider {
        key: "p".into(),
        name: "p".into(),
        base_url: "http://127.0.0.1:9/v1".into(),
        api_key: "sk-inline-secret".into(),
        extra_headers: vec![("X-Token".into(), "hdr-secret".into())],
        ..NamedProvider::default()
    };
    let endpoints = ProviderEndpoints {
        named: vec![entry],
        ..ProviderEndpoints::default()
    };
    let r = resolve_named(&model("p", ""), &endpoints, &[]).unwrap();
    assert_eq!(header(&r, "X-Token"), Some("hdr-secret"));
    let dbg = format!("{r:?}");
    assert!(
        !dbg.contains("inline-secret") && !dbg.contains("hdr-secret"),
        "{dbg}"
    );
    assert!(dbg.contains("***") && dbg.contains("X-Token"), "{dbg}");
}

fn entry(key: &str, base_url: &str) -> NamedProvider {
    NamedProvider {
        key: key.into(),
        name: key.into(),
        base_url: base_url.into(),
        ..NamedProvider::default()
    }
}

#[test]
fn named_entries_resolve_as_custom_endpoints() {
    let mut proxy = entry("my-proxy", "https://proxy.example.com/v1/");
    proxy.name = "My Proxy".into();
    proxy.key_env = "PROXY_KEY".into();
    proxy.api_key = "inline-key".into();
    proxy.model = "proxy-model".into();
    proxy.context_length = 100_000;
    proxy.max_output_tokens = 2048;
    let mut legacy = entry("", "http://127.0.0.1:8080/v1");
    legacy.name = "Work LLM".into();
    legacy.source = EntrySource::CustomProviders;
    legacy.api_key = "legacy-inline".into();
    legacy.key_env = "LEGACY_KEY".into();
    let endpoints = ProviderEndpoints {
        named: vec![proxy, legacy],
        ..ProviderEndpoints::default()
    };
    let env = [("PROXY_KEY", "from-env"), ("LEGACY_KEY", "legacy-env")];
    let mut m = model("my-proxy", "");
    m.default = String::new();
    let r = resolve_named(&m, &endpoints, &env).unwrap();
    assert_eq!(r.name, "custom");
    assert_eq!(r.endpoint, "https://proxy.example.com/v1/chat/completions");
    assert_eq!(r.api_key, Some(Secret::new("from-env")), "key_env first");
    assert_eq!(r.model, "proxy-model");
    assert_eq!((r.context_window, r.max_tokens), (100_000, Some(2048)));
    // By display name and as custom:<name>; the configured model wins when set.
    for name in ["My Proxy", "my-proxy", "custom:my-proxy", "CUSTOM:My Proxy"] {
        let r = resolve_named(&model(name, ""), &endpoints, &env).unwrap();
        assert_eq!(r.base_url, "https://proxy.example.com/v1", "{name}");
        assert_eq!(r.model, "some/model");
    }
    // custom_providers items: inline key first.
    let r = resolve_named(&model("work-llm", ""), &endpoints, &env).unwrap();
    assert_eq!(r.api_key, Some(Secret::new("legacy-inline")));
}

#[test]
fn named_entries_shadow_aliases_but_not_builtin_ids() {
    let endpoints = ProviderEndpoints {
        named: vec![
            entry("kimi", "http://127.0.0.1:7/v1"),
            entry("openrouter", "http://127.0.0.1:8/v1"),
            entry("custom", "http://127.0.0.1:9/v1"),
        ],
        ..ProviderEndpoints::default()
    };
    let r = resolve_named(&model("kimi", ""), &endpoints, &[]).unwrap();
    assert_eq!(
        (r.name.as_str(), r.base_url.as_str()),
        ("custom", "http://127.0.0.1:7/v1")
    );
    let r = resolve_named(
        &model("openrouter", ""),
        &endpoints,
        &[("OPENROUTER_API_KEY", "sk-or-1")],
    )
    .unwrap();
    assert_eq!(r.base_url, "https://openrouter.ai/api/v1");
    let r = resolve_named(&model("custom", ""), &endpoints, &[]).unwrap();
    assert_eq!(r.base_url, "http://127.0.0.1:9/v1");
}

#[test]
fn named_entries_set_their_wire_format_and_never_get_foreign_keys() {
    let mut claude = entry("claude-proxy", "http://127.0.0.1:9");
    claude.api_mode = "anthropic_messages".into();
    let endpoints = ProviderEndpoints {
        named: vec![claude, entry("local", "http://127.0.0.1:8/v1")],
        ..ProviderEndpoints::default()
    };
    let r = resolve_named(&model("claude-proxy", ""), &endpoints, &[]).unwrap();
    assert_eq!((r.api_mode, r.auth), (Messages, XApiKey));
    assert_eq!(r.endpoint, "http://127.0.0.1:9/v1/messages");
    let r = resolve_named(
        &model("local", ""),
        &endpoints,
        &[("OPENAI_API_KEY", "sk-openai")],
    )
    .unwrap();
    assert_eq!(r.api_key, None);
}

#[test]
fn disabled_providers_are_an_error() {
    let endpoints = ProviderEndpoints {
        disabled: vec!["deepseek".into()],
        ..ProviderEndpoints::default()
    };
    let err = resolve_named(
        &model("deepseek", ""),
        &endpoints,
        &[("DEEPSEEK_API_KEY", "sk-ds-1")],
    )
    .unwrap_err();
    assert_eq!(
        err,
        ProviderSetupError::Disabled {
            provider: "deepseek".into()
        }
    );
    assert!(
        err.to_string()
            .contains("providers.deepseek.enabled: false"),
        "{err}"
    );
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

#[test]
fn every_profile_key_variable_is_a_known_secret_so_its_value_is_redacted() {
    let missing: Vec<&str> = crate::providers::profiles::PROFILES
        .iter()
        .flat_map(|p| p.key_vars.iter().copied())
        .filter(|var| !crate::config::env::KNOWN_SECRET_VARS.contains(var))
        .collect();
    assert!(
        missing.is_empty(),
        "add to config::env::KNOWN_SECRET_VARS: {missing:?}"
    );
}
