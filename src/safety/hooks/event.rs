//! The hook events shell hooks can subscribe to, with their config names.
//!
//! `HookEvent::parse` turns a `hooks:` key into an event. A typo gets a "did you mean X?"
//! suggestion; an event Hermes knows but this build does not run for shell hooks (transforms,
//! API-request observers, gateway and kanban events, …) gets a message saying so instead of a
//! misleading suggestion. It does not know about plugin hooks. Invariant: `parse(e.as_str())`
//! is `Ok(e)` for every event in `ALL`.

use std::fmt;

/// A lifecycle point at which configured shell hooks run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum HookEvent {
    /// Before every tool call; may block it.
    PreToolCall,
    /// After every tool call (blocked, failed or successful); observer.
    PostToolCall,
    /// Once per user turn, before the model is called; may inject context.
    PreLlmCall,
    /// Once per successful turn; observer.
    PostLlmCall,
    /// Once for a brand-new session; observer.
    OnSessionStart,
    /// At the end of every turn, and on exit mid-turn; observer.
    OnSessionEnd,
    /// When the session is replaced (`/new`, `/reset`, …); observer.
    OnSessionReset,
    /// Once per delegated child after `delegate_task`; observer.
    SubagentStop,
}

/// Hermes plugin-hook events that this build does not fire for shell hooks.
const UNSUPPORTED: &[&str] = &[
    "transform_tool_result",
    "transform_terminal_output",
    "transform_llm_output",
    "pre_api_request",
    "post_api_request",
    "api_request_error",
    "on_session_finalize",
    "pre_gateway_dispatch",
    "pre_approval_request",
    "post_approval_response",
    "on_skill_lifecycle",
    "kanban_task_claimed",
    "kanban_task_completed",
    "kanban_task_blocked",
    "subagent_start",
    "pre_verify",
];

/// Minimum similarity (0–1, as difflib's default cutoff) for a "did you mean" suggestion.
const SUGGEST_CUTOFF: f64 = 0.6;

/// Why a `hooks:` key is not an event; names it and suggests or lists the valid ones.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EventNameError {
    #[error(
        "hook event `{name}` is not supported by shell hooks in this build (supported: {})",
        HookEvent::valid_list()
    )]
    Unsupported { name: String },
    #[error(
        "unknown hook event `{name}` — did you mean `{}`? (valid: {})",
        best.as_str(),
        HookEvent::valid_list()
    )]
    NearMiss { name: String, best: HookEvent },
    #[error("unknown hook event `{name}` (valid: {})", HookEvent::valid_list())]
    Unknown { name: String },
}

impl HookEvent {
    /// Every event, in catalogue order.
    pub const ALL: [HookEvent; 8] = [
        HookEvent::PreToolCall,
        HookEvent::PostToolCall,
        HookEvent::PreLlmCall,
        HookEvent::PostLlmCall,
        HookEvent::OnSessionStart,
        HookEvent::OnSessionEnd,
        HookEvent::OnSessionReset,
        HookEvent::SubagentStop,
    ];

    /// The config / wire name (`hook_event_name`).
    pub fn as_str(self) -> &'static str {
        match self {
            HookEvent::PreToolCall => "pre_tool_call",
            HookEvent::PostToolCall => "post_tool_call",
            HookEvent::PreLlmCall => "pre_llm_call",
            HookEvent::PostLlmCall => "post_llm_call",
            HookEvent::OnSessionStart => "on_session_start",
            HookEvent::OnSessionEnd => "on_session_end",
            HookEvent::OnSessionReset => "on_session_reset",
            HookEvent::SubagentStop => "subagent_stop",
        }
    }

    /// Tool events carry `tool_name`/`tool_input` and honour a hook's `matcher`.
    pub fn is_tool_event(self) -> bool {
        matches!(self, HookEvent::PreToolCall | HookEvent::PostToolCall)
    }

    /// The event named `name`, or a message explaining why it is not one (with a "did you
    /// mean" suggestion for a near miss).
    pub fn parse(name: &str) -> Result<Self, EventNameError> {
        if let Some(event) = Self::ALL.into_iter().find(|e| e.as_str() == name) {
            return Ok(event);
        }
        let name = name.to_owned();
        if UNSUPPORTED.contains(&name.as_str()) {
            return Err(EventNameError::Unsupported { name });
        }
        match Self::suggest(&name) {
            Some(best) => Err(EventNameError::NearMiss { name, best }),
            None => Err(EventNameError::Unknown { name }),
        }
    }

    /// The valid event names, comma-separated, in catalogue order.
    pub fn valid_list() -> String {
        Self::ALL
            .iter()
            .map(|e| e.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn suggest(name: &str) -> Option<HookEvent> {
        let lowered = name.trim().to_ascii_lowercase().replace('-', "_");
        Self::ALL
            .into_iter()
            .map(|e| (e, similarity(&lowered, e.as_str())))
            .filter(|(_, score)| *score >= SUGGEST_CUTOFF)
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(e, _)| e)
    }
}

impl fmt::Display for HookEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// 1 − (edit distance / longer length): 1.0 for equal strings, 0.0 for nothing in common.
fn similarity(a: &str, b: &str) -> f64 {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let longest = a.len().max(b.len());
    if longest == 0 {
        return 1.0;
    }
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current = vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        current[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != cb);
            current[j + 1] = substitution.min(previous[j + 1] + 1).min(current[j] + 1);
        }
        std::mem::swap(&mut previous, &mut current);
    }
    1.0 - previous[b.len()] as f64 / longest as f64
}

#[cfg(test)]
#[path = "event_tests.rs"]
mod tests;
