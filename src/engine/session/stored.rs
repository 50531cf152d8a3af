//! The session actor's operations on stored sessions: listing, resuming, titling, branching
//! and undoing. Leaving a session for another one (`/resume`, `/branch`) ends it with Hermes's
//! reason; the resumed session was re-opened when it was loaded (`spec_parts::load_resumed`). Database work runs on the blocking pool and comes back to the actor as an
//! `Internal` message, so the actor never blocks and history changes stay on its task.

use super::Actor;
use super::Internal;
use super::new_session_id;
use crate::engine::spec_parts::ResumeError;
use crate::engine::spec_parts::ResumeTarget;
use crate::engine::spec_parts::load_resumed;
use crate::model::Message;
use crate::model::Role;
use crate::protocol::Event;
use crate::protocol::HistoryReplay;
use crate::protocol::Notice;
use crate::protocol::NoticeLevel;
use crate::protocol::ReplayMessage;
use crate::protocol::SessionList;
use crate::protocol::SessionListItem;
use crate::store::EndReason;
use crate::store::Hidden;
use crate::store::ListQuery;
use crate::store::StoreError;
use crate::store::time::format_utc;

/// Results of stored-session work, delivered to the actor.
pub(super) enum StoredDone {
    Listed {
        query: String,
        result: Result<Vec<SessionListItem>, StoreError>,
    },
    Resumed(Result<Box<(crate::store::SessionRow, super::ResumedSession)>, ResumeError>),
    Branched(Result<(String, Option<String>), StoreError>),
}

impl Actor {
    fn refuse_while_running(&self, what: &str) -> bool {
        if self.running.is_some() {
            self.notice(
                NoticeLevel::Warning,
                format!("a turn is running: /stop it first, then {what}"),
            );
            return true;
        }
        false
    }

    pub(super) fn list_sessions(&mut self, query: String, limit: u32) {
        let Some(store) = self.recorder.store() else {
            return self.events.send(Event::SessionList(SessionList {
                query,
                sessions: Vec::new(),
            }));
        };
        let tx = self.internal.clone();
        tokio::task::spawn_blocking(move || {
            let search = (!query.trim().is_empty()).then(|| query.trim().to_string());
            let result = store
                .list_sessions(&ListQuery {
                    limit: usize::try_from(limit).unwrap_or(50),
                    search,
                    cwd: None,
                    include_hidden: Hidden::Exclude,
                })
                .map(|rows| {
                    rows.into_iter()
                        .map(|s| SessionListItem {
                            id: s.id,
                            title: s.title,
                            started: format_utc(s.started_at),
                            message_count: s.message_count,
                            first_message: s.first_user_message,
                        })
                        .collect()
                });
            let _ = tx.send(Internal::Stored(StoredDone::Listed { query, result }));
        });
    }

    pub(super) fn resume(&mut self, target: String) {
        if self.refuse_while_running("/resume") {
            return;
        }
        let store = self.recorder.store();
        let tx = self.internal.clone();
        tokio::task::spawn_blocking(move || {
            let result = load_resumed(store.as_ref(), &ResumeTarget::Session(target)).map(Box::new);
            let _ = tx.send(Internal::Stored(StoredDone::Resumed(result)));
        });
    }

    pub(super) fn set_title(&mut self, title: String) {
        let title = title.trim().to_string();
        if title.is_empty() {
            let text = match &self.title {
                Some(t) => format!("this session is titled {t:?}; /title <name> renames it"),
                None => "this session has no title; /title <name> sets one".to_string(),
            };
            return self.notice(NoticeLevel::Info, text);
        }
        self.title = Some(title.clone());
        self.events.send(Event::SessionInfo(self.session_info()));
        let recorder = std::sync::Arc::clone(&self.recorder);
        let events = self.events.clone();
        tokio::spawn(async move {
            let text = match recorder.set_title(title.clone()).await {
                Ok(()) => format!("session titled {title:?}"),
                Err(err) => format!("title kept for this run only: {err}"),
            };
            events.send(Event::Notice(Notice {
                level: NoticeLevel::Info,
                text,
            }));
        });
    }

    pub(super) fn branch(&mut self, title: Option<String>) {
        if self.refuse_while_running("/branch") {
            return;
        }
        let Some(store) = self.recorder.store() else {
            return self.notice(
                NoticeLevel::Warning,
                "there is no session history in this run, so there is nothing to branch".into(),
            );
        };
        if !self.recorder.is_created() {
            return self.notice(
                NoticeLevel::Warning,
                "nothing to branch yet: send a message first".into(),
            );
        }
        let from = self.recorder.session_id();
        let new_id = new_session_id();
        let tx = self.internal.clone();
        tokio::task::spawn_blocking(move || {
            let result = store
                .branch_session(&from, &new_id, title.as_deref())
                .map(|()| (new_id, title));
            let _ = tx.send(Internal::Stored(StoredDone::Branched(result)));
        });
    }

    pub(super) fn undo(&mut self, turns: u32) {
        if self.refuse_while_running("/undo") {
            return;
        }
        let turns = usize::try_from(turns.max(1)).unwrap_or(1);
        let user_turns: Vec<usize> = self
            .history
            .iter()
            .enumerate()
            .filter(|(_, m)| m.role == Role::User)
            .map(|(i, _)| i)
            .collect();
        if user_turns.is_empty() {
            return self.notice(NoticeLevel::Warning, "nothing to undo yet".into());
        }
        let undone = turns.min(user_turns.len());
        let cut = user_turns[user_turns.len() - undone];
        self.history.truncate(cut);
        self.recorder.undo_turns(undone);
        self.events.send(Event::HistoryReplay(HistoryReplay {
            messages: replay(&self.history),
        }));
        self.notice(NoticeLevel::Info, format!("undid {undone} turn(s)"));
    }

    pub(super) fn stored_done(&mut self, done: StoredDone) {
        match done {
            StoredDone::Listed { query, result } => match result {
                Ok(sessions) => self
                    .events
                    .send(Event::SessionList(SessionList { query, sessions })),
                Err(err) => self.notice(
                    NoticeLevel::Warning,
                    format!("could not list sessions: {err}"),
                ),
            },
            StoredDone::Resumed(Ok(loaded)) => {
                let (row, mut resumed) = *loaded;
                let goal = std::mem::replace(&mut resumed.goal, Ok(None));
                self.history = resumed.history;
                self.status = crate::protocol::StatusUpdate {
                    context_window: self.spec.endpoint.context_window,
                    ..resumed.status
                };
                self.title = resumed.title.clone();
                self.spec.session_id = row.id.clone();
                if let Some(prompt) = row.system_prompt.filter(|p| !p.is_empty()) {
                    // The resumed session keeps the prompt it was started with.
                    self.spec.system_prompt = prompt;
                }
                self.recorder
                    .switch_to(row.id, resumed.title, EndReason::ResumedOther);
                self.forget_goal();
                self.events.send(Event::SessionInfo(self.session_info()));
                self.events.send(Event::StatusUpdate(self.status.clone()));
                self.events.send(Event::HistoryReplay(HistoryReplay {
                    messages: replay(&self.history),
                }));
                self.restore_goal(goal);
            }
            StoredDone::Resumed(Err(err)) => self.notice(NoticeLevel::Warning, err.to_string()),
            StoredDone::Branched(Ok((id, title))) => {
                self.spec.session_id = id.clone();
                self.title.clone_from(&title);
                self.recorder
                    .switch_to(id.clone(), title, EndReason::Branched);
                self.save_goal();
                self.events.send(Event::SessionInfo(self.session_info()));
                self.notice(
                    NoticeLevel::Info,
                    format!("branched: now in session {id}; the original is unchanged"),
                );
            }
            StoredDone::Branched(Err(err)) => {
                self.notice(NoticeLevel::Warning, format!("could not branch: {err}"));
            }
        }
    }
}

/// The conversation as frontends show it: user and assistant text, tool results by name.
pub(super) fn replay(history: &[Message]) -> Vec<ReplayMessage> {
    history
        .iter()
        .filter_map(|m| match m.role {
            Role::User => Some(ReplayMessage::User {
                text: m.content.clone(),
                images: m.images.iter().map(|i| i.path.clone()).collect(),
            }),
            Role::Assistant if !m.content.is_empty() => Some(ReplayMessage::Assistant {
                text: m.content.clone(),
            }),
            Role::Tool => Some(ReplayMessage::Tool {
                name: m.tool_name.clone().unwrap_or_else(|| "tool".to_string()),
                output: m.content.clone(),
            }),
            Role::Assistant | Role::System => None,
        })
        .collect()
}
