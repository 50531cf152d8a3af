//! The session actor's safety operations: routing approval replies to the waiting gate, and
//! listing, diffing and restoring file checkpoints for `/rollback`.
//!
//! Checkpoint work runs git on a blocking task and answers with events; the actor never
//! waits for it. Restoring while a turn runs is refused: the turn's tools could be writing
//! the same files.

use std::path::Path;
use std::sync::Arc;

use super::Actor;
use crate::protocol::ApprovalDecision;
use crate::protocol::CheckpointDiff;
use crate::protocol::CheckpointList;
use crate::protocol::ErrorEvent;
use crate::protocol::ErrorKind;
use crate::protocol::Event;
use crate::protocol::Notice;
use crate::protocol::NoticeLevel;
use crate::protocol::Yolo;
use crate::safety::checkpoints::CheckpointError;
use crate::safety::checkpoints::CheckpointStore;
use crate::safety::checkpoints::cli::restore_summary;
use crate::safety::hooks::HookEvent;

impl Actor {
    /// `/yolo`: applies from the next check on, including the rest of a running turn.
    pub(super) fn set_yolo(&mut self, yolo: Yolo) {
        self.spec.yolo = yolo;
        self.guard.approvals.set_yolo(yolo);
        self.events.send(Event::SessionInfo(self.session_info()));
        let text = match yolo {
            Yolo::On => {
                "YOLO on: dangerous commands and sensitive writes run without asking (hardline \
                 commands such as rm -rf / stay blocked)"
            }
            Yolo::Off => "YOLO off: dangerous commands and sensitive writes ask first",
        };
        self.notice(NoticeLevel::Warning, text.to_string());
    }

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
        if self.guard.asker.pending.answer(id, decision)
            || self.delegations.route_reply(id, decision)
        {
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

    /// Runs `work` on the checkpoint store off the actor and sends what `done` makes of it,
    /// or an error naming `what` failed.
    fn with_checkpoints<T: Send + 'static>(
        &mut self,
        what: &'static str,
        work: impl FnOnce(&CheckpointStore, &Path) -> Result<T, CheckpointError> + Send + 'static,
        done: impl FnOnce(T) -> Event + Send + 'static,
    ) {
        let Some(store) = self.checkpoint_store() else {
            return;
        };
        let work_dir = self.guard.work_dir.clone();
        let events = self.events.clone();
        tokio::spawn(async move {
            let result = tokio::task::spawn_blocking(move || work(&store, &work_dir)).await;
            let problem = match result {
                Ok(Ok(value)) => return events.send(done(value)),
                Ok(Err(e)) => e.to_string(),
                Err(e) => e.to_string(),
            };
            events.send(Event::Error(ErrorEvent {
                kind: ErrorKind::Internal,
                text: format!("could not {what}: {problem}"),
            }));
        });
    }

    pub(super) fn list_checkpoints(&mut self) {
        self.with_checkpoints(
            "list checkpoints",
            crate::safety::checkpoints::CheckpointStore::list,
            |checkpoints| {
                Event::CheckpointList(CheckpointList {
                    checkpoints: checkpoints
                        .iter()
                        .map(crate::safety::checkpoints::Checkpoint::info)
                        .collect(),
                })
            },
        );
    }

    pub(super) fn checkpoint_diff(&mut self, id: &str) {
        let (wanted, id) = (id.to_string(), id.to_string());
        self.with_checkpoints(
            "diff the checkpoint",
            move |store, dir| store.diff(dir, &wanted),
            move |diff| Event::CheckpointDiff(CheckpointDiff { id, diff }),
        );
    }

    pub(super) fn restore_checkpoint(&mut self, id: &str) {
        if self.running.is_some() {
            self.notice(
                NoticeLevel::Warning,
                "a turn is running: stop it (Esc) before rolling back files".to_string(),
            );
            return;
        }
        let wanted = id.to_string();
        self.with_checkpoints(
            "restore the checkpoint",
            move |store, dir| store.restore(dir, &wanted),
            |report| {
                Event::Notice(Notice {
                    level: NoticeLevel::Info,
                    text: restore_summary(&report).trim_end().to_string(),
                })
            },
        );
    }
}
