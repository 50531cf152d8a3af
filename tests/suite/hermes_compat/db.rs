//! What a step may not do to `state.db`: break it, or lose anything the other program wrote.
//!
//! A [`DbSnapshot`] records every schema object (`sqlite_master`: table, index, trigger, view),
//! each table's columns, row counts (per session for tables with a `session_id` column, which
//! is also how orphans are caught), the session ids, and every message's id with its
//! session, role and content. Taking one first runs `PRAGMA integrity_check` and checks that
//! each `messages_fts*` full-text index holds exactly the rows of `messages`.
//!
//! FTS5 shadow tables (`*_data`, `*_idx`, …) are checked for presence only: their row counts
//! change with segment merges.

use std::collections::BTreeMap;
use std::collections::BTreeSet;
use std::path::Path;

use rusqlite::Connection;
use rusqlite::OpenFlags;

#[derive(Debug, Clone)]
pub struct DbSnapshot {
    /// (type, name) → SQL text.
    objects: BTreeMap<(String, String), String>,
    columns: BTreeMap<String, BTreeSet<String>>,
    /// Ordinary tables without a `session_id` column → row count. (Full-text tables follow
    /// `messages`; they are checked against it instead.)
    counts: BTreeMap<String, i64>,
    /// Tables with a `session_id` column → session → row count.
    per_session: BTreeMap<String, BTreeMap<String, i64>>,
    pub sessions: BTreeSet<String>,
    /// Message id → (session, role, content).
    messages: BTreeMap<i64, (String, String, String)>,
    /// What the integrity and full-text checks found wrong (empty when the file is sound).
    pub problems: Vec<String>,
}

/// Open `path` read-only, check it, and record it. Panics (naming `step`) only when the file
/// cannot be read at all; what the checks find goes to `problems`.
pub fn snapshot(path: &Path, step: &str) -> DbSnapshot {
    let mut problems = Vec::new();
    let conn = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY)
        .unwrap_or_else(|e| panic!("after {step}: cannot open {}: {e}", path.display()));
    let integrity: Vec<String> = rows(&conn, "PRAGMA integrity_check");
    if integrity != ["ok"] {
        problems.push(format!("PRAGMA integrity_check says {integrity:?}"));
    }

    let mut objects = BTreeMap::new();
    let mut stmt = conn
        .prepare("SELECT type, name, COALESCE(sql, '') FROM sqlite_master")
        .unwrap();
    let listed = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .collect::<rusqlite::Result<Vec<(String, String, String)>>>()
        .unwrap();
    for (kind, name, sql) in listed {
        objects.insert((kind, name), sql);
    }
    let virtual_tables: BTreeSet<String> = objects
        .iter()
        .filter(|((kind, _), sql)| kind == "table" && sql.starts_with("CREATE VIRTUAL TABLE"))
        .map(|((_, name), _)| name.clone())
        .collect();
    let shadow = |name: &str| {
        virtual_tables.iter().any(|vt| {
            name.strip_prefix(vt.as_str())
                .is_some_and(is_fts_shadow_suffix)
        })
    };

    let mut columns = BTreeMap::new();
    let mut counts = BTreeMap::new();
    let mut per_session = BTreeMap::new();
    for (kind, name) in objects.keys() {
        if kind != "table" || shadow(name) {
            continue;
        }
        let cols: BTreeSet<String> = rows(
            &conn,
            &format!("SELECT name FROM pragma_table_info('{name}')"),
        );
        if cols.contains("session_id") {
            let sql = format!(
                "SELECT COALESCE(session_id, ''), COUNT(*) FROM \"{name}\" GROUP BY session_id"
            );
            let mut stmt = conn.prepare(&sql).unwrap();
            let grouped = stmt
                .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)))
                .unwrap()
                .collect::<rusqlite::Result<BTreeMap<String, i64>>>()
                .unwrap();
            per_session.insert(name.clone(), grouped);
        } else if !virtual_tables.contains(name) {
            let n: i64 = conn
                .query_row(&format!("SELECT COUNT(*) FROM \"{name}\""), [], |r| {
                    r.get(0)
                })
                .unwrap();
            counts.insert(name.clone(), n);
        }
        columns.insert(name.clone(), cols);
    }

    for vt in virtual_tables
        .iter()
        .filter(|n| n.starts_with("messages_fts"))
    {
        let extra: i64 = conn
            .query_row(
                &format!(
                    "SELECT COUNT(*) FROM (SELECT rowid FROM \"{vt}\" EXCEPT SELECT id FROM messages)"
                ),
                [],
                |r| r.get(0),
            )
            .unwrap();
        let missing: i64 = conn
            .query_row(
                &format!(
                    "SELECT COUNT(*) FROM (SELECT id FROM messages EXCEPT SELECT rowid FROM \"{vt}\")"
                ),
                [],
                |r| r.get(0),
            )
            .unwrap();
        if (extra, missing) != (0, 0) {
            problems.push(format!(
                "{vt} has {extra} rows for no message and misses {missing} messages"
            ));
        }
    }

    let sessions = rows(&conn, "SELECT id FROM sessions");
    let mut stmt = conn
        .prepare("SELECT id, session_id, role, COALESCE(content, '') FROM messages")
        .unwrap();
    let messages = stmt
        .query_map([], |r| Ok((r.get(0)?, (r.get(1)?, r.get(2)?, r.get(3)?))))
        .unwrap()
        .collect::<rusqlite::Result<BTreeMap<i64, (String, String, String)>>>()
        .unwrap();
    DbSnapshot {
        objects,
        columns,
        counts,
        per_session,
        sessions,
        messages,
        problems,
    }
}

impl DbSnapshot {
    /// What `after` lost of `self`: anything but the sessions in `deleted` — and of those
    /// nothing may remain (no orphan rows in any table with a `session_id`). Empty when all
    /// is kept.
    pub fn losses(&self, after: &DbSnapshot, deleted: &[&str]) -> Vec<String> {
        let deleted: BTreeSet<&str> = deleted.iter().copied().collect();
        let mut lost = Vec::new();
        for (kind, name) in self.objects.keys() {
            if !after.objects.contains_key(&(kind.clone(), name.clone())) {
                lost.push(format!("{kind} {name} is gone"));
            }
        }
        for (table, cols) in &self.columns {
            if let Some(now) = after.columns.get(table) {
                for col in cols.difference(now) {
                    lost.push(format!("column {table}.{col} is gone"));
                }
            }
        }
        // Session rows are compared by id below (deleting some is a prune's job).
        for (table, n) in self.counts.iter().filter(|(t, _)| *t != "sessions") {
            match after.counts.get(table) {
                Some(m) if m < n => lost.push(format!("table {table}: {n} rows became {m}")),
                _ => {}
            }
        }
        for (table, by_session) in &self.per_session {
            let now = after.per_session.get(table);
            for (session, n) in by_session {
                let m = now.and_then(|t| t.get(session)).copied().unwrap_or(0);
                if deleted.contains(session.as_str()) {
                    // A session that is still there is reported once, below.
                    if m > 0 && !after.sessions.contains(session) {
                        lost.push(format!(
                            "table {table}: {m} orphan rows of deleted session {session}"
                        ));
                    }
                } else if m < *n {
                    lost.push(format!(
                        "table {table}: session {session} had {n} rows, now {m}"
                    ));
                }
            }
        }
        for session in &self.sessions {
            let gone = !after.sessions.contains(session);
            if gone != deleted.contains(session.as_str()) {
                lost.push(if gone {
                    format!("session {session} is gone")
                } else {
                    format!("session {session} should have been deleted")
                });
            }
        }
        for (id, row) in &self.messages {
            if deleted.contains(row.0.as_str()) {
                continue;
            }
            match after.messages.get(id) {
                None => lost.push(format!("message {id} of session {} is gone", row.0)),
                Some(now) if now != row => {
                    lost.push(format!("message {id} changed: {row:?} became {now:?}"))
                }
                Some(_) => {}
            }
        }
        lost
    }

    /// The sessions in `after` that are not in `self`.
    pub fn new_sessions(&self, after: &DbSnapshot) -> Vec<String> {
        after.sessions.difference(&self.sessions).cloned().collect()
    }

    /// The session whose message count grew from `self` to `after` (exactly one must).
    #[track_caller]
    pub fn grown_session(&self, after: &DbSnapshot) -> String {
        let count = |s: &DbSnapshot, id: &str| s.messages.values().filter(|m| m.0 == id).count();
        let grown: Vec<&String> = after
            .sessions
            .iter()
            .filter(|id| count(after, id) > count(self, id))
            .collect();
        assert_eq!(
            grown.len(),
            1,
            "expected one session to grow, got {grown:?}"
        );
        grown[0].clone()
    }

    /// (role, content) of a session's messages in id order.
    pub fn conversation(&self, session: &str) -> Vec<(String, String)> {
        self.messages
            .values()
            .filter(|m| m.0 == session)
            .map(|m| (m.1.clone(), m.2.clone()))
            .collect()
    }
}

fn is_fts_shadow_suffix(suffix: &str) -> bool {
    matches!(
        suffix,
        "_data" | "_idx" | "_content" | "_docsize" | "_config"
    )
}

fn rows<C: FromIterator<String>>(conn: &Connection, sql: &str) -> C {
    let mut stmt = conn.prepare(sql).unwrap();
    stmt.query_map([], |r| r.get::<_, String>(0))
        .unwrap()
        .collect::<rusqlite::Result<C>>()
        .unwrap()
}
