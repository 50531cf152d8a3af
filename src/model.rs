//! The conversation vocabulary: messages and their roles, tool calls and the schemas of the
//! tools offered, images in a message, and token usage. Wire-independent and shared by the
//! engine, the providers, the tools and the session store.
//!
//! Not here: how a provider is called (`providers`: `ChatRequest`, `Completion`,
//! `StreamDelta`), what a frontend sees (`protocol`), or how a message is stored (`store`).
//! Nothing here does I/O.
//!
//! Messages are kept in OpenAI chat format internally (system/user/assistant/tool), as Hermes
//! does; each provider converts to its own wire format. Tool-call arguments stay the raw JSON
//! string the model produced, so a malformed argument string reaches the tool layer intact and
//! can be reported back to the model instead of being lost.

use serde::Deserialize;
use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    System,
    User,
    Assistant,
    Tool,
}

/// One tool call requested by the model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolCall {
    pub id: String,
    pub name: String,
    /// The arguments as the model sent them: a JSON object in text form (possibly malformed).
    pub arguments: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    pub role: Role,
    pub content: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ToolCall>,
    /// For `Role::Tool`: the id of the call this answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call_id: Option<String>,
    /// For `Role::Tool`: the tool's name (Anthropic and some servers want it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_name: Option<String>,
    /// For `Role::Assistant`: reasoning text, kept for the record, not re-sent as content.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reasoning: Option<String>,
    /// Images that go with the text: attached by the user (`Role::User`) or loaded by a tool
    /// (`Role::Tool`). Kept as file references; the engine fills in the payload before a
    /// request.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub images: Vec<ImagePart>,
    /// For `Role::Assistant` on the Responses API: the reasoning items the server returned
    /// (`{"type":"reasoning","encrypted_content",…}`, Hermes's `codex_reasoning_items`),
    /// replayed verbatim on later calls so the model keeps its chain of thought. Opaque to
    /// everything but `openai_responses`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub codex_reasoning_items: Vec<serde_json::Value>,
}

/// An image in a message: the file it was saved to, and (filled just before a request, never
/// stored) the bytes to send.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImagePart {
    pub path: std::path::PathBuf,
    #[serde(skip)]
    pub payload: Option<std::sync::Arc<ImagePayload>>,
}

impl ImagePart {
    pub fn new(path: impl Into<std::path::PathBuf>) -> Self {
        Self {
            path: path.into(),
            payload: None,
        }
    }
}

/// Encoded image bytes ready for the wire: base64 without line breaks, and the media type
/// (`image/png`, `image/jpeg`, …) that describes them.
#[derive(Clone, PartialEq, Eq)]
pub struct ImagePayload {
    pub media_type: String,
    pub base64: String,
}

impl ImagePayload {
    /// `data:<media type>;base64,<data>`, as OpenAI's `image_url` wants it.
    pub fn data_url(&self) -> String {
        format!("data:{};base64,{}", self.media_type, self.base64)
    }
}

impl std::fmt::Debug for ImagePayload {
    // Megabytes of base64 in a debug print help nobody.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ImagePayload")
            .field("media_type", &self.media_type)
            .field("base64_len", &self.base64.len())
            .finish()
    }
}

impl Message {
    pub fn user(text: impl Into<String>) -> Self {
        Self::plain(Role::User, text.into())
    }

    pub fn system(text: impl Into<String>) -> Self {
        Self::plain(Role::System, text.into())
    }

    pub fn assistant(text: impl Into<String>, tool_calls: Vec<ToolCall>) -> Self {
        Self {
            tool_calls,
            ..Self::plain(Role::Assistant, text.into())
        }
    }

    pub fn tool_result(call: &ToolCall, output: impl Into<String>) -> Self {
        Self {
            tool_call_id: Some(call.id.clone()),
            tool_name: Some(call.name.clone()),
            ..Self::plain(Role::Tool, output.into())
        }
    }

    fn plain(role: Role, content: String) -> Self {
        Self {
            role,
            content,
            tool_calls: Vec::new(),
            tool_call_id: None,
            tool_name: None,
            reasoning: None,
            images: Vec::new(),
            codex_reasoning_items: Vec::new(),
        }
    }
}

/// A tool offered to the model: OpenAI function-schema fields.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolSchema {
    pub name: String,
    pub description: String,
    /// JSON Schema of the arguments object.
    pub parameters: serde_json::Value,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    /// All prompt tokens of the request, cached ones included (OpenAI `prompt_tokens`;
    /// Anthropic `input_tokens + cache_read_input_tokens + cache_creation_input_tokens`).
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub cache_read_tokens: u64,
    pub cache_write_tokens: u64,
    pub reasoning_tokens: u64,
}
