//! One turn: the tool loop for a single user input.
//!
//! Call the model, stream its text as events, run the tools it asks for, append everything to
//! the history, and repeat until it answers without tool calls, the turn's share of the
//! iteration budget is spent (`agent.max_turns` API calls per user message, shared with the
//! turns its subagents' results start — the actor works out the share), the user interrupts,
//! or a provider error ends the turn. The turn owns the history while it runs and hands it back when it ends, so the
//! history never needs a lock. Invariants: every assistant tool call in the history has a tool
//! result; an empty model reply never becomes an empty assistant message; an interrupted reply
//! keeps the text that had arrived.

use std::sync::Arc;
use std::sync::Mutex;

use super::compress;
use super::compress::CompressionSettings;
use super::dispatch::CallWrapping;
use super::dispatch::ToolRun;
use super::dispatch::run_tool_calls;
use super::events::EventSink;
use super::turn_hooks;
use super::turn_stream::StreamState;
use crate::model::Message;
use crate::protocol::ErrorEvent;
use crate::protocol::Event;
use crate::protocol::Notice;
use crate::protocol::NoticeLevel;
use crate::protocol::StatusUpdate;
use crate::protocol::TurnOutcome;
use crate::providers::ChatRequest;
use crate::providers::Completion;
use crate::providers::Provider;
use crate::providers::ProviderError;
use crate::tools::ToolContext;
use crate::tools::ToolOutcome;
use crate::tools::registry::ToolRegistry;

/// Messages the user sent with `/steer` while the turn runs; delivered with the next tool
/// results.
pub type SteerBuffer = Arc<Mutex<Vec<String>>>;

pub struct TurnContext {
    pub turn_id: u64,
    pub provider: Arc<dyn Provider>,
    pub model: String,
    pub system: String,
    pub tools: Arc<ToolRegistry>,
    pub tool_ctx: ToolContext,
    pub events: EventSink,
    /// API calls this turn may make: what is left of its user message's budget.
    pub max_iterations: u32,
    /// The whole budget of one user message (`agent.max_turns`), for the stop notice.
    pub message_limit: u32,
    pub max_tokens: Option<u32>,
    pub steer: SteerBuffer,
    pub status: StatusUpdate,
    pub recorder: Arc<super::recorder::Recorder>,
    pub discovery: Option<Arc<crate::knowledge::discovery::SubdirContext>>,
    pub compression: CompressionSettings,
    /// Pauses automatic compression that cannot help; shared by the session's turns.
    pub compression_guard: Arc<compress::CompressionGuard>,
    /// The model that writes compression summaries (`auxiliary.compression`), else the
    /// main one.
    pub summariser: Option<(Arc<dyn Provider>, crate::store::BillingRoute)>,
    /// The route the main model's calls are accounted under.
    pub route: crate::store::BillingRoute,
    pub context_window: u64,
    pub session_id: String,
    /// Hooks and redaction around tool calls; `pre_llm_call`/`post_llm_call` hooks.
    pub wrapping: CallWrapping,
    pub vision: super::turn_images::TurnVision,
}

/// What a turn was started for.
pub enum TurnInput {
    /// A user message.
    User(super::turn_images::UserInput),
    /// The main agent's background subagents' results, as the next user message. The turn
    /// spends what is left of the budget of the user message that led to it, so a model that
    /// delegates again from every result cannot loop without end.
    SubagentResults(super::turn_images::UserInput),
    /// `/compress`: summarise the conversation now, without a model reply.
    Compress,
}

pub struct TurnResult {
    pub history: Vec<Message>,
    pub outcome: TurnOutcome,
    pub status: StatusUpdate,
    /// Set when compression moved the conversation into a child session.
    pub session_id: String,
    /// Model calls this turn made (each counts against the message's budget).
    pub api_calls: u32,
}

/// What finished during the turn, for the "interrupted" summary.
#[derive(Default)]
struct Progress {
    tools_done: Vec<String>,
}

pub async fn run_turn(
    mut ctx: TurnContext,
    mut history: Vec<Message>,
    input: TurnInput,
) -> TurnResult {
    let input = match input {
        TurnInput::User(input) | TurnInput::SubagentResults(input) => input,
        TurnInput::Compress => {
            let outcome = match compress_now(&mut ctx, &mut history, Trigger::Requested).await {
                Ok(()) => TurnOutcome::Completed,
                Err(ProviderError::Cancelled) => interrupted(&Progress::default(), ""),
                Err(err) => failed(&ctx, &err),
            };
            return finish(ctx, history, outcome, 0);
        }
    };
    let text = turn_hooks::with_hook_context(&ctx, input.text, history.is_empty()).await;
    let message = super::turn_images::user_message(
        &ctx.vision,
        &ctx.events,
        text,
        &input.images,
        &ctx.tool_ctx.cancel,
    )
    .await;
    history.push(message);
    record_last(&ctx, &history).await;
    let mut progress = Progress::default();
    let cancel = ctx.tool_ctx.cancel.clone();
    let mut calls_made = 0;
    for _ in 0..ctx.max_iterations {
        if cancel.is_cancelled() {
            return finish(ctx, history, interrupted(&progress, ""), calls_made);
        }
        let prompt_tokens = ctx
            .status
            .context_tokens
            .max(compress::estimate_tokens(&ctx.system, &history));
        let threshold =
            compress::threshold_tokens(&ctx.compression, ctx.context_window, ctx.max_tokens);
        if compress::over_threshold(prompt_tokens, threshold)
            && ctx.compression_guard.allows_automatic()
        {
            match compress_now(&mut ctx, &mut history, Trigger::Threshold).await {
                Ok(()) => {}
                Err(ProviderError::Cancelled) => {
                    return finish(ctx, history, interrupted(&progress, ""), calls_made);
                }
                // A failed summary is not fatal: carry on with the full history.
                Err(err) => ctx.events.send(Event::Notice(Notice {
                    level: NoticeLevel::Warning,
                    text: format!("context compression failed ({err}); continuing without it"),
                })),
            }
        }
        let messages =
            super::turn_images::request_messages(&ctx.vision, &ctx.events, &history).await;
        let request = ChatRequest {
            model: ctx.model.clone(),
            system: ctx.system.clone(),
            messages,
            tools: ctx.tools.schemas(),
            max_tokens: ctx.max_tokens,
        };
        let stream = StreamState::new(ctx.turn_id, ctx.events.clone());
        let result = ctx
            .provider
            .complete(&request, &|delta| stream.on_delta(delta), &cancel)
            .await;
        ctx.status.api_calls += 1;
        calls_made += 1;
        let completion = match result {
            Ok(completion) => completion,
            Err(ProviderError::Cancelled) => {
                let partial = stream.finish_partial();
                if !partial.is_empty() {
                    history.push(Message::assistant(
                        format!("{partial}\n\n[interrupted by the user]"),
                        Vec::new(),
                    ));
                    record_last(&ctx, &history).await;
                }
                return finish(ctx, history, interrupted(&progress, &partial), calls_made);
            }
            Err(err) => {
                let partial = stream.finish_partial();
                if !partial.is_empty() {
                    // Shown as it streamed; kept, marked, so the next turn knows it was cut.
                    history.push(Message::assistant(
                        format!("{partial}\n\n[the answer was cut off: {err}]"),
                        Vec::new(),
                    ));
                    record_last(&ctx, &history).await;
                }
                super::turn_images::hint_if_images_rejected(
                    &ctx.vision,
                    &ctx.events,
                    &err,
                    &history,
                );
                let outcome = failed(&ctx, &err);
                return finish(ctx, history, outcome, calls_made);
            }
        };
        record_usage(&mut ctx.status, &completion);
        if ctx
            .compression_guard
            .observe(completion.usage.input_tokens, threshold)
            == compress::Verdict::Ineffective
        {
            ctx.events.send(Event::Notice(Notice {
                level: NoticeLevel::Warning,
                text: format!(
                    "context compression did not bring the prompt under its threshold ({} of {} tokens): the system prompt and tool schemas alone are too big, so automatic compression is paused until the prompt fits — /compress still works; /new starts fresh",
                    completion.usage.input_tokens,
                    threshold.unwrap_or_default()
                ),
            }));
        }
        let calls = completion.tool_calls.clone();
        if matches!(
            completion.finish_reason.as_deref(),
            Some("length" | "max_tokens")
        ) && !calls.is_empty()
        {
            ctx.events.send(Event::Notice(Notice {
                level: NoticeLevel::Warning,
                text: "the reply hit the output token limit in the middle of a tool call, so its arguments are incomplete — the model is told to send less per call; raise model.max_tokens if this repeats".to_string(),
            }));
        }
        let mut assistant =
            Message::assistant(completion.text.clone(), completion.tool_calls.clone());
        assistant.reasoning = completion.reasoning.clone();
        assistant
            .codex_reasoning_items
            .clone_from(&completion.codex_reasoning_items);
        history.push(assistant);
        // On disk before the frontend hears the message is complete.
        record_last(&ctx, &history).await;
        ctx.recorder.api_call(&ctx.route, &completion.usage).await;
        ctx.events.send(Event::StatusUpdate(ctx.status.clone()));
        stream.complete(&completion);
        if calls.is_empty() {
            turn_hooks::after_reply(&ctx, &history, &completion.text);
            return finish(ctx, history, TurnOutcome::Completed, calls_made);
        }
        let mut runs = run_tool_calls(
            &calls,
            &ctx.tools,
            &ctx.tool_ctx,
            &ctx.events,
            &ctx.wrapping,
        )
        .await;
        if let Some(discovery) = &ctx.discovery {
            append_discovered_context(discovery, &mut runs, &ctx.tool_ctx.cwd).await;
        }
        let before = history.len();
        append_tool_results(&mut history, &runs, &ctx.steer, &mut progress);
        for message in &history[before..] {
            ctx.recorder.message(message).await;
        }
        if cancel.is_cancelled() {
            return finish(ctx, history, interrupted(&progress, ""), calls_made);
        }
    }
    let limit = ctx.message_limit;
    let text = super::turn_budget::spent_notice(ctx.max_iterations, limit, calls_made);
    ctx.events.send(Event::Notice(Notice {
        level: NoticeLevel::Warning,
        text,
    }));
    finish(
        ctx,
        history,
        TurnOutcome::IterationLimit { limit },
        calls_made,
    )
}

/// Context files of subdirectories the tools just touched ride on those tools' results
/// (never on the system prompt); each directory is reported once per session.
async fn append_discovered_context(
    discovery: &Arc<crate::knowledge::discovery::SubdirContext>,
    runs: &mut [ToolRun],
    cwd: &std::path::Path,
) {
    for run in runs.iter_mut() {
        let Ok(args) = serde_json::from_str::<serde_json::Value>(&run.call.arguments) else {
            continue;
        };
        let discovery = Arc::clone(discovery);
        let name = run.call.name.clone();
        let cwd = cwd.to_path_buf();
        let found =
            tokio::task::spawn_blocking(move || discovery.discover_for_call(&name, &args, &cwd))
                .await
                .ok()
                .flatten();
        if let Some(text) = found {
            run.output.content.push_str("\n\n");
            run.output.content.push_str(&text);
        }
    }
}

async fn record_last(ctx: &TurnContext, history: &[Message]) {
    if let Some(message) = history.last() {
        ctx.recorder.message(message).await;
    }
}

fn finish(ctx: TurnContext, history: Vec<Message>, outcome: TurnOutcome, calls: u32) -> TurnResult {
    TurnResult {
        history,
        outcome,
        status: ctx.status,
        session_id: ctx.session_id,
        api_calls: calls,
    }
}

fn failed(ctx: &TurnContext, err: &ProviderError) -> TurnOutcome {
    tracing::warn!(error = %err, "provider call failed");
    let kind = err.kind();
    ctx.events.send(Event::Error(ErrorEvent {
        kind,
        text: err.to_string(),
    }));
    TurnOutcome::Failed { kind }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Trigger {
    Threshold,
    Requested,
}

/// Summarise the middle of the history and continue in a child session.
async fn compress_now(
    ctx: &mut TurnContext,
    history: &mut Vec<Message>,
    trigger: Trigger,
) -> Result<(), ProviderError> {
    let Some(range) = compress::middle_range(history, &ctx.compression) else {
        if trigger == Trigger::Requested {
            ctx.events.send(Event::Notice(Notice {
                level: NoticeLevel::Info,
                text: "nothing to compress yet: the conversation is short".to_string(),
            }));
        }
        return Ok(());
    };
    ctx.events.send(Event::Notice(Notice {
        level: NoticeLevel::Info,
        text: format!("compressing {} earlier messages…", range.1 - range.0),
    }));
    let cancel = ctx.tool_ctx.cancel.clone();
    let (provider, route) = match &ctx.summariser {
        Some((provider, route)) => (Arc::clone(provider), route.clone()),
        None => (Arc::clone(&ctx.provider), ctx.route.clone()),
    };
    let (summary, usage) = compress::summarise(
        provider.as_ref(),
        &route.model,
        &history[range.0..range.1],
        &cancel,
    )
    .await?;
    ctx.recorder
        .auxiliary_call(crate::store::AuxTask::Compression, &route, &usage)
        .await;
    *history = compress::rebuild(history, range, &summary);
    let child = super::session::new_session_id();
    ctx.recorder.continue_in_child(child.clone());
    for message in history.iter() {
        ctx.recorder.message(message).await;
    }
    ctx.session_id = child;
    ctx.compression_guard.compressed();
    ctx.status.compressions += 1;
    ctx.status.context_tokens = compress::estimate_tokens(&ctx.system, history);
    ctx.events.send(Event::StatusUpdate(ctx.status.clone()));
    ctx.events.send(Event::Notice(Notice {
        level: NoticeLevel::Info,
        text: format!(
            "context compressed ({} so far): continuing in session {}",
            ctx.status.compressions, ctx.session_id
        ),
    }));
    Ok(())
}

fn append_tool_results(
    history: &mut Vec<Message>,
    runs: &[ToolRun],
    steer: &SteerBuffer,
    progress: &mut Progress,
) {
    for run in runs {
        if run.output.outcome != ToolOutcome::Cancelled {
            progress.tools_done.push(run.call.name.clone());
        }
        let mut result = Message::tool_result(&run.call, run.output.content.clone());
        result.images = run
            .output
            .images
            .iter()
            .map(|path| crate::model::ImagePart::new(path.clone()))
            .collect();
        history.push(result);
    }
    let steered: Vec<String> = steer
        .lock()
        .map(|mut pending| pending.drain(..).collect())
        .unwrap_or_default();
    // Steering rides on the last tool result so the role sequence stays valid for every API.
    if let (false, Some(last)) = (steered.is_empty(), history.last_mut()) {
        for text in steered {
            last.content.push_str(&format!(
                "\n\n[The user added while you were working: {text}]"
            ));
        }
    }
}

fn record_usage(status: &mut StatusUpdate, completion: &Completion) {
    let usage = completion.usage;
    status.input_tokens += usage.input_tokens;
    status.output_tokens += usage.output_tokens;
    status.cache_read_tokens += usage.cache_read_tokens;
    status.cache_write_tokens += usage.cache_write_tokens;
    status.reasoning_tokens += usage.reasoning_tokens;
    // The next request carries this prompt plus this reply.
    status.context_tokens = usage.input_tokens + usage.output_tokens;
}

fn interrupted(progress: &Progress, partial_reply: &str) -> TurnOutcome {
    let mut parts = Vec::new();
    if !progress.tools_done.is_empty() {
        parts.push(format!(
            "{} tool call(s) finished ({})",
            progress.tools_done.len(),
            progress.tools_done.join(", ")
        ));
    }
    if !partial_reply.is_empty() {
        parts.push(format!(
            "the reply was cut after {} characters",
            partial_reply.chars().count()
        ));
    }
    let done = if parts.is_empty() {
        "nothing had finished yet".to_string()
    } else {
        parts.join("; ")
    };
    TurnOutcome::Interrupted { done }
}
