//! The in-memory transcript: the single source of truth for what the chat pane shows.
//!
//! It turns protocol `Event`s (and local actions such as a user message or `/help` output) into
//! an ordered list of cells. It does not render, scroll or remember what is expanded; that is
//! the chat pane's job, keyed by `CellId` and `Entry::rev`.
//!
//! Invariants:
//! - Cells are shared behind `Arc`; once a cell is finished it never changes again. Only *live*
//!   cells change: the one streaming text cell (assistant message or reasoning, at most one at a
//!   time) and the tool cells whose call is still running (parallel tools run concurrently).
//!   The exception: an MCP tool cell gains its server label late (`mcp_labels`).
//! - Ids grow with position, so a cell can be found by binary search; ids are never reused.
//! - `Entry::rev` changes whenever a cell's *rendering* may change. Streaming deltas that do not
//!   complete a line leave it alone (the chat renders only complete lines while streaming), so a
//!   fast stream does not re-render markdown on every token. `version()` changes on every
//!   change at all.
//! - Message text arriving in `MessageComplete` is authoritative and replaces streamed text.
//! - A goal's continuation turn has no locally typed message, so its `GoalProgress::Continuing`
//!   adds the user cell (the prompt's first line, the continuation marker), as a replayed
//!   continuation prompt does.

mod bench;
pub mod cell;
mod handler;
mod mcp_labels;
mod script_summary;
mod web_summary;

use std::collections::HashMap;
use std::sync::Arc;

pub use bench::bench_transcript;
pub use cell::Cell;
pub use cell::CellId;
pub use cell::ChildCall;
pub use cell::McpLabel;
pub use cell::Stream;
pub use cell::TextCell;
pub use cell::ToolCell;
pub use cell::ToolState;

use super::engine_link::EventHandler;
use super::engine_link::route;
use crate::protocol::CONTINUATION_MARKER;
use crate::protocol::Event;
use crate::protocol::MessageComplete;
use crate::protocol::MessageStart;
use crate::protocol::NoticeLevel;
use crate::protocol::ToolComplete;
use crate::protocol::ToolStart;
use crate::protocol::ToolStatus;
use crate::protocol::TurnOutcome;

/// One cell with its identity and render revision.
#[derive(Debug, Clone)]
pub struct Entry {
    id: CellId,
    rev: u64,
    cell: Arc<Cell>,
}

impl Entry {
    pub fn id(&self) -> CellId {
        self.id
    }

    /// Changes whenever this cell's rendering may change; caches key on `(id, rev)`.
    pub fn rev(&self) -> u64 {
        self.rev
    }

    pub fn cell(&self) -> &Cell {
        &self.cell
    }
}

/// Which kind of text is streaming into the live text cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TextKind {
    Assistant,
    Reasoning,
}

#[derive(Debug, Clone, Copy)]
struct LiveText {
    index: usize,
    kind: TextKind,
    turn_id: u64,
}

#[derive(Debug, Default)]
pub struct Transcript {
    entries: Vec<Entry>,
    next_id: CellId,
    version: u64,
    live_text: Option<LiveText>,
    running_tools: HashMap<String, usize>,
    /// Running calls made from inside another (a script's), to the index of that one's cell.
    child_calls: HashMap<String, usize>,
    /// The MCP servers of the last `Event::McpStatus`, for tool cells' labels.
    mcp_servers: Vec<crate::protocol::McpServerStatus>,
}

impl Transcript {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Increments on every change; a frontend can skip redraws while it is unchanged.
    pub fn version(&self) -> u64 {
        self.version
    }

    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    pub fn get(&self, index: usize) -> Option<&Entry> {
        self.entries.get(index)
    }

    /// Index of the cell with `id`: `Ok(index)` when present, otherwise `Err(index)` of the
    /// first cell after where it was (ids grow with position).
    pub fn position(&self, id: CellId) -> Result<usize, usize> {
        self.entries.binary_search_by_key(&id, Entry::id)
    }

    /// Removes every cell. Ids keep growing so caches keyed by id stay valid.
    pub fn clear(&mut self) {
        self.entries.clear();
        self.live_text = None;
        self.running_tools.clear();
        self.child_calls.clear();
        self.version += 1;
    }

    pub fn push_user(&mut self, text: &str) {
        self.push_user_with_images(text, Vec::new());
    }

    /// A user message that carried images; `images` are their lines (see `Cell::User`).
    pub fn push_user_with_images(&mut self, text: &str, images: Vec<String>) {
        self.push(Cell::User {
            text: text.to_string(),
            images,
        });
    }

    pub fn push_notice(&mut self, level: NoticeLevel, text: &str) {
        self.push(Cell::Notice {
            level,
            text: text.to_string(),
        });
    }

    pub fn push_info(&mut self, title: &str, body: &str) {
        self.push(Cell::Info {
            title: title.to_string(),
            body: body.to_string(),
        });
    }

    /// The text of the `n_from_end`-th assistant message counting from the last one (1 = the
    /// last reply), for `/copy N`. Streaming messages count; 0 gives `None`.
    pub fn assistant_text(&self, n_from_end: usize) -> Option<&str> {
        let n = n_from_end.checked_sub(1)?;
        self.entries
            .iter()
            .rev()
            .filter_map(|e| match e.cell() {
                Cell::Assistant(msg) => Some(msg.text.as_str()),
                _ => None,
            })
            .nth(n)
    }

    /// Replace the conversation with a stored one (resume, undo), through the same event
    /// path live messages take, so replayed cells look exactly like live ones.
    fn replay(&mut self, messages: &[crate::protocol::ReplayMessage]) {
        use crate::protocol::ReplayMessage;
        self.clear();
        for (n, message) in messages.iter().enumerate() {
            let id = format!("replay-{n}");
            match message {
                ReplayMessage::User { text, images } => {
                    let names = images
                        .iter()
                        .map(|path| replayed_image_line(path))
                        .collect();
                    self.push_user_with_images(shown_user_text(text), names);
                }
                ReplayMessage::Assistant { text } => {
                    self.message_start(&MessageStart { turn_id: 0 });
                    self.message_complete(&MessageComplete {
                        turn_id: 0,
                        text: text.clone(),
                        reasoning: None,
                    });
                }
                ReplayMessage::Tool { name, output } => {
                    self.tool_start(&ToolStart {
                        call_id: id.clone(),
                        name: name.clone(),
                        preview: output.lines().next().unwrap_or("").to_string(),
                        arguments: serde_json::Value::Null,
                        parent_call_id: None,
                    });
                    self.tool_complete(&ToolComplete {
                        call_id: id,
                        name: name.clone(),
                        status: crate::protocol::ToolStatus::Ok,
                        output: output.clone(),
                        duration_ms: 0,
                    });
                }
            }
        }
    }

    /// Applies one engine event (through [`route`], to this transcript's [`EventHandler`]
    /// methods). Events that are not about the conversation (status, session info, requests)
    /// are ignored and do not change `version()`.
    pub fn apply(&mut self, event: &Event) {
        route(self, event);
    }

    fn push(&mut self, cell: Cell) -> usize {
        self.entries.push(Entry {
            id: self.next_id,
            rev: 0,
            cell: Arc::new(cell),
        });
        self.next_id += 1;
        self.version += 1;
        self.entries.len() - 1
    }

    /// Changes a live cell and marks it for re-rendering.
    fn modify(&mut self, index: usize, change: impl FnOnce(&mut Cell)) {
        if let Some(entry) = self.entries.get_mut(index) {
            change(Arc::make_mut(&mut entry.cell));
            entry.rev += 1;
            self.version += 1;
        }
    }

    fn stream_text(&mut self, kind: TextKind, turn_id: u64, text: &str) {
        if text.is_empty() {
            return;
        }
        let live = self
            .live_text
            .filter(|live| live.kind == kind && live.turn_id == turn_id);
        let Some(live) = live else {
            self.finish_live_text();
            let cell = TextCell {
                turn_id,
                text: text.to_string(),
                stream: cell::Stream::Streaming,
            };
            let index = self.push(match kind {
                TextKind::Assistant => Cell::Assistant(cell),
                TextKind::Reasoning => Cell::Reasoning(cell),
            });
            self.live_text = Some(LiveText {
                index,
                kind,
                turn_id,
            });
            return;
        };
        let Some(entry) = self.entries.get_mut(live.index) else {
            return;
        };
        if let Cell::Assistant(msg) | Cell::Reasoning(msg) = Arc::make_mut(&mut entry.cell) {
            msg.text.push_str(text);
        }
        // Only a completed word or line changes what a streaming cell shows.
        if text.contains(char::is_whitespace) {
            entry.rev += 1;
        }
        self.version += 1;
    }

    fn complete_message(&mut self, turn_id: u64, text: &str, reasoning: Option<&str>) {
        let live = self.live_text.filter(|live| live.turn_id == turn_id);
        match live.map(|live| live.kind) {
            Some(TextKind::Assistant) => {}
            Some(TextKind::Reasoning) => {
                if let Some(reasoning) = reasoning {
                    self.replace_live_text(reasoning);
                }
                self.finish_live_text();
            }
            None => {
                self.finish_live_text();
                // Reasoning that was never streamed (non-streaming fallback) goes first.
                if let Some(reasoning) = reasoning.filter(|r| !r.trim().is_empty()) {
                    self.push(Cell::Reasoning(TextCell {
                        turn_id,
                        text: reasoning.to_string(),
                        stream: cell::Stream::Done,
                    }));
                }
            }
        }
        let streamed = self
            .live_text
            .is_some_and(|l| l.kind == TextKind::Assistant && l.turn_id == turn_id);
        if streamed {
            self.replace_live_text(text);
            self.finish_live_text();
        } else if !text.is_empty() {
            self.push(Cell::Assistant(TextCell {
                turn_id,
                text: text.to_string(),
                stream: cell::Stream::Done,
            }));
        }
    }

    fn replace_live_text(&mut self, text: &str) {
        if let Some(live) = self.live_text {
            self.modify(live.index, |cell| {
                if let Cell::Assistant(msg) | Cell::Reasoning(msg) = cell
                    && msg.text != text
                {
                    msg.text = text.to_string();
                }
            });
        }
    }

    /// Freezes the streaming text cell, if any.
    fn finish_live_text(&mut self) {
        if let Some(live) = self.live_text.take() {
            self.modify(live.index, |cell| {
                if let Cell::Assistant(msg) | Cell::Reasoning(msg) = cell {
                    msg.stream = cell::Stream::Done;
                }
            });
        }
    }

    fn complete_turn(&mut self, outcome: &TurnOutcome) {
        self.finish_live_text();
        // A tool still running when its turn ends will never report; freeze it as cancelled.
        self.child_calls.clear();
        let mut orphans: Vec<usize> = self.running_tools.drain().map(|(_, i)| i).collect();
        orphans.sort_unstable();
        for index in orphans {
            self.modify(index, |cell| {
                if let Cell::Tool(tool) = cell {
                    let output = tool.progress.iter().cloned().collect::<Vec<_>>().join("\n");
                    let duration = tool.duration_ms.unwrap_or(0);
                    tool.finish(ToolStatus::Cancelled, &output, duration);
                }
            });
        }
        match outcome {
            TurnOutcome::Interrupted { done } => {
                self.push(Cell::Interrupted { done: done.clone() });
            }
            TurnOutcome::IterationLimit { limit } => {
                let text = format!(
                    "stopped after {limit} iterations (agent.max_iterations); \
                     send a message to continue"
                );
                self.push_notice(NoticeLevel::Warning, &text);
            }
            // A failure also arrives as `Event::Error`, which already made a cell.
            TurnOutcome::Completed | TurnOutcome::Failed { .. } => {}
        }
    }
}

/// What a user cell shows for a replayed user message: a goal's continuation prompt by its
/// first line (the marker), anything else whole.
fn shown_user_text(text: &str) -> &str {
    if text.starts_with(CONTINUATION_MARKER) {
        return continuation_line(text);
    }
    text
}

/// A replayed message's image: its file name (the size and pixels are not replayed).
fn replayed_image_line(path: &std::path::Path) -> String {
    path.file_name()
        .unwrap_or(path.as_os_str())
        .to_string_lossy()
        .into_owned()
}

/// The first line of a continuation prompt (the marker when it has none).
fn continuation_line(prompt: &str) -> &str {
    prompt
        .lines()
        .next()
        .filter(|line| !line.trim().is_empty())
        .unwrap_or(CONTINUATION_MARKER)
}

#[cfg(test)]
#[path = "transcript_tests.rs"]
mod tests;
