//! The engine's outgoing event stream and its pending user requests.
//!
//! `EventSink` wraps the unbounded event channel: sending never blocks and never fails loudly
//! (a frontend that went away simply stops receiving). It is the protocol boundary every event
//! crosses, so it is where secrets are kept in: every string of every event has the known
//! secret values (`util::redact::redact_known`) masked, and error and notice texts get the
//! full redaction rules as well — a server that echoes an unprefixed key in a 401 body cannot
//! put it on the screen, in `--json` output or on stderr. `PendingRequests` maps request ids to
//! the waiting tool; every request is answered exactly once — by the frontend's reply, or with
//! `Declined` when the session shuts down or the frontend disappears.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::Mutex;

use tokio::sync::mpsc::UnboundedSender;
use tokio::sync::oneshot;

use crate::protocol::ClarifyAnswer;
use crate::protocol::Event;
use crate::protocol::Notice;
use crate::protocol::NoticeLevel;
use crate::util::redact::has_known_secrets;
use crate::util::redact::redact;
use crate::util::redact::redact_known_json;

#[derive(Clone)]
pub struct EventSink {
    tx: UnboundedSender<Event>,
}

impl EventSink {
    pub fn new(tx: UnboundedSender<Event>) -> Self {
        Self { tx }
    }

    pub fn send(&self, event: Event) {
        // A closed channel means the frontend is gone; the session notices through its op
        // channel closing, so there is nothing useful to do with the event here.
        let _ = self.tx.send(without_secrets(event));
    }
}

/// `event` with known secret values masked in all its strings, and error and notice texts
/// redacted by every rule. Events are plain data, so the known values are found by walking the
/// event as JSON (no field can be forgotten when a variant is added) — only when a value is
/// registered at all, and re-read only when something was masked.
fn without_secrets(event: Event) -> Event {
    let event = match event {
        Event::Error(mut error) => {
            if let Cow::Owned(clean) = redact(&error.text, &[]) {
                error.text = clean;
            }
            return Event::Error(error);
        }
        Event::Notice(mut notice) => {
            if let Cow::Owned(clean) = redact(&notice.text, &[]) {
                notice.text = clean;
            }
            return Event::Notice(notice);
        }
        other => other,
    };
    if !has_known_secrets() {
        return event;
    }
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
