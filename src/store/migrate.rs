//! Bringing any `state.db` up to the layout Hermes 0.19 and this crate share, without losing
//! anything.
//!
//! Every open runs `migrate` in one IMMEDIATE transaction, doing what Hermes's `_init_schema`
//! does (so whichever program opens the file next finds nothing to change): create missing
//! tables from Hermes's `CREATE TABLE` text, add missing columns (declared by that same text,
//! read back through an in-memory database), create missing indexes, rebuild a v20/v21
//! `session_model_usage` whose primary key lacks `task` (Hermes's v22 step), create the FTS5
//! tables and triggers (backfilling an index created over existing rows), write Hermes's
//! schema version into an empty `schema_version`, then run our numbered migrations newer than
//! the version recorded in `state_meta`.
//!
//! What it never does: DROP a table, column, index or trigger (the v22 rebuild renames, copies
//! every row and drops only the renamed copy, as Hermes does); touch tables it does not know
//! (plugins', Telegram's); change an existing `schema_version` (Hermes's own data migrations
//! key on it); or replace an FTS table of another layout (Hermes ≥ v23's external-content
//! tables are left to Hermes and still answer our `MATCH` queries).

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
const MIGRATIONS: &[Migration] = &[
    Migration {
        version: 1,
        what: "base schema: Hermes tables, indexes and FTS5 (unicode61 + trigram)",
        run: |_| Ok(()),
    },
    Migration {
        version: 2,
        what: "per-model usage rows seeded from session totals (Hermes's v20 step)",
        run: seed_model_usage,
    },
];

/// The newest migration version this build knows.
pub fn current_version() -> i64 {
    MIGRATIONS.iter().map(|m| m.version).max().unwrap_or(0)
}

/// Bring the database up to date. Idempotent.
pub fn migrate(conn: &mut Connection) -> rusqlite::Result<()> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    tx.execute_batch(schema::HERMES_TABLES_SQL)?;
    reconcile_columns(&tx)?;
    for sql in schema::INDEXES {
        if let Err(e) = tx.execute_batch(sql) {
            // An old table that could not gain the column (NOT NULL without a default).
            tracing::warn!("state.db: index skipped ({e}): {sql}");
        }
    }
    ensure_usage_task_key(&tx)?;
    ensure_unique_titles(&tx)?;
    for table in schema::FTS_TABLES {
        ensure_fts(&tx, table)?;
    }
    ensure_hermes_version(&tx)?;
    run_migrations(&tx)?;
    tx.commit()
}

/// The column names of `table`.
pub(crate) fn columns(conn: &Connection, table: &str) -> rusqlite::Result<HashSet<String>> {
    let mut stmt = conn.prepare("SELECT name FROM pragma_table_info(?1)")?;
    let names = stmt
        .query_map([table], |r| r.get::<_, String>(0))?
        .collect::<rusqlite::Result<HashSet<String>>>()?;
    Ok(names)
}

/// `(table, column, ADD COLUMN declaration)` for every column of Hermes's tables, read from
/// the DDL through an in-memory database (as Hermes's `_parse_schema_columns` does), then ours.
pub(crate) fn declared_columns() -> rusqlite::Result<Vec<(String, String, String)>> {
    let reference = Connection::open_in_memory()?;
    reference.execute_batch(schema::HERMES_TABLES_SQL)?;
    let mut tables = reference.prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' \
         ORDER BY rowid",
    )?;
    let tables = tables
        .query_map([], |r| r.get::<_, String>(0))?
        .collect::<rusqlite::Result<Vec<String>>>()?;
    let mut out = Vec::new();
    for table in tables {
        let mut info = reference.prepare(
            "SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(?1) ORDER BY cid",
        )?;
        let rows = info
            .query_map([&table], |r| {
                let name: String = r.get(0)?;
                let kind: String = r.get::<_, Option<String>>(1)?.unwrap_or_default();
                let not_null: bool = r.get(2)?;
                let default: Option<String> = r.get(3)?;
                let pk: i64 = r.get(4)?;
                let mut parts: Vec<String> = Vec::new();
                if !kind.is_empty() {
                    parts.push(kind);
                }
                if not_null && pk == 0 {
                    parts.push("NOT NULL".to_string());
                }
                if let Some(default) = default {
                    parts.push(format!("DEFAULT {default}"));
                }
                Ok((name, parts.join(" ")))
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        out.extend(rows.into_iter().map(|(c, d)| (table.clone(), c, d)));
    }
    out.extend(
        schema::OUR_COLUMNS
            .iter()
            .map(|(t, c, d)| (t.to_string(), c.to_string(), d.to_string())),
    );
    Ok(out)
}

fn reconcile_columns(tx: &Transaction<'_>) -> rusqlite::Result<()> {
    let mut live: std::collections::HashMap<String, HashSet<String>> = Default::default();
    for (table, column, decl) in declared_columns()? {
        if !live.contains_key(&table) {
            live.insert(table.clone(), columns(tx, &table)?);
        }
        if live.get(&table).is_some_and(|have| have.contains(&column)) {
            continue;
        }
        tracing::info!("state.db: adding column {table}.{column}");
        if let Err(e) = tx.execute_batch(&format!(
            "ALTER TABLE \"{table}\" ADD COLUMN \"{column}\" {decl}"
        )) {
            // As Hermes: e.g. NOT NULL without a default cannot be added to a table with rows.
            tracing::warn!("state.db: could not add {table}.{column}: {e}");
        }
    }
    Ok(())
}

/// Hermes's v22 step: a `session_model_usage` without `task` in its primary key (written by
/// Hermes v20/v21) is rebuilt with it, every row kept as main-loop usage (`task = ''`).
fn ensure_usage_task_key(tx: &Transaction<'_>) -> rusqlite::Result<()> {
    let keyed: i64 = tx.query_row(
        "SELECT COUNT(*) FROM pragma_table_info('session_model_usage') \
         WHERE name = 'task' AND pk > 0",
        [],
        |r| r.get(0),
    )?;
    if keyed > 0 {
        return Ok(());
    }
    tracing::info!("state.db: rebuilding session_model_usage with task in its key");
    tx.execute_batch(&format!(
        "ALTER TABLE session_model_usage RENAME TO session_model_usage_v21;
         {create};
         INSERT INTO session_model_usage (
             session_id, model, billing_provider, billing_base_url,
             billing_mode, task, api_call_count, input_tokens,
             output_tokens, cache_read_tokens, cache_write_tokens,
             reasoning_tokens, estimated_cost_usd, actual_cost_usd,
             cost_status, cost_source, first_seen, last_seen
         )
         SELECT session_id, model, billing_provider, billing_base_url,
                billing_mode, '', api_call_count, input_tokens,
                output_tokens, cache_read_tokens, cache_write_tokens,
                reasoning_tokens, estimated_cost_usd, actual_cost_usd,
                cost_status, cost_source, first_seen, last_seen
         FROM session_model_usage_v21;
         DROP TABLE session_model_usage_v21;
         CREATE INDEX IF NOT EXISTS idx_session_model_usage_session
             ON session_model_usage(session_id);
         CREATE INDEX IF NOT EXISTS idx_session_model_usage_model
             ON session_model_usage(model);",
        create = schema::SESSION_MODEL_USAGE_V22
    ))
}

/// Migration 2: when Hermes's own v20 seed has not run on this file (its `schema_version` is
/// below 20, e.g. a database an older hermes created), seed it the same way, so sessions
/// written before per-call rows existed count in Hermes's per-model usage. Python repeating it
/// later is a no-op (`INSERT OR IGNORE` on the same keys).
fn seed_model_usage(tx: &Transaction<'_>) -> rusqlite::Result<()> {
    let version: Option<i64> = tx
        .query_row("SELECT MAX(version) FROM schema_version", [], |r| r.get(0))
        .optional()?
        .flatten();
    if version.is_some_and(|v| v < 20) {
        tx.execute_batch(schema::SEED_MODEL_USAGE_V20)?;
    }
    Ok(())
}

/// Hermes keeps titles unique; an older database with duplicate titles keeps working without
/// the index (Hermes would clear the older titles; we never change rows on open).
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
            tx.execute_batch(table.ddl)?;
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
                tx.execute_batch(table.ddl)?;
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

/// What to tell the user about a database a newer program wrote (checked before migrating):
/// its Hermes `schema_version` or our recorded migration is newer than this build knows.
/// hermes keeps working with it (it changes nothing it does not know, and never lowers a
/// version), so this is a warning, not a refusal.
pub fn newer_schema_notice(conn: &Connection) -> rusqlite::Result<Option<String>> {
    let has = |table: &str| -> rusqlite::Result<bool> {
        conn.query_row(
            "SELECT EXISTS(SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1)",
            [table],
            |r| r.get(0),
        )
    };
    if has("schema_version")? && columns(conn, "schema_version")?.contains("version") {
        let theirs: Option<i64> =
            conn.query_row("SELECT MAX(version) FROM schema_version", [], |r| r.get(0))?;
        if let Some(v) = theirs.filter(|v| *v > schema::HERMES_SCHEMA_VERSION) {
            return Ok(Some(format!(
                "state.db was written by a newer Hermes (schema v{v}; this hermes knows v{}): \
                 sessions are still saved, but update hermes if anything looks wrong",
                schema::HERMES_SCHEMA_VERSION
            )));
        }
    }
    if has("state_meta")? {
        let ours = recorded_version(conn)?;
        if ours > current_version() {
            return Ok(Some(format!(
                "state.db was written by a newer hermes (migration {ours}; this one knows {}): \
                 sessions are still saved, but update hermes if anything looks wrong",
                current_version()
            )));
        }
    }
    Ok(None)
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
