//! The synthetic firing `hermes hooks test` and `doctor` use: per-event payloads shaped like
//! the engine's real calls (tool `terminal` running `echo hello` for tool events, a weather
//! question for `pre_llm_call`, …), optionally overridden by a user's payload file. It does
//! not run anything.

use std::path::Path;

use serde_json::{Map, Value, json};

use super::event::HookEvent;
use super::exec::{self, PayloadContext};

/// The session id synthetic payloads carry.
pub const SESSION_ID: &str = "test-session";

/// The synthetic firing `test` and `doctor` use, shaped like the engine's real calls.
pub struct Synthetic {
    pub tool_name: Option<String>,
    pub tool_input: Option<Value>,
    pub session_id: String,
    pub extra: Map<String, Value>,
}

impl Synthetic {
    pub fn for_event(event: HookEvent) -> Self {
        let extra = match event {
            HookEvent::PreToolCall => json!({"task_id": "test-task", "tool_call_id": "test-call"}),
            HookEvent::PostToolCall => json!({
                "task_id": "test-task", "tool_call_id": "test-call",
                "result": "{\"output\": \"hello\"}", "duration_ms": 42,
            }),
            HookEvent::PreLlmCall => json!({
                "user_message": "What is the weather?", "conversation_history": [],
                "is_first_turn": true, "model": "test-model", "platform": "cli",
            }),
            HookEvent::PostLlmCall => json!({
                "user_message": "What is the weather?", "assistant_response": "Sunny.",
                "conversation_history": [], "model": "test-model", "platform": "cli",
            }),
            HookEvent::OnSessionStart => json!({"model": "test-model", "platform": "cli"}),
            HookEvent::OnSessionEnd => json!({
                "completed": true, "interrupted": false, "model": "test-model", "platform": "cli",
            }),
            HookEvent::OnSessionReset => json!({"platform": "cli", "reason": "new"}),
            HookEvent::SubagentStop => json!({
                "parent_session_id": SESSION_ID, "child_role": null,
                "child_summary": "Synthetic summary for hooks test", "child_status": "completed",
                "duration_ms": 1234,
            }),
        };
        let tool = event.is_tool_event();
        Self {
            tool_name: tool.then(|| "terminal".to_owned()),
            tool_input: tool.then(|| json!({"command": "echo hello"})),
            session_id: SESSION_ID.to_owned(),
            extra: exec::extra_object(extra),
        }
    }

    /// `tool_name`, `args`/`tool_input` and `session_id` override the top-level fields; every
    /// other key goes into `extra`.
    pub fn merge(&mut self, custom: Map<String, Value>) {
        for (key, value) in custom {
            match (key.as_str(), value) {
                ("tool_name", Value::String(name)) => self.tool_name = Some(name),
                ("args" | "tool_input", input) => self.tool_input = Some(input),
                ("session_id", Value::String(id)) => self.session_id = id,
                (_, value) => {
                    self.extra.insert(key, value);
                }
            }
        }
    }

    pub fn payload(&self, event: HookEvent, cwd: &Path) -> Value {
        let ctx = PayloadContext {
            tool_name: self.tool_name.as_deref().filter(|_| event.is_tool_event()),
            tool_input: self.tool_input.as_ref().filter(|_| event.is_tool_event()),
            session_id: &self.session_id,
            cwd,
        };
        exec::payload(event, &ctx, self.extra.clone())
    }
}

#[cfg(test)]
#[path = "synthetic_tests.rs"]
mod tests;
