//! `HERMES_HOME/auth.json`, the credential store hermes shares with Python Hermes: reading and
//! writing it in Hermes's exact format, under the same advisory lock, so a login made by either
//! program works in both.
//!
//! The file is a JSON object: `version` (1), `providers` (one state object per OAuth provider,
//! e.g. `providers.nous`), `active_provider` (the provider last logged in to), `updated_at`,
//! and entries hermes does not own (`credential_pool`, `suppressed_sources`, other providers,
//! unknown keys). The whole document is kept as JSON and only the keys a caller changes are
//! touched, so nothing another program wrote is lost. Writes replace the file atomically with
//! mode 0600 (the temp file is created 0600, never briefly readable), fsync the directory and
//! tighten the directory to 0700 as Hermes does. Read-modify-write cycles hold an exclusive
//! `flock` on `auth.lock` beside the file — the lock Python Hermes takes (`fcntl.flock` on
//! `auth.json.with_suffix(".lock")`).
//!
//! What it does not do: talk to a network or refresh tokens (`providers::nous_login` does),
//! or interpret provider states beyond the Nous view in `auth_store_nous`. Invariants: tokens
//! never reach `Debug` output or errors (the document's `Debug` lists keys only); a corrupt
//! file is never silently overwritten — callers either refuse or back it up first.

use std::path::Path;
use std::path::PathBuf;
use std::time::Duration;

use serde_json::Map;
use serde_json::Value;

use super::HermesHome;
use crate::util::file_lock::FileLock;
use crate::util::fs::FileMode;
use crate::util::fs::atomic_write;

/// `version` Hermes writes (`AUTH_STORE_VERSION`).
pub const AUTH_STORE_VERSION: u64 = 1;
/// How long a writer waits for the lock (`AUTH_LOCK_TIMEOUT_SECONDS`).
pub const AUTH_LOCK_TIMEOUT: Duration = Duration::from_secs(15);
/// Moves the shared Nous store (`HERMES_SHARED_AUTH_DIR`), as in Hermes.
pub const SHARED_AUTH_DIR_ENV: &str = "HERMES_SHARED_AUTH_DIR";

#[derive(Debug, thiserror::Error)]
pub enum AuthStoreError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path} is not a valid auth store ({source})")]
    Corrupt {
        path: PathBuf,
        #[source]
        source: AuthDocError,
    },
    #[error(
        "timed out after {secs}s waiting for the lock {path} (another hermes or Hermes process is updating the credentials)"
    )]
    LockTimeout { path: PathBuf, secs: u64 },
}

/// Why an `auth.json` document cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum AuthDocError {
    #[error(transparent)]
    Json(#[from] serde_json::Error),
    #[error("the top level is not a JSON object")]
    NotAnObject,
}

impl AuthStoreError {
    fn io(path: &Path, source: std::io::Error) -> Self {
        Self::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// Where the credential files live for one home.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthPaths {
    /// The active home's `auth.json`.
    pub auth_file: PathBuf,
    /// The Hermes root's `auth.json` when the active home is a profile below that root: Hermes
    /// reads a provider from there when the profile has none, and writes a refreshed login
    /// back to the store it came from.
    pub root_auth_file: Option<PathBuf>,
    /// `<root>/shared/nous_auth.json` (or `$HERMES_SHARED_AUTH_DIR/nous_auth.json`): the
    /// cross-profile copy of the Nous tokens Hermes keeps in step with every login and refresh.
    pub shared_nous_file: PathBuf,
}

impl AuthPaths {
    /// The paths Python Hermes would use for `home`, with `env` for `HERMES_SHARED_AUTH_DIR`.
    pub fn for_home(home: &HermesHome, env: &dyn Fn(&str) -> Option<String>) -> Self {
        let native = dirs::home_dir().map(|h| h.join(".hermes"));
        let root = hermes_root(home.root(), native.as_deref());
        let shared_dir = match env(SHARED_AUTH_DIR_ENV).filter(|v| !v.trim().is_empty()) {
            Some(dir) => expand_tilde(dir.trim()),
            None => root.join("shared"),
        };
        let root_auth_file = (!same_path(&root, home.root())).then(|| root.join(AUTH_FILE_NAME));
        Self {
            auth_file: home.auth_path(),
            root_auth_file,
            shared_nous_file: shared_dir.join("nous_auth.json"),
        }
    }
}

const AUTH_FILE_NAME: &str = "auth.json";

/// `get_default_hermes_root()`: the native home when `active` is inside it (a profile of the
/// default home), the grandparent of `<root>/profiles/<name>`, else `active` itself.
fn hermes_root(active: &Path, native: Option<&Path>) -> PathBuf {
    if let Some(native) = native
        && canonical(active).starts_with(canonical(native))
    {
        return native.to_path_buf();
    }
    match active.parent() {
        Some(parent) if parent.file_name().is_some_and(|n| n == "profiles") => parent
            .parent()
            .map_or_else(|| active.to_path_buf(), Path::to_path_buf),
        _ => active.to_path_buf(),
    }
}

fn canonical(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

fn same_path(a: &Path, b: &Path) -> bool {
    canonical(a) == canonical(b)
}

fn expand_tilde(value: &str) -> PathBuf {
    match (value.strip_prefix("~/"), dirs::home_dir()) {
        (Some(rest), Some(home)) => home.join(rest),
        _ if value == "~" => dirs::home_dir().unwrap_or_else(|| PathBuf::from(value)),
        _ => PathBuf::from(value),
    }
}

/// The lock file Hermes uses for a store: `auth.json` → `auth.lock`.
pub fn lock_path_for(store: &Path) -> PathBuf {
    store.with_extension("lock")
}

/// Takes the exclusive lock of `store` (creating its directory and lock file), waiting up to
/// [`AUTH_LOCK_TIMEOUT`]. Blocking: async callers run it on a blocking thread.
pub fn lock_store(store: &Path) -> Result<FileLock, AuthStoreError> {
    let lock = lock_path_for(store);
    if let Some(dir) = lock.parent() {
        std::fs::create_dir_all(dir).map_err(|e| AuthStoreError::io(dir, e))?;
    }
    FileLock::acquire(&lock, AUTH_LOCK_TIMEOUT).map_err(|e| match e.kind() {
        std::io::ErrorKind::TimedOut => AuthStoreError::LockTimeout {
            path: lock.clone(),
            secs: AUTH_LOCK_TIMEOUT.as_secs(),
        },
        _ => AuthStoreError::io(&lock, e),
    })
}

/// Whether a write also sets `active_provider`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Activate {
    /// A login: the provider becomes `active_provider` (Hermes's `_save_provider_state`).
    Yes,
    /// A token refresh or other bookkeeping: `active_provider` is left alone.
    No,
}

/// The whole `auth.json` document.
#[derive(Clone, PartialEq, Default)]
pub struct AuthStore {
    doc: Map<String, Value>,
}

impl std::fmt::Debug for AuthStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Keys only: every value below `providers` or `credential_pool` may hold a token.
        f.debug_struct("AuthStore")
            .field("keys", &self.doc.keys().collect::<Vec<_>>())
            .finish()
    }
}

impl AuthStore {
    /// What Hermes starts from when there is no file: `{"version": 1, "providers": {}}`.
    pub fn empty() -> Self {
        let mut doc = Map::new();
        doc.insert("version".into(), Value::from(AUTH_STORE_VERSION));
        doc.insert("providers".into(), Value::Object(Map::new()));
        Self { doc }
    }

    /// Reads `path`; a missing file is an empty store, an unparsable one an error.
    pub fn read(path: &Path) -> Result<Self, AuthStoreError> {
        match std::fs::read_to_string(path) {
            Ok(text) => Self::parse(&text).map_err(|source| AuthStoreError::Corrupt {
                path: path.to_path_buf(),
                source,
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Self::empty()),
            Err(e) => Err(AuthStoreError::io(path, e)),
        }
    }

    /// Like [`read`](Self::read), but a corrupt file is first copied to `auth.json.corrupt`
    /// (as Hermes does) and an empty store returned with the backup's path, so a new login can
    /// proceed without destroying what was there.
    pub fn read_or_back_up(path: &Path) -> Result<(Self, Option<PathBuf>), AuthStoreError> {
        match Self::read(path) {
            Ok(store) => Ok((store, None)),
            Err(AuthStoreError::Corrupt { .. }) => {
                let backup = path.with_extension("json.corrupt");
                std::fs::copy(path, &backup).map_err(|e| AuthStoreError::io(&backup, e))?;
                Ok((Self::empty(), Some(backup)))
            }
            Err(other) => Err(other),
        }
    }

    /// Parses a document, applying Hermes's load-time fix-ups: a missing `providers` object
    /// is added, the pre-release `systems.nous_portal` layout becomes `providers.nous`, and a
    /// stale Nous portal host is replaced by the current one.
    pub fn parse(text: &str) -> Result<Self, AuthDocError> {
        let value: Value = serde_json::from_str(text)?;
        // Tokens read from the store join the registry of known secrets (no output shows them).
        crate::util::redact::register_secrets_in_json(&value);
        let Value::Object(mut doc) = value else {
            return Err(AuthDocError::NotAnObject);
        };
        let has_providers = doc.get("providers").is_some_and(Value::is_object);
        let has_pool = doc.get("credential_pool").is_some_and(Value::is_object);
        if !has_providers && !has_pool {
            let legacy = doc
                .get("systems")
                .and_then(|s| s.get("nous_portal"))
                .filter(|s| s.is_object())
                .cloned();
            let mut providers = Map::new();
            if let Some(nous) = legacy {
                providers.insert("nous".into(), nous);
                doc.insert("active_provider".into(), Value::from("nous"));
            }
            doc.insert("providers".into(), Value::Object(providers));
        }
        if !doc.get("providers").is_some_and(Value::is_object) {
            doc.insert("providers".into(), Value::Object(Map::new()));
        }
        let mut store = Self { doc };
        super::auth_store_nous::migrate_stale_portal(&mut store);
        Ok(store)
    }

    /// Writes the document to `path` the way Hermes does: `version` and `updated_at` set,
    /// two-space JSON with a final newline, atomic replace at mode 0600, directory fsynced
    /// and tightened to 0700.
    pub fn write(&mut self, path: &Path) -> Result<(), AuthStoreError> {
        self.doc
            .insert("version".into(), Value::from(AUTH_STORE_VERSION));
        self.doc.insert(
            "updated_at".into(),
            Value::from(super::auth_store_nous::now_iso()),
        );
        let mut text =
            serde_json::to_string_pretty(&Value::Object(self.doc.clone())).map_err(|e| {
                AuthStoreError::Corrupt {
                    path: path.to_path_buf(),
                    source: e.into(),
                }
            })?;
        text.push('\n');
        write_private(path, text.as_bytes())
    }

    /// `active_provider`, if set to a non-empty string.
    pub fn active_provider(&self) -> Option<&str> {
        self.doc
            .get("active_provider")
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty())
    }

    /// Sets (or, with `None`, clears to `null` as Hermes does) `active_provider`.
    pub fn set_active_provider(&mut self, provider: Option<&str>) {
        let value = provider.map_or(Value::Null, Value::from);
        self.doc.insert("active_provider".into(), value);
    }

    /// `providers.<id>`, if it is an object.
    pub fn provider(&self, id: &str) -> Option<&Map<String, Value>> {
        self.doc.get("providers")?.get(id)?.as_object()
    }

    /// Replaces `providers.<id>`; with [`Activate::Yes`] it also becomes `active_provider`.
    pub fn set_provider(&mut self, id: &str, state: Map<String, Value>, activate: Activate) {
        let providers = self
            .doc
            .entry("providers")
            .or_insert_with(|| Value::Object(Map::new()));
        if !providers.is_object() {
            *providers = Value::Object(Map::new());
        }
        if let Value::Object(providers) = providers {
            providers.insert(id.to_string(), Value::Object(state));
        }
        if activate == Activate::Yes {
            self.set_active_provider(Some(id));
        }
    }

    /// What `hermes logout <id>` removes (Hermes's `clear_provider_auth`): `providers.<id>`,
    /// `credential_pool.<id>`, and `active_provider` when it names `id`. True if anything
    /// changed.
    pub fn remove_login(&mut self, id: &str) -> bool {
        let mut changed = false;
        for section in ["providers", "credential_pool"] {
            if let Some(Value::Object(map)) = self.doc.get_mut(section) {
                changed |= map.remove(id).is_some();
            }
        }
        if self.active_provider() == Some(id) {
            self.set_active_provider(None);
            changed = true;
        }
        changed
    }

    /// Drops `source` from `suppressed_sources.<provider>` (a user who logs in again wants
    /// the login used), removing emptied entries as Hermes does. True if it was there.
    pub fn unsuppress_source(&mut self, provider: &str, source: &str) -> bool {
        let Some(Value::Object(suppressed)) = self.doc.get_mut("suppressed_sources") else {
            return false;
        };
        let Some(Value::Array(list)) = suppressed.get_mut(provider) else {
            return false;
        };
        let before = list.len();
        list.retain(|v| v.as_str() != Some(source));
        let removed = list.len() != before;
        if list.is_empty() {
            suppressed.remove(provider);
        }
        if suppressed.is_empty() {
            self.doc.remove("suppressed_sources");
        }
        removed
    }

    /// Removes `credential_pool.<provider>` entries whose `source` is one of `sources`
    /// (Hermes's quarantine of pool copies of a dead login). True if any went.
    pub fn remove_pool_entries(&mut self, provider: &str, sources: &[&str]) -> bool {
        let Some(Value::Array(entries)) = self
            .doc
            .get_mut("credential_pool")
            .and_then(|pool| pool.get_mut(provider))
        else {
            return false;
        };
        let before = entries.len();
        entries.retain(|entry| {
            let source = entry.get("source").and_then(Value::as_str);
            !source.is_some_and(|s| sources.contains(&s))
        });
        entries.len() != before
    }

    /// The raw document (tests and diagnostics; values may hold tokens).
    pub fn as_json(&self) -> &Map<String, Value> {
        &self.doc
    }
}

/// Atomic 0600 write, directory fsync, and Hermes's `secure_parent_dir` (0700 on the
/// directory unless it is `/` or a top-level directory).
pub(crate) fn write_private(path: &Path, contents: &[u8]) -> Result<(), AuthStoreError> {
    atomic_write(path, contents, FileMode::Exactly(0o600))
        .map_err(|e| AuthStoreError::io(path, e))?;
    if let Some(dir) = path.parent() {
        // Best effort, as in Hermes: durability and tightening must not fail a login.
        if let Ok(handle) = std::fs::File::open(dir) {
            let _ = handle.sync_all();
        }
        let resolved = canonical(dir);
        if resolved.components().count() >= 3 {
            let _ = crate::util::fs::set_mode(&resolved, 0o700);
        }
    }
    Ok(())
}

#[cfg(test)]
#[path = "auth_store_tests.rs"]
mod tests;
