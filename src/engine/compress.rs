//! Context compression: when the prompt passes `compression.threshold` of the model's context
//! window, the middle of the conversation is summarised by the model into a structured
//! summary (task so far, current state, open asks, remaining work). The first
//! `protect_first_n` and last `protect_last_n` messages are kept as they are, and the cut never
//! separates a tool call from its result. The system prompt is not touched, so it stays
//! byte-identical; the conversation continues in a child session linked by
//! `parent_session_id`.

use tokio_util::sync::CancellationToken;

use crate::model::Message;
use crate::model::Role;
use crate::model::Usage;
use crate::providers::ChatRequest;
use crate::providers::Provider;
use crate::providers::ProviderError;

/// Settings from `compression:` in config.yaml.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CompressionSettings {
    pub enabled: Enabled,
    /// Fraction of the context window that triggers compression.
    pub threshold: f64,
    pub protect_first_n: usize,
    pub protect_last_n: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Enabled {
    Yes,
    No,
}

impl Default for CompressionSettings {
    fn default() -> Self {
        Self {
            enabled: Enabled::Yes,
            threshold: 0.50,
            protect_first_n: 3,
            protect_last_n: 20,
        }
    }
}

/// Largest share of one tool output sent to the summariser.
const TOOL_OUTPUT_CHARS: usize = 2_000;
/// Largest share of one ordinary message sent to the summariser.
const MESSAGE_CHARS: usize = 6_000;

pub const SUMMARY_PREFIX: &str = "[Context summary — earlier messages of this conversation were compressed to save context. The summary below replaces them.]";

const SUMMARISER_SYSTEM: &str = "You compress an AI agent's working conversation so it can continue without the full history. \
Write a faithful, specific summary in exactly these sections:\n\
## Task so far\nWhat the user asked for and what has been done, with file names, commands and results.\n\
## Current state\nWhat is true now: files changed, what works, what fails, important values.\n\
## Open asks\nQuestions or requests from the user not yet answered.\n\
## Remaining work\nConcrete next steps.\n\
Keep exact identifiers, paths, numbers and error messages. Do not invent anything. Do not address the user.";

/// Rough token count of a conversation (4 characters a token), for the trigger when no
/// usage numbers are known yet.
pub fn estimate_tokens(system: &str, history: &[Message]) -> u64 {
    let chars: usize = system.len()
        + history
            .iter()
            .map(|m| {
                m.content.len()
                    + m.tool_calls
                        .iter()
                        .map(|c| c.arguments.len() + c.name.len())
                        .sum::<usize>()
            })
            .sum::<usize>();
    u64::try_from(chars / 4).unwrap_or(u64::MAX)
}

/// Windows under this size trigger at no less than `SMALL_WINDOW_THRESHOLD` (Hermes's rule: a
/// 50% trigger on a small window compresses while half of it is still free).
const SMALL_WINDOW_LIMIT: u64 = 512_000;
const SMALL_WINDOW_THRESHOLD: f64 = 0.75;
/// Never compress a prompt smaller than this (Hermes's `MINIMUM_CONTEXT_LENGTH`)…
const MINIMUM_TRIGGER_TOKENS: u64 = 64_000;
/// …unless that floor would reach the whole input budget: then trigger at this share of it.
const FLOORED_WINDOW_RATIO: f64 = 0.85;

/// The prompt size (tokens) above which the conversation is compressed, as Python Hermes
/// computes it: the configured share of the input budget (`window - max_tokens`), raised to
/// 75% for windows under 512K, floored at 64K tokens, and at 85% of the budget when the
/// floor would reach it. `None` when compression is off or the window is unknown.
pub fn threshold_tokens(
    settings: &CompressionSettings,
    window: u64,
    max_tokens: Option<u32>,
) -> Option<u64> {
    if settings.enabled == Enabled::No || window == 0 {
        return None;
    }
    let budget = match window.saturating_sub(max_tokens.map_or(0, u64::from)) {
        0 => window,
        budget => budget,
    };
    let share = if window < SMALL_WINDOW_LIMIT {
        settings.threshold.max(SMALL_WINDOW_THRESHOLD)
    } else {
        settings.threshold
    };
    let floored = ((budget as f64 * share) as u64).max(MINIMUM_TRIGGER_TOKENS);
    Some(if floored >= budget {
        (budget as f64 * FLOORED_WINDOW_RATIO) as u64
    } else {
        floored
    })
}

pub fn over_threshold(prompt_tokens: u64, threshold: Option<u64>) -> bool {
    threshold.is_some_and(|t| prompt_tokens > t)
}

/// Stops automatic compression that cannot help. After a compression, the next real prompt
/// size (from the provider's usage) is compared with the threshold: still over means the
/// fixed part (system prompt + tool schemas) alone is too big, and compressing again would
/// only repeat the summary call before every request. Automatic compression then pauses
/// until a prompt fits again; `/compress` still works. Shared by a session's turns.
#[derive(Debug, Default)]
pub struct CompressionGuard {
    state: std::sync::Mutex<GuardState>,
}

#[derive(Debug, Default)]
struct GuardState {
    awaiting_verdict: bool,
    paused: bool,
}

/// What `CompressionGuard::observe` found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Nothing to say.
    Quiet,
    /// The compression just made did not bring the prompt under the threshold; automatic
    /// compression is now paused (said once).
    Ineffective,
}

impl CompressionGuard {
    pub fn allows_automatic(&self) -> bool {
        self.state.lock().map_or(true, |s| !s.paused)
    }

    pub fn compressed(&self) {
        if let Ok(mut s) = self.state.lock() {
            s.awaiting_verdict = true;
        }
    }

    /// The provider's real prompt size for a request; `0` (no usage reported) says nothing.
    pub fn observe(&self, prompt_tokens: u64, threshold: Option<u64>) -> Verdict {
        let (Ok(mut s), Some(threshold)) = (self.state.lock(), threshold) else {
            return Verdict::Quiet;
        };
        if prompt_tokens == 0 {
            return Verdict::Quiet;
        }
        let verify = std::mem::take(&mut s.awaiting_verdict);
        if prompt_tokens <= threshold {
            s.paused = false;
            return Verdict::Quiet;
        }
        if verify && !s.paused {
            s.paused = true;
            return Verdict::Ineffective;
        }
        Verdict::Quiet
    }
}

/// The half-open range of messages to summarise, or `None` when there is too little to
/// gain. The tail never starts with a tool result (its call stays with it), and the head never
/// ends with an assistant message whose tool results would be summarised away.
pub fn middle_range(history: &[Message], settings: &CompressionSettings) -> Option<(usize, usize)> {
    let mut start = settings.protect_first_n.min(history.len());
    while start < history.len() && history[start].role == Role::Tool {
        start += 1;
    }
    let mut end = history.len().saturating_sub(settings.protect_last_n);
    while end > start && end < history.len() && history[end].role == Role::Tool {
        end -= 1;
    }
    // Fewer than 2 messages to fold is not worth a model call.
    (end > start + 1).then_some((start, end))
}

/// Ask the model for the structured summary of `middle`; with the call's token usage.
pub async fn summarise(
    provider: &dyn Provider,
    model: &str,
    middle: &[Message],
    cancel: &CancellationToken,
) -> Result<(String, Usage), ProviderError> {
    let request = ChatRequest {
        model: model.to_string(),
        system: SUMMARISER_SYSTEM.to_string(),
        messages: vec![Message::user(format!(
            "Summarise this conversation excerpt ({} messages):\n\n{}",
            middle.len(),
            render_transcript(middle)
        ))],
        tools: Vec::new(),
        max_tokens: Some(4_096),
    };
    let completion = provider.complete(&request, &|_| {}, cancel).await?;
    Ok((completion.text.trim().to_string(), completion.usage))
}

/// The new history: head, the summary as a user message, tail.
pub fn rebuild(history: &[Message], range: (usize, usize), summary: &str) -> Vec<Message> {
    let (start, end) = range;
    let mut out = Vec::with_capacity(history.len() - (end - start) + 1);
    out.extend_from_slice(&history[..start]);
    out.push(Message::user(format!(
        "{SUMMARY_PREFIX}\n({} messages compressed)\n\n{summary}",
        end - start
    )));
    out.extend_from_slice(&history[end..]);
    out
}

fn render_transcript(messages: &[Message]) -> String {
    let mut out = String::new();
    for m in messages {
        let (label, limit) = match m.role {
            Role::User => ("USER", MESSAGE_CHARS),
            Role::Assistant => ("ASSISTANT", MESSAGE_CHARS),
            Role::Tool => ("TOOL RESULT", TOOL_OUTPUT_CHARS),
            Role::System => ("SYSTEM", MESSAGE_CHARS),
        };
        out.push_str(label);
        if let Some(name) = &m.tool_name {
            out.push_str(&format!(" ({name})"));
        }
        out.push_str(": ");
        out.push_str(&cut(&m.content, limit));
        for call in &m.tool_calls {
            out.push_str(&format!(
                "\n  → calls {}({})",
                call.name,
                cut(&call.arguments, 400)
            ));
        }
        out.push_str("\n\n");
    }
    out
}

fn cut(text: &str, max_chars: usize) -> String {
    if text.chars().count() <= max_chars {
        return text.to_string();
    }
    let head: String = text.chars().take(max_chars).collect();
    format!("{head} […]")
}

#[cfg(test)]
#[path = "compress_tests.rs"]
mod tests;
