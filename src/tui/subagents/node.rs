//! One subagent as the monitor knows it: what `Spawned` said, its running totals, its last
//! activity, its steer messages and its live log (a [`Transcript`] fed with the child's own
//! events, so the log renders exactly like the chat pane).
//!
//! Plain data, no I/O, no clocks: times are `Instant`s handed in by the caller.

use std::time::Duration;
use std::time::Instant;

use crate::protocol::ErrorEvent;
use crate::protocol::Event;
use crate::protocol::MessageComplete;
use crate::protocol::MessageDelta;
use crate::protocol::MessageStart;
use crate::protocol::NoticeLevel;
use crate::protocol::ReasoningDelta;
use crate::protocol::SubagentRole;
use crate::protocol::SubagentStatus;
use crate::protocol::SubagentUsage;
use crate::protocol::ToolComplete;
use crate::protocol::ToolStart;
use crate::protocol::TurnComplete;
use crate::protocol::TurnStarted;
use crate::tui::engine_link::EventHandler;
use crate::tui::engine_link::route;
use crate::tui::markdown::wrap::truncate;
use crate::tui::transcript::Transcript;

/// How long an activity preview may get (display columns).
const ACTIVITY_PREVIEW: usize = 60;

/// Where a child is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeStatus {
    Running,
    Ended(SubagentStatus),
}

impl NodeStatus {
    pub fn is_running(self) -> bool {
        self == Self::Running
    }

    /// `running`, `done`, `failed`, `interrupted`, `timed out`.
    pub fn label(self) -> &'static str {
        match self {
            Self::Running => "running",
            Self::Ended(SubagentStatus::Completed) => "done",
            Self::Ended(SubagentStatus::Failed) => "failed",
            Self::Ended(SubagentStatus::Interrupted) => "interrupted",
            Self::Ended(SubagentStatus::TimedOut) => "timed out",
        }
    }

    /// Sort rank for the "status" order: running first, then the ones that went wrong.
    pub fn rank(self) -> u8 {
        match self {
            Self::Running => 0,
            Self::Ended(SubagentStatus::Failed) => 1,
            Self::Ended(SubagentStatus::TimedOut) => 2,
            Self::Ended(SubagentStatus::Interrupted) => 3,
            Self::Ended(SubagentStatus::Completed) => 4,
        }
    }
}

/// Whether a steer message has reached the child yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SteerState {
    /// Sent; the child picks it up at its next tool boundary.
    Queued,
    /// `SteerDelivered` arrived.
    Delivered,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Steer {
    pub text: String,
    pub state: SteerState,
}

/// How the child ended.
#[derive(Debug, Clone, PartialEq)]
pub struct Ending {
    pub status: SubagentStatus,
    pub summary: String,
    pub duration: Duration,
}

#[derive(Debug)]
pub struct Node {
    pub id: String,
    pub parent: Option<String>,
    pub depth: u32,
    pub index: u32,
    pub label: String,
    pub goal: String,
    pub role: SubagentRole,
    pub model: String,
    /// When `Spawned` arrived (elapsed time counts from here).
    pub started: Instant,
    pub ending: Option<Ending>,
    pub usage: SubagentUsage,
    /// Tool calls seen in the log (used when `Usage` is behind).
    tool_starts: u64,
    /// "running terminal ls", "writing…", "thinking…".
    pub activity: String,
    pub steers: Vec<Steer>,
    pub log: Transcript,
}

impl Node {
    pub fn new(id: String, started: Instant) -> Self {
        Self {
            id,
            parent: None,
            depth: 1,
            index: 0,
            label: String::new(),
            goal: String::new(),
            role: SubagentRole::Leaf,
            model: String::new(),
            started,
            ending: None,
            usage: SubagentUsage::default(),
            tool_starts: 0,
            activity: "starting…".into(),
            steers: Vec::new(),
            log: Transcript::new(),
        }
    }

    pub fn status(&self) -> NodeStatus {
        match &self.ending {
            Some(ending) => NodeStatus::Ended(ending.status),
            None => NodeStatus::Running,
        }
    }

    /// Time since `Spawned` (as of `now`), or the child's own duration once it ended.
    pub fn elapsed(&self, now: Instant) -> Duration {
        match &self.ending {
            Some(ending) => ending.duration,
            None => now.saturating_duration_since(self.started),
        }
    }

    pub fn tool_calls(&self) -> u64 {
        self.usage.tool_calls.max(self.tool_starts)
    }

    pub fn tokens(&self) -> u64 {
        self.usage.input_tokens + self.usage.output_tokens
    }

    /// One of the child's own events: into its log, and into its last activity.
    pub fn record_activity(&mut self, event: &Event) {
        self.log.apply(event);
        route(&mut Activity(self), event);
    }

    /// The user sent a steer message (shown as queued until delivered).
    pub fn steer_sent(&mut self, text: &str) {
        self.steers.push(Steer {
            text: text.to_string(),
            state: SteerState::Queued,
        });
        self.log
            .push_notice(NoticeLevel::Info, &format!("steer queued: {text}"));
    }

    /// `SteerDelivered`: the oldest queued message with this text (else the oldest queued
    /// one) is marked delivered.
    pub fn steer_delivered(&mut self, text: &str) {
        let target = self
            .steers
            .iter()
            .position(|s| s.state == SteerState::Queued && s.text == text)
            .or_else(|| {
                self.steers
                    .iter()
                    .position(|s| s.state == SteerState::Queued)
            });
        match target.and_then(|n| self.steers.get_mut(n)) {
            Some(steer) => steer.state = SteerState::Delivered,
            // Sent from elsewhere (another frontend): still worth listing.
            None => self.steers.push(Steer {
                text: text.to_string(),
                state: SteerState::Delivered,
            }),
        }
        self.log
            .push_notice(NoticeLevel::Info, &format!("steer delivered: {text}"));
    }

    pub fn finish(&mut self, status: SubagentStatus, summary: &str, duration_ms: u64) {
        self.ending = Some(Ending {
            status,
            summary: summary.to_string(),
            duration: Duration::from_millis(duration_ms),
        });
        self.activity = NodeStatus::Ended(status).label().to_string();
        let title = format!("Subagent {}", NodeStatus::Ended(status).label());
        self.log.push_info(&title, summary);
    }
}

/// A child's event as its monitor row's activity line ("thinking…", "running terminal ls").
/// Runs after the event reached the log, so an MCP tool is named as the log's cell names it.
struct Activity<'a>(&'a mut Node);

impl Activity<'_> {
    fn set(&mut self, activity: String) {
        self.0.activity = activity;
    }
}

impl EventHandler for Activity<'_> {
    fn turn_started(&mut self, _started: &TurnStarted) {
        self.set("thinking…".to_string());
    }

    fn message_start(&mut self, _start: &MessageStart) {
        self.set("thinking…".to_string());
    }

    fn reasoning_delta(&mut self, _delta: &ReasoningDelta) {
        self.set("thinking…".to_string());
    }

    fn tool_complete(&mut self, _complete: &ToolComplete) {
        self.set("thinking…".to_string());
    }

    fn message_delta(&mut self, _delta: &MessageDelta) {
        self.set("writing…".to_string());
    }

    fn tool_start(&mut self, start: &ToolStart) {
        self.0.tool_starts += 1;
        // An MCP tool by its own name and server, as the log's cell shows it.
        let tool = match self.0.log.mcp_label(&start.name) {
            Some(label) => format!("{} ({})", label.tool, label.server),
            None => start.name.clone(),
        };
        let text = format!(
            "running {tool} {}",
            start.preview.lines().next().unwrap_or("")
        );
        self.set(truncate(text.trim_end(), ACTIVITY_PREVIEW));
    }

    fn error(&mut self, error: &ErrorEvent) {
        self.set(truncate(
            &format!("error: {}", error.text),
            ACTIVITY_PREVIEW,
        ));
    }

    fn turn_complete(&mut self, _complete: &TurnComplete) {
        self.set("idle".to_string());
    }

    fn message_complete(&mut self, _message: &MessageComplete) {
        self.set("idle".to_string());
    }
}
