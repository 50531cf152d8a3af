//! Bringing any `state.db` up to the layout this crate needs, without losing anything.
//!
//! Every open runs `migrate` in one IMMEDIATE transaction: create missing tables, add missing
//! columns (`PRAGMA table_info`), create missing indexes, create the FTS5 tables and their
//! triggers (backfilling an index created over existing rows), then run the numbered
//! migrations newer than the version recorded in `state_meta` and record the new version.
//!
//! What it never does: DROP a table, column, index or trigger; touch tables it does not know
//! (Hermes's `compression_locks`, plugins' tables); lower Hermes's `schema_version`; or replace
//! an FTS table of another layout (Hermes ≥ v23's external-content tables are left to Hermes
//! and still answer our `MATCH` queries).

use std::collections::HashSet;

use rusqlite::Connection;
use rusqlite::OptionalExtension;
use rusqlite::Transaction;
use rusqlite::TransactionBehavior;

use crate::store::schema;
use crate::store::schema::FtsTable;

/// One numbered, forward-only migration.
struct Migration {
    version: i64,
    what: &'static str,
    run: fn(&Transaction<'_>) -> rusqlite::Result<()>,
}

/// Forward-only data migrations, by version. The structural "ensure" steps run on every open
/// and are not listed here.
const MIGRATIONS: &[Migration] = &[Migration {
    version: 1,
    what: "base schema: Hermes v16 tables, indexes and FTS5 (unicode61 + trigram)",
    run: |_| Ok(()),
}];

/// The newest migration version this build knows.
pub fn current_version() -> i64 {
    MIGRATIONS.iter().map(|m| m.version).max().unwrap_or(0)
}

/// Bring the database up to date. Idempotent.
pub fn migrate(conn: &mut Connection) -> rusqlite::Result<()> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    ensure_tables(&tx)?;
    ensure_columns(&tx, "sessions", schema::SESSION_COLUMNS)?;
    ensure_columns(&tx, "messages", schema::MESSAGE_COLUMNS)?;
    for sql in schema::INDEXES {
        tx.execute_batch(sql)?;
    }
    ensure_unique_titles(&tx)?;
    for table in schema::FTS_TABLES {
        ensure_fts(&tx, table)?;
    }
    ensure_hermes_version(&tx)?;
    run_migrations(&tx)?;
    tx.commit()
}

fn ensure_tables(tx: &Transaction<'_>) -> rusqlite::Result<()> {
    for sql in [
        schema::CREATE_SCHEMA_VERSION,
        schema::CREATE_SESSIONS,
        schema::CREATE_MESSAGES,
        schema::CREATE_STATE_META,
    ] {
        tx.execute_batch(sql)?;
    }
    Ok(())
}

/// The column names of `table`.
pub(crate) fn columns(conn: &Connection, table: &str) -> rusqlite::Result<HashSet<String>> {
    let mut stmt = conn.prepare("SELECT name FROM pragma_table_info(?1)")?;
    let names = stmt
        .query_map([table], |r| r.get::<_, String>(0))?
        .collect::<rusqlite::Result<HashSet<String>>>()?;
    Ok(names)
}

fn ensure_columns(
    tx: &Transaction<'_>,
    table: &str,
    wanted: &[(&str, &str)],
) -> rusqlite::Result<()> {
    let have = columns(tx, table)?;
    for (name, decl) in wanted {
        if !have.contains(*name) {
            tracing::info!("state.db: adding column {table}.{name}");
            tx.execute_batch(&format!("ALTER TABLE {table} ADD COLUMN {name} {decl}"))?;
        }
    }
    Ok(())
}

/// Hermes keeps titles unique; an older database with duplicate titles keeps working without
/// the index.
fn ensure_unique_titles(tx: &Transaction<'_>) -> rusqlite::Result<()> {
    match tx.execute_batch(schema::UNIQUE_TITLE_INDEX) {
        Ok(()) => Ok(()),
        Err(e) if e.sqlite_error_code() == Some(rusqlite::ErrorCode::ConstraintViolation) => {
            tracing::warn!("state.db: duplicate session titles, unique title index not created");
            Ok(())
        }
        Err(e) => Err(e),
    }
}

fn table_sql(tx: &Transaction<'_>, name: &str) -> rusqlite::Result<Option<String>> {
    tx.query_row(
        "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?1",
        [name],
        |r| r.get::<_, Option<String>>(0),
    )
    .optional()
    .map(Option::flatten)
}

fn trigger_exists(tx: &Transaction<'_>, name: &str) -> rusqlite::Result<bool> {
    tx.query_row(
        "SELECT 1 FROM sqlite_master WHERE type = 'trigger' AND name = ?1",
        [name],
        |_| Ok(()),
    )
    .optional()
    .map(|r| r.is_some())
}

fn ensure_fts(tx: &Transaction<'_>, table: &FtsTable) -> rusqlite::Result<()> {
    match table_sql(tx, table.name)? {
        None => {
            tx.execute_batch(&table.create_sql())?;
            for sql in table.trigger_sql() {
                tx.execute_batch(&sql)?;
            }
            let has_rows: bool =
                tx.query_row("SELECT EXISTS(SELECT 1 FROM messages)", [], |r| r.get(0))?;
            if has_rows {
                tracing::info!("state.db: building {} over existing messages", table.name);
                tx.execute_batch(&table.backfill_sql())?;
            }
        }
        Some(sql) if is_inline_layout(&sql) => {
            let mut missing = false;
            for name in table.trigger_names() {
                missing |= !trigger_exists(tx, &name)?;
            }
            if missing {
                // Rows written while a trigger was absent are not indexed: rebuild.
                tracing::info!("state.db: restoring {} triggers and rebuilding", table.name);
                for sql in table.trigger_sql() {
                    tx.execute_batch(&sql)?;
                }
                tx.execute_batch(&format!("DELETE FROM {}", table.name))?;
                tx.execute_batch(&table.backfill_sql())?;
            }
        }
        Some(_) => {
            // Another layout (Hermes's external-content tables): Hermes maintains it.
        }
    }
    Ok(())
}

/// Our layout: the FTS table stores its own copy of one `content` column.
fn is_inline_layout(sql: &str) -> bool {
    let compact: String = sql
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_lowercase();
    !compact.contains("content=") && !compact.contains("content_rowid")
}

fn ensure_hermes_version(tx: &Transaction<'_>) -> rusqlite::Result<()> {
    if !columns(tx, "schema_version")?.contains("version") {
        return Ok(());
    }
    let rows: i64 = tx.query_row("SELECT COUNT(*) FROM schema_version", [], |r| r.get(0))?;
    if rows == 0 {
        tx.execute(
            "INSERT INTO schema_version (version) VALUES (?1)",
            [schema::HERMES_SCHEMA_VERSION],
        )?;
    }
    Ok(())
}

/// The migration version recorded in `state_meta` (0 when none).
pub(crate) fn recorded_version(conn: &Connection) -> rusqlite::Result<i64> {
    let v: Option<String> = conn
        .query_row(
            "SELECT value FROM state_meta WHERE key = ?1",
            [schema::OUR_VERSION_KEY],
            |r| r.get(0),
        )
        .optional()?
        .flatten();
    Ok(v.and_then(|v| v.trim().parse().ok()).unwrap_or(0))
}

fn run_migrations(tx: &Transaction<'_>) -> rusqlite::Result<()> {
    let from = recorded_version(tx)?;
    for m in MIGRATIONS.iter().filter(|m| m.version > from) {
        tracing::info!("state.db: migration {}: {}", m.version, m.what);
        (m.run)(tx)?;
    }
    let to = from.max(current_version());
    if to != from {
        tx.execute(
            "INSERT INTO state_meta (key, value) VALUES (?1, ?2) \
             ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            rusqlite::params![schema::OUR_VERSION_KEY, to.to_string()],
        )?;
    }
    Ok(())
}

#[cfg(test)]
#[path = "migrate_tests.rs"]
mod tests;
