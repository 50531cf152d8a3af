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
