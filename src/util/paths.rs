//! Resolving a path the user or the model wrote: relative to a working directory, with a
//! leading `~` or `~/` meaning the home directory (`~user` is not expanded).
//!
//! Used by the file tools and by context-file discovery. Nothing here touches the filesystem
//! except reading `$HOME`; the result is not canonicalised (symlinks and `..` stay).

use std::path::Path;
use std::path::PathBuf;

/// `path` relative to `cwd`, with a leading `~` or `~/` meaning the home directory.
pub fn resolve_path(cwd: &Path, path: &str) -> PathBuf {
    let expanded = match path.strip_prefix('~') {
        Some(rest) if rest.is_empty() || rest.starts_with('/') => match dirs::home_dir() {
            Some(home) => home.join(rest.trim_start_matches('/')),
            None => PathBuf::from(path),
        },
        _ => PathBuf::from(path),
    };
    if expanded.is_absolute() {
        expanded
    } else {
        cwd.join(expanded)
    }
}

#[cfg(test)]
#[path = "paths_tests.rs"]
mod tests;
