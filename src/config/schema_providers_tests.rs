use std::path::PathBuf;

use super::*;

fn parse(text: &str) -> (ProviderEndpoints, Vec<ConfigWarning>) {
    let raw: Value = serde_norway::from_str(text).unwrap();
    let mut warnings = Vec::new();
    let endpoints =
        parse_provider_endpoints(text, &raw, &PathBuf::from("/h/config.yaml"), &mut warnings);
    (endpoints, warnings)
}

#[test]
fn providers_entries_with_hermes_spellings() {
    let (e, warnings) = parse(
        "\
providers:
  my-proxy:
    name: My Proxy
    base_url: https://proxy.example.com/v1
    key_env: PROXY_KEY
    api_key: sk-inline
    transport: anthropic_messages
    default_model: claude-x
    context_length: 200000
    max_output_tokens: 4096
    extra_headers:
      CF-Access-Client-Secret: s3cret
      X-Null: null
  camel:
    baseUrl: http://127.0.0.1:9/v1
    apiKeyEnv: CAMEL_KEY
    defaultModel: m
  openrouter:
    enabled: false
  nourl:
    api_key: x
bedrock:
  region: eu-west-1
",
    );
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(e.named.len(), 2);
    let p = &e.named[0];
    assert_eq!(
        (p.key.as_str(), p.name.as_str(), p.base_url.as_str()),
        ("my-proxy", "My Proxy", "https://proxy.example.com/v1")
    );
    assert_eq!(
        (p.key_env.as_str(), p.api_key.as_str()),
        ("PROXY_KEY", "sk-inline")
    );
    assert_eq!(p.api_mode, "anthropic_messages");
    assert_eq!(p.model, "claude-x");
    assert_eq!((p.context_length, p.max_output_tokens), (200_000, 4096));
    assert_eq!(
        p.extra_headers,
        vec![("CF-Access-Client-Secret".to_string(), "s3cret".to_string())]
    );
    assert_eq!(p.source, EntrySource::Providers);
    let camel = &e.named[1];
    assert_eq!(
        (
            camel.name.as_str(),
            camel.key_env.as_str(),
            camel.model.as_str()
        ),
        ("camel", "CAMEL_KEY", "m")
    );
    assert_eq!(e.disabled, vec!["openrouter".to_string()]);
    assert_eq!(e.bedrock_region, "eu-west-1");
}

#[test]
fn legacy_custom_providers_list_and_dedup() {
    let (e, warnings) = parse(
        "\
providers:
  local:
    api: http://127.0.0.1:8080/v1
custom_providers:
  - name: Work LLM
    base_url: https://llm.work.example/v1
    api_key: sk-work
    model: qwen3
    api_mode: chat_completions
  - name: local
    base_url: http://127.0.0.1:8080/v1
  - name: broken
    base_url: not-a-url
",
    );
    let names: Vec<&str> = e.named.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["local", "Work LLM"]);
    assert_eq!(e.named[1].source, EntrySource::CustomProviders);
    assert_eq!(e.named[1].model, "qwen3");
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].message.contains("broken"), "{warnings:?}");
}

#[test]
fn wrong_shapes_warn_and_are_ignored() {
    let (e, warnings) = parse(
        "\
providers:
  - name: x
custom_providers:
  name: y
  base_url: http://h/v1
",
    );
    assert!(e.named.is_empty());
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(
        warnings[1].message.contains("expected a list"),
        "{warnings:?}"
    );
    assert_eq!(warnings[1].line, Some(3));
}

#[test]
fn enabled_words_and_url_templates() {
    let (e, _) = parse(
        "\
providers:
  off:
    base_url: http://h/v1
    enabled: 'no'
  templated:
    base_url: https://{region}.example.com/v1
",
    );
    assert_eq!(e.disabled, vec!["off".to_string()]);
    assert_eq!(e.named[0].base_url, "https://{region}.example.com/v1");
}

#[test]
fn debug_masks_keys_and_header_values() {
    let (e, _) = parse(
        "\
providers:
  p:
    base_url: http://h/v1
    api_key: sk-supersecret
    extra_headers:
      Authorization: Bearer topsecret
",
    );
    let dbg = format!("{e:?}");
    assert!(
        !dbg.contains("supersecret") && !dbg.contains("topsecret"),
        "{dbg}"
    );
    assert!(dbg.contains("Authorization"), "{dbg}");
}

#[test]
fn load_reads_the_sections_into_config() {
    let loaded = crate::config::load::parse(
        "providers:\n  p:\n    base_url: http://h/v1\nbedrock:\n  region: ap-south-1\n",
        &PathBuf::from("/h/config.yaml"),
    );
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    assert_eq!(loaded.config.provider_endpoints.named.len(), 1);
    assert_eq!(
        loaded.config.provider_endpoints.bedrock_region,
        "ap-south-1"
    );
}
