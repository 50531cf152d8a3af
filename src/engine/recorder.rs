//! Persists a session to the store as it happens: the session row is created with the first
//! message, every message is written (and committed) the moment it completes, and each API
//! call's tokens right after the call (Hermes's per-call accounting, see `store::usage`).
//! Writes run on the blocking pool and are awaited, so by the time the engine reports a
//! message complete it is on disk — a crash loses at most the message still streaming.
//!
//! It also ends sessions the way Hermes does (`sessions.ended_at` / `end_reason`): the current
//! session when the app or run finishes (`finish`), the one left behind by `/new`, `/resume`,
//! `/branch` or a compression split. A session without a row (nothing was said) has nothing
//! to end. Ending twice is harmless: the store keeps the first reason.
//!
//! Persistence is best effort for the conversation: if the database fails, the session goes
//! on in memory and the user is told once. A database another program holds locked (a
//! long-running Hermes write, a `sqlite3` shell in a transaction) is not a failure: the
//! write waits in a queue, in order, and is retried every `RETRY_LOCKED_EVERY` until it goes
//! through (and once more, waiting, when the session finishes), so the reply is saved once
//! the lock is released; while writes wait, later ones join the queue without waiting on the
//! lock again.

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::PoisonError;
use std::time::Duration;

use super::events::EventSink;
use crate::model::Message;
use crate::model::Usage;
use crate::protocol::Event;
use crate::protocol::Notice;
use crate::protocol::NoticeLevel;
use crate::store::AuxTask;
use crate::store::BillingRoute;
use crate::store::CallTokens;
use crate::store::EndReason;
use crate::store::NewSession;
use crate::store::SessionStore;
use crate::store::StoredMessage;

/// Why `/title` could not store the title (the session keeps it for this run).
#[derive(Debug, thiserror::Error)]
pub enum TitleError {
    #[error("there is no session history in this run")]
    NoHistory,
    #[error(transparent)]
    Store(#[from] crate::store::StoreError),
    #[error(transparent)]
    Join(#[from] tokio::task::JoinError),
}

pub struct Recorder {
    store: Option<Arc<SessionStore>>,
    events: EventSink,
    state: Arc<Mutex<State>>,
}

/// How often writes waiting on a locked database are retried.
const RETRY_LOCKED_EVERY: Duration = Duration::from_secs(1);

type WriteOp = Box<dyn Fn(&SessionStore, &str) -> Result<(), crate::store::StoreError> + Send>;

/// A write waiting for a locked database, with the session it belongs to (a compression
/// may move the recorder to a child session meanwhile).
struct Waiting {
    session_id: String,
    op: WriteOp,
}

struct State {
    session: NewSession,
    created: Created,
    failure: Failure,
    /// Writes not yet committed because the database was locked, oldest first.
    waiting: VecDeque<Waiting>,
    /// A retry task is running for `waiting`.
    retrying: bool,
    /// A compression continuation: its title is the next one in the parent's lineage.
    title: ChildTitle,
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

#[derive(Clone, Copy, PartialEq, Eq)]
enum ChildTitle {
    AsIs,
    NextInLineage,
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
                waiting: VecDeque::new(),
                retrying: false,
                title: ChildTitle::AsIs,
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

    /// Start recording a new session (after `/new`): the old one ends (`new_session`); the
    /// next message creates the new one's row.
    pub fn restart(&self, id: String) {
        let mut state = self.lock();
        self.end_in_background(&state, EndReason::NewSession);
        state.session.id = id;
        state.session.title = None;
        state.session.parent_session_id = None;
        state.created = Created::No;
        state.title = ChildTitle::AsIs;
    }

    /// Continue in a new child session of the current one (after compression): the current
    /// one ends (`compression`); the child's row is created with its first message, linked by
    /// `parent_session_id` and titled next in the lineage (`title #2`).
    pub fn continue_in_child(&self, id: String) {
        let mut state = self.lock();
        self.end_in_background(&state, EndReason::Compression);
        let parent = std::mem::replace(&mut state.session.id, id);
        state.session.parent_session_id = Some(parent);
        state.created = Created::No;
        state.title = ChildTitle::NextInLineage;
    }

    /// Continue recording into another stored session (after resume or branch); the one left
    /// behind ends with `reason` (`resumed_other`, `branched`).
    pub fn switch_to(&self, id: String, title: Option<String>, reason: EndReason) {
        let mut state = self.lock();
        if state.session.id != id {
            self.end_in_background(&state, reason);
        }
        state.session.id = id;
        state.session.title = title;
        state.created = Created::Yes;
        state.title = ChildTitle::AsIs;
    }

    /// The model route sessions created from now on start with (after `/model`).
    pub fn set_route(&self, route: &BillingRoute) {
        let mut state = self.lock();
        state.session.model.clone_from(&route.model);
        state.session.provider.clone_from(&route.provider);
        state.session.base_url.clone_from(&route.base_url);
    }

    /// End the current session (the app quit, the run or subagent finished); returns when it
    /// is committed.
    pub async fn finish(&self, reason: EndReason) {
        let Some(store) = self.store.clone() else {
            return;
        };
        let state = Arc::clone(&self.state);
        let ended = tokio::task::spawn_blocking(move || {
            let mut state = state.lock().unwrap_or_else(PoisonError::into_inner);
            // Last chance for writes waiting on a lock (each try waits the busy timeout).
            if !state.waiting.is_empty()
                && let Drained::Waiting = drain(&store, &mut state)
            {
                tracing::warn!(
                    waiting = state.waiting.len(),
                    "the session database stayed locked; the last messages were not saved"
                );
            }
            if state.created == Created::No {
                return Ok(false);
            }
            store.end_session(&state.session.id, reason)
        })
        .await;
        if let Ok(Err(err)) = ended {
            tracing::warn!(error = %err, "could not mark the session ended");
        }
    }

    /// End the session `state` records, off this task (the caller is the actor, which must
    /// not block).
    fn end_in_background(&self, state: &State, reason: EndReason) {
        let Some(store) = self.store.clone() else {
            return;
        };
        if state.created == Created::No {
            return;
        }
        let id = state.session.id.clone();
        tokio::task::spawn_blocking(move || {
            if let Err(err) = store.end_session(&id, reason) {
                tracing::warn!(error = %err, session = %id, "could not mark the session ended");
            }
        });
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
    pub async fn set_title(&self, title: String) -> Result<(), TitleError> {
        let Some(store) = self.store.clone() else {
            return Err(TitleError::NoHistory);
        };
        let state = Arc::clone(&self.state);
        tokio::task::spawn_blocking(move || {
            let mut state = state.lock().unwrap_or_else(PoisonError::into_inner);
            state.session.title = Some(title.clone());
            state.title = ChildTitle::AsIs;
            match state.created {
                Created::Yes => store.set_title(&state.session.id, &title)?,
                Created::No => {}
            }
            Ok(())
        })
        .await?
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
        let state = Arc::clone(&self.state);
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

    /// Account one main-loop API call made through `route`.
    pub async fn api_call(&self, route: &BillingRoute, usage: &Usage) {
        let route = route.clone();
        let tokens = CallTokens::from_usage(usage);
        self.write(move |store, id| store.record_api_call(id, &route, &tokens))
            .await;
    }

    /// Account one auxiliary call (a compression summary, …) made through `route`.
    pub async fn auxiliary_call(&self, task: AuxTask, route: &BillingRoute, usage: &Usage) {
        let route = route.clone();
        let tokens = CallTokens::from_usage(usage);
        self.write(move |store, id| store.record_auxiliary_call(id, task, &route, &tokens))
            .await;
    }

    async fn write<F>(&self, op: F)
    where
        F: Fn(&SessionStore, &str) -> Result<(), crate::store::StoreError> + Send + 'static,
    {
        let Some(store) = self.store.clone() else {
            return;
        };
        let state = Arc::clone(&self.state);
        let result = tokio::task::spawn_blocking(move || {
            let mut state = state.lock().unwrap_or_else(PoisonError::into_inner);
            let session_id = state.session.id.clone();
            state.waiting.push_back(Waiting {
                session_id,
                op: Box::new(op),
            });
            if state.retrying {
                // Queued behind writes already waiting on the lock: the retry task writes it.
                return Drained::Waiting;
            }
            drain(&store, &mut state)
        })
        .await;
        match result {
            Ok(Drained::Done) => {}
            Ok(Drained::Waiting) => self.retry_in_background(),
            Ok(Drained::Failed(err)) => self.report(&err.to_string()),
            Err(err) => self.report(&err.to_string()),
        }
    }

    /// Retries the waiting writes until they go through or fail for another reason.
    fn retry_in_background(&self) {
        let Some(store) = self.store.clone() else {
            return;
        };
        {
            let mut state = self.lock();
            if state.retrying {
                return;
            }
            state.retrying = true;
        }
        let (state, events) = (Arc::clone(&self.state), self.events.clone());
        let recorder = Self {
            store: Some(Arc::clone(&store)),
            events,
            state: Arc::clone(&state),
        };
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(RETRY_LOCKED_EVERY).await;
                let (store, state) = (Arc::clone(&store), Arc::clone(&state));
                let drained = tokio::task::spawn_blocking(move || {
                    let mut state = state.lock().unwrap_or_else(PoisonError::into_inner);
                    let drained = drain(&store, &mut state);
                    if !matches!(drained, Drained::Waiting) {
                        state.retrying = false;
                    }
                    drained
                })
                .await;
                match drained {
                    Ok(Drained::Waiting) => continue,
                    Ok(Drained::Done) => {
                        tracing::info!(
                            "the session database is writable again; waiting writes saved"
                        );
                        break;
                    }
                    Ok(Drained::Failed(err)) => {
                        recorder.report(&err.to_string());
                        break;
                    }
                    Err(err) => {
                        recorder.report(&err.to_string());
                        break;
                    }
                }
            }
        });
    }

    fn report(&self, error: &str) {
        tracing::warn!(error = %error, "could not save to the session database");
        let mut state = self.lock();
        if state.failure == Failure::None {
            state.failure = Failure::Reported;
            self.events.send(Event::Notice(Notice {
                level: NoticeLevel::Warning,
                text: format!(
                    "this session is not being saved ({error}); the conversation continues in memory"
                ),
            }));
        }
    }
}

/// What a pass over the waiting writes achieved.
enum Drained {
    Done,
    /// The database is still locked; the rest wait.
    Waiting,
    /// A write failed for another reason and was dropped.
    Failed(crate::store::StoreError),
}

/// Writes the waiting writes in order (creating the session row first if needed).
fn drain(store: &SessionStore, state: &mut State) -> Drained {
    if state.created == Created::No {
        let created = (|| {
            if state.title == ChildTitle::NextInLineage
                && let Some(title) = state.session.title.clone()
            {
                state.session.title = Some(store.next_title_in_lineage(&title)?);
            }
            store.create_session(&state.session)
        })();
        match created {
            Ok(()) => {
                state.created = Created::Yes;
                state.title = ChildTitle::AsIs;
            }
            Err(e) if e.is_locked() => return Drained::Waiting,
            Err(e) => {
                state.waiting.clear();
                return Drained::Failed(e);
            }
        }
    }
    while let Some(next) = state.waiting.front() {
        match (next.op)(store, &next.session_id) {
            Ok(()) => {
                state.waiting.pop_front();
            }
            Err(e) if e.is_locked() => return Drained::Waiting,
            Err(e) => {
                state.waiting.pop_front();
                return Drained::Failed(e);
            }
        }
    }
    Drained::Done
}
