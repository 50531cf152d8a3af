//! The engine's `ToolHost`: forwards tool progress as `Event::ToolProgress` and turns
//! `clarify` calls into `Event::ClarifyRequest` / `Op::ClarifyReply` round-trips.
//! Cancelling the turn answers an open question with `Declined`.

use async_trait::async_trait;
use tokio_util::sync::CancellationToken;

use super::events::EventSink;
use super::events::PendingRequests;
use crate::protocol::ClarifyAnswer;
use crate::protocol::ClarifyRequest;
use crate::protocol::Event;
use crate::protocol::ToolProgress;
use crate::tools::ToolHost;

pub struct EngineToolHost {
    pub events: EventSink,
    pub pending: PendingRequests,
    pub cancel: CancellationToken,
}

#[async_trait]
impl ToolHost for EngineToolHost {
    fn progress(&self, call_id: &str, text: &str) {
        self.events.send(Event::ToolProgress(ToolProgress {
            call_id: call_id.to_string(),
            text: text.to_string(),
        }));
    }

    async fn clarify(&self, question: &str, choices: &[String]) -> ClarifyAnswer {
        let id = format!("clarify_{}", uuid::Uuid::new_v4().simple());
        let answer = self.pending.register(&id);
        self.events.send(Event::ClarifyRequest(ClarifyRequest {
            id,
            question: question.to_string(),
            choices: choices.to_vec(),
        }));
        tokio::select! {
            reply = answer => reply.unwrap_or(ClarifyAnswer::Declined),
            () = self.cancel.cancelled() => ClarifyAnswer::Declined,
        }
    }
}
