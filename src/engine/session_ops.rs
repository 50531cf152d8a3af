//! The session actor's smaller operations: skill slash commands and internal results,
//! resetting for a new session, retrying, running a user's `!cmd`, and switching models.
//! Split from `session.rs`, which keeps the run loop, op routing and the turn lifecycle.

use std::sync::Arc;

use tokio_util::sync::CancellationToken;

use super::Actor;
use super::Internal;
use super::new_session_id;
use crate::config::env::set_env_var_at;
use crate::engine::host::EngineToolHost;
use crate::model::ToolCall;
use crate::protocol::ErrorEvent;
use crate::protocol::ErrorKind;
use crate::protocol::Event;
use crate::protocol::ModelSelection;
use crate::protocol::Notice;
use crate::protocol::NoticeLevel;
use crate::protocol::SecretRequest;
use crate::protocol::StatusUpdate;
use crate::safety::HardlineOnly;
use crate::skills::invoke::missing_env;
use crate::skills::invoke::skill_invocation;
use crate::tools::SessionTools;
use crate::tools::ToolContext;

/// A skill invocation that waits for the secrets it needs.
pub(super) struct PendingSkill {
    skill: String,
    message: String,
    remaining: std::collections::VecDeque<(String, String)>,
    /// The request being answered: (request id, variable).
    asking: Option<(String, String)>,
}

impl Actor {
    /// Skills load from disk, so resolving runs on the blocking pool and reports back.
    pub(super) fn slash_command(&mut self, name: String, args: String) {
        let Some(loader) = self.spec.skills.clone() else {
            return self.internal(Internal::SlashResolved {
                name,
                message: None,
                missing: Vec::new(),
            });
        };
        let tx = self.internal.clone();
        let tool_env = Arc::clone(&self.spec.tool_env);
        tokio::task::spawn_blocking(move || {
            let catalog = loader.load();
            let message = skill_invocation(&catalog, &name, &args);
            // Secrets entered earlier this session count as set.
            let env = |key: &str| tool_env.get(key).or_else(|| (loader.env)(key));
            let missing = catalog
                .get(&name)
                .map(|skill| missing_env(skill, &env))
                .unwrap_or_default()
                .into_iter()
                .map(|r| {
                    let prompt = r.prompt.clone().unwrap_or_else(|| r.name.clone());
                    (r.name, prompt)
                })
                .collect();
            let _ = tx.send(Internal::SlashResolved {
                name,
                message,
                missing,
            });
        });
    }

    pub(super) fn internal(&mut self, work: Internal) {
        match work {
            Internal::SlashResolved {
                name,
                message: Some(text),
                missing,
            } => {
                if missing.is_empty() {
                    return self.user_input(text.into());
                }
                self.pending_skill = Some(PendingSkill {
                    skill: name,
                    message: text,
                    remaining: missing.into(),
                    asking: None,
                });
                self.ask_next_secret();
            }
            Internal::Stored(done) => self.stored_done(done),
            Internal::DelegationDone(text) => self.delegation_done(text),
            Internal::GoalVerdict { number, judged } => self.goal_verdict(number, judged),
            Internal::SlashResolved {
                name,
                message: None,
                ..
            } => self.notice(
                NoticeLevel::Warning,
                format!("unknown command /{name} — /help lists commands; skills are under HERMES_HOME/skills"),
            ),
        }
    }

    /// Ask for the next missing secret, or run the skill when none is left.
    fn ask_next_secret(&mut self) {
        let Some(pending) = self.pending_skill.as_mut() else {
            return;
        };
        match pending.remaining.pop_front() {
            Some((name, prompt)) => {
                let id = format!("secret_{}", self.next_secret_id);
                self.next_secret_id += 1;
                let reason = format!(
                    "the /{} skill needs {name}; it is saved to HERMES_HOME/.env (mode 0600)",
                    pending.skill
                );
                pending.asking = Some((id.clone(), name.clone()));
                self.events.send(Event::SecretRequest(SecretRequest {
                    id,
                    name,
                    prompt,
                    reason,
                }));
            }
            None => {
                if let Some(done) = self.pending_skill.take() {
                    self.user_input(done.message.into());
                }
            }
        }
    }

    /// The user typed (or skipped) a secret: keep it for this session's commands, save it to
    /// `.env` off the actor, then ask for the next one.
    pub(super) fn secret_reply(&mut self, id: &str, value: Option<String>) {
        let asking = self
            .pending_skill
            .as_mut()
            .and_then(|p| p.asking.take_if(|(asked, _)| asked == id));
        let Some((_, name)) = asking else {
            return self.notice(
                NoticeLevel::Warning,
                format!("no open secret request with id {id}"),
            );
        };
        match value.filter(|v| !v.trim().is_empty()) {
            Some(value) => {
                self.spec.tool_env.set(&name, value.trim());
                if let Some(path) = self.spec.env_file.clone() {
                    let events = self.events.clone();
                    let key = name;
                    tokio::task::spawn_blocking(move || {
                        let text = match set_env_var_at(&path, &key, value.trim()) {
                            Ok(()) => format!("{key} saved to {}", path.display()),
                            Err(err) => format!("{key} is set for this session only: {err}"),
                        };
                        events.send(Event::Notice(Notice {
                            level: NoticeLevel::Info,
                            text,
                        }));
                    });
                }
            }
            None => self.notice(
                NoticeLevel::Warning,
                format!("{name} skipped: the skill may not work without it"),
            ),
        }
        self.ask_next_secret();
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
            policy: Arc::new(HardlineOnly),
            session: Arc::clone(&self.session_tools),
            env: Arc::clone(&self.spec.tool_env),
            delegator: None,
            vision: None,
        };
        let tools = Arc::clone(&self.spec.tools);
        let events = self.events.clone();
        tokio::spawn(async move {
            crate::engine::dispatch::run_tool_calls(
                &[call],
                &tools,
                &ctx,
                &events,
                &crate::engine::dispatch::CallWrapping::default(),
            )
            .await;
        });
    }

    pub(super) fn switch_model(&mut self, selection: &ModelSelection) {
        let Some(switcher) = self.spec.switcher.clone() else {
            self.events.send(Event::Error(ErrorEvent {
                kind: ErrorKind::Config,
                text: "this session cannot switch models".to_string(),
            }));
            return;
        };
        match switcher.switch(selection) {
            Ok(endpoint) => {
                self.status.context_window = endpoint.context_window;
                self.spec.endpoint = endpoint;
                self.recorder.set_route(&self.spec.endpoint.billing_route());
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
            Err(err) => self.events.send(Event::Error(ErrorEvent {
                kind: ErrorKind::Config,
                text: err.to_string(),
            })),
        }
    }
}
