//! The subagent tree the monitor shows: built from `Event::Subagent` events, grouped by
//! parent in spawn order, with per-child status, usage,
//! last activity, steer messages and live log ([`node::Node`]).
//!
//! Plain data: no I/O, no timers. Elapsed times are computed at render time from a `now`
//! argument. It does not draw (that is `panes::agents` and `panes::live_bar`) or send `Op`s
//! (that is `agents_flow`).
//!
//! Lifetime of a row: a child appears on `Spawned` and stays after `Finished`, so its log and
//! summary can be reviewed, until the user sends their next message (`drop_finished`, called
//! by the composer; the turn the children's results start is not a user turn): then every
//! finished child with no running descendant is dropped.
//!
//! Invariants: ids are unique (a repeated `Spawned` for a known id is ignored); events for an
//! unknown id create a placeholder row rather than being lost; nodes are kept in arrival
//! (spawn) order; a child whose parent is unknown is listed as a root.

pub mod node;

use std::collections::HashMap;
use std::time::Instant;

pub use node::Node;
pub use node::NodeStatus;
pub use node::SteerState;

use super::engine_link::EventHandler;
use crate::protocol::McpStatus;
use crate::protocol::SubagentEvent;
use crate::protocol::SubagentEventKind;
use crate::protocol::SubagentStatus;

/// The `s` cycle: how siblings are ordered (the tree shape is always kept).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SortMode {
    #[default]
    Spawn,
    /// Most tool calls first.
    Busiest,
    /// Longest elapsed first.
    Slowest,
    /// Running, failed, timed out, interrupted, done.
    Status,
}

impl SortMode {
    pub fn next(self) -> Self {
        match self {
            Self::Spawn => Self::Busiest,
            Self::Busiest => Self::Slowest,
            Self::Slowest => Self::Status,
            Self::Status => Self::Spawn,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Self::Spawn => "spawn order",
            Self::Busiest => "busiest",
            Self::Slowest => "slowest",
            Self::Status => "status",
        }
    }
}

/// The `f` cycle: which rows are listed. Matching rows keep their depth indent; their
/// non-matching ancestors are not listed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FilterMode {
    #[default]
    All,
    Running,
    /// Failed or timed out.
    Failed,
    /// Children with no children of their own.
    Leaves,
}

impl FilterMode {
    pub fn next(self) -> Self {
        match self {
            Self::All => Self::Running,
            Self::Running => Self::Failed,
            Self::Failed => Self::Leaves,
            Self::Leaves => Self::All,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Self::All => "all",
            Self::Running => "running",
            Self::Failed => "failed",
            Self::Leaves => "leaves",
        }
    }
}

/// Sums over every listed child.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Totals {
    pub running: usize,
    pub done: usize,
    /// Failed, timed out or interrupted.
    pub failed: usize,
    pub tool_calls: u64,
    pub tokens: u64,
    pub cost_usd: f64,
    /// The deepest `depth` seen (0 with no children).
    pub max_depth: u32,
}

#[derive(Debug, Default)]
pub struct SubagentTree {
    nodes: Vec<Node>,
    by_id: HashMap<String, usize>,
    /// The last `Event::McpStatus`, handed to every child's log so its MCP tool cells are
    /// labelled with their server like the chat's.
    mcp_status: Option<McpStatus>,
}

impl SubagentTree {
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn get(&self, id: &str) -> Option<&Node> {
        self.by_id.get(id).and_then(|&i| self.nodes.get(i))
    }

    pub fn get_mut(&mut self, id: &str) -> Option<&mut Node> {
        self.by_id.get(id).and_then(|&i| self.nodes.get_mut(i))
    }

    /// Nodes in spawn order.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    pub fn running_count(&self) -> usize {
        self.nodes
            .iter()
            .filter(|n| n.status().is_running())
            .count()
    }

    /// Running children in spawn order (the live bar).
    pub fn running(&self) -> impl Iterator<Item = &Node> {
        self.nodes.iter().filter(|n| n.status().is_running())
    }

    /// The MCP servers of an `Event::McpStatus`: every child's log labels its MCP tool cells
    /// with them, and children spawned later get them too.
    pub fn set_mcp_status(&mut self, status: &McpStatus) {
        for node in &mut self.nodes {
            node.log.mcp_status(status);
        }
        self.mcp_status = Some(status.clone());
    }

    /// Applies one subagent event that arrived at `now`.
    pub fn apply(&mut self, event: &SubagentEvent, now: Instant) {
        if let SubagentEventKind::Spawned {
            parent,
            depth,
            index,
            label,
            goal,
            role,
            model,
        } = &event.kind
        {
            if self.by_id.contains_key(&event.id) {
                return;
            }
            let mut node = Node::new(event.id.clone(), now);
            node.parent.clone_from(parent);
            node.depth = *depth;
            node.index = *index;
            node.label.clone_from(label);
            node.goal.clone_from(goal);
            node.role = *role;
            node.model.clone_from(model);
            self.insert(node);
            return;
        }
        let node = match self.by_id.get(&event.id) {
            Some(&i) => self.nodes.get_mut(i),
            None => {
                let mut node = Node::new(event.id.clone(), now);
                node.label.clone_from(&event.id);
                self.insert(node);
                self.nodes.last_mut()
            }
        };
        let Some(node) = node else {
            return;
        };
        match &event.kind {
            SubagentEventKind::Spawned { .. } => {}
            SubagentEventKind::Activity { event } => node.record_activity(event),
            SubagentEventKind::Usage(usage) => node.usage = *usage,
            SubagentEventKind::SteerDelivered { text } => node.steer_delivered(text),
            SubagentEventKind::Finished {
                status,
                summary,
                duration_ms,
            } => node.finish(*status, summary, *duration_ms),
        }
    }

    fn insert(&mut self, mut node: Node) {
        if let Some(status) = &self.mcp_status {
            node.log.mcp_status(status);
        }
        self.by_id.insert(node.id.clone(), self.nodes.len());
        self.nodes.push(node);
    }

    /// The main agent started a new turn: drop finished children that have no running
    /// descendant.
    pub fn drop_finished(&mut self) {
        #[allow(clippy::needless_collect)] // retain needs &mut self.nodes; the flags borrow it
        let keep: Vec<bool> = (0..self.nodes.len())
            .map(|i| self.subtree_running(i))
            .collect();
        let mut flags = keep.into_iter();
        self.nodes.retain(|_| flags.next().unwrap_or(true));
        self.by_id = self
            .nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (n.id.clone(), i))
            .collect();
    }

    fn subtree_running(&self, index: usize) -> bool {
        let Some(node) = self.nodes.get(index) else {
            return false;
        };
        node.status().is_running()
            || self
                .children_of(Some(&node.id))
                .into_iter()
                .any(|c| self.subtree_running(c))
    }

    /// Indices of the children of `parent` (`None`: the roots) in spawn order. A node whose
    /// parent is unknown counts as a root.
    fn children_of(&self, parent: Option<&str>) -> Vec<usize> {
        self.nodes
            .iter()
            .enumerate()
            .filter(|(_, n)| {
                let own = n.parent.as_deref().filter(|p| self.by_id.contains_key(*p));
                own == parent && own != Some(n.id.as_str())
            })
            .map(|(i, _)| i)
            .collect()
    }

    fn is_leaf(&self, node: &Node) -> bool {
        !self
            .nodes
            .iter()
            .any(|n| n.parent.as_deref() == Some(node.id.as_str()))
    }

    /// The listed rows, depth-first (each parent before its children), siblings ordered by
    /// `sort` as of `now`, then filtered. Each row is `(node, depth in the listing)`.
    pub fn rows(&self, sort: SortMode, filter: FilterMode, now: Instant) -> Vec<(&Node, usize)> {
        let mut out = Vec::new();
        let mut stack: Vec<(usize, usize)> = self
            .sorted(self.children_of(None), sort, now)
            .into_iter()
            .rev()
            .map(|i| (i, 0))
            .collect();
        while let Some((index, level)) = stack.pop() {
            let Some(node) = self.nodes.get(index) else {
                continue;
            };
            if out.len() > self.nodes.len() {
                break; // a parent cycle; never loop forever
            }
            out.push((node, level));
            let children = self.sorted(self.children_of(Some(&node.id)), sort, now);
            stack.extend(children.into_iter().rev().map(|c| (c, level + 1)));
        }
        out.retain(|(node, _)| self.matches(node, filter));
        out
    }

    fn sorted(&self, mut indices: Vec<usize>, sort: SortMode, now: Instant) -> Vec<usize> {
        let nodes = &self.nodes;
        let key = |i: &usize| nodes.get(*i);
        match sort {
            SortMode::Spawn => {}
            SortMode::Busiest => {
                indices.sort_by_key(|i| std::cmp::Reverse(key(i).map_or(0, Node::tool_calls)));
            }
            SortMode::Slowest => {
                indices.sort_by_key(|i| std::cmp::Reverse(key(i).map(|n| n.elapsed(now))));
            }
            SortMode::Status => indices.sort_by_key(|i| key(i).map(|n| n.status().rank())),
        }
        indices
    }

    fn matches(&self, node: &Node, filter: FilterMode) -> bool {
        match filter {
            FilterMode::All => true,
            FilterMode::Running => node.status().is_running(),
            FilterMode::Failed => matches!(
                node.status(),
                NodeStatus::Ended(SubagentStatus::Failed | SubagentStatus::TimedOut)
            ),
            FilterMode::Leaves => self.is_leaf(node),
        }
    }

    pub fn totals(&self) -> Totals {
        let mut totals = Totals::default();
        for node in &self.nodes {
            match node.status() {
                NodeStatus::Running => totals.running += 1,
                NodeStatus::Ended(SubagentStatus::Completed) => totals.done += 1,
                NodeStatus::Ended(
                    SubagentStatus::Failed | SubagentStatus::Interrupted | SubagentStatus::TimedOut,
                ) => totals.failed += 1,
            }
            totals.tool_calls += node.tool_calls();
            totals.tokens += node.tokens();
            totals.cost_usd += node.usage.cost_usd.unwrap_or(0.0);
            totals.max_depth = totals.max_depth.max(node.depth);
        }
        totals
    }
}

#[cfg(test)]
#[path = "subagents_tests.rs"]
mod tests;
