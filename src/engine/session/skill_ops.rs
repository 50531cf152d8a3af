//! The session actor's skill slash commands: resolving `/name args` on the blocking pool,
//! asking the user for the secrets a skill needs (saved to `.env` off the actor), and routing
//! the results other tasks report back (`Internal`). Owns `pending_skill` and
//! `next_secret_id`; it does not run turns (it hands the skill's message to `user_input`).

use std::sync::Arc;

use super::Actor;
use super::Internal;
use crate::config::env::set_env_var_at;
use crate::protocol::Event;
use crate::protocol::Notice;
use crate::protocol::NoticeLevel;
use crate::protocol::SecretRequest;
use crate::skills::invoke::missing_env;
use crate::skills::invoke::skill_invocation;

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
}
