//! Assembles a `Completion` while a response streams, shared by both wire formats: visible
//! text goes through the `<think>` scrubber, reasoning and tool-call starts are forwarded to
//! the caller's sink as they arrive, and `finish` enforces the "never empty" rule.
//!
//! It does not know any wire format: the format modules decode events and call `text`,
//! `reasoning` and `tool_call_started`; they own tool-call accumulation and hand the finished
//! calls to `finish`.

use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering;

use super::Completion;
use super::DeltaSink;
use super::ProviderError;
use super::StreamDelta;
use super::think::Scrubbed;
use super::think::ThinkScrubber;
use crate::model::ToolCall;
use crate::model::Usage;

/// Process-wide, so generated ids stay unique across the turns of a session.
static GENERATED_IDS: AtomicU64 = AtomicU64::new(1);

/// An id for a tool call the server sent without one.
pub fn generated_call_id() -> String {
    format!("call_{}", GENERATED_IDS.fetch_add(1, Ordering::Relaxed))
}

pub struct Output<'s> {
    sink: DeltaSink<'s>,
    scrubber: ThinkScrubber,
    text: String,
    reasoning: String,
    pub usage: Usage,
    pub finish_reason: Option<String>,
}

impl<'s> Output<'s> {
    pub fn new(sink: DeltaSink<'s>) -> Self {
        Self {
            sink,
            scrubber: ThinkScrubber::new(),
            text: String::new(),
            reasoning: String::new(),
            usage: Usage::default(),
            finish_reason: None,
        }
    }

    /// Model text, possibly containing (parts of) `<think>` blocks.
    pub fn text(&mut self, delta: &str) {
        if delta.is_empty() {
            return;
        }
        let pieces = self.scrubber.push(delta);
        self.deliver(pieces);
    }

    pub fn reasoning(&mut self, delta: &str) {
        if delta.is_empty() {
            return;
        }
        self.reasoning.push_str(delta);
        (self.sink)(StreamDelta::Reasoning(delta.to_string()));
    }

    pub fn tool_call_started(&mut self, name: &str) {
        (self.sink)(StreamDelta::ToolCallStarted {
            name: name.to_string(),
        });
    }

    fn deliver(&mut self, pieces: Vec<Scrubbed>) {
        for piece in pieces {
            match piece {
                Scrubbed::Text(t) => {
                    self.text.push_str(&t);
                    (self.sink)(StreamDelta::Text(t));
                }
                Scrubbed::Reasoning(r) => {
                    self.reasoning.push_str(&r);
                    (self.sink)(StreamDelta::Reasoning(r));
                }
            }
        }
    }

    /// Flushes the scrubber and builds the completion. Calls without a name and arguments
    /// are dropped (servers sometimes send empty trailing slots); missing ids are generated.
    pub fn finish(mut self, calls: Vec<ToolCall>) -> Result<Completion, ProviderError> {
        let tail = self.scrubber.finish();
        self.deliver(tail);
        let tool_calls: Vec<ToolCall> = calls
            .into_iter()
            .filter(|c| !(c.name.is_empty() && c.arguments.trim().is_empty()))
            .map(|mut c| {
                if c.id.is_empty() {
                    c.id = generated_call_id();
                }
                c
            })
            .collect();
        if self.text.trim().is_empty() && tool_calls.is_empty() {
            return Err(ProviderError::EmptyResponse);
        }
        Ok(Completion {
            text: self.text,
            reasoning: (!self.reasoning.is_empty()).then_some(self.reasoning),
            tool_calls,
            usage: self.usage,
            finish_reason: self.finish_reason,
            codex_reasoning_items: Vec::new(),
        })
    }
}
