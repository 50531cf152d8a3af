use super::*;

#[test]
fn modes_hermes_infers_from_urls() {
    let cases = [
        ("https://api.openai.com/v1", Some(ApiMode::CodexResponses)),
        ("https://api.x.ai/v1", Some(ApiMode::CodexResponses)),
        (
            "https://api.anthropic.com",
            Some(ApiMode::AnthropicMessages),
        ),
        (
            "https://api.minimax.io/anthropic",
            Some(ApiMode::AnthropicMessages),
        ),
        (
            "https://proxy.example/x/anthropic/v1/",
            Some(ApiMode::AnthropicMessages),
        ),
        (
            "https://api.kimi.com/coding",
            Some(ApiMode::AnthropicMessages),
        ),
        ("https://api.kimi.com/v1", None),
        ("http://127.0.0.1:8080/v1", None),
        // Lookalikes are not the real hosts.
        ("https://api.openai.com.evil.test/v1", None),
        ("https://evil.test/api.anthropic.com", None),
    ];
    for (url, mode) in cases {
        assert_eq!(api_mode_for_url(url), mode, "{url}");
    }
}

#[test]
fn bearer_hosts_for_the_messages_format() {
    assert!(messages_wants_bearer("https://api.minimax.io/anthropic"));
    assert!(messages_wants_bearer("https://api.minimaxi.com/anthropic/"));
    assert!(messages_wants_bearer(
        "https://r.services.ai.azure.com/anthropic"
    ));
    assert!(messages_wants_bearer(
        "https://org.palantirfoundry.com/api/v2/llm/proxy/anthropic"
    ));
    assert!(!messages_wants_bearer("https://api.anthropic.com"));
    assert!(!messages_wants_bearer(
        "https://evil.test/palantirfoundry.com/anthropic"
    ));
}

#[test]
fn anthropic_oauth_token_shapes() {
    assert!(is_anthropic_oauth_token("sk-ant-oat01-abc"));
    assert!(is_anthropic_oauth_token("eyJhbGciOi"));
    assert!(is_anthropic_oauth_token("cc-abc"));
    assert!(!is_anthropic_oauth_token("sk-ant-api03-abc"));
    assert!(!is_anthropic_oauth_token("mm-key"));
}

#[test]
fn usable_secrets() {
    for bad in [
        "",
        "abc",
        "***",
        "changeme",
        "DUMMY",
        " none ",
        "your-api-key",
    ] {
        assert!(!usable_secret(bad), "{bad}");
    }
    assert!(usable_secret("sk-1234"));
}

#[test]
fn vendor_key_from_the_host() {
    assert_eq!(
        host_derived_key_var("https://api.deepseek.com/v1").as_deref(),
        Some("DEEPSEEK_API_KEY")
    );
    assert_eq!(
        host_derived_key_var("https://api.groq.com/openai/v1").as_deref(),
        Some("GROQ_API_KEY")
    );
    assert_eq!(
        host_derived_key_var("https://api.deepseek.com.attacker.test/v1").as_deref(),
        Some("ATTACKER_API_KEY")
    );
    for none in [
        "http://127.0.0.1:8080/v1",
        "http://localhost:1234/v1",
        "https://api.openai.com/v1",
        "http://gpu/v1",
    ] {
        assert_eq!(host_derived_key_var(none), None, "{none}");
    }
    assert_eq!(
        host_gated_key_var("https://ollama.com/v1"),
        Some("OLLAMA_API_KEY")
    );
    assert_eq!(
        host_gated_key_var("https://x.openai.azure.com/v1"),
        Some("OPENAI_API_KEY")
    );
    assert_eq!(host_gated_key_var("http://127.0.0.1/ollama.com/v1"), None);
}

#[test]
fn url_fixups() {
    assert_eq!(lmstudio_base("http://h:1234"), "http://h:1234/v1");
    assert_eq!(lmstudio_base("http://h:1234/api/v1/"), "http://h:1234/v1");
    assert_eq!(lmstudio_base("http://h:1234/v1"), "http://h:1234/v1");
    assert_eq!(
        gemini_openai_base("https://generativelanguage.googleapis.com/v1beta"),
        "https://generativelanguage.googleapis.com/v1beta/openai"
    );
    assert_eq!(
        gemini_openai_base("http://127.0.0.1:9/v1"),
        "http://127.0.0.1:9/v1"
    );
    assert_eq!(
        opencode_base("https://opencode.ai/zen", ApiMode::ChatCompletions),
        "https://opencode.ai/zen/v1"
    );
    assert_eq!(
        opencode_base("https://opencode.ai/zen", ApiMode::AnthropicMessages),
        "https://opencode.ai/zen"
    );
    assert_eq!(
        opencode_base("http://proxy/zen", ApiMode::ChatCompletions),
        "http://proxy/zen"
    );
}

#[test]
fn model_routed_modes() {
    assert_eq!(
        opencode_mode("opencode-zen", "qwen3.7"),
        ApiMode::AnthropicMessages
    );
    assert_eq!(
        opencode_mode("opencode-zen", "gemini-3-flash"),
        ApiMode::ChatCompletions
    );
    assert_eq!(
        opencode_mode("opencode-go", "kimi-k2.6"),
        ApiMode::ChatCompletions
    );
    assert!(azure_wants_responses("openai/gpt-5.4-mini"));
    assert!(azure_wants_responses("o3-mini"));
    assert!(!azure_wants_responses("gpt-4o"));
}
