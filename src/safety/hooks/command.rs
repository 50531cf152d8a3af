//! Turning a hook's configured command line into something runnable, and inspecting it.
//!
//! The command is split with POSIX shell rules (`shlex`) and run without a shell, so pipes,
//! redirections and `$VARS` are not interpreted; a leading `~` (alone or as `~/…`) in any word
//! is expanded to the user's home. `script_path` guesses which file a command runs (for the
//! consent mtime and `doctor`): the first word with a script extension, else the first
//! path-like word, else the program. It does not spawn anything.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// File extensions that mark a word as the hook's script (as Hermes).
const SCRIPT_EXTENSIONS: &[&str] = &[
    ".sh", ".bash", ".zsh", ".fish", ".py", ".pyw", ".rb", ".pl", ".lua", ".js", ".mjs", ".cjs",
    ".ts",
];

/// Why a hook's `command` names no program to run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    #[error("unbalanced quotes")]
    UnbalancedQuotes,
    #[error("empty command")]
    Empty,
    #[error("`{0}` is not on PATH")]
    NotOnPath(String),
}

/// The argv for `command`: shell-split, `~` expanded. Errors name what is wrong.
pub fn argv(command: &str) -> Result<Vec<String>, CommandError> {
    let words = shlex::split(command).ok_or(CommandError::UnbalancedQuotes)?;
    if words.is_empty() {
        return Err(CommandError::Empty);
    }
    let home = dirs::home_dir();
    Ok(words
        .into_iter()
        .map(|w| expand_tilde(&w, home.as_deref()))
        .collect())
}

/// `~` → home, `~/x` → home/x; anything else (including `~user`) unchanged.
pub fn expand_tilde(word: &str, home: Option<&Path>) -> String {
    let Some(home) = home else {
        return word.to_owned();
    };
    if word == "~" {
        return home.to_string_lossy().into_owned();
    }
    match word.strip_prefix("~/") {
        Some(rest) => home.join(rest).to_string_lossy().into_owned(),
        None => word.to_owned(),
    }
}

/// The file the command most likely runs (see the module doc), `~`-expanded; relative paths
/// are resolved against `cwd`. `None` when the command cannot be split.
pub fn script_path(command: &str, cwd: &Path) -> Option<PathBuf> {
    let words = argv(command).ok()?;
    let chosen = words
        .iter()
        .find(|w| {
            let lower = w.to_ascii_lowercase();
            SCRIPT_EXTENSIONS.iter().any(|ext| lower.ends_with(ext))
        })
        .or_else(|| words.iter().find(|w| w.contains('/')))
        .or_else(|| words.first())?;
    if chosen.contains('/') {
        Some(cwd.join(chosen))
    } else if words.first() == Some(chosen) {
        find_in_path(chosen).or_else(|| Some(cwd.join(chosen)))
    } else {
        Some(cwd.join(chosen))
    }
}

/// Where the program (`argv[0]`) of `command` lives: a path is taken relative to `cwd`, a bare
/// name is looked up in `PATH`.
pub fn program_path(command: &str, cwd: &Path) -> Result<PathBuf, CommandError> {
    let words = argv(command)?;
    let program = words.first().ok_or(CommandError::Empty)?;
    if program.contains('/') {
        Ok(cwd.join(program))
    } else {
        find_in_path(program).ok_or_else(|| CommandError::NotOnPath(program.clone()))
    }
}

/// A regular file with at least one execute bit set.
pub fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// The file's modification time, if it exists.
pub fn mtime(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

fn find_in_path(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|candidate| is_executable(candidate))
}

#[cfg(test)]
#[path = "command_tests.rs"]
mod tests;
