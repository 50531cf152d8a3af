//! The engine's outgoing event stream and its pending user requests.
//!
//! `EventSink` wraps the unbounded event channel: sending never blocks and never fails loudly
//! (a frontend that went away simply stops receiving). It is the protocol boundary every event
//! crosses, so it is where secrets are kept in: every string of every event has the known
//! secret values (`util::redact::redact_known`) masked, and error and notice texts get the
//! full redaction rules as well — a server that echoes an unprefixed key in a 401 body cannot
//! put it on the screen, in `--json` output or on stderr. Streamed text (message and reasoning
//! deltas, tool progress) is masked per stream, not per event: a tail that may start a known
//! value waits for the next piece (`util::redact::KnownStream`), so a key split across two
//! deltas is masked too, and the deltas joined equal the masked complete message. `PendingRequests` maps request ids to
//! the waiting tool; every request is answered exactly once — by the frontend's reply, or with
//! `Declined` when the session shuts down or the frontend disappears.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::PoisonError;

use tokio::sync::mpsc::UnboundedSender;
use tokio::sync::oneshot;

use crate::protocol::ClarifyAnswer;
use crate::protocol::Event;
use crate::protocol::MessageDelta;
use crate::protocol::Notice;
use crate::protocol::NoticeLevel;
use crate::protocol::ReasoningDelta;
use crate::protocol::ToolProgress;
use crate::util::redact::KnownStream;
use crate::util::redact::has_known_secrets;
use crate::util::redact::redact;
use crate::util::redact::redact_known;
use crate::util::redact::redact_known_json;

#[derive(Clone)]
pub struct EventSink {
    tx: UnboundedSender<Event>,
    /// Shared by every clone: the streams of one session, wherever their events come from.
    streams: Arc<Mutex<Streams>>,
}

impl EventSink {
    pub fn new(tx: UnboundedSender<Event>) -> Self {
        Self {
            tx,
            streams: Arc::default(),
        }
    }

    /// Whether the frontend has stopped listening.
    pub fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }

    pub fn send(&self, event: Event) {
        // The lock is held while sending, so a released tail is never overtaken by the event
        // that released it, whichever task sends next.
        let mut streams = self.streams.lock().unwrap_or_else(PoisonError::into_inner);
        for event in streams.route(event) {
            // A closed channel means the frontend is gone; the session notices through its op
            // channel closing, so there is nothing useful to do with the event here.
            let _ = self.tx.send(event);
        }
    }
}

/// One stream of text pieces: a turn's visible text or reasoning, or a tool call's progress.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum StreamKey {
    Message(u64),
    Reasoning(u64),
    Tool(String),
}

impl StreamKey {
    fn is_model(&self) -> bool {
        matches!(self, StreamKey::Message(_) | StreamKey::Reasoning(_))
    }

    /// The released text of this stream as its own kind of event.
    fn event(&self, text: String) -> Event {
        match self {
            StreamKey::Message(turn_id) => Event::MessageDelta(MessageDelta {
                turn_id: *turn_id,
                text,
            }),
            StreamKey::Reasoning(turn_id) => Event::ReasoningDelta(ReasoningDelta {
                turn_id: *turn_id,
                text,
            }),
            StreamKey::Tool(call_id) => Event::ToolProgress(ToolProgress {
                call_id: call_id.clone(),
                text,
            }),
        }
    }
}

/// The streams holding back a tail that may start a known secret (`KnownStream`): a value
/// the model streams in two deltas is masked like one in a single delta. A stream's tail is
/// released by its next piece, or when the stream ends: a model stream at any event that is
/// not one of its deltas (the message's completion, a tool start, the turn's end), a tool's
/// progress at that tool's completion or the turn's end.
#[derive(Default)]
struct Streams {
    open: HashMap<StreamKey, KnownStream>,
}

impl Streams {
    /// `event` cleaned, with whatever held tails it releases before it, in sending order.
    fn route(&mut self, event: Event) -> Vec<Event> {
        let mut out = Vec::new();
        match event {
            Event::MessageDelta(delta) => {
                let sibling = StreamKey::Reasoning(delta.turn_id);
                self.finish_where(&mut out, |k| *k == sibling);
                self.push(&mut out, StreamKey::Message(delta.turn_id), &delta.text);
            }
            Event::ReasoningDelta(delta) => {
                let sibling = StreamKey::Message(delta.turn_id);
                self.finish_where(&mut out, |k| *k == sibling);
                self.push(&mut out, StreamKey::Reasoning(delta.turn_id), &delta.text);
            }
            Event::ToolProgress(progress) => {
                let call_id = redact_known(&progress.call_id).into_owned();
                self.push(&mut out, StreamKey::Tool(call_id), &progress.text);
            }
            Event::ToolComplete(ref complete) => {
                let key = StreamKey::Tool(redact_known(&complete.call_id).into_owned());
                self.finish_where(&mut out, |k| k.is_model() || *k == key);
                out.push(without_secrets(event));
            }
            Event::TurnComplete(_) | Event::ShutdownComplete => {
                self.finish_where(&mut out, |_| true);
                out.push(without_secrets(event));
            }
            other => {
                self.finish_where(&mut out, StreamKey::is_model);
                out.push(without_secrets(other));
            }
        }
        out
    }

    fn push(&mut self, out: &mut Vec<Event>, key: StreamKey, piece: &str) {
        if !has_known_secrets() && self.open.is_empty() {
            out.push(key.event(piece.to_owned()));
            return;
        }
        let stream = self.open.entry(key.clone()).or_default();
        let released = stream.push(piece);
        if !stream.is_holding() {
            self.open.remove(&key);
        }
        if !released.is_empty() {
            out.push(key.event(released));
        }
    }

    /// Ends the streams `which` selects, releasing their tails (in a stable order).
    fn finish_where(&mut self, out: &mut Vec<Event>, which: impl Fn(&StreamKey) -> bool) {
        if self.open.is_empty() {
            return;
        }
        let mut keys: Vec<StreamKey> = self.open.keys().filter(|k| which(k)).cloned().collect();
        keys.sort();
        for key in keys {
            if let Some(mut stream) = self.open.remove(&key) {
                let rest = stream.finish();
                if !rest.is_empty() {
                    out.push(key.event(rest));
                }
            }
        }
    }
}

/// `event` with known secret values masked in all its strings, and error and notice texts
/// redacted by every rule. The frequent events (messages and tool calls) are cleaned field
/// by field; the others are walked as JSON, so no field of a rarer variant can be forgotten
/// when one is added — only when a value is registered at all.
fn without_secrets(event: Event) -> Event {
    match event {
        Event::Error(mut error) => {
            if let Cow::Owned(clean) = redact(&error.text, &[]) {
                error.text = clean;
            }
            Event::Error(error)
        }
        Event::Notice(mut notice) => {
            if let Cow::Owned(clean) = redact(&notice.text, &[]) {
                notice.text = clean;
            }
            Event::Notice(notice)
        }
        event if !has_known_secrets() => event,
        Event::MessageComplete(mut message) => {
            mask(&mut message.text);
            if let Some(reasoning) = message.reasoning.as_mut() {
                mask(reasoning);
            }
            Event::MessageComplete(message)
        }
        Event::MessageDelta(mut delta) => {
            mask(&mut delta.text);
            Event::MessageDelta(delta)
        }
        Event::ReasoningDelta(mut delta) => {
            mask(&mut delta.text);
            Event::ReasoningDelta(delta)
        }
        Event::ToolProgress(mut progress) => {
            mask(&mut progress.call_id);
            mask(&mut progress.text);
            Event::ToolProgress(progress)
        }
        Event::ToolStart(mut start) => {
            mask(&mut start.call_id);
            mask(&mut start.name);
            mask(&mut start.preview);
            redact_known_json(&mut start.arguments);
            Event::ToolStart(start)
        }
        Event::ToolComplete(mut complete) => {
            mask(&mut complete.call_id);
            mask(&mut complete.name);
            mask(&mut complete.output);
            Event::ToolComplete(complete)
        }
        Event::MessageStart(_) | Event::TurnStarted(_) | Event::ShutdownComplete => event,
        other => without_secrets_by_json(other),
    }
}

fn mask(text: &mut String) {
    if let Cow::Owned(clean) = redact_known(text) {
        *text = clean;
    }
}

/// [`without_secrets`] for any event: a walk over the event as JSON, re-read only when
/// something was masked.
fn without_secrets_by_json(event: Event) -> Event {
    let Ok(mut value) = serde_json::to_value(&event) else {
        return event;
    };
    if !redact_known_json(&mut value) {
        return event;
    }
    serde_json::from_value(value).unwrap_or_else(|e| {
        // Cannot happen for the protocol's plain-data events (a test round-trips them); if it
        // did, the event is withheld rather than sent with a secret in it.
        tracing::warn!(error = %e, "an event holding a known secret could not be cleaned");
        Event::Notice(Notice {
            level: NoticeLevel::Warning,
            text: "an engine event was withheld: it held a secret and could not be cleaned"
                .to_owned(),
        })
    })
}

/// Requests waiting for their reply op (`ClarifyReply` answers are `ClarifyAnswer`s,
/// `ApprovalReply` answers are `ApprovalDecision`s).
#[derive(Clone)]
pub struct PendingRequests<A = ClarifyAnswer> {
    inner: Arc<Mutex<HashMap<String, oneshot::Sender<A>>>>,
}

impl<A> Default for PendingRequests<A> {
    fn default() -> Self {
        Self {
            inner: Arc::new(Mutex::new(HashMap::new())),
        }
    }
}

impl<A> PendingRequests<A> {
    /// Register a request id; the receiver resolves with the answer, or with an error when
    /// the request is dropped unanswered (`drop_all`), which callers treat as "declined".
    pub fn register(&self, id: &str) -> oneshot::Receiver<A> {
        let (tx, rx) = oneshot::channel();
        if let Ok(mut map) = self.inner.lock() {
            map.insert(id.to_string(), tx);
        }
        rx
    }

    /// Deliver an answer. Returns false when no request has that id (already answered or
    /// never asked).
    pub fn answer(&self, id: &str, answer: A) -> bool {
        let sender = self.inner.lock().ok().and_then(|mut map| map.remove(id));
        match sender {
            Some(tx) => tx.send(answer).is_ok(),
            None => false,
        }
    }

    /// Drop every open request (shutdown, interrupt): each waiting receiver sees the sender
    /// gone and counts the request as declined.
    pub fn decline_all(&self) {
        let drained: Vec<_> = match self.inner.lock() {
            Ok(mut map) => map.drain().collect(),
            Err(_) => Vec::new(),
        };
        drop(drained);
    }

    /// Forget one request (it timed out); a late reply then finds nothing to answer.
    pub fn forget(&self, id: &str) {
        if let Ok(mut map) = self.inner.lock() {
            map.remove(id);
        }
    }
}

#[cfg(test)]
#[path = "events_tests.rs"]
mod tests;
