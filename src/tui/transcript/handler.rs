//! The transcript as an [`EventHandler`]: the conversation's part of the event stream
//! (messages, reasoning, tool calls, notices, errors, turn ends, goal status lines, replays, and
//! the MCP servers that label tool cells) turned into cells. Everything else an event can say
//! is not the transcript's and is left to the handler's defaults.
//!
//! Split from `transcript.rs`, whose invariants hold here: only live cells change, and text in
//! `MessageComplete` replaces what was streamed.

use super::Cell;
use super::TextKind;
use super::Transcript;
use super::continuation_line;
use crate::protocol::ErrorEvent;
use crate::protocol::GoalProgress;
use crate::protocol::HistoryReplay;
use crate::protocol::McpStatus;
use crate::protocol::MessageComplete;
use crate::protocol::MessageDelta;
use crate::protocol::MessageStart;
use crate::protocol::Notice;
use crate::protocol::ReasoningDelta;
use crate::protocol::ToolComplete;
use crate::protocol::ToolProgress;
use crate::protocol::ToolStart;
use crate::protocol::TurnComplete;
use crate::tui::engine_link::EventHandler;

/// The conversation's part of the event stream: messages, reasoning, tool calls, notices,
/// errors, turn ends, goal status lines, replays and the MCP servers for tool labels.
impl EventHandler for Transcript {
    fn message_start(&mut self, _start: &MessageStart) {
        // The cell is created by the first text, so a message that turns out empty (a pure
        // tool call) leaves no trace; a new message must not append to the previous one, so
        // the live cell ends here.
        self.finish_live_text();
    }

    fn message_delta(&mut self, delta: &MessageDelta) {
        self.stream_text(TextKind::Assistant, delta.turn_id, &delta.text);
    }

    fn reasoning_delta(&mut self, delta: &ReasoningDelta) {
        self.stream_text(TextKind::Reasoning, delta.turn_id, &delta.text);
    }

    fn message_complete(&mut self, message: &MessageComplete) {
        self.complete_message(message.turn_id, &message.text, message.reasoning.as_deref());
    }

    fn tool_start(&mut self, start: &ToolStart) {
        // A call from inside a running one (a script's) is a line in that one's cell.
        let parent = start.parent_call_id.as_ref();
        if let Some(&index) = parent.and_then(|p| self.running_tools.get(p)) {
            self.modify(index, |cell| {
                if let Cell::Tool(tool) = cell {
                    tool.push_child(&start.call_id, &start.name, &start.preview);
                }
            });
            self.child_calls.insert(start.call_id.clone(), index);
            return;
        }
        self.finish_live_text();
        let mut cell = self.tool_cell(&start.call_id, &start.name, &start.preview);
        if let Some(code) = script_code(start) {
            cell.set_code(code);
        }
        let index = self.push(Cell::Tool(cell));
        self.running_tools.insert(start.call_id.clone(), index);
    }

    fn tool_progress(&mut self, progress: &ToolProgress) {
        if let Some(&index) = self.running_tools.get(&progress.call_id) {
            self.modify(index, |cell| {
                if let Cell::Tool(tool) = cell {
                    tool.push_progress(&progress.text);
                }
            });
        }
    }

    fn tool_complete(&mut self, complete: &ToolComplete) {
        if let Some(index) = self.child_calls.remove(&complete.call_id) {
            self.modify(index, |cell| {
                if let Cell::Tool(tool) = cell {
                    tool.finish_child(&complete.call_id, complete.status, complete.duration_ms);
                }
            });
            return;
        }
        let index = match self.running_tools.remove(&complete.call_id) {
            Some(index) => index,
            // A completion without a start still deserves a cell.
            None => {
                let cell = self.tool_cell(&complete.call_id, &complete.name, &complete.name);
                self.push(Cell::Tool(cell))
            }
        };
        self.modify(index, |cell| {
            if let Cell::Tool(tool) = cell {
                // Web tools answer the model in JSON; people get titles, sizes and reasons.
                let summary = super::web_summary::summarize(&complete.name, &complete.output)
                    .or_else(|| super::script_summary::summarize(&complete.name, &complete.output));
                let shown = summary.as_deref().unwrap_or(&complete.output);
                tool.finish(complete.status, shown, complete.duration_ms);
            }
        });
    }

    fn notice(&mut self, notice: &Notice) {
        self.push_notice(notice.level, &notice.text);
    }

    fn error(&mut self, error: &ErrorEvent) {
        self.push(Cell::Error {
            kind: error.kind,
            text: error.text.clone(),
        });
    }

    fn turn_complete(&mut self, complete: &TurnComplete) {
        self.complete_turn(&complete.outcome);
    }

    fn history_replay(&mut self, replay: &HistoryReplay) {
        self.replay(&replay.messages);
    }

    /// A goal status line; a continuation also shows its user message as Hermes does, by its
    /// first line (the continuation marker), since the engine sends the turn itself.
    fn goal_progress(&mut self, progress: &GoalProgress) {
        self.finish_live_text();
        self.push(Cell::Goal(progress.clone()));
        match progress {
            GoalProgress::Continuing { prompt, .. } => self.push_user(continuation_line(prompt)),
            GoalProgress::Set { .. }
            | GoalProgress::Achieved { .. }
            | GoalProgress::Paused { .. }
            | GoalProgress::Resumed { .. }
            | GoalProgress::Restored { .. }
            | GoalProgress::Cleared => {}
        }
    }

    fn mcp_status(&mut self, status: &McpStatus) {
        self.set_mcp_servers(&status.servers);
    }
}

/// The script an `execute_code` call runs, to show in its cell.
fn script_code(start: &ToolStart) -> Option<&str> {
    if start.name != "execute_code" {
        return None;
    }
    start
        .arguments
        .get("code")
        .and_then(serde_json::Value::as_str)
        .filter(|code| !code.trim().is_empty())
}
