//! The session actor's smaller operations: skill slash commands and internal results,
//! resetting for a new session, retrying, running a user's `!cmd`, and switching models.
//! Split from `session.rs`, which keeps the run loop, op routing and the turn lifecycle.

use std::sync::Arc;

use tokio_util::sync::CancellationToken;

use super::Actor;
use super::Internal;
use super::new_session_id;
use crate::engine::host::EngineToolHost;
use crate::protocol::ErrorKind;
use crate::protocol::Event;
use crate::protocol::ModelSelection;
use crate::protocol::NoticeLevel;
use crate::protocol::StatusUpdate;
use crate::protocol::Yolo;
use crate::providers::ToolCall;
use crate::safety::YoloPolicy;
use crate::skills::invoke::skill_invocation;
use crate::tools::SessionTools;
use crate::tools::ToolContext;

impl Actor {
    /// Skills load from disk, so resolving runs on the blocking pool and reports back.
    pub(super) fn slash_command(&mut self, name: String, args: String) {
        let Some(loader) = self.spec.skills.clone() else {
            return self.internal(Internal::SlashResolved {
                name,
                message: None,
            });
        };
        let tx = self.internal.clone();
        tokio::task::spawn_blocking(move || {
            let catalog = loader.load();
            let message = skill_invocation(&catalog, &name, &args);
            let _ = tx.send(Internal::SlashResolved { name, message });
        });
    }

    pub(super) fn internal(&mut self, work: Internal) {
        match work {
            Internal::SlashResolved {
                message: Some(text),
                ..
            } => self.user_input(text),
            Internal::Stored(done) => self.stored_done(done),
            Internal::SlashResolved {
                name,
                message: None,
            } => self.notice(
                NoticeLevel::Warning,
                format!("unknown command /{name} — /help lists commands; skills are under HERMES_HOME/skills"),
            ),
        }
    }

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
        self.spec.session_id = new_session_id();
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
            .rposition(|m| m.role == crate::providers::Role::User);
        match last_user {
            Some(index) => {
                let text = self.history[index].content.clone();
                self.history.truncate(index);
                // The stored turn is hidden (active = 0), as /undo does, before it runs again.
                self.recorder.undo_turns(1);
                self.start_turn(text);
            }
            None => self.notice(NoticeLevel::Warning, "nothing to retry yet".to_string()),
        }
    }

    /// `!cmd`: the terminal tool, outside the conversation, with hardline checks only —
    /// the user typed the command themselves.
    pub(super) fn run_shell(&mut self, command: String) {
        let id = self.next_shell_id;
        self.next_shell_id += 1;
        let call = ToolCall {
            id: format!("shell_{id}"),
            name: "terminal".to_string(),
            arguments: serde_json::json!({ "command": command }).to_string(),
        };
        let cancel = CancellationToken::new();
        let ctx = ToolContext {
            call_id: call.id.clone(),
            session_id: self.spec.session_id.clone(),
            cwd: self.spec.cwd.clone(),
            limits: self.spec.limits.clone(),
            cancel: cancel.clone(),
            host: Arc::new(EngineToolHost {
                events: self.events.clone(),
                pending: self.pending.clone(),
                cancel,
            }),
            policy: Arc::new(YoloPolicy::new(Yolo::On)),
            session: self.session_tools.clone(),
        };
        let tools = self.spec.tools.clone();
        let events = self.events.clone();
        tokio::spawn(async move {
            crate::engine::dispatch::run_tool_calls(&[call], &tools, &ctx, &events).await;
        });
    }

    pub(super) fn switch_model(&mut self, selection: &ModelSelection) {
        let Some(switcher) = self.spec.switcher.clone() else {
            self.events.send(Event::Error {
                kind: ErrorKind::Config,
                text: "this session cannot switch models".to_string(),
            });
            return;
        };
        match switcher.switch(selection) {
            Ok(endpoint) => {
                self.status.context_window = endpoint.context_window;
                self.spec.endpoint = endpoint;
                self.events.send(Event::SessionInfo(self.session_info()));
                let when = if self.running.is_some() {
                    "from the next turn"
                } else {
                    "now"
                };
                self.notice(
                    NoticeLevel::Info,
                    format!("model switched to {} ({when})", self.spec.endpoint.model),
                );
            }
            Err(text) => self.events.send(Event::Error {
                kind: ErrorKind::Config,
                text,
            }),
        }
    }
}
