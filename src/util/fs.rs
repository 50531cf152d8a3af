//! Atomic file replacement: write a sibling temp file, fsync, rename over the target. And
//! reading the text files users edit ([`read_text`]): a leading UTF-8 byte order mark, which
//! Windows editors write, is dropped, as Python Hermes reads them with `utf-8-sig`.
//!
//! Readers see the old file or the new one, never a torn write. The temp file is created
//! with the final mode, so a secret file is never briefly world-readable. A symlinked
//! target is followed, so dotfile managers keep their link. Does not lock: concurrent
//! writers race and the last rename wins.

use std::io::Write;
use std::path::{Path, PathBuf};

/// The byte order mark some editors put at the start of a UTF-8 file.
pub const BOM: char = '\u{feff}';

/// `text` without a leading byte order mark.
pub fn strip_bom(text: &str) -> &str {
    text.strip_prefix(BOM).unwrap_or(text)
}

/// `std::fs::read_to_string` for a file a user may have edited (config.yaml, `.env`, skins,
/// `SKILL.md`, context files): a leading byte order mark is dropped.
pub fn read_text(path: &Path) -> std::io::Result<String> {
    let mut text = std::fs::read_to_string(path)?;
    if text.starts_with(BOM) {
        text.drain(..BOM.len_utf8());
    }
    Ok(text)
}

/// Whether this process may create files in `dir` (`access(2)` with `W_OK`: permissions,
/// and a read-only file system even for root). `false` when `dir` does not exist.
#[cfg(unix)]
pub fn is_writable_dir(dir: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let Ok(path) = std::ffi::CString::new(dir.as_os_str().as_bytes()) else {
        return false;
    };
    // SAFETY: `path` is a valid NUL-terminated string for the duration of the call.
    dir.is_dir() && unsafe { libc::access(path.as_ptr(), libc::W_OK) } == 0
}

#[cfg(not(unix))]
pub fn is_writable_dir(dir: &Path) -> bool {
    dir.is_dir()
}

/// File permission policy for [`atomic_write`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileMode {
    /// Always this mode (e.g. `0o600` for secrets), also when replacing an existing file.
    Exactly(u32),
    /// Keep the existing file's mode; use this one for a new file.
    KeepOr(u32),
}

/// Replaces `path` with `contents` atomically, creating parent directories if needed.
pub fn atomic_write(path: &Path, contents: &[u8], mode: FileMode) -> std::io::Result<()> {
    let target = resolve_symlink(path);
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&dir)?;
    let final_mode = match mode {
        FileMode::Exactly(m) => m,
        FileMode::KeepOr(default) => existing_mode(&target).unwrap_or(default),
    };
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "file".into());
    let tmp = dir.join(format!(
        ".{name}.tmp-{}-{}",
        std::process::id(),
        fastrand::u32(..)
    ));
    let result = write_new(&tmp, contents, final_mode).and_then(|()| {
        std::fs::rename(&tmp, &target)?;
        set_mode(&target, final_mode)
    });
    if result.is_err() {
        // Best effort: never leave temp files behind after a failed write.
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

fn resolve_symlink(path: &Path) -> PathBuf {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
        }
        _ => path.to_path_buf(),
    }
}

fn write_new(tmp: &Path, contents: &[u8], mode: u32) -> std::io::Result<()> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(mode);
    }
    #[cfg(not(unix))]
    let _ = mode;
    let mut file = options.open(tmp)?;
    file.write_all(contents)?;
    file.sync_all()
}

#[cfg(unix)]
fn existing_mode(path: &Path) -> Option<u32> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path)
        .ok()
        .map(|m| m.permissions().mode() & 0o7777)
}

#[cfg(not(unix))]
fn existing_mode(_path: &Path) -> Option<u32> {
    None
}

/// Sets `mode` exactly (the umask may have narrowed it at creation).
#[cfg(unix)]
pub fn set_mode(path: &Path, mode: u32) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
}

#[cfg(not(unix))]
pub fn set_mode(_path: &Path, _mode: u32) -> std::io::Result<()> {
    Ok(())
}

#[cfg(test)]
#[path = "fs_tests.rs"]
mod tests;
