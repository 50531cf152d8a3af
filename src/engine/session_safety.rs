//! The session actor's safety operations: routing approval replies to the waiting gate, and
//! listing, diffing and restoring file checkpoints for `/rollback`.
//!
//! Checkpoint work runs git on a blocking task and answers with events; the actor never
//! waits for it. Restoring while a turn runs is refused: the turn's tools could be writing
//! the same files.

use std::sync::Arc;

use super::Actor;
use crate::engine::events::EventSink;
use crate::protocol::ApprovalDecision;
use crate::protocol::ErrorKind;
use crate::protocol::Event;
use crate::protocol::NoticeLevel;
use crate::safety::checkpoints::CheckpointStore;
use crate::safety::checkpoints::cli::restore_summary;
use crate::safety::hooks::HookEvent;

impl Actor {
    /// Fires an observer hook in the background with the session's common fields added.
    pub(super) fn session_hook(&self, event: HookEvent, extra: serde_json::Value) {
        let hooks = self.guard.hooks.clone();
        if hooks.is_empty() {
            return;
        }
        let extra = self.hook_extra(extra);
        tokio::spawn(async move { hooks.observe(event, extra).await });
    }

    /// `extra` plus `session_id`, `model` and `platform`.
    pub(super) fn hook_extra(&self, extra: serde_json::Value) -> serde_json::Value {
        let mut extra = match extra {
            serde_json::Value::Object(map) => map,
            _ => serde_json::Map::new(),
        };
        extra.insert("session_id".into(), self.spec.session_id.clone().into());
        extra.insert("model".into(), self.spec.endpoint.model.clone().into());
        extra.insert("platform".into(), "cli".into());
        serde_json::Value::Object(extra)
    }

    pub(super) fn approval_reply(&mut self, id: &str, decision: ApprovalDecision) {
        if self.guard.asker.pending.answer(id, decision) {
            return;
        }
        self.notice(
            NoticeLevel::Warning,
            format!(
                "no open approval request with id {id} (already answered, timed out or cancelled)"
            ),
        );
    }

    fn checkpoint_store(&mut self) -> Option<Arc<CheckpointStore>> {
        let store = self.guard.checkpoints.clone();
        if store.is_none() {
            self.notice(
                NoticeLevel::Warning,
                "checkpoints are off (checkpoints.enabled: false in config.yaml)".to_string(),
            );
        }
        store
    }

    pub(super) fn list_checkpoints(&mut self) {
        let Some(store) = self.checkpoint_store() else {
            return;
        };
        let work_dir = self.guard.work_dir.clone();
        let events = self.events.clone();
        tokio::spawn(async move {
            let listed = tokio::task::spawn_blocking(move || store.list(&work_dir)).await;
            match listed {
                Ok(Ok(checkpoints)) => events.send(Event::CheckpointList {
                    checkpoints: checkpoints.iter().map(|c| c.info()).collect(),
                }),
                Ok(Err(e)) => failed(&events, "list checkpoints", &e.to_string()),
                Err(e) => failed(&events, "list checkpoints", &e.to_string()),
            }
        });
    }

    pub(super) fn checkpoint_diff(&mut self, id: &str) {
        let Some(store) = self.checkpoint_store() else {
            return;
        };
        let work_dir = self.guard.work_dir.clone();
        let events = self.events.clone();
        let id = id.to_string();
        tokio::spawn(async move {
            let wanted = id.clone();
            let diff = tokio::task::spawn_blocking(move || store.diff(&work_dir, &wanted)).await;
            match diff {
                Ok(Ok(diff)) => events.send(Event::CheckpointDiff { id, diff }),
                Ok(Err(e)) => failed(&events, "diff the checkpoint", &e.to_string()),
                Err(e) => failed(&events, "diff the checkpoint", &e.to_string()),
            }
        });
    }

    pub(super) fn restore_checkpoint(&mut self, id: &str) {
        if self.running.is_some() {
            self.notice(
                NoticeLevel::Warning,
                "a turn is running: stop it (Esc) before rolling back files".to_string(),
            );
            return;
        }
        let Some(store) = self.checkpoint_store() else {
            return;
        };
        let work_dir = self.guard.work_dir.clone();
        let events = self.events.clone();
        let id = id.to_string();
        tokio::spawn(async move {
            let wanted = id.clone();
            let restored =
                tokio::task::spawn_blocking(move || store.restore(&work_dir, &wanted)).await;
            match restored {
                Ok(Ok(report)) => events.send(Event::Notice {
                    level: NoticeLevel::Info,
                    text: restore_summary(&report).trim_end().to_string(),
                }),
                Ok(Err(e)) => failed(&events, "restore the checkpoint", &e.to_string()),
                Err(e) => failed(&events, "restore the checkpoint", &e.to_string()),
            }
        });
    }
}

fn failed(events: &EventSink, what: &str, why: &str) {
    events.send(Event::Error {
        kind: ErrorKind::Internal,
        text: format!("could not {what}: {why}"),
    });
}
