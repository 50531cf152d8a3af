//! Checks of a job's arguments shared by create and update: the working directory (absolute,
//! existing, a directory — Hermes's rules), the profile pin (an existing profile or
//! `default`), and the script (inside `HERMES_HOME/scripts/`).
//!
//! What it does not do: write anything.

use std::path::Path;
use std::path::PathBuf;

use super::CronError;
use super::home::CronHome;

/// Hermes's `_normalize_workdir`: absolute, existing, a directory; `~` expanded.
pub fn normalize_workdir(workdir: Option<&str>) -> Result<Option<String>, CronError> {
    let Some(raw) = workdir.map(str::trim).filter(|w| !w.is_empty()) else {
        return Ok(None);
    };
    let expanded = crate::util::paths::resolve_path(Path::new(""), raw);
    if !expanded.is_absolute() {
        return Err(CronError::Invalid(format!(
            "Cron workdir must be an absolute path (got '{raw}'). Cron jobs run detached from \
             any shell cwd, so relative paths are ambiguous."
        )));
    }
    let resolved = std::fs::canonicalize(&expanded).unwrap_or(expanded);
    if !resolved.exists() {
        return Err(CronError::Invalid(format!(
            "Cron workdir does not exist: {}",
            resolved.display()
        )));
    }
    if !resolved.is_dir() {
        return Err(CronError::Invalid(format!(
            "Cron workdir is not a directory: {}",
            resolved.display()
        )));
    }
    Ok(Some(resolved.to_string_lossy().into_owned()))
}

/// A profile pin must name an existing profile (`default` is the root one).
pub fn check_profile(home: &CronHome, profile: Option<&str>) -> Result<Option<String>, CronError> {
    let Some(name) = profile.map(str::trim).filter(|p| !p.is_empty()) else {
        return Ok(None);
    };
    if name == "default" {
        return Ok(Some(name.to_string()));
    }
    let dir = profiles_root(&home.paths.home).join(name);
    if name.contains('/') || name.contains("..") || !dir.is_dir() {
        return Err(CronError::Invalid(format!(
            "Profile '{name}' does not exist ({} is not a directory). Create it with `hermes \
             profile create {name}` or pass 'default'.",
            dir.display()
        )));
    }
    Ok(Some(name.to_string()))
}

/// The base home's `profiles/` (a profile home is `<base>/profiles/<name>`).
pub fn profiles_root(home: &Path) -> PathBuf {
    match home.parent() {
        Some(parent) if parent.file_name().is_some_and(|n| n == "profiles") => parent.to_path_buf(),
        _ => home.join("profiles"),
    }
}

/// A job script must resolve inside `HERMES_HOME/scripts/`.
pub fn check_script(home: &CronHome, script: &str) -> Result<PathBuf, CronError> {
    super::scripts::resolve_script(&home.paths.scripts_dir, script)
}
