//! Persists a session to the store as it happens: the session row is created with the first
//! message, every message is written (and committed) the moment it completes, and token usage
//! after every API call. Writes run on the blocking pool and are awaited, so by the time the
//! engine reports a message complete it is on disk — a crash loses at most the message still
//! streaming.
//!
//! Persistence is best effort for the conversation: if the database fails, the session goes
//! on in memory and the user is told once.

use std::sync::Arc;
use std::sync::Mutex;
use std::sync::PoisonError;

use super::events::EventSink;
use crate::protocol::Event;
use crate::protocol::NoticeLevel;
use crate::protocol::StatusUpdate;
use crate::providers::Message;
use crate::store::NewSession;
use crate::store::SessionStore;
use crate::store::StoredMessage;
use crate::store::UsageTotals;

pub struct Recorder {
    store: Option<Arc<SessionStore>>,
    events: EventSink,
    state: Arc<Mutex<State>>,
}

struct State {
    session: NewSession,
    created: Created,
    failure: Failure,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Created {
    Yes,
    No,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Failure {
    None,
    Reported,
}

impl Recorder {
    /// Record into `store` (or nowhere, when `None`) under `session`'s id.
    pub fn new(store: Option<Arc<SessionStore>>, session: NewSession, events: EventSink) -> Self {
        Self {
            store,
            events,
            state: Arc::new(Mutex::new(State {
                session,
                created: Created::No,
                failure: Failure::None,
            })),
        }
    }

    /// Continue an existing stored session (resume): its row exists already.
    pub fn resuming(
        store: Option<Arc<SessionStore>>,
        session: NewSession,
        events: EventSink,
    ) -> Self {
        let recorder = Self::new(store, session, events);
        recorder.lock().created = Created::Yes;
        recorder
    }

    /// Start recording a new session (after `/new`): the next message creates its row.
    pub fn restart(&self, id: String) {
        let mut state = self.lock();
        state.session.id = id;
        state.session.title = None;
        state.session.parent_session_id = None;
        state.created = Created::No;
    }

    /// Continue in a new child session of the current one (after compression): its row is
    /// created with its first message, linked by `parent_session_id`.
    pub fn continue_in_child(&self, id: String) {
        let mut state = self.lock();
        let parent = std::mem::replace(&mut state.session.id, id);
        state.session.parent_session_id = Some(parent);
        state.created = Created::No;
    }

    /// Continue recording into another stored session (after resume or branch).
    pub fn switch_to(&self, id: String, title: Option<String>) {
        let mut state = self.lock();
        state.session.id = id;
        state.session.title = title;
        state.created = Created::Yes;
    }

    /// The store, for one-off operations the actor runs on the blocking pool.
    pub fn store(&self) -> Option<Arc<SessionStore>> {
        self.store.clone()
    }

    /// Whether this session has a row yet (it is created with the first message).
    pub fn is_created(&self) -> bool {
        self.lock().created == Created::Yes
    }

    /// Name the session: stored at once if its row exists, else with the first message.
    pub async fn set_title(&self, title: String) -> Result<(), String> {
        let Some(store) = self.store.clone() else {
            return Err("there is no session history in this run".to_string());
        };
        let state = self.state.clone();
        tokio::task::spawn_blocking(move || {
            let mut state = state.lock().unwrap_or_else(PoisonError::into_inner);
            state.session.title = Some(title.clone());
            match state.created {
                Created::Yes => store
                    .set_title(&state.session.id, &title)
                    .map_err(|e| e.to_string()),
                Created::No => Ok(()),
            }
        })
        .await
        .map_err(|e| e.to_string())?
    }

    pub fn session_id(&self) -> String {
        self.lock().session.id.clone()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Hide the last `n` stored user turns (`active = 0`), in the background: used before a
    /// retry re-runs a turn.
    pub fn undo_turns(&self, n: usize) {
        let Some(store) = self.store.clone() else {
            return;
        };
        let state = self.state.clone();
        tokio::task::spawn_blocking(move || {
            let state = state.lock().unwrap_or_else(PoisonError::into_inner);
            if state.created == Created::Yes
                && let Err(err) = store.undo_turns(&state.session.id, n)
            {
                tracing::warn!(error = %err, "could not hide the retried turn");
            }
        });
    }

    /// Write one completed message; returns when it is committed (or failed).
    pub async fn message(&self, message: &Message) {
        let stored = StoredMessage::from_message(message);
        self.write(move |store, id| store.append_message(id, &stored).map(|_| ()))
            .await;
    }

    /// Write the session's cumulative usage.
    pub async fn usage(&self, status: &StatusUpdate) {
        let totals = UsageTotals {
            input: status.input_tokens,
            output: status.output_tokens,
            cache_read: status.cache_read_tokens,
            cache_write: status.cache_write_tokens,
            reasoning: status.reasoning_tokens,
            api_calls: status.api_calls,
            cost_usd: status.cost_usd,
        };
        self.write(move |store, id| store.update_usage(id, &totals))
            .await;
    }

    async fn write<F>(&self, op: F)
    where
        F: FnOnce(&SessionStore, &str) -> Result<(), crate::store::StoreError> + Send + 'static,
    {
        let Some(store) = self.store.clone() else {
            return;
        };
        let state = self.state.clone();
        let result = tokio::task::spawn_blocking(move || {
            let mut state = state.lock().unwrap_or_else(PoisonError::into_inner);
            if state.created == Created::No {
                store.create_session(&state.session)?;
                state.created = Created::Yes;
            }
            op(&store, &state.session.id)
        })
        .await;
        let error = match result {
            Ok(Ok(())) => return,
            Ok(Err(err)) => err.to_string(),
            Err(err) => err.to_string(),
        };
        tracing::warn!(error = %error, "could not save to the session database");
        let mut state = self.lock();
        if state.failure == Failure::None {
            state.failure = Failure::Reported;
            self.events.send(Event::Notice {
                level: NoticeLevel::Warning,
                text: format!(
                    "this session is not being saved ({error}); the conversation continues in memory"
                ),
            });
        }
    }
}
