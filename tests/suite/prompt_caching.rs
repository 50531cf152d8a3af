//! Prompt caching through the real binary and `config.yaml`, as Hermes does it: native
//! Anthropic gets `cache_control` on the system prompt and the last 3 messages with the
//! configured TTL (`prompt_caching.cache_ttl`: `5m` by default, `1h` on request); Claude over
//! OpenRouter's chat completions gets the same breakpoints in content-part form; other models
//! over OpenRouter get none.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;
use crate::support::env::CleanEnv;

use std::time::Duration;

use serde_json::Value;
use serde_json::json;
use support::Response;
use support::ScriptedCall;
use support::ScriptedServer;

/// Run `hermes -z` once against `server` with `config`; a tool call then an answer, so the
/// second request carries a short history. Returns the two request bodies.
async fn two_requests(server: &ScriptedServer, config: &str, key_var: &str) -> Vec<Value> {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("home")).unwrap();
    std::fs::write(dir.path().join("home/config.yaml"), config).unwrap();
    let out = tokio::time::timeout(
        Duration::from_secs(60),
        tokio::process::Command::new(env!("CARGO_BIN_EXE_hermes"))
            .clean_env()
            .args(["-z", "plan it"])
            .current_dir(dir.path())
            .env("HERMES_HOME", dir.path().join("home"))
            .env(key_var, "test-key")
            .stdin(std::process::Stdio::null())
            .kill_on_drop(true)
            .output(),
    )
    .await
    .unwrap()
    .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    server
        .completion_requests()
        .into_iter()
        .map(|r| r.body)
        .collect()
}

fn script() -> [Response; 2] {
    [
        Response::tool_calls([ScriptedCall::new("c1", "todo", "{}")]),
        Response::text(["done"]),
    ]
}

fn anthropic_config(server: &ScriptedServer, extra: &str) -> String {
    format!(
        "model:\n  provider: anthropic\n  base_url: {}\n  default: claude-sonnet-4\n{extra}",
        server.root_url()
    )
}

fn openrouter_config(server: &ScriptedServer, model: &str) -> String {
    format!(
        "model:\n  provider: openrouter\n  base_url: {}\n  default: {model}\n",
        server.base_url()
    )
}

/// Every `cache_control` value in `v`, in document order.
fn markers(v: &Value, out: &mut Vec<Value>) {
    match v {
        Value::Object(map) => {
            for (k, v) in map {
                if k == "cache_control" {
                    out.push(v.clone());
                } else {
                    markers(v, out);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| markers(v, out)),
        _ => {}
    }
}

fn all_markers(v: &Value) -> Vec<Value> {
    let mut out = Vec::new();
    markers(v, &mut out);
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn native_anthropic_caches_system_and_last_three_for_five_minutes_by_default() {
    let server = ScriptedServer::start(script()).await;
    let bodies = two_requests(&server, &anthropic_config(&server, ""), "ANTHROPIC_API_KEY").await;
    let five = json!({"type": "ephemeral"});
    let second = &bodies[1];
    assert_eq!(second["system"][0]["cache_control"], five);
    let messages = second["messages"].as_array().unwrap();
    assert_eq!(
        messages.len(),
        3,
        "user, assistant tool_use, user tool_result"
    );
    for m in messages {
        let last = m["content"].as_array().unwrap().last().unwrap();
        assert_eq!(last["cache_control"], five, "{m}");
    }
    assert_eq!(all_markers(second).len(), 4);
    assert!(
        server.completion_requests()[1]
            .header("anthropic-beta")
            .is_none()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn native_anthropic_honours_a_one_hour_ttl() {
    let server = ScriptedServer::start(script()).await;
    let config = anthropic_config(&server, "prompt_caching:\n  cache_ttl: 1h\n");
    let bodies = two_requests(&server, &config, "ANTHROPIC_API_KEY").await;
    let hour = json!({"type": "ephemeral", "ttl": "1h"});
    for body in &bodies {
        let found = all_markers(body);
        assert!(!found.is_empty());
        assert!(found.iter().all(|m| *m == hour), "{found:?}");
    }
    assert_eq!(all_markers(&bodies[1]).len(), 4);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn claude_through_openrouter_gets_the_same_breakpoints() {
    let server = ScriptedServer::start(script()).await;
    let config = openrouter_config(&server, "anthropic/claude-sonnet-4");
    let bodies = two_requests(&server, &config, "OPENROUTER_API_KEY").await;
    let five = json!({"type": "ephemeral"});
    let messages = bodies[1]["messages"].as_array().unwrap();
    let roles: Vec<&str> = messages
        .iter()
        .map(|m| m["role"].as_str().unwrap())
        .collect();
    assert_eq!(roles, ["system", "user", "assistant", "tool"]);
    // String contents became one text part carrying the marker.
    for i in [0, 1, 3] {
        let parts = messages[i]["content"].as_array().unwrap();
        assert_eq!(parts.len(), 1, "{}", messages[i]);
        assert_eq!(parts[0]["type"], "text");
        assert_eq!(parts[0]["cache_control"], five);
    }
    // The pure tool-call turn cannot carry one and is left as it was.
    assert!(messages[2]["content"].is_null());
    assert!(messages[2].get("cache_control").is_none());
    assert_eq!(all_markers(&bodies[1]).len(), 3);
    assert_eq!(
        bodies[1]["messages"][1]["content"][0]["text"], "plan it",
        "the text is unchanged"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn other_models_through_openrouter_get_no_breakpoints() {
    let server = ScriptedServer::start(script()).await;
    let config = openrouter_config(&server, "openai/gpt-4o");
    let bodies = two_requests(&server, &config, "OPENROUTER_API_KEY").await;
    for body in &bodies {
        assert!(all_markers(body).is_empty(), "{body}");
        assert!(body["messages"][0]["content"].is_string());
    }
}
