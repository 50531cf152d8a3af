//! The engine's `NestedCalls`: an `execute_code` script's tool calls, run through the same
//! path as the model's (`dispatch::run_nested_call`: events, hooks, approvals, sandbox,
//! redaction), limited to the script tools the session has, with approval requests that say
//! they come through `execute_code`.
//!
//! It does not count or authorize calls (the tool's RPC server does) and never offers
//! `execute_code` itself, so scripts cannot nest.

use std::borrow::Cow;
use std::sync::Arc;

use async_trait::async_trait;

use super::dispatch::CallWrapping;
use super::dispatch::run_nested_call;
use super::events::EventSink;
use crate::model::ToolCall;
use crate::model::ToolSchema;
use crate::tools::NestedCalls;
use crate::tools::ToolContext;
use crate::tools::ToolOutput;
use crate::tools::execute_code::SCRIPT_TOOLS;
use crate::tools::registry::ToolRegistry;

struct ScriptCalls {
    registry: ToolRegistry,
    base: ToolContext,
    events: EventSink,
    wrapping: CallWrapping,
}

/// `base` with a channel for scripts when `registry` offers `execute_code`; else `base`.
pub fn attach<'a>(
    registry: &ToolRegistry,
    base: &'a ToolContext,
    events: &EventSink,
    wrapping: &CallWrapping,
) -> Cow<'a, ToolContext> {
    if registry.get("execute_code").is_none() || base.nested.is_some() {
        return Cow::Borrowed(base);
    }
    let mut inner = base.clone();
    inner.nested = None;
    if let Some(policy) = base.policy.via("execute_code") {
        inner.policy = policy;
    }
    let calls = ScriptCalls {
        registry: registry.retain(|name, _| SCRIPT_TOOLS.contains(&name)),
        base: inner,
        events: events.clone(),
        wrapping: wrapping.clone(),
    };
    let mut with = base.clone();
    with.nested = Some(Arc::new(calls));
    Cow::Owned(with)
}

#[async_trait]
impl NestedCalls for ScriptCalls {
    fn schemas(&self) -> Vec<ToolSchema> {
        self.registry.schemas()
    }

    async fn call(
        &self,
        parent: &str,
        call_id: String,
        name: &str,
        args: serde_json::Value,
    ) -> ToolOutput {
        let call = ToolCall {
            id: call_id,
            name: name.to_string(),
            arguments: args.to_string(),
        };
        run_nested_call(
            &call,
            &self.registry,
            &self.base,
            &self.events,
            &self.wrapping,
            parent,
        )
        .await
        .output
    }
}
