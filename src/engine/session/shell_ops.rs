//! The session actor's `!cmd`: the user's own shell command, run by the terminal tool outside
//! the conversation (nothing is added to the history) with hardline checks only, on its own
//! task. Owns `next_shell_id`; shares the session's processes and tool environment.

use std::sync::Arc;

use tokio_util::sync::CancellationToken;

use super::Actor;
use crate::engine::host::EngineToolHost;
use crate::model::ToolCall;
use crate::safety::HardlineOnly;
use crate::tools::ToolContext;

impl Actor {
    /// `!cmd`: the terminal tool, outside the conversation, with hardline checks only —
    /// the user typed the command themselves.
    pub(super) fn run_shell(&mut self, command: String) {
        let id = self.next_shell_id;
        self.next_shell_id += 1;
        let call = ToolCall {
            id: format!("shell_{id}"),
            name: "terminal".to_string(),
            arguments: serde_json::json!({ "command": command }).to_string(),
        };
        let cancel = CancellationToken::new();
        let ctx = ToolContext {
            call_id: call.id.clone(),
            session_id: self.spec.session_id.clone(),
            cwd: self.spec.cwd.clone(),
            limits: self.spec.limits.clone(),
            cancel: cancel.clone(),
            host: Arc::new(EngineToolHost {
                events: self.events.clone(),
                pending: self.pending.clone(),
                cancel,
            }),
            policy: Arc::new(HardlineOnly),
            session: Arc::clone(&self.session_tools),
            env: Arc::clone(&self.spec.tool_env),
            delegator: None,
            vision: None,
            nested: None,
        };
        let tools = Arc::clone(&self.spec.tools);
        let events = self.events.clone();
        tokio::spawn(async move {
            crate::engine::dispatch::run_tool_calls(
                &[call],
                &tools,
                &ctx,
                &events,
                &crate::engine::dispatch::CallWrapping::default(),
            )
            .await;
        });
    }
}
