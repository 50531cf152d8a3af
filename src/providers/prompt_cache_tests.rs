use pretty_assertions::assert_eq;
use serde_json::json;

use super::*;

const OPENROUTER: &str = "https://openrouter.ai/api/v1";

#[test]
fn the_ttl_comes_from_the_config_and_unknown_values_are_five_minutes() {
    assert_eq!(CacheTtl::from_config("1h"), CacheTtl::OneHour);
    assert_eq!(CacheTtl::from_config(" 1h "), CacheTtl::OneHour);
    for other in ["5m", "", "2h", "1H", "60m"] {
        assert_eq!(
            CacheTtl::from_config(other),
            CacheTtl::FiveMinutes,
            "{other}"
        );
    }
    assert_eq!(CacheTtl::FiveMinutes.marker(), json!({"type": "ephemeral"}));
    assert_eq!(
        CacheTtl::OneHour.marker(),
        json!({"type": "ephemeral", "ttl": "1h"})
    );
}

#[test]
fn policy_matches_hermes() {
    use ApiMode::AnthropicMessages as A;
    use ApiMode::ChatCompletions as C;
    let cases: &[(&str, &str, ApiMode, &str, Option<Layout>)] = &[
        // Native Anthropic: any model.
        (
            "anthropic",
            "https://api.anthropic.com",
            A,
            "claude-sonnet-4",
            Some(Layout::Native),
        ),
        (
            "custom",
            "https://api.anthropic.com",
            A,
            "some-model",
            Some(Layout::Native),
        ),
        // Anthropic-wire gateways: Claude models, and MiniMax's own.
        (
            "custom",
            "http://127.0.0.1:9/anthropic",
            A,
            "claude-3-haiku",
            Some(Layout::Native),
        ),
        (
            "minimax",
            "https://api.minimax.io/anthropic",
            A,
            "MiniMax-M2.7",
            Some(Layout::Native),
        ),
        (
            "kimi-coding",
            "https://api.kimi.com/coding",
            A,
            "kimi-k2",
            None,
        ),
        // OpenRouter / Nous Portal chat completions: Claude and Kimi.
        (
            "openrouter",
            OPENROUTER,
            C,
            "anthropic/claude-sonnet-4",
            Some(Layout::Envelope),
        ),
        (
            "custom",
            OPENROUTER,
            C,
            "anthropic/claude-opus-4.1",
            Some(Layout::Envelope),
        ),
        (
            "openrouter",
            OPENROUTER,
            C,
            "moonshotai/kimi-k2.6",
            Some(Layout::Envelope),
        ),
        ("openrouter", OPENROUTER, C, "openai/gpt-5", None),
        ("openrouter", OPENROUTER, C, "qwen/qwen3-coder", None),
        (
            "nous",
            "https://inference-api.nousresearch.com/v1",
            C,
            "qwen3.6-plus",
            Some(Layout::Envelope),
        ),
        (
            "nous",
            "https://inference-api.nousresearch.com/v1",
            C,
            "claude-sonnet-4",
            Some(Layout::Envelope),
        ),
        (
            "opencode-go",
            "https://opencode.ai/zen/go/v1",
            C,
            "qwen3.6-plus",
            Some(Layout::Envelope),
        ),
        (
            "alibaba",
            "https://dashscope.aliyuncs.com/v1",
            C,
            "qwen-max",
            Some(Layout::Envelope),
        ),
        // Claude elsewhere over chat completions: not cached (Hermes does not).
        (
            "custom",
            "http://127.0.0.1:8080/v1",
            C,
            "claude-sonnet-4",
            None,
        ),
        ("openai", "https://api.openai.com/v1", C, "gpt-4o", None),
        // A look-alike host is not OpenRouter.
        (
            "custom",
            "https://openrouter.ai.evil/v1",
            C,
            "anthropic/claude-sonnet-4",
            None,
        ),
        // Our addition: the provider name alone (a proxy configured as openrouter).
        (
            "openrouter",
            "http://127.0.0.1:8080/v1",
            C,
            "anthropic/claude-sonnet-4",
            Some(Layout::Envelope),
        ),
        (
            "openrouter",
            OPENROUTER,
            ApiMode::CodexResponses,
            "anthropic/claude-sonnet-4",
            None,
        ),
    ];
    for (provider, base, mode, model, want) in cases {
        assert_eq!(
            policy(provider, base, *mode, model),
            *want,
            "{provider} {base} {mode:?} {model}"
        );
    }
}

#[test]
fn envelope_marks_the_system_prompt_and_the_last_three_carriers() {
    let mut messages = vec![
        json!({"role": "system", "content": "sys"}),
        json!({"role": "user", "content": "one"}),
        json!({"role": "assistant", "content": "two"}),
        json!({"role": "user", "content": "three"}),
        // Pure tool call: no content part to carry a marker, skipped.
        json!({"role": "assistant", "content": null, "tool_calls": [{"id": "c"}]}),
        json!({"role": "tool", "tool_call_id": "c", "content": "result"}),
        // Empty tool result: skipped too.
        json!({"role": "tool", "tool_call_id": "d", "content": ""}),
        json!({"role": "user", "content": [
            {"type": "text", "text": "look"},
            {"type": "image_url", "image_url": {"url": "data:"}}
        ]}),
    ];
    apply_envelope(&mut messages, CacheTtl::OneHour);
    let m = json!({"type": "ephemeral", "ttl": "1h"});
    assert_eq!(
        messages,
        vec![
            json!({"role": "system", "content": [{"type": "text", "text": "sys", "cache_control": m}]}),
            json!({"role": "user", "content": "one"}),
            json!({"role": "assistant", "content": "two"}),
            json!({"role": "user", "content": [{"type": "text", "text": "three", "cache_control": m}]}),
            json!({"role": "assistant", "content": null, "tool_calls": [{"id": "c"}]}),
            json!({"role": "tool", "tool_call_id": "c", "content": [{"type": "text", "text": "result", "cache_control": m}]}),
            json!({"role": "tool", "tool_call_id": "d", "content": ""}),
            json!({"role": "user", "content": [
                {"type": "text", "text": "look"},
                {"type": "image_url", "image_url": {"url": "data:"}, "cache_control": m}
            ]}),
        ]
    );
}

#[test]
fn without_a_system_prompt_four_messages_are_marked() {
    let mut messages: Vec<Value> = (0..6)
        .map(|i| json!({"role": "user", "content": format!("m{i}")}))
        .collect();
    apply_envelope(&mut messages, CacheTtl::FiveMinutes);
    let marked: Vec<bool> = messages.iter().map(|m| m["content"].is_array()).collect();
    assert_eq!(marked, [false, false, true, true, true, true]);
    assert_eq!(
        messages[5]["content"][0]["cache_control"],
        json!({"type": "ephemeral"})
    );
}
