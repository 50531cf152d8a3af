use std::collections::HashSet;

use rusqlite::Connection;

use super::*;
use crate::providers::Role;
use crate::store::SearchRequest;
use crate::store::SessionStore;
use crate::store::StoreError;
use crate::store::test_support::exec;
use crate::store::test_support::seed;
use crate::store::test_support::temp_store;

fn names(conn: &Connection, kind: &str) -> HashSet<String> {
    let mut stmt = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = ?1")
        .unwrap();
    stmt.query_map([kind], |r| r.get(0))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap()
}

fn schema_snapshot(conn: &Connection) -> Vec<(String, String, Option<String>)> {
    let mut stmt = conn
        .prepare("SELECT type, name, sql FROM sqlite_master ORDER BY type, name")
        .unwrap();
    stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap()
}

fn search_hits(store: &SessionStore, q: &str) -> usize {
    store
        .search(&SearchRequest {
            query: q,
            limit: 10,
            exclude_session: None,
        })
        .unwrap()
        .hits
        .len()
}

#[test]
fn fresh_database_has_hermes_layout() {
    let (_dir, store) = temp_store();
    let conn = store.conn();
    let tables = names(&conn, "table");
    for t in [
        "sessions",
        "messages",
        "state_meta",
        "schema_version",
        "messages_fts",
        "messages_fts_trigram",
    ] {
        assert!(tables.contains(t), "missing table {t}: {tables:?}");
    }
    let want: HashSet<String> = schema::SESSION_COLUMNS
        .iter()
        .map(|(n, _)| n.to_string())
        .collect();
    assert_eq!(columns(&conn, "sessions").unwrap(), want);
    let want: HashSet<String> = schema::MESSAGE_COLUMNS
        .iter()
        .map(|(n, _)| n.to_string())
        .collect();
    assert_eq!(columns(&conn, "messages").unwrap(), want);
    let indexes = names(&conn, "index");
    for i in [
        "idx_sessions_source",
        "idx_sessions_parent",
        "idx_sessions_started",
        "idx_messages_session",
        "idx_messages_session_active",
        "idx_messages_session_id",
        "idx_sessions_title_unique",
    ] {
        assert!(indexes.contains(i), "missing index {i}");
    }
    let triggers = names(&conn, "trigger");
    for t in schema::FTS_TABLES.iter().flat_map(|t| t.trigger_names()) {
        assert!(triggers.contains(&t), "missing trigger {t}");
    }
    let version: i64 = conn
        .query_row("SELECT version FROM schema_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, schema::HERMES_SCHEMA_VERSION);
    assert_eq!(recorded_version(&conn).unwrap(), current_version());
    let mode: String = conn
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
    let fk: i64 = conn
        .query_row("PRAGMA foreign_keys", [], |r| r.get(0))
        .unwrap();
    assert_eq!(fk, 1);
}

#[test]
fn reopening_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.db");
    let before = {
        let store = SessionStore::open(&path).unwrap();
        seed(&store, "s1", &[(Role::User, "hello there")]);
        schema_snapshot(&store.conn())
    };
    let store = SessionStore::open(&path).unwrap();
    assert_eq!(schema_snapshot(&store.conn()), before);
    let rows: i64 = store
        .conn()
        .query_row("SELECT COUNT(*) FROM schema_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(rows, 1);
    // The FTS index was not rebuilt twice (one row per message).
    let fts: i64 = store
        .conn()
        .query_row("SELECT COUNT(*) FROM messages_fts", [], |r| r.get(0))
        .unwrap();
    assert_eq!(fts, 1);
    assert_eq!(store.load_history("s1").unwrap().len(), 1);
}

/// An old Hermes-style database: fewer columns, an extra column and table this crate does not
/// know, rows already present, no FTS tables, and Hermes's own schema version.
#[test]
fn migrates_an_older_database_keeping_unknown_columns_and_tables() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.db");
    {
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch(
            "CREATE TABLE schema_version (version INTEGER NOT NULL);
             INSERT INTO schema_version VALUES (6);
             CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, model TEXT,
                 started_at REAL NOT NULL, message_count INTEGER DEFAULT 0,
                 telegram_chat TEXT);
             CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT,
                 session_id TEXT NOT NULL REFERENCES sessions(id), role TEXT NOT NULL,
                 content TEXT, timestamp REAL NOT NULL);
             CREATE TABLE compression_locks (session_id TEXT PRIMARY KEY, holder TEXT);
             INSERT INTO compression_locks VALUES ('old', 'pid=1');
             INSERT INTO sessions (id, source, model, started_at, message_count, telegram_chat)
                 VALUES ('old', 'telegram', 'm', 1000.0, 2, 'chat-42');
             INSERT INTO messages (session_id, role, content, timestamp)
                 VALUES ('old', 'user', 'remember the walrus protocol', 1000.0),
                        ('old', 'assistant', 'noted', 1001.0);",
        )
        .unwrap();
    }
    let store = SessionStore::open(&path).unwrap();
    {
        let conn = store.conn();
        let cols = columns(&conn, "sessions").unwrap();
        assert!(cols.contains("telegram_chat"));
        assert!(cols.contains("archived") && cols.contains("title"));
        assert!(columns(&conn, "messages").unwrap().contains("active"));
        let chat: String = conn
            .query_row(
                "SELECT telegram_chat FROM sessions WHERE id = 'old'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(chat, "chat-42");
        let holder: String = conn
            .query_row("SELECT holder FROM compression_locks", [], |r| r.get(0))
            .unwrap();
        assert_eq!(holder, "pid=1");
        let version: i64 = conn
            .query_row("SELECT version FROM schema_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(version, 6, "Hermes's version is never changed by us");
        assert_eq!(recorded_version(&conn).unwrap(), current_version());
    }
    // Old rows: readable, active, and indexed by the backfill.
    let history = store.load_history("old").unwrap();
    assert_eq!(history.len(), 2);
    assert_eq!(history[0].content, "remember the walrus protocol");
    assert_eq!(search_hits(&store, "walrus"), 1);
    assert_eq!(
        search_hits(&store, "alrus"),
        1,
        "trigram index backfilled too"
    );
    // And new writes work on the migrated table.
    store
        .append_message(
            "old",
            &crate::store::StoredMessage::new(Role::User, "another walrus"),
        )
        .unwrap();
    assert_eq!(store.load_history("old").unwrap().len(), 3);
    drop(store);
    // Re-opening the migrated database is a no-op.
    let store = SessionStore::open(&path).unwrap();
    assert_eq!(search_hits(&store, "walrus"), 1);
}

#[test]
fn missing_fts_trigger_is_restored_and_index_rebuilt() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.db");
    {
        let store = SessionStore::open(&path).unwrap();
        seed(&store, "s1", &[(Role::User, "first zebra")]);
        exec(&store, "DROP TRIGGER messages_fts_insert");
        seed(&store, "s2", &[(Role::User, "second zebra")]);
        assert_eq!(search_hits(&store, "zebra"), 1, "s2 was not indexed");
    }
    let store = SessionStore::open(&path).unwrap();
    assert_eq!(search_hits(&store, "zebra"), 2);
    let fts: i64 = store
        .conn()
        .query_row("SELECT COUNT(*) FROM messages_fts", [], |r| r.get(0))
        .unwrap();
    assert_eq!(fts, 2, "rebuilt without duplicates");
}

#[test]
fn an_fts_table_of_another_layout_is_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.db");
    let external = "CREATE VIRTUAL TABLE messages_fts USING fts5(content, tool_name, tool_calls, \
                    content='messages', content_rowid='id')";
    {
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch(schema::CREATE_SESSIONS).unwrap();
        conn.execute_batch(schema::CREATE_MESSAGES).unwrap();
        conn.execute_batch(external).unwrap();
    }
    let store = SessionStore::open(&path).unwrap();
    let conn = store.conn();
    let sql: String = conn
        .query_row(
            "SELECT sql FROM sqlite_master WHERE name = 'messages_fts'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(sql, external);
    assert!(!names(&conn, "trigger").contains("messages_fts_insert"));
    // Our own trigram table was still added.
    assert!(names(&conn, "table").contains("messages_fts_trigram"));
}

#[test]
fn a_file_that_is_not_a_database_is_a_typed_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.db");
    std::fs::write(&path, "this is not a database ".repeat(200)).unwrap();
    let err = SessionStore::open(&path).unwrap_err();
    assert!(matches!(err, StoreError::Corrupt { .. }), "{err:?}");
    let text = err.to_string();
    assert!(text.contains(&path.display().to_string()), "{text}");
    assert!(text.contains("move it aside"), "{text}");
}

#[test]
fn a_malformed_database_is_a_typed_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.db");
    {
        let store = SessionStore::open(&path).unwrap();
        seed(&store, "s1", &[(Role::User, "hello")]);
        exec(&store, "PRAGMA wal_checkpoint(TRUNCATE)");
    }
    // Keep the 100-byte header, smash the rest of page 1 (the schema table).
    let mut bytes = std::fs::read(&path).unwrap();
    for b in bytes.iter_mut().take(4096).skip(100) {
        *b = 0xA5;
    }
    std::fs::write(&path, bytes).unwrap();
    let err = SessionStore::open(&path).unwrap_err();
    assert!(matches!(err, StoreError::Corrupt { .. }), "{err:?}");
}
