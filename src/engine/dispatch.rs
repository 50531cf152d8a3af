//! Runs the tool calls of one model response.
//!
//! Consecutive parallel-safe calls run concurrently (at most `MAX_PARALLEL_TOOLS`); every
//! other call runs alone, in order, so `clarify` is never in parallel with anything. Results
//! come back in the order the model asked for them — each call gets exactly one result, even
//! when it was never started because the turn was interrupted, because the APIs reject a
//! history with unanswered tool calls.

use std::borrow::Cow;
use std::sync::Arc;
use std::time::Duration;
use std::time::Instant;

use super::events::EventSink;
use crate::model::ToolCall;
use crate::protocol::Event;
use crate::protocol::ToolComplete;
use crate::protocol::ToolStart;
use crate::protocol::ToolStatus;
use crate::safety::hooks::HookRunner;
use crate::tools::Concurrency;
use crate::tools::Tool;
use crate::tools::ToolContext;
use crate::tools::ToolOutcome;
use crate::tools::ToolOutput;
use crate::tools::registry::ToolRegistry;
use crate::util::redact::Redactor;

/// Hermes's `_MAX_TOOL_WORKERS`.
pub const MAX_PARALLEL_TOOLS: usize = 8;

#[derive(Debug, Clone)]
pub struct ToolRun {
    pub call: ToolCall,
    pub output: ToolOutput,
    pub duration: Duration,
}

/// What wraps every tool call: the shell hooks around it (`None` for the user's own `!cmd`)
/// and the secret redaction of its output (`security.redact_secrets`), applied before the
/// model or the frontend sees it.
#[derive(Clone, Default)]
pub struct CallWrapping {
    pub hooks: Option<HookRunner>,
    pub redactor: Redactor,
}

pub async fn run_tool_calls(
    calls: &[ToolCall],
    registry: &ToolRegistry,
    base: &ToolContext,
    events: &EventSink,
    wrapping: &CallWrapping,
) -> Vec<ToolRun> {
    let base = &*super::script_calls::attach(registry, base, events, wrapping);
    let mut runs = Vec::with_capacity(calls.len());
    let mut index = 0;
    while index < calls.len() {
        let parallel_end = calls[index..]
            .iter()
            .position(|call| !is_parallel_safe(registry, call))
            .map_or(calls.len(), |offset| index + offset);
        if parallel_end > index + 1 {
            for chunk in calls[index..parallel_end].chunks(MAX_PARALLEL_TOOLS) {
                let started: Vec<_> = chunk
                    .iter()
                    .map(|call| run_one(call, registry, base, events, wrapping, None))
                    .collect();
                runs.extend(futures::future::join_all(started).await);
            }
            index = parallel_end;
        } else {
            runs.push(run_one(&calls[index], registry, base, events, wrapping, None).await);
            index += 1;
        }
    }
    runs
}

fn is_parallel_safe(registry: &ToolRegistry, call: &ToolCall) -> bool {
    registry
        .get(&call.name)
        .is_some_and(|tool| tool.concurrency() == Concurrency::ParallelSafe)
}

/// One call made by another tool call, `parent` (an `execute_code` script's call): the same
/// path as the model's own calls — events, hooks, approvals and redaction — with the start
/// event naming its parent.
pub async fn run_nested_call(
    call: &ToolCall,
    registry: &ToolRegistry,
    base: &ToolContext,
    events: &EventSink,
    wrapping: &CallWrapping,
    parent: &str,
) -> ToolRun {
    run_one(call, registry, base, events, wrapping, Some(parent)).await
}

async fn run_one(
    call: &ToolCall,
    registry: &ToolRegistry,
    base: &ToolContext,
    events: &EventSink,
    wrapping: &CallWrapping,
    parent: Option<&str>,
) -> ToolRun {
    let started = Instant::now();
    let tool = registry.get(&call.name);
    let parsed = parse_arguments(&call.arguments);
    let preview = match (&tool, &parsed) {
        (Some(tool), Ok(args)) => tool.preview(args),
        _ => excerpt(&call.arguments, 80),
    };
    events.send(Event::ToolStart(ToolStart {
        call_id: call.id.clone(),
        name: call.name.clone(),
        preview,
        arguments: parsed
            .as_ref()
            .map_or(serde_json::Value::Null, Clone::clone),
        parent_call_id: parent.map(str::to_string),
    }));
    let output = if base.cancel.is_cancelled() {
        ToolOutput::cancelled("not run: the user interrupted the turn")
    } else {
        match (tool, parsed) {
            (None, _) => unknown_tool(registry, &call.name),
            (Some(_), Err(message)) => ToolOutput::error(format!(
                "invalid JSON arguments for tool '{}': {message}.{} Arguments were: {}",
                call.name,
                message.cut_off_hint(),
                excerpt(&call.arguments, 300)
            )),
            (Some(tool), Ok(args)) => match &wrapping.hooks {
                Some(hooks) if !hooks.is_empty() => {
                    hooked_call(hooks, tool, args, call, base, started).await
                }
                _ => call_tool(tool, args, call, base).await,
            },
        }
    };
    let mut output = output;
    if let Cow::Owned(clean) = wrapping.redactor.redact(&output.content) {
        output.content = clean;
    }
    if let Some(data) = &mut output.data {
        wrapping.redactor.redact_json(data);
    }
    let duration = started.elapsed();
    events.send(Event::ToolComplete(ToolComplete {
        call_id: call.id.clone(),
        name: call.name.clone(),
        status: status_of(output.outcome),
        output: output.content.clone(),
        duration_ms: u64::try_from(duration.as_millis()).unwrap_or(u64::MAX),
    }));
    ToolRun {
        call: call.clone(),
        output,
        duration,
    }
}

async fn call_tool(
    tool: Arc<dyn Tool>,
    args: serde_json::Value,
    call: &ToolCall,
    base: &ToolContext,
) -> ToolOutput {
    let mut ctx = base.clone();
    ctx.call_id = call.id.clone();
    tracing::debug!(tool = %call.name, call_id = %call.id, "tool call started");
    let output = tool.call(args, &ctx).await;
    tracing::debug!(tool = %call.name, call_id = %call.id, outcome = ?output.outcome, "tool call finished");
    output
}

/// A tool call between its `pre_tool_call` hooks (which may block it: the hook's message
/// reaches the model as the refusal) and its `post_tool_call` hooks (which see the result).
async fn hooked_call(
    hooks: &HookRunner,
    tool: Arc<dyn Tool>,
    args: serde_json::Value,
    call: &ToolCall,
    base: &ToolContext,
    started: Instant,
) -> ToolOutput {
    let extra = serde_json::json!({
        "task_id": base.session_id,
        "session_id": base.session_id,
        "tool_call_id": call.id,
    });
    let output = match hooks.pre_tool_call(&call.name, &args, extra).await {
        Some(message) => ToolOutput::denied(format!("blocked by a pre_tool_call hook: {message}")),
        None => call_tool(tool, args.clone(), call, base).await,
    };
    let extra = serde_json::json!({
        "task_id": base.session_id,
        "session_id": base.session_id,
        "tool_call_id": call.id,
        "duration_ms": u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
        "status": format!("{:?}", output.outcome).to_lowercase(),
    });
    hooks
        .post_tool_call(&call.name, &args, &output.content, extra)
        .await;
    output
}

/// Why a tool call's arguments are not a JSON object; the model is told and may retry.
#[derive(Debug, thiserror::Error)]
enum ArgumentsError {
    #[error("expected a JSON object, got {0}")]
    NotAnObject(&'static str),
    #[error(transparent)]
    Json(#[from] serde_json::Error),
}

impl ArgumentsError {
    /// Arguments that end mid-value were almost always cut by the output token limit; say so,
    /// so the model splits the work instead of resending the same oversized call.
    fn cut_off_hint(&self) -> &'static str {
        match self {
            Self::Json(e) if e.is_eof() => {
                " The arguments end abruptly: the reply most likely hit the output token limit (model.max_tokens). Send less per call — split a large file into several write_file/patch calls — or ask the user to raise model.max_tokens."
            }
            Self::Json(_) | Self::NotAnObject(_) => "",
        }
    }
}

/// Models send `""` for "no arguments"; treat it as `{}`.
fn parse_arguments(raw: &str) -> Result<serde_json::Value, ArgumentsError> {
    if raw.trim().is_empty() {
        return Ok(serde_json::Value::Object(serde_json::Map::new()));
    }
    match serde_json::from_str::<serde_json::Value>(raw)? {
        value @ serde_json::Value::Object(_) => Ok(value),
        other => Err(ArgumentsError::NotAnObject(kind_of(&other))),
    }
}

fn kind_of(value: &serde_json::Value) -> &'static str {
    match value {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}

fn unknown_tool(registry: &ToolRegistry, name: &str) -> ToolOutput {
    ToolOutput::error(format!(
        "unknown tool '{name}'. Available tools: {}",
        registry.names().join(", ")
    ))
}

pub fn status_of(outcome: ToolOutcome) -> ToolStatus {
    match outcome {
        ToolOutcome::Ok => ToolStatus::Ok,
        ToolOutcome::Error => ToolStatus::Error,
        ToolOutcome::Denied => ToolStatus::Denied,
        ToolOutcome::Cancelled => ToolStatus::Cancelled,
    }
}

fn excerpt(text: &str, max_chars: usize) -> String {
    let mut out: String = text.chars().take(max_chars).collect();
    if text.chars().count() > max_chars {
        out.push('…');
    }
    out
}
