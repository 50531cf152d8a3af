//! The SQL of `state.db`, modelled on Hermes's `hermes_state.py` (schema version 16) so the two
//! programs can share one database: table and column names, index names, the FTS5 tables and
//! the trigger names are Hermes's.
//!
//! Only DDL lives here; `migrate` decides what to run. Invariants: every statement is
//! idempotent (`IF NOT EXISTS`); nothing here drops anything. The column lists are what
//! `migrate` adds to an existing table that lacks them, so each entry must be valid in
//! `ALTER TABLE … ADD COLUMN` (no PRIMARY KEY, no NOT NULL without a default).

/// The value written to Hermes's `schema_version` table when it is empty. Never lowered.
pub const HERMES_SCHEMA_VERSION: i64 = 16;

/// `state_meta` key holding this crate's own migration version.
pub const OUR_VERSION_KEY: &str = "hermes_rs_schema_version";

pub const CREATE_SCHEMA_VERSION: &str =
    "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)";

pub const CREATE_SESSIONS: &str = "
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    source TEXT NOT NULL,
    user_id TEXT,
    model TEXT,
    model_config TEXT,
    system_prompt TEXT,
    parent_session_id TEXT,
    started_at REAL NOT NULL,
    ended_at REAL,
    end_reason TEXT,
    message_count INTEGER DEFAULT 0,
    tool_call_count INTEGER DEFAULT 0,
    input_tokens INTEGER DEFAULT 0,
    output_tokens INTEGER DEFAULT 0,
    cache_read_tokens INTEGER DEFAULT 0,
    cache_write_tokens INTEGER DEFAULT 0,
    reasoning_tokens INTEGER DEFAULT 0,
    cwd TEXT,
    billing_provider TEXT,
    billing_base_url TEXT,
    billing_mode TEXT,
    estimated_cost_usd REAL,
    actual_cost_usd REAL,
    cost_status TEXT,
    cost_source TEXT,
    pricing_version TEXT,
    title TEXT,
    api_call_count INTEGER DEFAULT 0,
    handoff_state TEXT,
    handoff_platform TEXT,
    handoff_error TEXT,
    rewind_count INTEGER DEFAULT 0,
    archived INTEGER DEFAULT 0,
    FOREIGN KEY (parent_session_id) REFERENCES sessions(id)
)";

/// `sessions` columns and their `ADD COLUMN` declarations.
pub const SESSION_COLUMNS: &[(&str, &str)] = &[
    ("id", "TEXT"),
    ("source", "TEXT"),
    ("user_id", "TEXT"),
    ("model", "TEXT"),
    ("model_config", "TEXT"),
    ("system_prompt", "TEXT"),
    ("parent_session_id", "TEXT"),
    ("started_at", "REAL"),
    ("ended_at", "REAL"),
    ("end_reason", "TEXT"),
    ("message_count", "INTEGER DEFAULT 0"),
    ("tool_call_count", "INTEGER DEFAULT 0"),
    ("input_tokens", "INTEGER DEFAULT 0"),
    ("output_tokens", "INTEGER DEFAULT 0"),
    ("cache_read_tokens", "INTEGER DEFAULT 0"),
    ("cache_write_tokens", "INTEGER DEFAULT 0"),
    ("reasoning_tokens", "INTEGER DEFAULT 0"),
    ("cwd", "TEXT"),
    ("billing_provider", "TEXT"),
    ("billing_base_url", "TEXT"),
    ("billing_mode", "TEXT"),
    ("estimated_cost_usd", "REAL"),
    ("actual_cost_usd", "REAL"),
    ("cost_status", "TEXT"),
    ("cost_source", "TEXT"),
    ("pricing_version", "TEXT"),
    ("title", "TEXT"),
    ("api_call_count", "INTEGER DEFAULT 0"),
    ("handoff_state", "TEXT"),
    ("handoff_platform", "TEXT"),
    ("handoff_error", "TEXT"),
    ("rewind_count", "INTEGER DEFAULT 0"),
    ("archived", "INTEGER DEFAULT 0"),
];

pub const CREATE_MESSAGES: &str = "
CREATE TABLE IF NOT EXISTS messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL REFERENCES sessions(id),
    role TEXT NOT NULL,
    content TEXT,
    tool_call_id TEXT,
    tool_calls TEXT,
    tool_name TEXT,
    timestamp REAL NOT NULL,
    token_count INTEGER,
    finish_reason TEXT,
    reasoning TEXT,
    reasoning_content TEXT,
    reasoning_details TEXT,
    codex_reasoning_items TEXT,
    codex_message_items TEXT,
    platform_message_id TEXT,
    observed INTEGER DEFAULT 0,
    active INTEGER NOT NULL DEFAULT 1,
    images TEXT
)";

/// `messages` columns and their `ADD COLUMN` declarations.
pub const MESSAGE_COLUMNS: &[(&str, &str)] = &[
    ("id", "INTEGER"),
    ("session_id", "TEXT"),
    ("role", "TEXT"),
    ("content", "TEXT"),
    ("tool_call_id", "TEXT"),
    ("tool_calls", "TEXT"),
    ("tool_name", "TEXT"),
    ("timestamp", "REAL"),
    ("token_count", "INTEGER"),
    ("finish_reason", "TEXT"),
    ("reasoning", "TEXT"),
    ("reasoning_content", "TEXT"),
    ("reasoning_details", "TEXT"),
    ("codex_reasoning_items", "TEXT"),
    ("codex_message_items", "TEXT"),
    ("platform_message_id", "TEXT"),
    ("observed", "INTEGER DEFAULT 0"),
    ("active", "INTEGER NOT NULL DEFAULT 1"),
    // Ours: a JSON array of the image files sent with a message (never the pixels).
    ("images", "TEXT"),
];

pub const CREATE_STATE_META: &str =
    "CREATE TABLE IF NOT EXISTS state_meta (key TEXT PRIMARY KEY, value TEXT)";

/// Hermes's indexes (same names), plus `idx_messages_session_id`: messages are read in `id`
/// order per session (history, windows), which no Hermes v16 index serves. The unique title
/// index is separate: an old database may hold duplicate titles, and then it cannot be created.
pub const INDEXES: &[&str] = &[
    "CREATE INDEX IF NOT EXISTS idx_sessions_source ON sessions(source)",
    "CREATE INDEX IF NOT EXISTS idx_sessions_source_id ON sessions(source, id)",
    "CREATE INDEX IF NOT EXISTS idx_sessions_parent ON sessions(parent_session_id)",
    "CREATE INDEX IF NOT EXISTS idx_sessions_started ON sessions(started_at DESC)",
    "CREATE INDEX IF NOT EXISTS idx_messages_session ON messages(session_id, timestamp)",
    "CREATE INDEX IF NOT EXISTS idx_messages_session_active ON messages(session_id, active, timestamp)",
    "CREATE INDEX IF NOT EXISTS idx_messages_session_id ON messages(session_id, id)",
];

pub const UNIQUE_TITLE_INDEX: &str = "CREATE UNIQUE INDEX IF NOT EXISTS idx_sessions_title_unique \
     ON sessions(title) WHERE title IS NOT NULL";

/// The text one message contributes to both FTS indexes.
pub const FTS_TEXT_NEW: &str = "COALESCE(new.content, '') || ' ' || COALESCE(new.tool_name, '') \
     || ' ' || COALESCE(new.tool_calls, '')";

/// The same over a `messages` row in a plain SELECT (backfill).
pub const FTS_TEXT_ROW: &str =
    "COALESCE(content, '') || ' ' || COALESCE(tool_name, '') || ' ' || COALESCE(tool_calls, '')";

/// One FTS5 table over `messages` (Hermes's inline layout: the table keeps its own copy of the
/// text, `rowid` = `messages.id`).
pub struct FtsTable {
    pub name: &'static str,
    /// `fts5(...)` arguments.
    pub args: &'static str,
}

pub const FTS_TABLES: &[FtsTable] = &[
    FtsTable {
        name: "messages_fts",
        args: "content",
    },
    FtsTable {
        name: "messages_fts_trigram",
        args: "content, tokenize='trigram'",
    },
];

impl FtsTable {
    pub fn create_sql(&self) -> String {
        format!(
            "CREATE VIRTUAL TABLE IF NOT EXISTS {} USING fts5({})",
            self.name, self.args
        )
    }

    /// Names of the insert, delete and update triggers (Hermes's names).
    pub fn trigger_names(&self) -> [String; 3] {
        [
            format!("{}_insert", self.name),
            format!("{}_delete", self.name),
            format!("{}_update", self.name),
        ]
    }

    /// The three triggers that keep the table in step with `messages`. The update trigger
    /// fires only for the indexed columns, so `active` changes (undo) cost nothing.
    pub fn trigger_sql(&self) -> [String; 3] {
        let t = self.name;
        [
            format!(
                "CREATE TRIGGER IF NOT EXISTS {t}_insert AFTER INSERT ON messages BEGIN \
                 INSERT INTO {t}(rowid, content) VALUES (new.id, {FTS_TEXT_NEW}); END"
            ),
            format!(
                "CREATE TRIGGER IF NOT EXISTS {t}_delete AFTER DELETE ON messages BEGIN \
                 DELETE FROM {t} WHERE rowid = old.id; END"
            ),
            format!(
                "CREATE TRIGGER IF NOT EXISTS {t}_update \
                 AFTER UPDATE OF content, tool_name, tool_calls ON messages BEGIN \
                 DELETE FROM {t} WHERE rowid = old.id; \
                 INSERT INTO {t}(rowid, content) VALUES (new.id, {FTS_TEXT_NEW}); END"
            ),
        ]
    }

    /// Re-fill the table from `messages` (after creating it over existing rows).
    pub fn backfill_sql(&self) -> String {
        format!(
            "INSERT INTO {t}(rowid, content) SELECT id, {FTS_TEXT_ROW} FROM messages",
            t = self.name
        )
    }
}
