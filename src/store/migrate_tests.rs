use std::collections::HashSet;

use rusqlite::Connection;

use super::*;
use crate::model::Role;
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

/// `(column, type, notnull, default, pk)` of `table`, in order.
fn table_info(conn: &Connection, table: &str) -> Vec<(String, String, i64, Option<String>, i64)> {
    let mut stmt = conn
        .prepare("SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(?1)")
        .unwrap();
    stmt.query_map([table], |r| {
        Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
    })
    .unwrap()
    .collect::<rusqlite::Result<_>>()
    .unwrap()
}

const HERMES_TABLES: [&str; 8] = [
    "schema_version",
    "sessions",
    "messages",
    "session_model_usage",
    "state_meta",
    "gateway_routing",
    "compression_locks",
    "async_delegations",
];

#[test]
fn fresh_database_has_hermes_layout() {
    let (_dir, store) = temp_store();
    let conn = store.conn();
    let tables = names(&conn, "table");
    for t in HERMES_TABLES
        .iter()
        .chain(&["messages_fts", "messages_fts_trigram"])
    {
        assert!(tables.contains(*t), "missing table {t}: {tables:?}");
    }
    // Every table is column for column Hermes's (types, NOT NULL, defaults, keys); messages
    // has our `images` column after Hermes's.
    let reference = Connection::open_in_memory().unwrap();
    reference.execute_batch(schema::HERMES_TABLES_SQL).unwrap();
    for t in HERMES_TABLES {
        let mut want = table_info(&reference, t);
        if t == "messages" {
            let next = want.len();
            assert!(next > 0);
            want.push(("images".into(), "TEXT".into(), 0, None, 0));
        }
        assert_eq!(table_info(&conn, t), want, "table {t}");
    }
    let indexes = names(&conn, "index");
    for i in [
        "idx_sessions_source",
        "idx_sessions_source_id",
        "idx_sessions_parent",
        "idx_sessions_started",
        "idx_messages_session",
        "idx_compression_locks_expires",
        "idx_session_model_usage_session",
        "idx_session_model_usage_model",
        "idx_async_delegations_delivery",
        "idx_messages_platform_msg_id",
        "idx_messages_session_active",
        "idx_messages_active_null",
        "idx_sessions_session_key",
        "idx_sessions_gateway_peer",
        "idx_sessions_handoff_state",
        "idx_messages_session_id",
        "idx_sessions_title_unique",
    ] {
        assert!(indexes.contains(i), "missing index {i}");
    }
    let triggers = names(&conn, "trigger");
    for t in schema::FTS_TABLES
        .iter()
        .flat_map(super::super::schema::FtsTable::trigger_names)
    {
        assert!(triggers.contains(&t), "missing trigger {t}");
    }
    let version: i64 = conn
        .query_row("SELECT version FROM schema_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, 22);
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

/// A database exactly as Hermes 0.19 creates it: our open adds only our column and index,
/// and leaves every row and every other definition as it was.
#[test]
fn a_hermes_database_is_left_as_hermes_made_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.db");
    {
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch(schema::HERMES_TABLES_SQL).unwrap();
        for sql in &schema::INDEXES[..schema::INDEXES.len() - 1] {
            conn.execute_batch(sql).unwrap();
        }
        conn.execute_batch(schema::UNIQUE_TITLE_INDEX).unwrap();
        for t in schema::FTS_TABLES {
            conn.execute_batch(t.ddl).unwrap();
        }
        conn.execute_batch(
            "INSERT INTO schema_version VALUES (22);
             INSERT INTO sessions (id, source, started_at, input_tokens) VALUES ('h', 'cli', 5.0, 7);
             INSERT INTO messages (session_id, role, content, timestamp) VALUES ('h', 'user', 'hi', 5.0);
             INSERT INTO session_model_usage (session_id, model, input_tokens) VALUES ('h', 'm', 7);
             INSERT INTO gateway_routing VALUES ('', 'k', '{}', 1.0);
             CREATE TABLE telegram_dm_topic_mode (chat_id TEXT PRIMARY KEY, enabled INTEGER);
             INSERT INTO telegram_dm_topic_mode VALUES ('c', 1);",
        )
        .unwrap();
    }
    let before = {
        let conn = Connection::open(&path).unwrap();
        schema_snapshot(&conn)
    };
    let store = SessionStore::open(&path).unwrap();
    let conn = store.conn();
    let after = schema_snapshot(&conn);
    let added: Vec<_> = after.iter().filter(|e| !before.contains(e)).collect();
    let lost: Vec<_> = before
        .iter()
        .filter(|e| !after.contains(e) && e.1 != "messages")
        .collect();
    assert!(lost.is_empty(), "definitions changed or lost: {lost:?}");
    let added_names: Vec<&str> = added.iter().map(|e| e.1.as_str()).collect();
    assert_eq!(added_names, ["idx_messages_session_id", "messages"]);
    let count = |t: &str| -> i64 {
        conn.query_row(&format!("SELECT COUNT(*) FROM {t}"), [], |r| r.get(0))
            .unwrap()
    };
    for t in [
        "sessions",
        "messages",
        "session_model_usage",
        "gateway_routing",
        "telegram_dm_topic_mode",
    ] {
        assert_eq!(count(t), 1, "{t}");
    }
    let version: i64 = conn
        .query_row("SELECT version FROM schema_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, 22);
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
        conn.execute_batch(schema::HERMES_TABLES_SQL).unwrap();
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

/// Hermes v20/v21 kept `task` out of `session_model_usage`'s key; like Hermes's v22 step, the
/// table is rebuilt with it and every row kept as main-loop usage.
#[test]
fn a_v21_usage_table_is_rebuilt_with_task_in_its_key() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.db");
    {
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch(
            "CREATE TABLE schema_version (version INTEGER NOT NULL);
             INSERT INTO schema_version VALUES (21);
             CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL,
                 started_at REAL NOT NULL);
             INSERT INTO sessions VALUES ('s', 'cli', 1.0);
             CREATE TABLE session_model_usage (
                 session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
                 model TEXT NOT NULL,
                 billing_provider TEXT NOT NULL DEFAULT '',
                 billing_base_url TEXT NOT NULL DEFAULT '',
                 billing_mode TEXT NOT NULL DEFAULT '',
                 api_call_count INTEGER NOT NULL DEFAULT 0,
                 input_tokens INTEGER NOT NULL DEFAULT 0,
                 output_tokens INTEGER NOT NULL DEFAULT 0,
                 cache_read_tokens INTEGER NOT NULL DEFAULT 0,
                 cache_write_tokens INTEGER NOT NULL DEFAULT 0,
                 reasoning_tokens INTEGER NOT NULL DEFAULT 0,
                 estimated_cost_usd REAL NOT NULL DEFAULT 0,
                 actual_cost_usd REAL NOT NULL DEFAULT 0,
                 cost_status TEXT, cost_source TEXT, first_seen REAL, last_seen REAL,
                 PRIMARY KEY (session_id, model, billing_provider, billing_base_url, billing_mode));
             INSERT INTO session_model_usage (session_id, model, api_call_count, input_tokens)
                 VALUES ('s', 'm', 3, 40);",
        )
        .unwrap();
    }
    let store = SessionStore::open(&path).unwrap();
    let conn = store.conn();
    let keyed: i64 = conn
        .query_row(
            "SELECT COUNT(*) FROM pragma_table_info('session_model_usage') \
             WHERE name = 'task' AND pk > 0",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(keyed, 1);
    let row: (String, i64, i64) = conn
        .query_row(
            "SELECT task, api_call_count, input_tokens FROM session_model_usage",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap();
    assert_eq!(row, (String::new(), 3, 40));
    assert!(!names(&conn, "table").contains("session_model_usage_v21"));
    let version: i64 = conn
        .query_row("SELECT version FROM schema_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, 21, "Hermes's version is Hermes's to raise");
}

/// A database whose Hermes version predates per-model usage (an older hermes wrote 16) gets
/// Hermes's v20 seed once: sessions with tokens count in the per-model table.
#[test]
fn totals_written_before_usage_rows_are_seeded_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.db");
    {
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch(
            "CREATE TABLE schema_version (version INTEGER NOT NULL);
             INSERT INTO schema_version VALUES (16);
             CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, model TEXT,
                 started_at REAL NOT NULL, input_tokens INTEGER DEFAULT 0,
                 output_tokens INTEGER DEFAULT 0, api_call_count INTEGER DEFAULT 0,
                 billing_provider TEXT);
             INSERT INTO sessions VALUES ('old', 'cli', 'm', 1.0, 100, 20, 2, 'openrouter');
             INSERT INTO sessions VALUES ('idle', 'cli', 'm', 1.0, 0, 0, 0, NULL);
             CREATE TABLE state_meta (key TEXT PRIMARY KEY, value TEXT);
             INSERT INTO state_meta VALUES ('hermes_rs_schema_version', '1');",
        )
        .unwrap();
    }
    let rows = |store: &SessionStore| -> Vec<(String, String, String, i64, i64)> {
        let conn = store.conn();
        let mut stmt = conn
            .prepare(
                "SELECT session_id, model, billing_provider, api_call_count, input_tokens \
                 FROM session_model_usage ORDER BY session_id",
            )
            .unwrap();
        stmt.query_map([], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
        })
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap()
    };
    let store = SessionStore::open(&path).unwrap();
    let want = vec![("old".into(), "m".into(), "openrouter".into(), 2, 100)];
    assert_eq!(rows(&store), want);
    drop(store);
    let store = SessionStore::open(&path).unwrap();
    assert_eq!(rows(&store), want, "not seeded twice");
}

#[test]
fn a_database_from_a_newer_program_is_used_with_one_warning_and_never_downgraded() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.db");
    {
        let store = SessionStore::open(&path).unwrap();
        assert_eq!(store.schema_notice(), None);
        exec(
            &store,
            "UPDATE schema_version SET version = 99;
             UPDATE state_meta SET value = '50' WHERE key = 'hermes_rs_schema_version';",
        );
    }
    let store = SessionStore::open(&path).unwrap();
    let notice = store.schema_notice().unwrap();
    assert!(notice.contains("v99"), "{notice}");
    seed(&store, "s", &[(Role::User, "still saved")]);
    let conn = store.conn();
    let theirs: i64 = conn
        .query_row("SELECT version FROM schema_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(theirs, 99);
    assert_eq!(recorded_version(&conn).unwrap(), 50);
    drop(conn);
    // Our own newer migration alone is reported too.
    exec(&store, "UPDATE schema_version SET version = 22;");
    drop(store);
    let store = SessionStore::open(&path).unwrap();
    let notice = store.schema_notice().unwrap();
    assert!(notice.contains("migration 50"), "{notice}");
}
