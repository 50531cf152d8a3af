//! The payloads of `Event` variants that carry fields: one named struct per variant, so a
//! frontend's router can hand each consumer exactly its part (`goals.apply(&update)`), the way
//! codex's `EventMsg::McpStartupUpdate(ev)` does.
//!
//! Plain data, like the rest of `protocol`. `Event` is internally tagged (`"type"`), so a
//! newtype variant around one of these serialises exactly as the struct-like variant it
//! replaced did: the tag, then these fields. `protocol_tests.rs` pins that shape.

use serde::Deserialize;
use serde::Serialize;

use super::ApprovalDecision;
use super::DecidedBy;
use super::ErrorKind;
use super::GoalSnapshot;
use super::McpServerStatus;
use super::NoticeLevel;
use super::ReplayMessage;
use super::SessionListItem;
use super::SpawnTreeInfo;
use super::SubagentEvent;
use super::ToolStatus;
use super::TurnOutcome;

/// `Event::TurnStarted`: a turn began for this user input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnStarted {
    pub turn_id: u64,
}

/// `Event::MessageStart`: an assistant message starts streaming.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct MessageStart {
    pub turn_id: u64,
}

/// `Event::MessageDelta`: visible assistant text (never contains `<think>` blocks).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MessageDelta {
    pub turn_id: u64,
    pub text: String,
}

/// `Event::ReasoningDelta`: model reasoning (from reasoning deltas or scrubbed `<think>`
/// blocks).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReasoningDelta {
    pub turn_id: u64,
    pub text: String,
}

/// `Event::MessageComplete`: an assistant message finished; `text` is the whole visible text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MessageComplete {
    pub turn_id: u64,
    pub text: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reasoning: Option<String>,
}

/// `Event::ToolStart`: a tool call begins. `preview` is a one-line human summary (`echo hi`,
/// `src/main.rs`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolStart {
    pub call_id: String,
    pub name: String,
    pub preview: String,
    pub arguments: serde_json::Value,
    /// The call this one runs inside: an `execute_code` script's tool calls name the
    /// `execute_code` call. `None` for the model's own calls.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent_call_id: Option<String>,
}

/// `Event::ToolProgress`: streaming output or a status line from a running tool.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolProgress {
    pub call_id: String,
    pub text: String,
}

/// `Event::ToolComplete`: a tool call ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolComplete {
    pub call_id: String,
    pub name: String,
    pub status: ToolStatus,
    /// What the model sees (already capped).
    pub output: String,
    pub duration_ms: u64,
}

/// `Event::ApprovalResolved`: an approval request was settled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApprovalResolved {
    pub id: String,
    pub decision: ApprovalDecision,
    pub decided_by: DecidedBy,
}

/// `Event::CheckpointList`: the working directory's checkpoints, newest first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckpointList {
    pub checkpoints: Vec<CheckpointInfo>,
}

/// `Event::CheckpointDiff`: what restoring checkpoint `id` would undo, as a unified diff.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckpointDiff {
    pub id: String,
    pub diff: String,
}

/// `Event::Notice`: something the user should read that is not part of the conversation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Notice {
    pub level: NoticeLevel,
    pub text: String,
}

/// `Event::Error`: a typed failure; the session keeps running.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorEvent {
    pub kind: ErrorKind,
    pub text: String,
}

/// `Event::TurnComplete`: the turn ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnComplete {
    pub turn_id: u64,
    pub outcome: TurnOutcome,
}

/// `Event::SessionList`: stored sessions matching `query`, for a picker.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionList {
    pub query: String,
    pub sessions: Vec<SessionListItem>,
}

/// `Event::HistoryReplay`: the conversation was replaced (resume, undo).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HistoryReplay {
    pub messages: Vec<ReplayMessage>,
}

/// `Event::SpawnTrees`: saved spawn trees, newest first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpawnTrees {
    pub trees: Vec<SpawnTreeInfo>,
}

/// `Event::SpawnTree`: a saved spawn tree's events, in order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SpawnTree {
    pub id: String,
    pub events: Vec<SubagentEvent>,
}

/// `Event::GoalUpdate`: the standing goal's state after a change; `None`: no goal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GoalUpdate {
    pub goal: Option<GoalSnapshot>,
}

/// `Event::McpStatus`: every configured MCP server and its state, in config order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct McpStatus {
    pub servers: Vec<McpServerStatus>,
}

/// One file checkpoint: the working directory as it was before a turn changed it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckpointInfo {
    pub id: String,
    /// `YYYY-MM-DD HH:MM` (UTC).
    pub created: String,
    /// What it was taken before, e.g. "before turn 3: write_file src/main.rs".
    pub label: String,
    /// Files that differ between this checkpoint and the next one (or the working directory,
    /// for the newest): what the turn changed.
    pub changed_files: Vec<String>,
}
