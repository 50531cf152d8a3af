//! What of one extracted page the model sees: inline base64 images replaced by placeholders,
//! a head + tail window with Hermes's `[TRUNCATED]` footer for long pages (the whole text is
//! saved by `web_cache` and the footer names the file and the `read_file` call), invisible
//! tag characters removed, and a warning when the page reads like a prompt injection.
//!
//! Deterministic and model-free, as Hermes's `_truncate_with_footer`: lengths count
//! characters, cuts snap to line boundaries, the window is 75% head / 25% tail.

use crate::knowledge::injection;
use crate::knowledge::injection::FindingKind;
use crate::knowledge::injection::ScanScope;
use crate::tools::web_cache::PageCache;
use crate::util::digits::thousands;

/// A page's text prepared for the model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelText {
    pub text: String,
    /// Characters of clean text the page had (before any window).
    pub total_chars: usize,
    /// Where the whole text was saved, when the page was cut.
    pub stored: Option<std::path::PathBuf>,
    pub truncated: bool,
    /// Threat patterns found in what the model sees (`prompt_injection`, …).
    pub threats: Vec<String>,
}

/// Prepare `content` of `url` for the model within `char_limit` characters.
pub fn for_model(content: &str, url: &str, char_limit: usize, cache: &PageCache) -> ModelText {
    let clean = strip_tag_characters(&base64_images_to_placeholders(content));
    let total_chars = clean.chars().count();
    let mut out = if total_chars <= char_limit {
        ModelText {
            text: clean,
            total_chars,
            stored: None,
            truncated: false,
            threats: Vec::new(),
        }
    } else {
        truncate_with_footer(&clean, url, char_limit, cache)
    };
    out.threats = threats(&out.text);
    out
}

/// Hermes's `convert_base64_images_to_links` (one implementation, in `web::extract`), applied
/// here too because service backends return markdown hermes did not extract itself.
pub fn base64_images_to_placeholders(text: &str) -> String {
    crate::web::extract::replace_base64_images(text)
}

/// Unicode tag characters (U+E0000–U+E007F) render as nothing and are the carrier of "ASCII
/// smuggling" injections; no real page needs them. Other invisible characters stay: zero-width
/// joiners and direction marks are ordinary in emoji, Persian and Hebrew text.
fn strip_tag_characters(text: &str) -> String {
    text.chars()
        .filter(|c| !('\u{E0000}'..='\u{E007F}').contains(c))
        .collect()
}

/// Pattern findings in `text`, scanned in windows the scanner accepts (it reads at most
/// `MAX_SCAN_CHARS` at a time).
fn threats(text: &str) -> Vec<String> {
    let mut ids: Vec<String> = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    for window in chars.chunks(injection::MAX_SCAN_CHARS / 2) {
        let window: String = window.iter().collect();
        for finding in injection::scan_all(&window, ScanScope::Context) {
            if let FindingKind::Pattern(id) = finding.kind
                && !ids.iter().any(|known| known == id)
            {
                ids.push(id.to_string());
            }
        }
    }
    ids
}

/// Hermes's `_truncate_with_footer`, with the full text stored in `cache`.
fn truncate_with_footer(
    content: &str,
    url: &str,
    char_limit: usize,
    cache: &PageCache,
) -> ModelText {
    let chars: Vec<char> = content.chars().collect();
    let total = chars.len();
    let head_budget = char_limit * 3 / 4;
    let tail_budget = char_limit - head_budget;
    let mut head: String = chars[..head_budget.min(total)].iter().collect();
    let mut tail: String = chars[total.saturating_sub(tail_budget)..].iter().collect();
    // Snap the head back to its last newline and the tail forward past its first, unless
    // that would throw away more than half of either.
    if let Some(nl) = head.rfind('\n')
        && head[..nl].chars().count() * 2 > head_budget
    {
        head.truncate(nl);
    }
    if let Some(nl) = tail.find('\n')
        && tail[..nl].chars().count() * 2 < tail_budget
    {
        tail = tail[nl + 1..].to_string();
    }
    let head_chars = head.chars().count();
    let tail_chars = tail.chars().count();
    let stored = cache.store(url, content);
    let rule = "─".repeat(8);
    let mut footer = vec![
        String::new(),
        format!("{rule} [TRUNCATED] {rule}"),
        format!(
            "Showing {} chars (head) + {} chars (tail) of {} total clean characters.",
            thousands(head_chars),
            thousands(tail_chars),
            thousands(total)
        ),
    ];
    let stored = match stored {
        Ok(path) => {
            let middle_start_line = head.matches('\n').count() + 2;
            footer.push(format!("Full text saved to: {}", path.display()));
            footer.push(format!(
                "To read the omitted middle: read_file path=\"{}\" offset={middle_start_line} \
                 limit=200  (the file is the complete page; raise/lower offset to page through it).",
                path.display()
            ));
            Some(path)
        }
        Err(err) => {
            tracing::debug!("could not store the full text of {url}: {err}");
            footer.push(
                "Full text could not be stored; re-run web_extract on a more specific URL or use \
                 browser_navigate for the complete page."
                    .to_string(),
            );
            None
        }
    };
    footer.push("─".repeat(29));
    let text = format!(
        "{head}\n\n[... middle omitted — see footer ...]\n\n{tail}\n{}",
        footer.join("\n")
    );
    ModelText {
        text,
        total_chars: total,
        stored,
        truncated: true,
        threats: Vec::new(),
    }
}

#[cfg(test)]
#[path = "web_page_text_tests.rs"]
mod tests;
