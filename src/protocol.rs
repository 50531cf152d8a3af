//! The contract between frontends (TUI, headless) and the engine.
//!
//! `Op`s flow from a frontend to the engine, `Event`s flow back. Requests that need an answer
//! (`ClarifyRequest`, `ApprovalRequest`, `SecretRequest`) carry an id and are answered exactly once by
//! the matching `Op` reply; a frontend that goes away counts as "deny"/"no answer".
//!
//! This module holds plain data only: no behaviour, no engine or UI types. Every type is
//! serde-serialisable so `--json` can print events as JSON lines and tests can assert on them.
//! Deltas (`MessageDelta`, `ReasoningDelta`) may be coalesced by a slow consumer; requests and
//! `*Complete` events never are.

use serde::Deserialize;
use serde::Serialize;

mod cron;
mod events;
mod goals;
mod images;
mod mcp;
mod subagents;
mod toolsets;
mod voice;

pub use cron::{CronDelivery, CronEvent, CronJobView, CronJobs, CronOp};
pub use events::ApprovalResolved;
pub use events::CheckpointDiff;
pub use events::CheckpointInfo;
pub use events::CheckpointList;
pub use events::ErrorEvent;
pub use events::GoalUpdate;
pub use events::HistoryReplay;
pub use events::McpStatus;
pub use events::MessageComplete;
pub use events::MessageDelta;
pub use events::MessageStart;
pub use events::Notice;
pub use events::ReasoningDelta;
pub use events::SessionList;
pub use events::SpawnTree;
pub use events::SpawnTrees;
pub use events::ToolComplete;
pub use events::ToolProgress;
pub use events::ToolStart;
pub use events::TurnComplete;
pub use events::TurnStarted;

pub use goals::CONTINUATION_MARKER;
pub use goals::GoalCommand;
pub use goals::GoalProgress;
pub use goals::GoalSnapshot;
pub use goals::GoalStatus;
pub use goals::GoalVerdict;
pub use goals::PauseCause;
pub use goals::VerdictOutcome;

pub use images::AttachEvent;
pub use images::AttachHandle;
pub use images::AttachRequest;
pub use images::ImageAttachment;
pub use mcp::McpServerState;
pub use mcp::McpServerStatus;
pub use mcp::McpTransport;
pub use mcp::split_mcp_tool_name;
pub use toolsets::{ToolEntry, ToolsetEntry, ToolsetList, ToolsetsOp};

pub use subagents::SpawnTreeInfo;
pub use subagents::Spawning;
pub use subagents::SubagentControl;
pub use subagents::SubagentEvent;
pub use subagents::SubagentEventKind;
pub use subagents::SubagentRole;
pub use subagents::SubagentStatus;
pub use subagents::SubagentUsage;
pub use voice::CaptureState;
pub use voice::TranscriptUse;
pub use voice::VoiceCommand;
pub use voice::VoiceEvent;
pub use voice::VoiceHandle;
pub use voice::VoiceOp;
pub use voice::VoiceState;

/// Frontend → engine.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Op {
    /// A user message; starts a turn (or follows `busy_input_mode` when one is running).
    UserInput {
        text: String,
        /// Attached images, in badge order (`[📎 Image #1]` first).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        images: Vec<ImageAttachment>,
    },
    /// Cancel the running turn: the in-flight request and running tools stop, and what was
    /// done so far is recorded.
    Interrupt,
    /// Text injected into the running turn at the next tool boundary.
    Steer { text: String },
    /// Text kept and sent as the next user message when the running turn ends.
    Queue { text: String },
    /// The answer to a `ClarifyRequest`.
    ClarifyReply { id: String, answer: ClarifyAnswer },
    /// The answer to a `SecretRequest`: the value, or `None` when the user skipped it.
    SecretReply { id: String, value: Option<String> },
    /// The answer to an `ApprovalRequest`.
    ApprovalReply {
        id: String,
        decision: ApprovalDecision,
    },
    /// File checkpoints of the working directory (`/rollback`); answered with
    /// `Event::CheckpointList`.
    ListCheckpoints,
    /// What restoring checkpoint `id` would change; answered with `Event::CheckpointDiff`.
    CheckpointDiff { id: String },
    /// Restore the working directory's files to checkpoint `id` (`/rollback N`); answered with
    /// a `Notice` naming the restored files.
    RestoreCheckpoint { id: String },
    /// Use another model (and optionally provider) from the next request on.
    SwitchModel(ModelSelection),
    /// A slash command the frontend does not handle itself (skills: `/git-commit …`). The
    /// engine runs a matching skill as a user message or says the command is unknown.
    SlashCommand { name: String, args: String },
    /// Forget the conversation and start a new session (`/new`, `/clear`). Interrupts a
    /// running turn first.
    NewSession,
    /// Run the last user message again, dropping the reply it got (`/retry`).
    Retry,
    /// Run a shell command the user typed (`!cmd`) through the terminal tool. The output is
    /// shown to the user, not added to the conversation.
    RunShell { command: String },
    /// Kill the session's background processes (`/stop`).
    StopBackground,
    /// Turn YOLO (run commands without approval) on or off (`/yolo`).
    SetYolo(Yolo),
    /// Stored sessions matching `query` (title, id or first message); answered with
    /// `Event::SessionList`.
    ListSessions { query: String, limit: u32 },
    /// Continue a stored session (an id, unique id prefix or title) in place of this one.
    ResumeSession { target: String },
    /// Name this session (`/title`).
    SetTitle { title: String },
    /// Copy this conversation into a new session and continue there (`/branch`).
    BranchSession { title: Option<String> },
    /// Hide the last `turns` user turns from the conversation and the store (`/undo`).
    UndoTurns { turns: u32 },
    /// Summarise the middle of the conversation now (`/compress`).
    Compress,
    /// Steer or stop a running subagent.
    Subagent {
        id: String,
        control: SubagentControl,
    },
    /// Pause or resume the starting of new subagents (`p` in the monitor).
    SetSpawning(Spawning),
    /// Saved spawn trees, newest first (`/agents history`); answered with `Event::SpawnTrees`.
    ListSpawnTrees,
    /// One saved spawn tree; answered with `Event::SpawnTree`.
    LoadSpawnTree { id: String },
    /// `/goal …` and `/subgoal …`. Answered with `GoalUpdate`/`GoalProgress` events or a
    /// `Notice` (status, lists, refusals).
    Goal(GoalCommand),
    /// Disconnect every MCP server, re-read `mcp_servers` from config.yaml and connect again
    /// (`/reload-mcp`). Answered with `Event::McpStatus` updates and a `Notice`.
    ReloadMcp,
    /// `/tools`: list the toolsets or switch one in config.yaml.
    Toolsets(ToolsetsOp),
    /// `/cron`: list, add, pause, resume, run or remove scheduled jobs.
    Cron(CronOp),
    /// Stop the session: cancel everything and end the event stream.
    Shutdown,
}

impl Op {
    /// A user message without images (`Op::UserInput`).
    pub fn user(text: impl Into<String>) -> Self {
        Self::UserInput {
            text: text.into(),
            images: Vec::new(),
        }
    }
}

/// Whether the agent may run terminal commands without asking. Hardline commands (such as
/// `rm -rf /`) are refused either way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Yolo {
    On,
    Off,
}

/// How a dangerous command or sensitive write was answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ApprovalDecision {
    /// Run this one call.
    Once,
    /// Allow this kind of command (its pattern) for the rest of the session.
    Session,
    /// Allow this kind of command from now on (`command_allowlist` in config.yaml).
    Always,
    Deny,
}

/// Who settled an approval request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DecidedBy {
    User,
    /// `approvals.timeout` passed without an answer: denied.
    Timeout,
    /// The turn was interrupted or the session ended while the request was open: denied.
    Cancelled,
}

/// What an approval request is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ApprovalKind {
    /// A shell command (`terminal`).
    Command,
    /// A file tool (`write_file`, `patch`) writing a sensitive path; `subject` is the path.
    FileWrite,
    /// A configured shell hook runs for the first time; `subject` is its command and `reason`
    /// names the event. `Always` records consent in `shell-hooks-allowlist.json`.
    HookConsent,
}

/// How the user answered a clarifying question.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "text", rename_all = "snake_case")]
pub enum ClarifyAnswer {
    /// The user's answer (a chosen option's text or free text).
    Text(String),
    /// The user declined or could not be asked.
    Declined,
}

/// A model choice; `provider` and `base_url` are optional overrides.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelSelection {
    pub model: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base_url: Option<String>,
}

/// Engine → frontend. Variants with fields carry a named payload (`events.rs`), so a frontend
/// routes each one whole to whatever consumes it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// Sent once when a session starts, and again when the model changes.
    SessionInfo(SessionInfo),
    /// A turn began for this user input.
    TurnStarted(TurnStarted),
    /// An assistant message starts streaming.
    MessageStart(MessageStart),
    /// Visible assistant text (never contains `<think>` blocks).
    MessageDelta(MessageDelta),
    /// Model reasoning (from reasoning deltas or scrubbed `<think>` blocks).
    ReasoningDelta(ReasoningDelta),
    /// An assistant message finished; `text` is the whole visible text.
    MessageComplete(MessageComplete),
    /// A tool call begins. `preview` is a one-line human summary (`echo hi`, `src/main.rs`).
    ToolStart(ToolStart),
    /// Streaming output or a status line from a running tool.
    ToolProgress(ToolProgress),
    /// A tool call ended.
    ToolComplete(ToolComplete),
    /// The engine needs an answer from the user; reply with `Op::ClarifyReply`.
    ClarifyRequest(ClarifyRequest),
    /// A skill needs a secret (an API key) the environment lacks. Ask with a masked input,
    /// locally only; reply with `Op::SecretReply`. The value is saved to `HERMES_HOME/.env`.
    SecretRequest(SecretRequest),
    /// A tool wants to do something dangerous; reply with `Op::ApprovalReply`. Requests queue:
    /// several may be open at once (parallel calls, subagents), each answered exactly once.
    ApprovalRequest(ApprovalRequest),
    /// An approval request was settled: by the user's reply, a timeout or an interrupt.
    /// Frontends drop it from their queue. (The smart approver's decisions never become
    /// requests; they are announced with a `Notice`.)
    ApprovalResolved(ApprovalResolved),
    /// The working directory's checkpoints, newest first (answer to `Op::ListCheckpoints`).
    CheckpointList(CheckpointList),
    /// The diff between the working directory now and checkpoint `id` (what a restore would
    /// undo), as a unified diff.
    CheckpointDiff(CheckpointDiff),
    /// Token, cost and context usage after each API call.
    StatusUpdate(StatusUpdate),
    /// Something the user should read that is not part of the conversation.
    Notice(Notice),
    /// A typed failure; the session keeps running.
    Error(ErrorEvent),
    /// The turn ended.
    TurnComplete(TurnComplete),
    /// Stored sessions for a picker (answer to `Op::ListSessions`).
    SessionList(SessionList),
    /// The conversation was replaced (resume, undo): frontends redraw it from these.
    HistoryReplay(HistoryReplay),
    /// Something happened to a subagent (a `delegate_task` child).
    Subagent(SubagentEvent),
    /// Saved spawn trees, newest first (answer to `Op::ListSpawnTrees`).
    SpawnTrees(SpawnTrees),
    /// A saved spawn tree's events, in order, to replay into a read-only monitor (answer to
    /// `Op::LoadSpawnTree`).
    SpawnTree(SpawnTree),
    /// The standing goal's state after a change (also sent when a session starts or is
    /// resumed with one); `None`: the session has no goal.
    GoalUpdate(GoalUpdate),
    /// A step of the goal loop, for the transcript (one status line each).
    GoalProgress(GoalProgress),
    /// Every configured MCP server and its state, in config order; sent when the session
    /// starts (when any server is configured) and after every change.
    McpStatus(McpStatus),
    /// The toolsets and their state (answer to `Op::Toolsets`).
    Toolsets(ToolsetList),
    /// Scheduled jobs: the list, or a finished job's result for this session.
    Cron(CronEvent),
    /// The session ended (after `Op::Shutdown`); no more events follow.
    ShutdownComplete,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionListItem {
    pub id: String,
    pub title: Option<String>,
    /// `YYYY-MM-DD HH:MM` (UTC).
    pub started: String,
    pub message_count: u64,
    pub first_message: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "role", rename_all = "snake_case")]
pub enum ReplayMessage {
    User {
        text: String,
        /// The saved files of the images sent with this message.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        images: Vec<std::path::PathBuf>,
    },
    Assistant {
        text: String,
    },
    Tool {
        name: String,
        output: String,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionInfo {
    pub session_id: String,
    pub model: String,
    pub provider: String,
    pub base_url: String,
    pub cwd: String,
    pub tools: Vec<String>,
    pub context_window: u64,
    pub yolo: Yolo,
    /// The session's title, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Messages already in the conversation (non-zero after a resume).
    #[serde(default)]
    pub resumed_messages: usize,
    /// Slash commands the engine provides (skills), for completion and /help.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub slash_commands: Vec<SlashCommandInfo>,
    /// The kernel sandbox's state: `workspace-write, network off`, `off`,
    /// `unavailable (why); approvals only`. Empty from engines that have none.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub sandbox: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SlashCommandInfo {
    pub name: String,
    pub description: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClarifyRequest {
    pub id: String,
    pub question: String,
    /// Suggested answers; empty means free text.
    pub choices: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApprovalRequest {
    pub id: String,
    /// Who asks: `main`, or a subagent's label.
    pub agent: String,
    /// The tool the request comes through when it is not the agent's own call: `execute_code`
    /// for a script's `terminal()`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
    pub kind: ApprovalKind,
    /// The command line, or the path a file tool wants to write.
    pub subject: String,
    /// Why it was flagged, e.g. "recursive delete".
    pub reason: String,
    /// The working directory the command would run in.
    pub cwd: String,
    /// The answers offered, in order (`Always` is left out when it cannot apply).
    pub choices: Vec<ApprovalDecision>,
    /// Seconds until the request is denied unanswered (`approvals.timeout`).
    pub timeout_secs: u64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SecretRequest {
    pub id: String,
    /// The environment variable, e.g. `GITHUB_TOKEN`.
    pub name: String,
    /// What to show the user.
    pub prompt: String,
    /// Why it is asked (the skill's name and what it is for).
    pub reason: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct StatusUpdate {
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub cache_read_tokens: u64,
    pub cache_write_tokens: u64,
    pub reasoning_tokens: u64,
    /// Tokens of the last request's prompt: what the context currently holds.
    pub context_tokens: u64,
    pub context_window: u64,
    pub api_calls: u64,
    /// Context compressions in this conversation so far.
    #[serde(default)]
    pub compressions: u32,
    /// Estimated cost in US dollars, when the model's price is known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_usd: Option<f64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolStatus {
    Ok,
    Error,
    /// Refused by policy (hardline, no approval) before running.
    Denied,
    Cancelled,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NoticeLevel {
    Info,
    Warning,
}

/// The error families a frontend can act on. Mirrors the provider error types plus
/// engine-level failures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    EmptyResponse,
    Hang,
    RateLimited,
    Auth,
    ContextTooLong,
    Transport,
    BadResponse,
    Config,
    Internal,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum TurnOutcome {
    /// The model answered without further tool calls.
    Completed,
    /// The user interrupted; `done` says what had been finished.
    Interrupted { done: String },
    /// `agent.max_iterations` API calls were used up.
    IterationLimit { limit: u32 },
    /// The turn failed with a typed error (also sent as `Event::Error`).
    Failed { kind: ErrorKind },
}

/// A frontend's end of one session: send `Op`s, receive `Event`s. The channels are unbounded
/// because requests must never be dropped and deltas are small; a frontend that stops reading
/// should drop the handle, which the engine treats as `Op::Shutdown`.
#[derive(Debug)]
pub struct SessionHandle {
    pub ops: tokio::sync::mpsc::UnboundedSender<Op>,
    pub events: tokio::sync::mpsc::UnboundedReceiver<Event>,
}

#[cfg(test)]
#[path = "protocol_tests.rs"]
mod tests;
