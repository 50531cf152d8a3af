//! One model call's stream as events: deltas become `MessageStart`/`MessageDelta`/
//! `ReasoningDelta`, and the text so far is kept so an interrupted reply is not lost. Used by
//! `turn` for each API call; knows nothing about tools or the history.

use std::sync::Mutex;

use super::events::EventSink;
use crate::protocol::Event;
use crate::protocol::MessageComplete;
use crate::protocol::MessageDelta;
use crate::protocol::MessageStart;
use crate::protocol::ReasoningDelta;
use crate::providers::Completion;
use crate::providers::StreamDelta;

/// Turns provider deltas into events for one API call, remembering the text so far so an
/// interrupted reply can be kept.
pub(super) struct StreamState {
    turn_id: u64,
    events: EventSink,
    inner: Mutex<StreamInner>,
}

#[derive(Default)]
struct StreamInner {
    started: bool,
    text: String,
    reasoning: String,
}

impl StreamState {
    pub(super) fn new(turn_id: u64, events: EventSink) -> Self {
        Self {
            turn_id,
            events,
            inner: Mutex::new(StreamInner::default()),
        }
    }

    pub(super) fn on_delta(&self, delta: StreamDelta) {
        let Ok(mut inner) = self.inner.lock() else {
            return;
        };
        match delta {
            StreamDelta::Text(text) => {
                if !inner.started {
                    inner.started = true;
                    self.events.send(Event::MessageStart(MessageStart {
                        turn_id: self.turn_id,
                    }));
                }
                inner.text.push_str(&text);
                self.events.send(Event::MessageDelta(MessageDelta {
                    turn_id: self.turn_id,
                    text,
                }));
            }
            StreamDelta::Reasoning(text) => {
                inner.reasoning.push_str(&text);
                self.events.send(Event::ReasoningDelta(ReasoningDelta {
                    turn_id: self.turn_id,
                    text,
                }));
            }
            StreamDelta::ToolCallStarted { .. } => {}
        }
    }

    /// The call ended without a completion: close an open message and return its text.
    pub(super) fn finish_partial(&self) -> String {
        let Ok(inner) = self.inner.lock() else {
            return String::new();
        };
        if inner.started {
            self.events.send(Event::MessageComplete(MessageComplete {
                turn_id: self.turn_id,
                text: inner.text.clone(),
                reasoning: non_empty(&inner.reasoning),
            }));
        }
        inner.text.clone()
    }

    /// The call completed: emit the final message when it has visible text. Non-streaming
    /// fallbacks deliver text only here, so the message may start and end at once.
    pub(super) fn complete(&self, completion: &Completion) {
        if completion.text.is_empty() {
            return;
        }
        let started = self
            .inner
            .lock()
            .map(|inner| inner.started)
            .unwrap_or(false);
        if !started {
            self.events.send(Event::MessageStart(MessageStart {
                turn_id: self.turn_id,
            }));
        }
        self.events.send(Event::MessageComplete(MessageComplete {
            turn_id: self.turn_id,
            text: completion.text.clone(),
            reasoning: completion.reasoning.clone(),
        }));
    }
}

fn non_empty(text: &str) -> Option<String> {
    (!text.is_empty()).then(|| text.to_string())
}
