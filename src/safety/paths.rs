//! Sensitive paths: where a write needs approval, for the file tools and the command
//! classifier alike (one list, used twice).
//!
//! Sensitive: `~/.ssh/**`; shell startup files (`~/.bashrc`, `~/.profile`, `~/.zshrc`,
//! `~/.config/fish/**`, …); credential files (`~/.aws/**`, `~/.netrc`, `~/.npmrc`,
//! `~/.pypirc`, `~/.docker/config.json`, `~/.kube/config`, `~/.gnupg/**`,
//! `~/.git-credentials`, `~/.config/gh/hosts.yml`, …); hermes's own settings
//! (`<hermes_home>/config.yaml`, `.env`, `shell-hooks-allowlist.json`, `auth.json`, `state.db`,
//! also in `<hermes_home>/profiles/<name>/`, and `<hermes_home>/hooks/`); other users' homes
//! (`/home/<other>/…`, `/root/…` unless that is our home); and system paths (`/etc`, `/usr`,
//! `/bin`, `/sbin`, `/boot`, `/lib*`, `/sys`, `/proc`, `/var` except `/var/tmp` and macOS's
//! `/var/folders`). A listed directory covers itself and everything under it.
//!
//! `sensitive_path` is pure and lexical (the classifier uses it on already-absolute paths);
//! `sensitive_write` also resolves relative paths, `~`, `..` and symlinks (canonicalising the
//! longest existing ancestor) and reports a path if either its lexical or its real location
//! is sensitive. It does not decide anything about reads. Invariant: the lists below are the
//! only place these paths are named.

use std::path::{Component, Path, PathBuf};

use super::classify::keys;
use super::classify::{Finding, ShellContext, Tier};

/// Shell startup files and other files that run code at login, relative to the home.
pub(crate) const SHELL_RC: &[&str] = &[
    ".bashrc",
    ".bash_profile",
    ".bash_login",
    ".bash_logout",
    ".bash_aliases",
    ".profile",
    ".zshrc",
    ".zprofile",
    ".zshenv",
    ".zlogin",
    ".zlogout",
    ".kshrc",
    ".mkshrc",
    ".cshrc",
    ".tcshrc",
    ".login",
    ".logout",
    ".inputrc",
    ".xprofile",
    ".xinitrc",
    ".xsession",
    ".pam_environment",
    ".config/fish",
    ".config/nushell",
    ".config/environment.d",
    ".config/autostart",
    ".config/systemd/user",
];

/// Credential stores, relative to the home.
pub(crate) const CREDENTIALS: &[&str] = &[
    ".aws",
    ".netrc",
    ".npmrc",
    ".pypirc",
    ".docker/config.json",
    ".kube/config",
    ".gnupg",
    ".git-credentials",
    ".config/gh/hosts.yml",
    ".cargo/credentials",
    ".cargo/credentials.toml",
    ".config/gcloud",
    ".azure",
    ".password-store",
    ".local/share/keyrings",
    ".pgpass",
    ".my.cnf",
];

/// hermes's approval and safety settings, relative to the hermes home.
const HERMES_SETTINGS: &[&str] = &[
    "config.yaml",
    ".env",
    "shell-hooks-allowlist.json",
    "auth.json",
    "auth.lock",
    "state.db",
    "state.db-wal",
    "state.db-shm",
];
/// hermes's directory of code it runs, relative to the hermes home (the sandbox keeps it
/// read-only too). Not `skills/`: writing a skill with the file tools is ordinary agent work;
/// only commands are kept out of it (by the sandbox).
const HERMES_CODE_DIRS: &[&str] = &["hooks"];

const SYSTEM: &[&str] = &[
    "/etc",
    "/usr",
    "/bin",
    "/sbin",
    "/boot",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/sys",
    "/proc",
    "/var",
    "/System",
    "/Library",
    "/private/etc",
];
const SYSTEM_EXCEPTIONS: &[&str] = &["/var/tmp", "/var/folders"];
/// Directories whose children are user homes.
const HOME_PARENTS: &[&str] = &["/home", "/Users"];

/// Why writing `path` (relative paths resolved against `cwd`; `~` expanded; `..` collapsed
/// lexically; symlinks resolved with canonicalize of the longest existing ancestor) needs
/// approval, or None.
pub fn sensitive_write(path: &str, cwd: &Path, ctx: &ShellContext) -> Option<Finding> {
    let expanded = expand_home(path, &ctx.home);
    let absolute = if expanded.is_absolute() {
        expanded
    } else {
        cwd.join(expanded)
    };
    let lexical = lexical_normalize(&absolute);
    if let Some(finding) = sensitive_path(&lexical, ctx) {
        return Some(finding);
    }
    let real = resolve_existing(&lexical)?;
    let real_ctx = ShellContext {
        home: std::fs::canonicalize(&ctx.home).unwrap_or_else(|_| ctx.home.clone()),
        hermes_home: std::fs::canonicalize(&ctx.hermes_home)
            .unwrap_or_else(|_| ctx.hermes_home.clone()),
    };
    sensitive_path(&real, ctx).or_else(|| sensitive_path(&real, &real_ctx))
}

/// The sensitive-path check on an absolute, already normalised path; no filesystem access.
pub(crate) fn sensitive_path(path: &Path, ctx: &ShellContext) -> Option<Finding> {
    let finding = |key: &'static str, what: &str| {
        Some(Finding {
            tier: Tier::Dangerous,
            key,
            reason: format!("writes {} ({what})", display(path, &ctx.home)),
        })
    };
    if is_hermes_settings(path, &ctx.hermes_home) {
        return finding(
            keys::HERMES_SETTINGS,
            "hermes's own approval and safety settings",
        );
    }
    if HERMES_CODE_DIRS
        .iter()
        .any(|d| path.starts_with(ctx.hermes_home.join(d)))
    {
        return finding(keys::HERMES_SETTINGS, "hermes's shell hooks");
    }
    let under_home = |list: &[&str]| list.iter().any(|rel| path.starts_with(ctx.home.join(rel)));
    if path.starts_with(ctx.home.join(".ssh")) {
        return finding(keys::WRITE_SSH, "SSH keys and configuration");
    }
    if under_home(SHELL_RC) {
        return finding(keys::WRITE_SHELL_RC, "shell startup file");
    }
    if under_home(CREDENTIALS) {
        return finding(keys::WRITE_CREDENTIALS, "credentials");
    }
    if path.starts_with(&ctx.home) {
        return None;
    }
    if other_home(path, ctx) {
        return finding(keys::WRITE_OTHER_HOME, "another user's home");
    }
    let system = SYSTEM.iter().any(|s| path.starts_with(s))
        && !SYSTEM_EXCEPTIONS.iter().any(|s| path.starts_with(s));
    if system {
        return finding(keys::WRITE_SYSTEM, "system files");
    }
    None
}

/// `<hermes_home>/FILE` or `<hermes_home>/profiles/<name>/FILE` for a settings FILE.
fn is_hermes_settings(path: &Path, hermes_home: &Path) -> bool {
    let settings_file = path
        .file_name()
        .is_some_and(|f| HERMES_SETTINGS.iter().any(|s| f == *s));
    let Some(dir) = path.parent() else {
        return false;
    };
    let in_profile = dir.parent() == Some(hermes_home.join("profiles").as_path());
    settings_file && (dir == hermes_home || in_profile)
}

fn other_home(path: &Path, ctx: &ShellContext) -> bool {
    if path.starts_with("/root") {
        return !ctx.home.starts_with("/root");
    }
    HOME_PARENTS.iter().map(Path::new).any(|parent| {
        path.strip_prefix(parent)
            .ok()
            .and_then(|rest| rest.components().next())
            .is_some_and(|user| !ctx.home.starts_with(parent.join(user)))
    })
}

fn display(path: &Path, home: &Path) -> String {
    match path.strip_prefix(home) {
        Ok(rest) if rest.as_os_str().is_empty() => "~".to_string(),
        Ok(rest) => format!("~/{}", rest.display()),
        Err(_) => path.display().to_string(),
    }
}

fn expand_home(path: &str, home: &Path) -> PathBuf {
    for prefix in ["~", "$HOME", "${HOME}"] {
        if let Some(rest) = path.strip_prefix(prefix) {
            if rest.is_empty() {
                return home.to_path_buf();
            }
            if let Some(rest) = rest.strip_prefix('/') {
                return home.join(rest);
            }
        }
    }
    PathBuf::from(path)
}

/// `.` removed and `..` applied without touching the filesystem.
fn lexical_normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// The real location of `path`: its longest existing ancestor canonicalised, plus the rest.
fn resolve_existing(path: &Path) -> Option<PathBuf> {
    let mut existing = path;
    let mut rest = Vec::new();
    loop {
        if let Ok(real) = std::fs::canonicalize(existing) {
            let mut out = real;
            out.extend(rest.iter().rev());
            return Some(out);
        }
        rest.push(existing.file_name()?);
        existing = existing.parent()?;
    }
}

#[cfg(test)]
#[path = "paths_tests.rs"]
mod tests;
