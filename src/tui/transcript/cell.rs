//! The cells a transcript is made of: plain data, one variant per kind of entry, with no
//! rendering (the chat pane turns a `Cell` into lines for a width).
//!
//! Invariants: tool output and progress are bounded here, when they are stored, so a single
//! runaway tool cannot make the transcript (or any render of it) unbounded.

use std::collections::VecDeque;

use crate::protocol::ErrorKind;
use crate::protocol::GoalProgress;
use crate::protocol::NoticeLevel;
use crate::protocol::ToolStatus;

/// Stable identity of a cell; ids grow in transcript order and are never reused (not even
/// after `clear`), so caches keyed by id never see stale data.
pub type CellId = u64;

/// Bytes of tool output kept from the start and from the end of a tool's output.
pub const OUTPUT_HEAD_BYTES: usize = 32 * 1024;
pub const OUTPUT_TAIL_BYTES: usize = 32 * 1024;
/// Progress lines kept while a tool runs (the newest ones), and their maximum length.
pub const MAX_PROGRESS_LINES: usize = 64;
pub const MAX_PROGRESS_LINE_BYTES: usize = 1024;
/// Calls kept per cell from inside it (an `execute_code` script's), the newest ones.
pub const MAX_CHILD_CALLS: usize = 200;
/// Bytes of an `execute_code` script kept for display.
pub const MAX_CODE_BYTES: usize = 32 * 1024;

/// One transcript entry.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    /// What the user typed, and one line per image sent with it (without the `📎`, e.g.
    /// `Image #1 · image_….png · 1280×720 · 84 KB`, or just the file name on replay).
    User {
        text: String,
        images: Vec<String>,
    },
    /// An assistant message (markdown).
    Assistant(TextCell),
    /// Model reasoning shown before (or between) messages.
    Reasoning(TextCell),
    Tool(ToolCell),
    Notice {
        level: NoticeLevel,
        text: String,
    },
    Error {
        kind: ErrorKind,
        text: String,
    },
    /// The user interrupted a turn; `done` says what had been finished.
    Interrupted {
        done: String,
    },
    /// Local output such as `/help` or `/status`: a title and plain lines.
    Info {
        title: String,
        body: String,
    },
    /// A step of the goal loop: its status line (`GoalProgress::line`) and, when it has one,
    /// the dimmer detail below it.
    Goal(GoalProgress),
}

/// Whether a streamed cell may still grow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    Streaming,
    Done,
}

/// Streamed text (assistant message or reasoning) of one turn.
#[derive(Debug, Clone, PartialEq)]
pub struct TextCell {
    pub turn_id: u64,
    pub text: String,
    pub stream: Stream,
}

impl TextCell {
    pub fn is_streaming(&self) -> bool {
        self.stream == Stream::Streaming
    }

    /// Number of non-empty-trimmed lines, for the collapsed reasoning summary.
    pub fn line_count(&self) -> usize {
        self.text.trim_end().lines().count()
    }
}

/// Where a tool call is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToolState {
    Running,
    Finished(ToolStatus),
}

#[derive(Debug, Clone, PartialEq)]
pub struct ToolCell {
    pub call_id: String,
    pub name: String,
    /// One-line human summary of the call (`echo hi`, `src/main.rs`).
    pub preview: String,
    pub state: ToolState,
    pub duration_ms: Option<u64>,
    /// The output the model saw, bounded by `bound_output`; empty while running.
    pub output: String,
    /// The newest progress lines while running; cleared on completion (the output
    /// supersedes them).
    pub progress: VecDeque<String>,
    /// The MCP server the tool belongs to, when `name` is a known server's tool.
    pub mcp: Option<McpLabel>,
    /// What a call with insides (an `execute_code` script) has; boxed so every other cell
    /// stays small.
    inside: Option<Box<Inside>>,
}

/// The script of an `execute_code` call and the calls made from inside it.
#[derive(Debug, Clone, PartialEq, Default)]
struct Inside {
    /// At most `MAX_CODE_BYTES`.
    code: Option<String>,
    /// Oldest first; at most `MAX_CHILD_CALLS`, the oldest dropped and counted.
    children: VecDeque<ChildCall>,
    children_dropped: usize,
}

/// No calls inside, for cells without any.
static NO_CHILDREN: VecDeque<ChildCall> = VecDeque::new();

/// A tool call made from inside another (a script's `read_file`): one line in its parent.
#[derive(Debug, Clone, PartialEq)]
pub struct ChildCall {
    pub call_id: String,
    pub name: String,
    pub preview: String,
    pub state: ToolState,
    pub duration_ms: Option<u64>,
}

/// Which MCP server a tool cell's tool comes from: `mcp_filesystem_read_file` is `read_file`
/// on `filesystem`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct McpLabel {
    /// The server's name as configured (`mcp_servers:` in config.yaml).
    pub server: String,
    /// The tool's own name, without the `mcp_<server>_` prefix.
    pub tool: String,
}

impl ToolCell {
    pub fn new(call_id: &str, name: &str, preview: &str) -> Self {
        Self {
            call_id: call_id.to_string(),
            name: name.to_string(),
            preview: preview.to_string(),
            state: ToolState::Running,
            duration_ms: None,
            output: String::new(),
            progress: VecDeque::new(),
            mcp: None,
            inside: None,
        }
    }

    /// The script of an `execute_code` call, shown under the header.
    pub fn code(&self) -> Option<&str> {
        self.inside.as_ref()?.code.as_deref()
    }

    /// Calls made from inside this one (a script's), oldest first, at most
    /// `MAX_CHILD_CALLS`.
    pub fn children(&self) -> &VecDeque<ChildCall> {
        self.inside.as_ref().map_or(&NO_CHILDREN, |i| &i.children)
    }

    /// Inner calls dropped to keep `children` bounded.
    pub fn children_dropped(&self) -> usize {
        self.inside.as_ref().map_or(0, |i| i.children_dropped)
    }

    fn inside_mut(&mut self) -> &mut Inside {
        self.inside.get_or_insert_with(Box::default)
    }

    /// Keeps the script to show (bounded).
    pub fn set_code(&mut self, code: &str) {
        self.inside_mut().code = Some(truncate_at_char(code, MAX_CODE_BYTES).to_string());
    }

    /// A call made from inside this one has started.
    pub fn push_child(&mut self, call_id: &str, name: &str, preview: &str) {
        let inside = self.inside_mut();
        if inside.children.len() == MAX_CHILD_CALLS {
            inside.children.pop_front();
            inside.children_dropped += 1;
        }
        inside.children.push_back(ChildCall {
            call_id: call_id.to_string(),
            name: name.to_string(),
            preview: truncate_at_char(preview, MAX_PROGRESS_LINE_BYTES).to_string(),
            state: ToolState::Running,
            duration_ms: None,
        });
    }

    /// A call made from inside this one has ended (a dropped one is ignored).
    pub fn finish_child(&mut self, call_id: &str, status: ToolStatus, duration_ms: u64) {
        let Some(inside) = self.inside.as_mut() else {
            return;
        };
        if let Some(child) = inside
            .children
            .iter_mut()
            .rev()
            .find(|c| c.call_id == call_id)
        {
            child.state = ToolState::Finished(status);
            child.duration_ms = Some(duration_ms);
        }
    }

    /// Appends progress text, one entry per line, keeping only the newest lines.
    pub fn push_progress(&mut self, text: &str) {
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            if self.progress.len() == MAX_PROGRESS_LINES {
                self.progress.pop_front();
            }
            self.progress
                .push_back(truncate_at_char(line, MAX_PROGRESS_LINE_BYTES).to_string());
        }
    }

    pub fn finish(&mut self, status: ToolStatus, output: &str, duration_ms: u64) {
        self.state = ToolState::Finished(status);
        self.output = bound_output(output);
        self.duration_ms = Some(duration_ms);
        self.progress = VecDeque::new();
        // Whatever ran inside this call ended with it.
        let children = self.inside.iter_mut().flat_map(|i| i.children.iter_mut());
        for child in children {
            if child.state == ToolState::Running {
                child.state = ToolState::Finished(ToolStatus::Cancelled);
            }
        }
    }
}

/// Keeps at most `OUTPUT_HEAD_BYTES` from the start and `OUTPUT_TAIL_BYTES` from the end, with a
/// marker line saying how much was dropped in between. Cuts fall on char boundaries.
pub fn bound_output(output: &str) -> String {
    if output.len() <= OUTPUT_HEAD_BYTES + OUTPUT_TAIL_BYTES {
        return output.to_string();
    }
    let head = truncate_at_char(output, OUTPUT_HEAD_BYTES);
    let mut tail_start = output.len() - OUTPUT_TAIL_BYTES;
    while !output.is_char_boundary(tail_start) {
        tail_start += 1;
    }
    let tail = &output[tail_start..];
    let omitted = output.len() - head.len() - tail.len();
    format!("{head}\n… {omitted} bytes omitted …\n{tail}")
}

/// The longest prefix of `s` of at most `max` bytes that ends on a char boundary.
pub fn truncate_at_char(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}
