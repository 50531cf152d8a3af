use std::sync::Mutex as StdMutex;

use super::*;
use crate::model::Role;
use crate::model::Usage;
use crate::providers::recording::RecordingProvider;

struct Fixture {
    sampler: Sampler,
    provider: Arc<RecordingProvider>,
    notices: Arc<StdMutex<Vec<String>>>,
}

fn fixture(config: McpSamplingConfig, delay: Duration) -> Fixture {
    let provider = Arc::new(RecordingProvider {
        delay,
        usage: Usage {
            input_tokens: 30,
            output_tokens: 12,
            ..Usage::default()
        },
        ..RecordingProvider::replying("Paris.")
    });
    let notices = Arc::new(StdMutex::new(Vec::new()));
    let sink = Arc::clone(&notices);
    let sampler = Sampler::new(
        "ev",
        config,
        SamplingModel {
            provider: Arc::clone(&provider) as _,
            model: "session-model".into(),
        },
        Arc::new(move |event| {
            if let Event::Notice(Notice { text, .. }) = event {
                sink.lock().unwrap().push(text);
            }
        }),
        CancellationToken::new(),
    );
    Fixture {
        sampler,
        provider,
        notices,
    }
}

fn request(max_tokens: u32) -> CreateMessageRequestParams {
    serde_json::from_value(serde_json::json!({
        "messages": [
            {"role": "user", "content": {"type": "text", "text": "Capital of France?"}},
            {"role": "assistant", "content": [
                {"type": "text", "text": "Let me think."},
                {"type": "image", "data": "AAAA", "mimeType": "image/png"}
            ]},
            {"role": "user", "content": {"type": "text", "text": "Answer in one word."}}
        ],
        "systemPrompt": "You are a helpful test server.",
        "maxTokens": max_tokens
    }))
    .unwrap()
}

#[tokio::test]
async fn a_request_is_answered_by_the_session_model_within_the_token_cap() {
    let fx = fixture(
        McpSamplingConfig {
            max_tokens_cap: 100,
            ..McpSamplingConfig::default()
        },
        Duration::ZERO,
    );
    let result = fx.sampler.create_message(request(5_000)).await.unwrap();
    assert_eq!(result.model, "session-model");
    assert_eq!(result.stop_reason.as_deref(), Some("endTurn"));
    let reply = serde_json::to_value(&result).unwrap();
    assert_eq!(reply["role"], "assistant");
    assert_eq!(reply["content"]["text"], "Paris.");

    let seen = fx.provider.requests();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].model, "session-model");
    assert_eq!(seen[0].max_tokens, Some(100), "maxTokens is capped");
    assert_eq!(seen[0].system, "You are a helpful test server.");
    assert!(seen[0].tools.is_empty());
    let roles: Vec<Role> = seen[0].messages.iter().map(|m| m.role).collect();
    assert_eq!(roles, [Role::User, Role::Assistant, Role::User]);
    assert_eq!(
        seen[0].messages[1].content,
        "Let me think.\n[an image (image/png) was left out: hermes samples text only]"
    );

    assert_eq!(
        fx.sampler.metrics(),
        SamplingMetrics {
            requests: 1,
            errors: 0,
            tokens: 42
        }
    );
    let notices = fx.notices.lock().unwrap();
    assert_eq!(
        notices.as_slice(),
        [
            "MCP server 'ev' asked the model for a completion (session-model via sampling): 42 tokens"
        ]
    );
}

#[tokio::test]
async fn more_than_max_rpm_requests_in_a_minute_are_refused() {
    let fx = fixture(
        McpSamplingConfig {
            max_rpm: 2,
            ..McpSamplingConfig::default()
        },
        Duration::ZERO,
    );
    assert!(fx.sampler.create_message(request(10)).await.is_ok());
    assert!(fx.sampler.create_message(request(10)).await.is_ok());
    let refused = fx.sampler.create_message(request(10)).await.unwrap_err();
    assert!(
        refused.message.contains("rate limit exceeded")
            && refused.message.contains("mcp_servers.ev.sampling.max_rpm"),
        "{}",
        refused.message
    );
    assert_eq!(fx.provider.requests().len(), 2);
    assert_eq!(fx.sampler.metrics().errors, 1);
}

#[test]
fn the_window_slides() {
    let fx = fixture(
        McpSamplingConfig {
            max_rpm: 1,
            ..McpSamplingConfig::default()
        },
        Duration::ZERO,
    );
    let start = Instant::now();
    assert!(fx.sampler.admit(start));
    assert!(!fx.sampler.admit(start + Duration::from_secs(59)));
    assert!(fx.sampler.admit(start + Duration::from_secs(60)));
}

#[tokio::test]
async fn a_slow_model_times_out_with_the_setting_named() {
    let fx = fixture(
        McpSamplingConfig {
            timeout: 0.05,
            ..McpSamplingConfig::default()
        },
        Duration::from_secs(5),
    );
    let err = fx.sampler.create_message(request(10)).await.unwrap_err();
    assert!(
        err.message.contains("timed out")
            && err.message.contains("mcp_servers.ev.sampling.timeout"),
        "{}",
        err.message
    );
    assert!(fx.notices.lock().unwrap().is_empty());
}

#[test]
fn the_model_is_the_override_an_allowed_hint_or_the_session_model() {
    let hints = |names: &[&str]| -> ModelPreferences {
        let hints: Vec<_> = names
            .iter()
            .map(|n| serde_json::json!({"name": n}))
            .collect();
        serde_json::from_value(serde_json::json!({ "hints": hints })).unwrap()
    };
    let default = McpSamplingConfig::default();
    // Hints alone never switch models: the provider may not have them.
    assert_eq!(
        resolve_model(&default, Some(&hints(&["claude-3-sonnet"])), "main"),
        Ok("main".to_string())
    );
    let allowed = McpSamplingConfig {
        allowed_models: vec!["cheap".into(), "fast".into()],
        ..McpSamplingConfig::default()
    };
    assert_eq!(
        resolve_model(&allowed, Some(&hints(&["big", "fast"])), "main"),
        Ok("fast".to_string())
    );
    assert_eq!(resolve_model(&allowed, None, "main"), Ok("main".into()));
    let overridden = McpSamplingConfig {
        model: Some("cheap".into()),
        ..allowed.clone()
    };
    assert_eq!(
        resolve_model(&overridden, Some(&hints(&["fast"])), "main"),
        Ok("cheap".to_string())
    );
    let outside = McpSamplingConfig {
        model: Some("big".into()),
        ..allowed
    };
    let err = resolve_model(&outside, None, "main")
        .unwrap_err()
        .to_string();
    assert!(err.contains("not in allowed_models (cheap, fast)"), "{err}");
}
