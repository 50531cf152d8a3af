//! Helpers for the store's tests: a store in a temp directory and quick session seeding.

use tempfile::TempDir;

use crate::model::Role;
use crate::store::NewSession;
use crate::store::SessionStore;
use crate::store::Source;
use crate::store::StoredMessage;

/// A fresh store at `<tempdir>/state.db`.
pub fn temp_store() -> (TempDir, SessionStore) {
    let dir = tempfile::tempdir().unwrap();
    let store = SessionStore::open(&dir.path().join("state.db")).unwrap();
    (dir, store)
}

pub fn new_session(id: &str) -> NewSession {
    NewSession {
        id: id.to_string(),
        source: Source::Cli,
        model: "test-model".to_string(),
        cwd: "/work/project".to_string(),
        ..NewSession::default()
    }
}

/// Create session `id` with plain messages; returns their ids.
pub fn seed(store: &SessionStore, id: &str, messages: &[(Role, &str)]) -> Vec<i64> {
    store.create_session(&new_session(id)).unwrap();
    append(store, id, messages)
}

pub fn append(store: &SessionStore, id: &str, messages: &[(Role, &str)]) -> Vec<i64> {
    messages
        .iter()
        .map(|(role, text)| {
            store
                .append_message(id, &StoredMessage::new(*role, *text))
                .unwrap()
        })
        .collect()
}

/// Run raw SQL on the store's connection (test fixtures only).
pub fn exec(store: &SessionStore, sql: &str) {
    store.conn().execute_batch(sql).unwrap();
}
