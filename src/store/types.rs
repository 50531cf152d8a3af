//! The session store's plain data: what callers pass in (`NewSession`, `StoredMessage`,
//! `UsageTotals`, `ListQuery`) and what they get back (`SessionRow`, `SessionSummary`,
//! `MessageRow`), plus the conversion between the engine's `model::Message` and a stored
//! row.
//!
//! Nothing here touches SQLite. Invariants: tool calls are stored as OpenAI-format JSON
//! (`[{"id","type":"function","function":{"name","arguments"}}]`, as Hermes writes them) and
//! read back from that shape or from our flat `{id,name,arguments}` shape; an unreadable
//! `tool_calls` value reads as no tool calls rather than failing the whole history.

use serde::Deserialize;
use serde::Serialize;

use crate::model::Message;
use crate::model::Role;
use crate::model::ToolCall;

/// Where a session came from (`sessions.source`). Subagent and tool sessions are hidden from
/// listings and from `session_search`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Source {
    /// An interactive or one-shot session started by the user (`cli`).
    #[default]
    Cli,
    /// A child agent started by `delegate` (`subagent`).
    Subagent,
    /// A session started internally by a tool (`tool`).
    Tool,
    /// Any other source string (Hermes's `telegram`, `discord`, …), kept as written.
    Other(String),
}

impl Source {
    pub fn as_str(&self) -> &str {
        match self {
            Source::Cli => "cli",
            Source::Subagent => "subagent",
            Source::Tool => "tool",
            Source::Other(s) => s,
        }
    }

    pub fn parse(s: &str) -> Self {
        match s {
            "cli" => Source::Cli,
            "subagent" => Source::Subagent,
            "tool" => Source::Tool,
            other => Source::Other(other.to_string()),
        }
    }

    /// Subagent and tool sessions are hidden from listings and search.
    pub fn is_hidden(&self) -> bool {
        matches!(self, Source::Subagent | Source::Tool)
    }
}

/// SQL list of the hidden sources, for `source NOT IN …`.
pub(crate) const HIDDEN_SOURCES_SQL: &str = "('subagent', 'tool')";

/// Why a session ended (`sessions.end_reason`), with Hermes's values so its `sessions
/// prune --end-reason`, archive and picker logic treat hermes's sessions like its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndReason {
    /// The interactive app quit (Ctrl+D, `/quit`, SIGTERM/SIGHUP, the terminal closing).
    CliClose,
    /// A one-shot run (`-z`) or a subagent finished, failed or was stopped (Hermes's agent
    /// teardown).
    AgentClose,
    /// `/new` started another session.
    NewSession,
    /// `/resume` switched to another session.
    ResumedOther,
    /// `/branch` continued in a copy.
    Branched,
    /// Context compression continued in a child session.
    Compression,
}

impl EndReason {
    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::CliClose => "cli_close",
            EndReason::AgentClose => "agent_close",
            EndReason::NewSession => "new_session",
            EndReason::ResumedOther => "resumed_other",
            EndReason::Branched => "branched",
            EndReason::Compression => "compression",
        }
    }
}

/// A session to create. Empty strings are stored as NULL.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NewSession {
    pub id: String,
    pub source: Source,
    pub model: String,
    /// Stored as `billing_provider`.
    pub provider: String,
    /// Stored as `billing_base_url`.
    pub base_url: String,
    pub system_prompt: String,
    pub cwd: String,
    /// The session this one continues (context compression splits a session this way).
    pub parent_session_id: Option<String>,
    pub title: Option<String>,
    /// Extra JSON stored in `model_config` (reasoning effort, `_delegate_from`, …).
    pub model_config: Option<serde_json::Value>,
}

/// One completed message to append.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredMessage {
    pub role: Role,
    pub content: String,
    pub tool_calls: Vec<ToolCall>,
    pub tool_call_id: Option<String>,
    pub tool_name: Option<String>,
    pub reasoning: Option<String>,
    pub finish_reason: Option<String>,
    pub token_count: Option<u64>,
    /// The image files sent with the message.
    pub images: Vec<std::path::PathBuf>,
    /// Responses-API reasoning items of an assistant message (Hermes's
    /// `codex_reasoning_items` column), replayed on later calls.
    pub codex_reasoning_items: Vec<serde_json::Value>,
}

impl StoredMessage {
    /// A plain message with no tool calls.
    pub fn new(role: Role, content: impl Into<String>) -> Self {
        Self {
            role,
            content: content.into(),
            tool_calls: Vec::new(),
            tool_call_id: None,
            tool_name: None,
            reasoning: None,
            finish_reason: None,
            token_count: None,
            images: Vec::new(),
            codex_reasoning_items: Vec::new(),
        }
    }

    /// The stored form of an engine message.
    pub fn from_message(m: &Message) -> Self {
        Self {
            role: m.role,
            content: m.content.clone(),
            tool_calls: m.tool_calls.clone(),
            tool_call_id: m.tool_call_id.clone(),
            tool_name: m.tool_name.clone(),
            reasoning: m.reasoning.clone(),
            finish_reason: None,
            token_count: None,
            images: m.images.iter().map(|i| i.path.clone()).collect(),
            codex_reasoning_items: m.codex_reasoning_items.clone(),
        }
    }
}

/// A session's stored totals (Hermes's buckets: `input` excludes cache reads and writes), to
/// seed the engine's counters on resume.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct UsageTotals {
    pub input: u64,
    pub output: u64,
    pub cache_read: u64,
    pub cache_write: u64,
    pub reasoning: u64,
    pub api_calls: u64,
    pub cost_usd: Option<f64>,
}

/// Whether listings include subagent/tool (and archived) sessions.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Hidden {
    #[default]
    Exclude,
    Include,
}

/// What `list_sessions` returns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListQuery {
    pub limit: usize,
    /// Case-insensitive (ASCII) substring of the title, the first user message or the id.
    pub search: Option<String>,
    /// Only sessions started in this directory.
    pub cwd: Option<String>,
    pub include_hidden: Hidden,
}

impl Default for ListQuery {
    fn default() -> Self {
        Self {
            limit: 50,
            search: None,
            cwd: None,
            include_hidden: Hidden::Exclude,
        }
    }
}

/// A whole `sessions` row (the columns this crate knows).
#[derive(Debug, Clone, PartialEq)]
pub struct SessionRow {
    pub id: String,
    pub source: Source,
    pub user_id: Option<String>,
    pub model: Option<String>,
    pub model_config: Option<serde_json::Value>,
    pub system_prompt: Option<String>,
    pub parent_session_id: Option<String>,
    /// Seconds since the Unix epoch.
    pub started_at: f64,
    pub ended_at: Option<f64>,
    pub end_reason: Option<String>,
    pub message_count: u64,
    pub tool_call_count: u64,
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub cache_read_tokens: u64,
    pub cache_write_tokens: u64,
    pub reasoning_tokens: u64,
    pub cwd: Option<String>,
    pub billing_provider: Option<String>,
    pub billing_base_url: Option<String>,
    pub estimated_cost_usd: Option<f64>,
    pub title: Option<String>,
    pub api_call_count: u64,
    pub archived: bool,
}

impl SessionRow {
    /// The stored totals, to seed the engine's counters on resume.
    pub fn usage(&self) -> UsageTotals {
        UsageTotals {
            input: self.input_tokens,
            output: self.output_tokens,
            cache_read: self.cache_read_tokens,
            cache_write: self.cache_write_tokens,
            reasoning: self.reasoning_tokens,
            api_calls: self.api_call_count,
            cost_usd: self.estimated_cost_usd,
        }
    }

    /// The session this one was branched from (`model_config._branched_from`).
    pub fn branched_from(&self) -> Option<&str> {
        self.model_config
            .as_ref()
            .and_then(|c| c.get("_branched_from"))
            .and_then(|v| v.as_str())
    }
}

/// One line of a session listing.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionSummary {
    pub id: String,
    pub title: Option<String>,
    pub source: Source,
    pub model: Option<String>,
    pub started_at: f64,
    pub message_count: u64,
    /// The first user message's first line, at most 120 characters.
    pub first_user_message: Option<String>,
    pub cwd: Option<String>,
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub cost_usd: Option<f64>,
}

/// A stored message with its row id and time.
#[derive(Debug, Clone, PartialEq)]
pub struct MessageRow {
    pub id: i64,
    pub session_id: String,
    /// As stored (`user`, `assistant`, `tool`, `system`, or something Hermes wrote).
    pub role: String,
    pub content: String,
    pub tool_calls: Vec<ToolCall>,
    pub tool_call_id: Option<String>,
    pub tool_name: Option<String>,
    pub reasoning: Option<String>,
    pub finish_reason: Option<String>,
    pub token_count: Option<u64>,
    pub timestamp: f64,
    pub active: bool,
    pub images: Vec<std::path::PathBuf>,
    pub codex_reasoning_items: Vec<serde_json::Value>,
}

impl MessageRow {
    /// The engine message, or `None` for a role the engine does not know.
    pub fn to_message(&self) -> Option<Message> {
        Some(Message {
            role: parse_role(&self.role)?,
            content: self.content.clone(),
            tool_calls: self.tool_calls.clone(),
            tool_call_id: self.tool_call_id.clone(),
            tool_name: self.tool_name.clone(),
            reasoning: self.reasoning.clone(),
            images: self
                .images
                .iter()
                .map(|p| crate::model::ImagePart::new(p.clone()))
                .collect(),
            codex_reasoning_items: self.codex_reasoning_items.clone(),
        })
    }
}

/// The `codex_reasoning_items` column, as Hermes writes it: a JSON array, or NULL for none.
pub(crate) fn encode_reasoning_items(items: &[serde_json::Value]) -> Option<String> {
    (!items.is_empty()).then(|| serde_json::Value::Array(items.to_vec()).to_string())
}

/// Reads the `codex_reasoning_items` column; anything but a JSON array (Hermes falls back to
/// none on a bad value too) is no items.
pub(crate) fn decode_reasoning_items(text: Option<&str>) -> Vec<serde_json::Value> {
    match text.map(serde_json::from_str::<serde_json::Value>) {
        Some(Ok(serde_json::Value::Array(items))) => items,
        _ => Vec::new(),
    }
}

/// The `images` column: a JSON array of paths, or NULL for none.
pub(crate) fn encode_images(images: &[std::path::PathBuf]) -> Option<String> {
    if images.is_empty() {
        return None;
    }
    let paths: Vec<String> = images
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    serde_json::to_string(&paths).ok()
}

/// The `images` column back; anything unreadable is no images (the text still loads).
pub(crate) fn decode_images(column: Option<&str>) -> Vec<std::path::PathBuf> {
    column
        .and_then(|text| serde_json::from_str::<Vec<String>>(text).ok())
        .unwrap_or_default()
        .into_iter()
        .map(std::path::PathBuf::from)
        .collect()
}

pub(crate) fn role_str(role: Role) -> &'static str {
    match role {
        Role::System => "system",
        Role::User => "user",
        Role::Assistant => "assistant",
        Role::Tool => "tool",
    }
}

pub(crate) fn parse_role(s: &str) -> Option<Role> {
    match s {
        "system" => Some(Role::System),
        "user" => Some(Role::User),
        "assistant" => Some(Role::Assistant),
        "tool" => Some(Role::Tool),
        _ => None,
    }
}

#[derive(Serialize)]
struct WireCall<'a> {
    id: &'a str,
    r#type: &'static str,
    function: WireFunction<'a>,
}

#[derive(Serialize)]
struct WireFunction<'a> {
    name: &'a str,
    arguments: &'a str,
}

/// `tool_calls` column value: NULL for none, else OpenAI-format JSON.
pub(crate) fn encode_tool_calls(calls: &[ToolCall]) -> Result<Option<String>, serde_json::Error> {
    if calls.is_empty() {
        return Ok(None);
    }
    let wire: Vec<WireCall<'_>> = calls
        .iter()
        .map(|c| WireCall {
            id: &c.id,
            r#type: "function",
            function: WireFunction {
                name: &c.name,
                arguments: &c.arguments,
            },
        })
        .collect();
    serde_json::to_string(&wire).map(Some)
}

#[derive(Deserialize)]
struct ReadCall {
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    arguments: Option<serde_json::Value>,
    #[serde(default)]
    function: Option<ReadFunction>,
}

#[derive(Deserialize)]
struct ReadFunction {
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    arguments: Option<serde_json::Value>,
}

fn arguments_text(v: Option<serde_json::Value>) -> String {
    match v {
        None | Some(serde_json::Value::Null) => "{}".to_string(),
        Some(serde_json::Value::String(s)) => s,
        Some(other) => other.to_string(),
    }
}

/// Tool calls from a `tool_calls` column value; unreadable JSON reads as none.
pub(crate) fn decode_tool_calls(raw: Option<&str>) -> Vec<ToolCall> {
    let Some(raw) = raw.filter(|r| !r.trim().is_empty()) else {
        return Vec::new();
    };
    let calls: Vec<ReadCall> = match serde_json::from_str(raw) {
        Ok(c) => c,
        Err(e) => {
            tracing::warn!("unreadable tool_calls JSON in state.db: {e}");
            return Vec::new();
        }
    };
    calls
        .into_iter()
        .map(|c| {
            let (name, arguments) = match c.function {
                Some(f) => (f.name.unwrap_or_default(), arguments_text(f.arguments)),
                None => (c.name.unwrap_or_default(), arguments_text(c.arguments)),
            };
            ToolCall {
                id: c.id.unwrap_or_default(),
                name,
                arguments,
            }
        })
        .collect()
}

/// The first line of `text`, at most `max` characters (with `…` when cut).
pub(crate) fn one_line(text: &str, max: usize) -> String {
    let line = text.trim().lines().next().unwrap_or("").trim();
    let mut out: String = line.chars().take(max).collect();
    if line.chars().count() > max || text.trim().lines().nth(1).is_some() {
        out.push('…');
    }
    out
}
