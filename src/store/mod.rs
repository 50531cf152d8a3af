//! The session store: sessions, messages, per-model usage and `state_meta` in SQLite at
//! `HERMES_HOME/state.db`, in Hermes 0.19's layout so Hermes and hermes can share the file
//! (see `schema`).
//!
//! `SessionStore` owns one `rusqlite::Connection` behind a `std::sync::Mutex`. **Every method
//! is synchronous and may block** (disk I/O, or up to the 5 s busy timeout while another
//! process writes): async callers run them in `tokio::task::spawn_blocking`. The store is
//! `Send + Sync`; share it as `Arc<SessionStore>`.
//!
//! Invariants: WAL journal, `synchronous = FULL`, foreign keys on. Each `append_message` is its
//! own committed transaction, so after a crash (even `kill -9`) the database passes
//! `PRAGMA integrity_check` and holds every message whose append returned. Nothing in this
//! module drops tables or columns it does not know. A file that is not a database (or is
//! corrupt) gives `StoreError::Corrupt` naming the path; callers then run without persistence.
//! The store does no LLM calls and no formatting for the model (that is `tools::session_search`).

pub mod cli;
pub mod export;
pub mod messages;
pub mod migrate;
pub mod repair;
pub mod resume;
pub mod schema;
pub mod search;
pub mod sessions;
pub mod time;
pub mod types;
pub mod usage;

#[cfg(test)]
pub(crate) mod test_support;

use std::path::Path;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::MutexGuard;
use std::time::Duration;

use rusqlite::Connection;
use rusqlite::ErrorCode;

pub use search::SearchHit;
pub use search::SearchMode;
pub use search::SearchRequest;
pub use search::SearchResults;
pub use types::EndReason;
pub use types::Hidden;
pub use types::ListQuery;
pub use types::MessageRow;
pub use types::NewSession;
pub use types::SessionRow;
pub use types::SessionSummary;
pub use types::Source;
pub use types::StoredMessage;
pub use types::UsageTotals;
pub use usage::AuxTask;
pub use usage::BillingRoute;
pub use usage::CallTokens;

/// How long a statement waits for another writer before failing with "database is locked".
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error(
        "the session database {} is unreadable ({detail}); move it aside (e.g. `mv {} {}.corrupt`) \
         and restart hermes to start a fresh one — until then sessions are not saved",
        path.display(), path.display(), path.display()
    )]
    Corrupt { path: PathBuf, detail: String },
    #[error("cannot open the session database {}: {source}", path.display())]
    Open {
        path: PathBuf,
        source: rusqlite::Error,
    },
    #[error("cannot create the directory for {}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("session database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("session data is not valid JSON: {0}")]
    Json(#[from] serde_json::Error),
    #[error("no session matches {0:?}")]
    NotFound(String),
    #[error("{key:?} matches several sessions ({}); give more of the id", matches.join(", "))]
    Ambiguous { key: String, matches: Vec<String> },
    #[error("a session with id {0:?} already exists")]
    AlreadyExists(String),
    #[error("the title {0:?} is already used by another session")]
    TitleInUse(String),
    #[error("search syntax error: {0} — try plain words")]
    SearchSyntax(String),
}

impl StoreError {
    /// Another connection holds the database locked (SQLite's BUSY or LOCKED, after the busy
    /// timeout): worth retrying later, unlike every other error.
    pub fn is_locked(&self) -> bool {
        let (Self::Sqlite(sqlite) | Self::Open { source: sqlite, .. }) = self else {
            return false;
        };
        matches!(
            sqlite.sqlite_error_code(),
            Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
        )
    }
}

pub type Result<T, E = StoreError> = std::result::Result<T, E>;

/// True for "file is not a database" and "database disk image is malformed".
pub fn is_corruption(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(ErrorCode::NotADatabase | ErrorCode::DatabaseCorrupt)
    )
}

pub struct SessionStore {
    conn: Mutex<Connection>,
    path: PathBuf,
    /// Set at open when a newer program wrote the file (`migrate::newer_schema_notice`).
    schema_notice: Option<String>,
}

impl std::fmt::Debug for SessionStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SessionStore")
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

impl SessionStore {
    /// Open (creating if needed) the database at `path` and migrate it. Blocking.
    pub fn open(path: &Path) -> Result<Self> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|source| StoreError::Io {
                path: path.to_path_buf(),
                source,
            })?;
        }
        let conn = Connection::open(path).map_err(|source| classify(path, source))?;
        let store = Self::init(conn, path).map_err(|e| match e {
            StoreError::Sqlite(source) => classify(path, source),
            other => other,
        })?;
        restrict_permissions(path);
        Ok(store)
    }

    /// The database at `path` for reading only, where it cannot be opened for writing (a
    /// read-only `HERMES_HOME`): opened `immutable` (SQLite then needs no `-shm` file, which a
    /// read-only directory cannot hold), never migrated or written. A missing file reads as
    /// an empty store. Blocking.
    pub fn open_read_only(path: &Path) -> Result<Self> {
        if !path.exists() {
            return Self::open_in_memory();
        }
        let mut uri = reqwest::Url::from_file_path(path).map_err(|()| StoreError::Open {
            path: path.to_path_buf(),
            source: rusqlite::Error::InvalidPath(path.to_path_buf()),
        })?;
        uri.set_query(Some("immutable=1"));
        let flags =
            rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_URI;
        let conn = Connection::open_with_flags(uri.as_str(), flags)
            .map_err(|source| classify(path, source))?;
        conn.query_row("SELECT COUNT(*) FROM sqlite_master", [], |r| {
            r.get::<_, i64>(0)
        })
        .map_err(|source| classify(path, source))?;
        let schema_notice = migrate::newer_schema_notice(&conn)?;
        Ok(Self {
            conn: Mutex::new(conn),
            path: path.to_path_buf(),
            schema_notice,
        })
    }

    /// A private in-memory database (tests, benchmarks, `--no-persist` style runs).
    pub fn open_in_memory() -> Result<Self> {
        let conn = Connection::open_in_memory()?;
        Self::init(conn, Path::new(":memory:"))
    }

    fn init(mut conn: Connection, path: &Path) -> Result<Self> {
        conn.busy_timeout(BUSY_TIMEOUT)?;
        // Fails here with NotADatabase for a file that is not SQLite.
        conn.query_row("SELECT COUNT(*) FROM sqlite_master", [], |r| {
            r.get::<_, i64>(0)
        })?;
        let mode: String =
            conn.pragma_update_and_check(None, "journal_mode", "WAL", |r| r.get(0))?;
        if !mode.eq_ignore_ascii_case("wal") && path != Path::new(":memory:") {
            tracing::warn!("state.db: journal_mode is {mode}, not WAL");
        }
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", true)?;
        conn.set_prepared_statement_cache_capacity(64);
        let schema_notice = migrate::newer_schema_notice(&conn)?;
        if let Some(notice) = &schema_notice {
            tracing::warn!("{notice}");
        }
        migrate::migrate(&mut conn)?;
        Ok(Self {
            conn: Mutex::new(conn),
            path: path.to_path_buf(),
            schema_notice,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// A warning for the user when a newer Hermes or hermes wrote this database; said once,
    /// at start-up.
    pub fn schema_notice(&self) -> Option<&str> {
        self.schema_notice.as_deref()
    }

    /// The connection. A poisoned lock is taken over: SQLite rolled back whatever the
    /// panicking holder had open, so the connection is consistent.
    pub(crate) fn conn(&self) -> MutexGuard<'_, Connection> {
        self.conn
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// `PRAGMA integrity_check`: `"ok"` or the problems found.
    pub fn integrity_check(&self) -> Result<String> {
        let conn = self.conn();
        let mut stmt = conn.prepare("PRAGMA integrity_check")?;
        let lines = stmt
            .query_map([], |r| r.get::<_, String>(0))?
            .collect::<rusqlite::Result<Vec<String>>>()?;
        Ok(lines.join("\n"))
    }

    /// A value from `state_meta`.
    pub fn meta_get(&self, key: &str) -> Result<Option<String>> {
        use rusqlite::OptionalExtension;
        let conn = self.conn();
        let v = conn
            .query_row("SELECT value FROM state_meta WHERE key = ?1", [key], |r| {
                r.get::<_, Option<String>>(0)
            })
            .optional()?;
        Ok(v.flatten())
    }

    /// Set a `state_meta` value (committed at once).
    pub fn meta_set(&self, key: &str, value: &str) -> Result<()> {
        let conn = self.conn();
        conn.execute(
            "INSERT INTO state_meta (key, value) VALUES (?1, ?2) \
             ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            [key, value],
        )?;
        Ok(())
    }
}

fn classify(path: &Path, source: rusqlite::Error) -> StoreError {
    if is_corruption(&source) {
        StoreError::Corrupt {
            path: path.to_path_buf(),
            detail: source.to_string(),
        }
    } else {
        StoreError::Open {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// `state.db` and its WAL files hold conversations: owner-only, as Hermes does.
fn restrict_permissions(path: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        for suffix in ["", "-wal", "-shm"] {
            let mut p = path.as_os_str().to_owned();
            p.push(suffix);
            let p = PathBuf::from(p);
            if let Ok(meta) = std::fs::symlink_metadata(&p)
                && meta.is_file()
                && meta.permissions().mode() & 0o077 != 0
            {
                let _ = std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o600));
            }
        }
    }
    #[cfg(not(unix))]
    let _ = path;
}

#[cfg(test)]
#[path = "durability_tests.rs"]
mod durability_tests;
