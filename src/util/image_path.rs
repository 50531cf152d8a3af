//! Recognises a pasted text that is exactly one image file reference: an absolute path, a
//! `~/…` path, a `./…` or `../…` path, or a `file://` URI, possibly wrapped in quotes or with
//! backslash-escaped spaces the way terminals paste a dragged-in file.
//!
//! Pure string work: it never touches the filesystem (the attach service checks that the file
//! exists, off the UI thread). It decides by shape and extension only, so a `true` answer
//! means "worth trying to attach", not "is an image". Invariant: cheap on any input, because
//! the TUI asks on every bracketed paste; texts longer than [`MAX_PATH_TEXT_BYTES`] or with a
//! line break inside are rejected before any other work.

use std::path::Path;
use std::path::PathBuf;

/// File extensions (lower case) that make a pasted path an image candidate.
pub const IMAGE_EXTENSIONS: [&str; 6] = ["png", "jpg", "jpeg", "gif", "webp", "bmp"];

/// Longer pastes are never a single path (PATH_MAX is 4096 on Linux).
pub const MAX_PATH_TEXT_BYTES: usize = 4096;

/// The image file that `text` names, if the whole text is one image file reference.
///
/// `home` expands a leading `~/`; without it such a path is rejected. A `./` or `../` path is
/// returned relative, for the caller to resolve against its working directory. Other
/// relative paths, URLs other than `file://`, several paths, and paths with words around them
/// are rejected.
pub fn pasted_image_path(text: &str, home: Option<&Path>) -> Option<PathBuf> {
    if text.len() > MAX_PATH_TEXT_BYTES {
        return None;
    }
    let text = text.trim();
    if text.is_empty() || text.contains(['\n', '\r']) {
        return None;
    }
    let path = match strip_file_scheme(text) {
        Some(rest) => from_file_uri(rest)?,
        None => {
            let unquoted = unquote(text)?;
            // A quoted URI: `'file:///tmp/a.png'`.
            match strip_file_scheme(&unquoted) {
                Some(rest) => from_file_uri(rest)?,
                None => unquoted,
            }
        }
    };
    if path.chars().any(char::is_control) {
        return None;
    }
    let resolved = resolve(&path, home)?;
    has_image_extension(&resolved).then_some(resolved)
}

/// Whether the path's extension is one of [`IMAGE_EXTENSIONS`], ignoring case.
pub fn has_image_extension(path: &Path) -> bool {
    path.extension()
        .and_then(|ext| ext.to_str())
        .is_some_and(|ext| IMAGE_EXTENSIONS.iter().any(|e| e.eq_ignore_ascii_case(ext)))
}

/// The part after `file:` when `text` starts with that scheme (any case).
fn strip_file_scheme(text: &str) -> Option<&str> {
    let scheme = text.get(..5)?;
    scheme
        .eq_ignore_ascii_case("file:")
        .then(|| text.get(5..))
        .flatten()
}

/// The decoded path of a `file:` URI after its scheme: `///p`, `//localhost/p`, or the
/// `/p` form some applications write. Other hosts are remote files, so rejected.
fn from_file_uri(rest: &str) -> Option<String> {
    let encoded = match rest.strip_prefix("//") {
        Some(after) => {
            let slash = after.find('/')?;
            let host = &after[..slash];
            if !(host.is_empty() || host.eq_ignore_ascii_case("localhost")) {
                return None;
            }
            &after[slash..]
        }
        None if rest.starts_with('/') => rest,
        None => return None,
    };
    // A second URI means several dropped files; a query or fragment is not part of the path.
    if contains_ignore_case(encoded, "file:") {
        return None;
    }
    let encoded = encoded.split(['?', '#']).next().unwrap_or_default();
    let decoded = percent_decode(encoded)?;
    Some(windows_drive_path(decoded))
}

/// `file:///C:/x.png` names `C:/x.png` on Windows; elsewhere the leading slash stays.
fn windows_drive_path(path: String) -> String {
    if cfg!(windows) {
        let bytes = path.as_bytes();
        if bytes.len() >= 3
            && bytes[0] == b'/'
            && bytes[1].is_ascii_alphabetic()
            && bytes[2] == b':'
        {
            return path[1..].to_string();
        }
    }
    path
}

fn contains_ignore_case(haystack: &str, needle: &str) -> bool {
    haystack
        .as_bytes()
        .windows(needle.len())
        .any(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
}

/// `%XX` decoding. Rejects a malformed escape and a result that is not UTF-8 (a path we could
/// not show the user anyway).
fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hi = hex_value(*bytes.get(i + 1)?)?;
            let lo = hex_value(*bytes.get(i + 2)?)?;
            out.push(hi << 4 | lo);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

fn hex_value(byte: u8) -> Option<u8> {
    match byte {
        b'0'..=b'9' => Some(byte - b'0'),
        b'a'..=b'f' => Some(byte - b'a' + 10),
        b'A'..=b'F' => Some(byte - b'A' + 10),
        _ => None,
    }
}

/// Removes one layer of shell quoting: `'…'` (taken literally), `"…"` (backslash escapes
/// `"`, `\`, `$` and `` ` ``), or bare text with backslash escapes (`Screen\ Shot.png`).
/// Rejects text that is several words or several quoted paths.
fn unquote(text: &str) -> Option<String> {
    let first = text.chars().next()?;
    if (first == '\'' || first == '"') && text.len() >= 2 && text.ends_with(first) {
        let inner = &text[1..text.len() - 1];
        return if first == '\'' {
            (!inner.contains('\'')).then(|| inner.to_string())
        } else {
            unescape_double_quoted(inner)
        };
    }
    unescape_bare(text)
}

fn unescape_double_quoted(inner: &str) -> Option<String> {
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return None,
            '\\' => match chars.next() {
                Some(next @ ('"' | '\\' | '$' | '`')) => out.push(next),
                Some(next) => {
                    out.push('\\');
                    out.push(next);
                }
                None => out.push('\\'),
            },
            _ => out.push(c),
        }
    }
    Some(out)
}

/// Bare text: on Unix a backslash escapes the next character, as terminals write dropped
/// files. Raw spaces are kept (some terminals paste `Screenshot 2026-… .png` unescaped), but
/// an unescaped space followed by what starts another path means several files.
fn unescape_bare(text: &str) -> Option<String> {
    let escapes = cfg!(unix);
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if escapes => out.push(chars.next()?),
            c if c.is_whitespace() => {
                if chars
                    .peek()
                    .is_some_and(|next| matches!(next, '/' | '~' | '\'' | '"'))
                {
                    return None;
                }
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    Some(out)
}

/// Absolute paths as they are, `~/` against `home`, `./` and `../` kept relative.
fn resolve(path: &str, home: Option<&Path>) -> Option<PathBuf> {
    if let Some(rest) = path.strip_prefix("~/") {
        return Some(home?.join(rest));
    }
    let relative_ok = path.starts_with("./") || path.starts_with("../");
    let relative_ok =
        relative_ok || (cfg!(windows) && (path.starts_with(".\\") || path.starts_with("..\\")));
    (Path::new(path).is_absolute() || relative_ok).then(|| PathBuf::from(path))
}

#[cfg(test)]
#[path = "image_path_tests.rs"]
mod tests;
