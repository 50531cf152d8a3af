//! The full text of long extracted pages, kept under `HERMES_HOME/cache/web/` so the model can
//! `read_file` the part `web_extract` left out (Hermes's `_store_full_text`: the file is named
//! `<host-slug>-<sha256(url)[:10]>.md`, and holds at most 2,000,000 characters with a marker
//! when capped).
//!
//! Unlike Hermes, the cache is bounded: every store first drops entries older than
//! `web.cache_ttl` and then the oldest entries until the directory is under `web.cache_max_mb`.
//! Storing is best-effort: a failure is an `Err` the caller reports, never a panic.

use std::path::Path;
use std::path::PathBuf;
use std::time::Duration;
use std::time::SystemTime;

use sha2::Digest;

use crate::util::digits::thousands;
use crate::util::fs::FileMode;

/// Hermes's ceiling on the stored copy, in characters.
pub const MAX_STORED_CHARS: usize = 2_000_000;

/// Where long pages go and how long they stay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageCache {
    pub dir: PathBuf,
    pub ttl: Duration,
    pub max_bytes: u64,
}

impl PageCache {
    /// Save `content` (capped) for `url`; returns the file's path.
    pub fn store(&self, url: &str, content: &str) -> std::io::Result<PathBuf> {
        std::fs::create_dir_all(&self.dir)?;
        self.prune(SystemTime::now());
        let path = self.dir.join(file_name(url));
        let total = content.chars().count();
        let text = if total > MAX_STORED_CHARS {
            let cut: String = content.chars().take(MAX_STORED_CHARS).collect();
            format!(
                "{cut}\n\n[... stored copy truncated at {} chars of {}; re-extract a more \
                 specific URL for the rest ...]",
                thousands(MAX_STORED_CHARS),
                thousands(total)
            )
        } else {
            content.to_string()
        };
        crate::util::fs::atomic_write(&path, text.as_bytes(), FileMode::Exactly(0o600))?;
        Ok(path)
    }

    /// Drop expired entries, then the oldest until the cache fits its size cap.
    fn prune(&self, now: SystemTime) {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return;
        };
        let mut kept: Vec<(SystemTime, u64, PathBuf)> = Vec::new();
        for entry in entries.flatten() {
            let path = entry.path();
            let Ok(meta) = entry.metadata() else { continue };
            if !meta.is_file() || path.extension().is_none_or(|e| e != "md") {
                continue;
            }
            let modified = meta.modified().unwrap_or(now);
            let age = now.duration_since(modified).unwrap_or_default();
            if age > self.ttl {
                let _ = std::fs::remove_file(&path);
            } else {
                kept.push((modified, meta.len(), path));
            }
        }
        kept.sort();
        let mut total: u64 = kept.iter().map(|(_, len, _)| len).sum();
        for (_, len, path) in kept {
            if total <= self.max_bytes {
                break;
            }
            if std::fs::remove_file(&path).is_ok() {
                total = total.saturating_sub(len);
            }
        }
    }
}

/// `<host-slug>-<first 10 hex of sha256(url)>.md`, as Hermes names them.
pub fn file_name(url: &str) -> String {
    let host = url
        .split_once("://")
        .map_or(url, |(_, rest)| rest)
        .split(['/', '?', '#'])
        .next()
        .unwrap_or_default()
        .rsplit('@')
        .next()
        .unwrap_or_default();
    let host = host
        .split(':')
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase();
    let slug: String = host
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '-'
            }
        })
        .take(60)
        .collect();
    let slug = slug.trim_matches('-');
    let slug = if slug.is_empty() { "page" } else { slug };
    let digest = sha2::Sha256::digest(url.as_bytes());
    let hex: String = digest.iter().take(5).map(|b| format!("{b:02x}")).collect();
    format!("{slug}-{hex}.md")
}

/// The cache directory of a hermes home.
pub fn cache_dir(home_root: &Path) -> PathBuf {
    home_root.join("cache").join("web")
}

#[cfg(test)]
#[path = "web_cache_tests.rs"]
mod tests;
