//! One approval round trip: send `Event::ApprovalRequest`, wait for `Op::ApprovalReply`, the
//! timeout (→ deny) or the turn's cancellation (→ deny), and announce the outcome with
//! `Event::ApprovalResolved` so every frontend can drop the request from its queue.
//!
//! Invariant: every request sent is resolved exactly once — even when the waiting future is
//! dropped (a tool racing its own cancellation) — and the id is forgotten afterwards so a late
//! reply is reported as stale instead of answering a different question.

use std::time::Duration;

use tokio_util::sync::CancellationToken;

use crate::engine::events::EventSink;
use crate::engine::events::PendingRequests;
use crate::protocol::ApprovalDecision;
use crate::protocol::ApprovalKind;
use crate::protocol::ApprovalRequest;
use crate::protocol::ApprovalResolved;
use crate::protocol::DecidedBy;
use crate::protocol::Event;

/// What to ask, without the id and the timeout (the asker adds those).
#[derive(Debug, Clone)]
pub struct Question {
    pub agent: String,
    /// The tool the request comes through (`execute_code`), when not the agent's own call.
    pub via: Option<String>,
    pub kind: ApprovalKind,
    pub subject: String,
    pub reason: String,
    pub cwd: String,
    pub choices: Vec<ApprovalDecision>,
}

/// Where approval requests go and how long they wait.
#[derive(Clone)]
pub struct Asker {
    pub events: EventSink,
    pub pending: PendingRequests<ApprovalDecision>,
    pub timeout: Duration,
}

impl Asker {
    /// Asks and waits. A dropped request (session shutting down) counts as cancelled.
    pub async fn ask(
        &self,
        question: Question,
        cancel: &CancellationToken,
    ) -> (ApprovalDecision, DecidedBy) {
        let id = format!("approval_{}", uuid::Uuid::new_v4().simple());
        let offered = question.choices.clone();
        let reply = self.pending.register(&id);
        self.events.send(Event::ApprovalRequest(ApprovalRequest {
            id: id.clone(),
            agent: question.agent,
            via: question.via,
            kind: question.kind,
            subject: question.subject,
            reason: question.reason,
            cwd: question.cwd,
            choices: question.choices,
            timeout_secs: self.timeout.as_secs(),
        }));
        let mut open = OpenRequest {
            id: Some(id),
            asker: self,
        };
        let (decision, decided_by) = tokio::select! {
            reply = reply => match reply {
                // An answer that was not offered (a buggy or hostile frontend) fails closed.
                Ok(decision) if offered.contains(&decision) => (decision, DecidedBy::User),
                Ok(_) => (ApprovalDecision::Deny, DecidedBy::User),
                Err(_) => (ApprovalDecision::Deny, DecidedBy::Cancelled),
            },
            () = tokio::time::sleep(self.timeout) => (ApprovalDecision::Deny, DecidedBy::Timeout),
            () = cancel.cancelled() => (ApprovalDecision::Deny, DecidedBy::Cancelled),
        };
        open.resolve(decision, decided_by);
        (decision, decided_by)
    }
}

/// A request on the wire; resolves itself as cancelled if dropped unresolved.
struct OpenRequest<'a> {
    id: Option<String>,
    asker: &'a Asker,
}

impl OpenRequest<'_> {
    fn resolve(&mut self, decision: ApprovalDecision, decided_by: DecidedBy) {
        if let Some(id) = self.id.take() {
            self.asker.pending.forget(&id);
            self.asker
                .events
                .send(Event::ApprovalResolved(ApprovalResolved {
                    id,
                    decision,
                    decided_by,
                }));
        }
    }
}

impl Drop for OpenRequest<'_> {
    fn drop(&mut self) {
        self.resolve(ApprovalDecision::Deny, DecidedBy::Cancelled);
    }
}
