//! The session actor's fresh starts: `/new` (a new session id, empty history and counters, no
//! background processes, subagents or goal) and `/retry` (the last user message runs again,
//! its stored turn hidden first). Neither runs while a turn does: `/new` waits for the turn to
//! stop (`reset_after_turn`), `/retry` refuses.

use std::sync::Arc;

use super::Actor;
use super::new_session_id;
use crate::protocol::Event;
use crate::protocol::NoticeLevel;
use crate::protocol::StatusUpdate;
use crate::tools::SessionTools;

impl Actor {
    /// A fresh conversation: new id, empty history and counters, no background processes.
    pub(super) fn reset(&mut self) {
        self.queue.clear();
        self.history.clear();
        self.session_tools.shutdown();
        self.session_tools = Arc::new(SessionTools::default());
        self.status = StatusUpdate {
            context_window: self.spec.endpoint.context_window,
            ..StatusUpdate::default()
        };
        self.delegations.stop_all();
        self.forget_goal();
        let old_session_id = std::mem::replace(&mut self.spec.session_id, new_session_id());
        self.guard.hooks.set_session_id(&self.spec.session_id);
        self.session_hook(
            crate::safety::hooks::HookEvent::OnSessionReset,
            serde_json::json!({
                "reason": "new_session",
                "old_session_id": old_session_id,
                "new_session_id": self.spec.session_id,
            }),
        );
        self.title = None;
        self.recorder.restart(self.spec.session_id.clone());
        self.events.send(Event::SessionInfo(self.session_info()));
        self.events.send(Event::StatusUpdate(self.status.clone()));
    }

    pub(super) fn retry(&mut self) {
        if self.running.is_some() {
            return self.notice(
                NoticeLevel::Warning,
                "a turn is running: /stop it first, then /retry".to_string(),
            );
        }
        let last_user = self
            .history
            .iter()
            .rposition(|m| m.role == crate::model::Role::User);
        match last_user {
            Some(index) => {
                let text = self.history[index].content.clone();
                self.history.truncate(index);
                // The stored turn is hidden (active = 0), as /undo does, before it runs again.
                self.recorder.undo_turns(1);
                self.start_turn(text.into());
            }
            None => self.notice(NoticeLevel::Warning, "nothing to retry yet".to_string()),
        }
    }
}
