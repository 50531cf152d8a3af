//! The session actor's safety operations: routing approval replies to the waiting gate, and
//! listing, diffing and restoring file checkpoints for `/rollback`.

use super::Actor;
use crate::protocol::ApprovalDecision;
use crate::protocol::NoticeLevel;

impl Actor {
    pub(super) fn approval_reply(&mut self, id: &str, decision: ApprovalDecision) {
        let _ = decision;
        self.notice(
            NoticeLevel::Warning,
            format!("no open approval request with id {id} (already answered or cancelled)"),
        );
    }

    pub(super) fn list_checkpoints(&mut self) {
        self.notice(
            NoticeLevel::Warning,
            "checkpoints: not wired yet".to_string(),
        );
    }

    pub(super) fn checkpoint_diff(&mut self, id: &str) {
        self.notice(
            NoticeLevel::Warning,
            format!("checkpoint {id}: not wired yet"),
        );
    }

    pub(super) fn restore_checkpoint(&mut self, id: &str) {
        self.notice(
            NoticeLevel::Warning,
            format!("checkpoint {id}: not wired yet"),
        );
    }
}
