//! Resolving a referenced path and reading a referenced file: `~` expansion, the credential
//! deny-list, binary detection, the per-file cap and the line count.

use std::fs::File;
use std::io::Read;
use std::path::Path;
use std::path::PathBuf;

use super::FILE_CAP;
use super::ReferenceError;

/// Files under these home-relative paths are never attached (they hold credentials).
const SENSITIVE_HOME_PATHS: &[&str] = &[
    ".ssh",
    ".aws",
    ".gnupg",
    ".kube",
    ".docker",
    ".azure",
    ".config/gh",
    ".netrc",
    ".pgpass",
    ".npmrc",
    ".pypirc",
];
/// How many bytes are scanned for a NUL to call a file binary.
const BINARY_SNIFF: usize = 8 * 1024;
/// Lines are counted only this far into a file; beyond it the count is a lower bound.
const LINE_COUNT_LIMIT: u64 = 64 * 1024 * 1024;

/// `target` as typed, resolved against `cwd` (`~` and `~/…` are the home directory).
pub(super) fn resolve(target: &str, cwd: &Path) -> PathBuf {
    let expanded = match (target.strip_prefix('~'), dirs::home_dir()) {
        (Some(""), Some(home)) => home,
        (Some(rest), Some(home)) if rest.starts_with('/') => home.join(&rest[1..]),
        _ => PathBuf::from(target),
    };
    cwd.join(expanded)
}

/// Refuses credential files and folders under the home directory.
pub(super) fn check_allowed(path: &Path) -> Result<(), ReferenceError> {
    let Some(home) = dirs::home_dir() else {
        return Ok(());
    };
    let canonical = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    let home = home.canonicalize().unwrap_or(home);
    let sensitive = SENSITIVE_HOME_PATHS
        .iter()
        .any(|rel| canonical.starts_with(home.join(rel)));
    if sensitive {
        return Err(ReferenceError::Sensitive);
    }
    Ok(())
}

/// A file's text, capped at `FILE_CAP` bytes.
#[derive(Debug)]
pub(super) struct FileText {
    pub text: String,
    /// Lines in the whole file (a lower bound when `lines_exact` is false).
    pub lines: u64,
    pub lines_exact: bool,
    /// Size of the whole file in bytes.
    pub size: u64,
    pub truncated: bool,
}

pub(super) fn read_text(path: &Path) -> Result<FileText, ReferenceError> {
    let io = |err: std::io::Error| ReferenceError::Read(err.to_string());
    let mut file = File::open(path).map_err(io)?;
    let size = file.metadata().map_err(io)?.len();
    let mut head = Vec::new();
    (&mut file)
        .take(FILE_CAP as u64)
        .read_to_end(&mut head)
        .map_err(io)?;
    if head[..head.len().min(BINARY_SNIFF)].contains(&0) {
        return Err(ReferenceError::Binary { size });
    }
    let text = match std::str::from_utf8(&head) {
        Ok(text) => text.to_owned(),
        // A multi-byte character cut by the cap is fine; anything else is not text.
        Err(err) if err.error_len().is_none() => {
            String::from_utf8_lossy(&head[..err.valid_up_to()]).into_owned()
        }
        Err(_) => return Err(ReferenceError::Binary { size }),
    };
    let mut lines = count_newlines(head.as_slice());
    let mut last = head.last().copied();
    let mut counted = head.len() as u64;
    let mut buf = vec![0u8; 64 * 1024];
    while counted < LINE_COUNT_LIMIT {
        let n = file.read(&mut buf).map_err(io)?;
        if n == 0 {
            break;
        }
        lines += count_newlines(&buf[..n]);
        last = buf[..n].last().copied();
        counted += n as u64;
    }
    let lines_exact = counted >= size;
    if lines_exact && last.is_some_and(|b| b != b'\n') {
        lines += 1;
    }
    let truncated = (text.len() as u64) < size;
    let text = if truncated {
        back_to_line(&text).to_owned()
    } else {
        text
    };
    Ok(FileText {
        text,
        lines,
        lines_exact,
        size,
        truncated,
    })
}

fn count_newlines(bytes: &[u8]) -> u64 {
    bytes.iter().filter(|b| **b == b'\n').count() as u64
}

/// The longest prefix of `text` within `max` bytes, ending at a line break when one is in the
/// second half of the allowance, else at a character boundary.
pub(super) fn cut_at_line(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    back_to_line(&text[..end])
}

/// `head` up to its last line break when that is in its second half, else all of it.
fn back_to_line(head: &str) -> &str {
    match head.rfind('\n') {
        Some(nl) if nl >= head.len() / 2 => &head[..=nl],
        _ => head,
    }
}

/// `812 B`, `50 KB`, `1.2 MB`.
pub(super) fn human_size(bytes: u64) -> String {
    const KB: u64 = 1024;
    const MB: u64 = KB * 1024;
    const GB: u64 = MB * 1024;
    let tenths = |unit: u64| {
        let t = (bytes * 10 + unit / 2) / unit;
        if t.is_multiple_of(10) || t >= 100 {
            format!("{}", (t + 5) / 10)
        } else {
            format!("{}.{}", t / 10, t % 10)
        }
    };
    match bytes {
        b if b < KB => format!("{b} B"),
        b if b < MB => format!("{} KB", tenths(KB)),
        b if b < GB => format!("{} MB", tenths(MB)),
        _ => format!("{} GB", tenths(GB)),
    }
}
