//! Repairs a loaded history so every API accepts it: each tool call gets exactly one result.
//!
//! A kill during a tool call (`kill -9`, an OOM kill, power loss) leaves the stored history
//! ending with an assistant message whose `tool_calls` have no results, and strict servers
//! answer every later request with a 400 — the session could never be continued. So on load
//! each unanswered call gets a synthetic result saying it was interrupted, and those that
//! close the history are stored, so the fix happens once. Tool results that answer no call of
//! the assistant message before them (or answer one twice) are left out, as Python Hermes's
//! pre-call sanitizer does.
//!
//! Not here: anything else about the history (roles, empty messages). Invariants: pure on the
//! history (no I/O); a history that needs no repair comes back unchanged; repairing twice
//! changes nothing more.

use std::collections::BTreeSet;

use crate::model::Message;
use crate::model::Role;

/// The synthetic result of a tool call that never finished.
pub const INTERRUPTED_RESULT: &str = "[interrupted: hermes stopped before this tool call \
     finished (it was killed, crashed or the machine went down), so its result is unknown; \
     check its effects before relying on them]";

/// A repaired history and what was changed.
#[derive(Debug, Default, PartialEq)]
pub struct Repaired {
    pub history: Vec<Message>,
    /// The synthetic results at the very end of `history` (the interrupted last tool calls):
    /// appending these to the stored session repairs it for good.
    pub trailing: Vec<Message>,
    /// Synthetic results added anywhere (trailing ones included).
    pub added: usize,
    /// Tool results left out because they answered no pending call.
    pub dropped: usize,
}

impl Repaired {
    pub fn changed(&self) -> bool {
        self.added > 0 || self.dropped > 0
    }
}

/// Give every unanswered tool call a synthetic result, right after the results its
/// assistant message did get; leave out tool results that answer nothing.
pub fn repair_tool_results(history: Vec<Message>) -> Repaired {
    let mut out = Repaired {
        history: Vec::with_capacity(history.len()),
        ..Repaired::default()
    };
    // The calls of the latest assistant message not answered yet, in the model's order.
    let mut open: Vec<crate::model::ToolCall> = Vec::new();
    let mut answered = BTreeSet::new();
    for message in history {
        if message.role == Role::Tool {
            let id = message.tool_call_id.as_deref().unwrap_or_default();
            let pending = open.iter().position(|c| c.id == id);
            match pending {
                Some(i) if answered.insert(id.to_string()) => {
                    open.remove(i);
                    out.history.push(message);
                }
                _ => out.dropped += 1,
            }
            continue;
        }
        close(&mut out, &mut open, &answered);
        answered.clear();
        if message.role == Role::Assistant {
            open.clone_from(&message.tool_calls);
        }
        out.history.push(message);
    }
    let before = out.history.len();
    close(&mut out, &mut open, &answered);
    out.trailing = out.history[before..].to_vec();
    out
}

/// Interrupted results for the calls still open (an id the message repeats is answered once).
fn close(out: &mut Repaired, open: &mut Vec<crate::model::ToolCall>, answered: &BTreeSet<String>) {
    let mut seen = answered.clone();
    for call in open.drain(..) {
        if !seen.insert(call.id.clone()) {
            continue;
        }
        out.history
            .push(Message::tool_result(&call, INTERRUPTED_RESULT));
        out.added += 1;
    }
}

#[cfg(test)]
#[path = "repair_tests.rs"]
mod tests;
