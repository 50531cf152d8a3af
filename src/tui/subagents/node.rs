//! One subagent as the monitor knows it: what `Spawned` said, its running totals, its last
//! activity, its steer messages and its live log (a [`Transcript`] fed with the child's own
//! events, so the log renders exactly like the chat pane).
//!
//! Plain data, no I/O, no clocks: times are `Instant`s handed in by the caller.

use std::time::Duration;
use std::time::Instant;

use crate::protocol::Event;
use crate::protocol::NoticeLevel;
use crate::protocol::SubagentRole;
use crate::protocol::SubagentStatus;
use crate::protocol::SubagentUsage;
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
        let activity = match event {
            Event::TurnStarted { .. }
            | Event::MessageStart { .. }
            | Event::ReasoningDelta { .. }
            | Event::ToolComplete { .. } => Some("thinking…".to_string()),
            Event::MessageDelta { .. } => Some("writing…".to_string()),
            Event::ToolStart { name, preview, .. } => {
                self.tool_starts += 1;
                // An MCP tool by its own name and server, as the log's cell shows it.
                let tool = match self.log.mcp_label(name) {
                    Some(label) => format!("{} ({})", label.tool, label.server),
                    None => name.clone(),
                };
                let text = format!("running {tool} {}", preview.lines().next().unwrap_or(""));
                Some(truncate(text.trim_end(), ACTIVITY_PREVIEW))
            }
            Event::Error { text, .. } => {
                Some(truncate(&format!("error: {text}"), ACTIVITY_PREVIEW))
            }
            Event::TurnComplete { .. } | Event::MessageComplete { .. } => Some("idle".to_string()),
            Event::ToolProgress { .. }
            | Event::Notice { .. }
            | Event::SessionInfo(_)
            | Event::ClarifyRequest(_)
            | Event::SecretRequest(_)
            | Event::ApprovalRequest(_)
            | Event::ApprovalResolved { .. }
            | Event::CheckpointList { .. }
            | Event::CheckpointDiff { .. }
            | Event::SpawnTrees { .. }
            | Event::SpawnTree { .. }
            | Event::StatusUpdate(_)
            | Event::SessionList { .. }
            | Event::HistoryReplay { .. }
            | Event::Subagent(_)
            | Event::GoalUpdate { .. }
            | Event::GoalProgress(_)
            | Event::McpStatus { .. }
            | Event::ShutdownComplete => None,
        };
        if let Some(activity) = activity {
            self.activity = activity;
        }
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
