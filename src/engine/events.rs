//! The engine's outgoing event stream and its pending user requests.
//!
//! `EventSink` wraps the unbounded event channel: sending never blocks and never fails loudly
//! (a frontend that went away simply stops receiving). `PendingRequests` maps request ids to
//! the waiting tool; every request is answered exactly once — by the frontend's reply, or with
//! `Declined` when the session shuts down or the frontend disappears.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::Mutex;

use tokio::sync::mpsc::UnboundedSender;
use tokio::sync::oneshot;

use crate::protocol::ClarifyAnswer;
use crate::protocol::Event;

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
        let _ = self.tx.send(event);
    }
}

/// Clarify requests waiting for `Op::ClarifyReply`.
#[derive(Clone, Default)]
pub struct PendingRequests {
    inner: Arc<Mutex<HashMap<String, oneshot::Sender<ClarifyAnswer>>>>,
}

impl PendingRequests {
    /// Register a request id; the receiver resolves with the answer (or `Declined` if the
    /// request is dropped unanswered).
    pub fn register(&self, id: &str) -> oneshot::Receiver<ClarifyAnswer> {
        let (tx, rx) = oneshot::channel();
        if let Ok(mut map) = self.inner.lock() {
            map.insert(id.to_string(), tx);
        }
        rx
    }

    /// Deliver an answer. Returns false when no request has that id (already answered or
    /// never asked).
    pub fn answer(&self, id: &str, answer: ClarifyAnswer) -> bool {
        let sender = self.inner.lock().ok().and_then(|mut map| map.remove(id));
        match sender {
            Some(tx) => tx.send(answer).is_ok(),
            None => false,
        }
    }

    /// Answer every open request with `Declined` (shutdown, interrupt).
    pub fn decline_all(&self) {
        let drained: Vec<_> = match self.inner.lock() {
            Ok(mut map) => map.drain().collect(),
            Err(_) => Vec::new(),
        };
        for (_, tx) in drained {
            let _ = tx.send(ClarifyAnswer::Declined);
        }
    }
}
