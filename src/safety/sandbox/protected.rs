//! The paths a confined command must not touch however the writable roots are set: secrets
//! hermes keeps (no access at all), and files whose change would outlive the command or
//! raise its power (read-only) — SSH and GnuPG keys, shell start-up files, credential stores,
//! hermes's settings, database, skills and hooks.
//!
//! The home-relative lists are `safety::paths`'s (the same ones the file tools' write check
//! uses), so the sandbox and the approvals never disagree about what is sensitive. It does not
//! touch the filesystem beyond listing `<hermes_home>/profiles`.

use std::path::Path;
use std::path::PathBuf;

use crate::safety::classify::ShellContext;
use crate::safety::paths::CREDENTIALS;
use crate::safety::paths::SHELL_RC;

/// What a confined command may do with a special path (and everything under it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum SpecialAccess {
    /// Not even read: secrets.
    None,
    /// Read, never write, create, rename or remove.
    ReadOnly,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecialPath {
    pub path: PathBuf,
    pub access: SpecialAccess,
}

/// Secrets in a hermes home (and in each of its profiles): API keys and login tokens.
const SECRET_FILES: &[&str] = &[".env", "auth.json", "auth.lock"];
/// hermes's own state in a hermes home that commands may read but never change.
const HERMES_READ_ONLY: &[&str] = &[
    "config.yaml",
    "state.db",
    "state.db-wal",
    "state.db-shm",
    "state.db-journal",
    "skills",
    "hooks",
    "shell-hooks-allowlist.json",
    "SOUL.md",
];
/// Key stores under the home, read-only even though they are not in `CREDENTIALS`.
const KEY_DIRS: &[&str] = &[".ssh"];

/// Every special path for a command run in `cwd`.
pub fn special_paths(shell: &ShellContext, cwd: &Path) -> Vec<SpecialPath> {
    let mut out = Vec::new();
    let mut add = |path: PathBuf, access: SpecialAccess| out.push(SpecialPath { path, access });
    for home in hermes_homes(&shell.hermes_home) {
        for name in SECRET_FILES {
            add(home.join(name), SpecialAccess::None);
        }
        for name in HERMES_READ_ONLY {
            add(home.join(name), SpecialAccess::ReadOnly);
        }
    }
    for rel in KEY_DIRS.iter().chain(SHELL_RC).chain(CREDENTIALS) {
        add(shell.home.join(rel), SpecialAccess::ReadOnly);
    }
    // Not the workspace's `.git/hooks`: protecting it would make the workspace root itself a
    // chain directory (nothing creatable in it). The classifier asks about writes there.
    let _ = cwd;
    out
}

/// The hermes home, its base when it is a profile (`<base>/profiles/<name>`), and every
/// profile under the base: a command in one profile must not read another's keys either.
fn hermes_homes(hermes_home: &Path) -> Vec<PathBuf> {
    let mut homes = vec![hermes_home.to_path_buf()];
    let base = match hermes_home.parent() {
        Some(parent) if parent.file_name().is_some_and(|n| n == "profiles") => parent
            .parent()
            .map_or_else(|| hermes_home.to_path_buf(), Path::to_path_buf),
        _ => hermes_home.to_path_buf(),
    };
    if !homes.contains(&base) {
        homes.push(base.clone());
    }
    if let Ok(entries) = std::fs::read_dir(base.join("profiles")) {
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() && !homes.contains(&path) {
                homes.push(path);
            }
        }
    }
    homes
}

/// Package caches that builds write outside the workspace, writable when they exist:
/// `~/.cache`, `~/.npm`, cargo's registry and git checkouts. (Not `~/.cargo/bin` or
/// `~/.local/bin`: those are on `PATH`, and writing them would outlive the command.)
pub fn cache_dirs(home: &Path) -> Vec<PathBuf> {
    [".cache", ".npm", ".cargo/registry", ".cargo/git"]
        .iter()
        .map(|rel| home.join(rel))
        .filter(|dir| dir.is_dir())
        .collect()
}
