//! What one call of a `Provider` takes and gives back: the request, the streamed deltas and
//! the finished completion. Built from the conversation vocabulary in `crate::model`.

use crate::model::Message;
use crate::model::ToolCall;
use crate::model::ToolSchema;
use crate::model::Usage;

/// Everything a provider needs for one API call.
#[derive(Debug, Clone, PartialEq)]
pub struct ChatRequest {
    pub model: String,
    /// The system prompt; byte-identical across the turns of a session.
    pub system: String,
    /// The conversation without the system message.
    pub messages: Vec<Message>,
    pub tools: Vec<ToolSchema>,
    pub max_tokens: Option<u32>,
}

/// Incremental output while a response streams.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StreamDelta {
    /// Visible text (already scrubbed of `<think>` blocks).
    Text(String),
    /// Reasoning text.
    Reasoning(String),
    /// A tool call started being generated (its name is known).
    ToolCallStarted { name: String },
}

/// A finished response. Never empty: a response with no text and no tool calls is
/// `ProviderError::EmptyResponse` instead.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Completion {
    pub text: String,
    pub reasoning: Option<String>,
    pub tool_calls: Vec<ToolCall>,
    pub usage: Usage,
    pub finish_reason: Option<String>,
    /// Responses API reasoning items to keep on the assistant message (see
    /// `Message::codex_reasoning_items`); empty for every other wire format.
    pub codex_reasoning_items: Vec<serde_json::Value>,
}
