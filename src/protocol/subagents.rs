//! The subagent part of the protocol: what frontends hear about `delegate_task` children
//! (spawn, their own streamed events, usage, the end) and how they control them (steer, stop,
//! pause new spawns). Plain data, like the rest of `protocol`.
//!
//! Invariants: every `Spawned` is followed by exactly one `Finished` for the same id; a child's
//! approval requests are ordinary `Event::ApprovalRequest`s whose `agent` is the child's label,
//! never part of `Activity`.

use serde::Deserialize;
use serde::Serialize;

use super::Event;

/// One thing that happened to subagent `id`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SubagentEvent {
    pub id: String,
    #[serde(flatten)]
    pub kind: SubagentEventKind,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SubagentEventKind {
    /// A child started working on `goal`.
    Spawned {
        /// The subagent that spawned it; `None` for the main agent.
        parent: Option<String>,
        /// 1 for the main agent's children, 2 for theirs, …
        depth: u32,
        /// Its position in the batch it was spawned with (0-based); results keep this order.
        index: u32,
        /// A short name for lists ("task 2: run the test suite").
        label: String,
        goal: String,
        role: SubagentRole,
        model: String,
    },
    /// One of the child's own events (streamed text, reasoning, tool calls and their output,
    /// notices), for its live log. Approval requests are not wrapped: they go to the queue.
    Activity { event: Box<Event> },
    /// The child's running totals, after each of its API calls and tool calls.
    Usage(SubagentUsage),
    /// A steer message reached the child at its next tool boundary.
    SteerDelivered { text: String },
    /// The child ended; `summary` is what its parent receives.
    Finished {
        status: SubagentStatus,
        summary: String,
        duration_ms: u64,
    },
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct SubagentUsage {
    pub api_calls: u64,
    pub tool_calls: u64,
    pub input_tokens: u64,
    pub output_tokens: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_usd: Option<f64>,
}

/// Whether a child may delegate further (`delegate_task(role=…)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SubagentRole {
    Leaf,
    Orchestrator,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SubagentStatus {
    Completed,
    Failed,
    /// Stopped by the user (`x`, `/stop`, a reset) or with its parent.
    Interrupted,
    /// No API or tool activity for `delegation.child_timeout_seconds`.
    TimedOut,
}

/// What the user does to a running child (`Op::Subagent`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "control", rename_all = "snake_case")]
pub enum SubagentControl {
    /// Deliver `text` to the child at its next tool boundary (answered with `SteerDelivered`).
    Steer { text: String },
    /// Stop this child (its own children stop with it).
    Stop,
    /// Stop this child and every descendant (same as `Stop`; named for the monitor's `X`).
    StopSubtree,
}

/// Whether new children may start (`p` in the monitor). Running children are not affected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Spawning {
    Allowed,
    Paused,
}

/// A saved spawn tree (`HERMES_HOME/spawn-trees/`): one finished top-level batch.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpawnTreeInfo {
    /// The file's stem; pass it to `Op::LoadSpawnTree`.
    pub id: String,
    /// `YYYY-MM-DD HH:MM` (UTC) when the batch finished.
    pub finished: String,
    /// How many subagents it had, at every depth.
    pub subagents: u32,
    /// The top-level goals, shortened, joined with " · ".
    pub goals: String,
}
