//! The bundled-skill manifest exactly as Hermes Agent reads and writes it
//! (`tools/skills_sync.py`): one `name:origin_hash` line per skill, sorted by name, `\n` after
//! every line (so an empty manifest is a single `\n`); a bare `name` line is a v1 entry with
//! no hash yet. The origin hash is `_dir_hash`: MD5 over every regular file below the skill
//! directory (dot-files included, symlinked directories not entered, symlinked files followed)
//! in Python's `sorted(Path.rglob("*"))` order — by path *components*, so `a/b` sorts before
//! `a-b` — feeding each file's relative path (UTF-8) and then its bytes, with no separator.
//!
//! An entry whose skill directory is gone is a **tombstone**: "the user deleted this bundled
//! skill, don't reinstall it". Entries are only ever removed deliberately (a reset, or a skill
//! that left the bundle), never because the directory is missing.
//!
//! Two files use this format: `skills/.bundled_manifest` belongs to Python Hermes (hermes only
//! reads it, and rewrites it solely to move out the entries old hermes builds put there), and
//! `skills/.hermes_bundled_manifest` records hermes's own bundled skills. Not here: deciding
//! what to install (`bundled`).

use std::collections::BTreeMap;
use std::path::Path;

use md5::Digest;
use md5::Md5;

use crate::skills::SkillError;
use crate::util::fs::FileMode;
use crate::util::fs::atomic_write;

/// Python Hermes's manifest, inside the skills directory.
pub const PYTHON_MANIFEST: &str = ".bundled_manifest";
/// hermes's own manifest (same format), inside the skills directory.
pub const HERMES_MANIFEST: &str = ".hermes_bundled_manifest";

/// `name → origin hash` (empty for a v1 entry), sorted by name as Hermes writes it.
pub type Manifest = BTreeMap<String, String>;

/// Parse manifest text as `_read_manifest` does: lines stripped, blank lines skipped, split
/// at the first `:`.
pub fn parse(text: &str) -> Manifest {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|l| match l.split_once(':') {
            Some((name, hash)) => (name.trim().to_string(), hash.trim().to_string()),
            None => (l.to_string(), String::new()),
        })
        .collect()
}

/// The text `_write_manifest` writes for `manifest`.
pub fn render(manifest: &Manifest) -> String {
    let lines: Vec<String> = manifest.iter().map(|(n, h)| format!("{n}:{h}")).collect();
    format!("{}\n", lines.join("\n"))
}

/// The manifest at `path`: `Ok(None)` when there is no file, an error when it exists but
/// cannot be read (so a caller never rewrites a manifest it could not read).
pub fn read(path: &Path) -> Result<Option<Manifest>, SkillError> {
    match std::fs::read(path) {
        Ok(bytes) => Ok(Some(parse(&String::from_utf8_lossy(&bytes)))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(SkillError::io(path, e)),
    }
}

/// `read`, with a missing or unreadable file meaning no entries (for display only).
pub fn read_or_empty(path: &Path) -> Manifest {
    read(path).ok().flatten().unwrap_or_default()
}

/// Replace the manifest at `path` atomically. Python's `mkstemp` makes the file `0600`; a new
/// file gets that mode too.
pub fn write(path: &Path, manifest: &Manifest) -> Result<(), SkillError> {
    atomic_write(path, render(manifest).as_bytes(), FileMode::KeepOr(0o600))
        .map_err(|e| SkillError::io(path, e))
}

/// `_dir_hash(dir)`: see the module docs. A directory that cannot be read hashes what was
/// read before the error, as Python's `except OSError: pass` does.
pub fn dir_hash(dir: &Path) -> String {
    let mut files = Vec::new();
    collect(dir, &[], &mut files);
    files.sort();
    let mut hasher = Md5::new();
    for parts in files {
        let path = parts.iter().fold(dir.to_path_buf(), |p, c| p.join(c));
        let Ok(bytes) = std::fs::read(&path) else {
            break;
        };
        hasher.update(parts.join(std::path::MAIN_SEPARATOR_STR).as_bytes());
        hasher.update(&bytes);
    }
    hex(hasher)
}

/// `_dir_hash` of files that are not on disk yet: (path relative to the skill directory,
/// `/`-separated; contents).
pub fn files_hash<'a>(files: impl IntoIterator<Item = (&'a str, &'a [u8])>) -> String {
    let mut files: Vec<(Vec<&str>, &[u8])> = files
        .into_iter()
        .map(|(rel, bytes)| (rel.split('/').collect(), bytes))
        .collect();
    files.sort();
    let mut hasher = Md5::new();
    for (parts, bytes) in files {
        hasher.update(parts.join(std::path::MAIN_SEPARATOR_STR).as_bytes());
        hasher.update(bytes);
    }
    hex(hasher)
}

/// Whether `hash` looks like one an old hermes build wrote (FNV-1a 64, 16 hex digits) rather
/// than Hermes's MD5 (32 hex digits).
pub fn is_legacy_hash(hash: &str) -> bool {
    hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The hash old hermes builds recorded: FNV-1a 64 over each file's `/`-separated relative
/// path, a NUL, its length (little-endian u64) and its bytes, in path order, dot-files
/// skipped. Kept only to tell whether a skill changed since such a build synced it.
pub fn legacy_dir_hash(dir: &Path) -> String {
    let mut files = Vec::new();
    collect(dir, &[], &mut files);
    let mut files: Vec<(String, Vec<String>)> = files
        .into_iter()
        .filter(|parts| !parts.iter().any(|p| p.starts_with('.')))
        .map(|parts| (parts.join("/"), parts))
        .collect();
    files.sort();
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let mut h = OFFSET;
    let mut feed = |bytes: &[u8]| {
        for b in bytes {
            h ^= u64::from(*b);
            h = h.wrapping_mul(PRIME);
        }
    };
    for (rel, parts) in files {
        let path = parts.iter().fold(dir.to_path_buf(), |p, c| p.join(c));
        let bytes = std::fs::read(&path).unwrap_or_default();
        feed(rel.as_bytes());
        feed(&[0]);
        feed(&(bytes.len() as u64).to_le_bytes());
        feed(&bytes);
    }
    format!("{h:016x}")
}

fn hex(hasher: Md5) -> String {
    hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Every regular file below `dir` as path components: real directories are entered,
/// symlinked ones are not; a symlink to a file counts as that file (`Path.is_file()`).
fn collect(dir: &Path, prefix: &[String], out: &mut Vec<Vec<String>>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let mut parts = prefix.to_vec();
        parts.push(entry.file_name().to_string_lossy().into_owned());
        let path = entry.path();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            collect(&path, &parts, out);
        } else if path.is_file() {
            out.push(parts);
        }
    }
}

#[cfg(test)]
#[path = "manifest_tests.rs"]
mod tests;
