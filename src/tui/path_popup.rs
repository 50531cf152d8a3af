//! The `@` path completion popup: the word under the cursor starts with `@` (`@src/ma`,
//! `@"my fi`), and the popup lists matching paths from a listing of the working directory
//! (files, and folders with a trailing `/`), plus `@diff`. Tab or Enter puts the highlighted
//! one in place of the typed word.
//!
//! The composer owns a `PathPopup` and decides when it is open (see `composer`); the app draws
//! it with `render_path_popup` where it draws the slash popup. The listing itself comes from the
//! app (`references::list_paths`, off the UI task); nothing here touches the disk.
//!
//! Ranking, best first: the path starts with the query; a path component starts with it; it
//! contains it; its characters appear in order (fuzzy). Ties go to shallower paths, then
//! alphabetical order. Matching ignores case unless the query has an upper-case letter.
//!
//! Invariants: a popup always has at least one match and `selected < matches.len()`; at most
//! `MAX_ROWS` rows are drawn and the selected row is always one of them.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::theme::Theme;
use crate::tui::queue::fit;

/// The most rows the popup shows; it scrolls to keep the selection visible.
pub const MAX_ROWS: usize = 8;
/// The most matches kept.
pub const MAX_MATCHES: usize = 50;
/// The `@diff` completion.
pub const DIFF: &str = "diff";
/// Characters that need a path quoted (`@"my file.txt"`).
const NEEDS_QUOTES: &[char] = &[' ', '\t', '(', ')', '[', ']', '{', '}', '<', '>', '\'', '`'];
/// Characters after which an `@` starts a reference (as in `references`).
const OPENERS: &[char] = &['(', '[', '{', '<', '"', '\''];

/// The `@` word being typed on a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AtToken {
    /// Byte range of the whole word (from `@` to its end, past the cursor).
    pub start: usize,
    pub end: usize,
    /// What was typed between `@` (or `@"`) and the cursor.
    pub query: String,
}

/// The `@` word around char column `col` of `line`, if the cursor is in one.
pub fn at_token(line: &str, col: usize) -> Option<AtToken> {
    let cur = line.char_indices().nth(col).map_or(line.len(), |(i, _)| i);
    quoted_token(line, cur).or_else(|| bare_token(line, cur))
}

fn starts_token(line: &str, at: usize) -> bool {
    line[..at]
        .chars()
        .next_back()
        .is_none_or(|c| c.is_whitespace() || OPENERS.contains(&c))
}

/// `@"partial` with the cursor inside the quotes.
fn quoted_token(line: &str, cur: usize) -> Option<AtToken> {
    let head = &line[..cur];
    let at = head.rfind("@\"")?;
    let query = &head[at + 2..];
    if query.contains('"') || !starts_token(line, at) {
        return None;
    }
    let end = line[cur..].find('"').map_or(line.len(), |i| cur + i + 1);
    Some(AtToken {
        start: at,
        end,
        query: query.to_owned(),
    })
}

/// `@partial` with the cursor in or at the end of the word.
fn bare_token(line: &str, cur: usize) -> Option<AtToken> {
    let start = line[..cur].rfind(char::is_whitespace).map_or(0, |i| {
        i + line[i..].chars().next().map_or(1, char::len_utf8)
    });
    // `(@src` and `"@src`: the word starts after its opening brackets or quotes.
    let start = start + (cur - start - line[start..cur].trim_start_matches(OPENERS).len());
    let word = &line[start..cur];
    let query = word.strip_prefix('@')?;
    let path_like = !query.starts_with(['/', '~', '"', '\'']) && !query.contains(['@', '"']);
    if !path_like || !starts_token(line, start) {
        return None;
    }
    let end = line[cur..]
        .find(char::is_whitespace)
        .map_or(line.len(), |i| cur + i);
    Some(AtToken {
        start,
        end,
        query: query.to_owned(),
    })
}

/// What replaces the `@` word when `choice` is accepted: `@path`, quoted when needed, with a
/// trailing space after a file or `@diff` (a folder stays open for its contents).
pub fn completion_text(choice: &str) -> String {
    let body = if choice.contains(NEEDS_QUOTES) {
        format!("@\"{choice}\"")
    } else {
        format!("@{choice}")
    };
    if choice.ends_with('/') {
        body
    } else {
        format!("{body} ")
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathPopup {
    query: String,
    matches: Vec<String>,
    selected: usize,
}

impl PathPopup {
    /// A popup for `query` over `candidates`, or `None` when nothing matches.
    pub fn new(query: &str, candidates: &[String]) -> Option<Self> {
        let matches = rank(query, candidates);
        if matches.is_empty() {
            return None;
        }
        Some(Self {
            query: query.to_owned(),
            matches,
            selected: 0,
        })
    }

    /// Re-matches, keeping the highlighted path when it still matches. Returns `false` (popup
    /// unchanged) when nothing matches any more.
    pub fn update(&mut self, query: &str, candidates: &[String]) -> bool {
        let matches = rank(query, candidates);
        if matches.is_empty() {
            return false;
        }
        let current = self.selected().map(str::to_owned);
        self.selected = current
            .and_then(|c| matches.iter().position(|m| *m == c))
            .unwrap_or(0);
        self.matches = matches;
        self.query = query.to_owned();
        true
    }

    pub fn query(&self) -> &str {
        &self.query
    }

    /// Matching paths (folders end in `/`; `diff` is `@diff`), best first.
    pub fn matches(&self) -> &[String] {
        &self.matches
    }

    pub fn selected_index(&self) -> usize {
        self.selected
    }

    pub fn selected(&self) -> Option<&str> {
        self.matches.get(self.selected).map(String::as_str)
    }

    /// Moves the highlight down, wrapping to the top.
    pub fn select_next(&mut self) {
        self.selected = (self.selected + 1) % self.matches.len().max(1);
    }

    /// Moves the highlight up, wrapping to the bottom.
    pub fn select_prev(&mut self) {
        let len = self.matches.len().max(1);
        self.selected = (self.selected + len - 1) % len;
    }

    /// Rows wanted: one per match, at most `MAX_ROWS`.
    pub fn desired_height(&self) -> u16 {
        u16::try_from(self.matches.len().min(MAX_ROWS)).unwrap_or(0)
    }
}

/// Candidates matching `query`, best first, at most `MAX_MATCHES`; an exact match is left out
/// (there is nothing to complete), so a typed folder shows its contents.
pub fn rank(query: &str, candidates: &[String]) -> Vec<String> {
    let fold = !query.chars().any(char::is_uppercase);
    let norm = |s: &str| if fold { s.to_lowercase() } else { s.to_owned() };
    let q = norm(query);
    let diff = (!q.is_empty() && DIFF.starts_with(&q) && q != DIFF).then(|| DIFF.to_owned());
    let mut scored: Vec<(u8, usize, String, &String)> = candidates
        .iter()
        .filter(|c| c.as_str() != query)
        .filter_map(|c| {
            let key = norm(c);
            Some((tier(&q, &key)?, depth(c), key, c))
        })
        .collect();
    scored.sort();
    diff.into_iter()
        .chain(scored.into_iter().map(|(.., c)| c.clone()))
        .take(MAX_MATCHES)
        .collect()
}

fn depth(path: &str) -> usize {
    path.trim_end_matches('/').matches('/').count()
}

fn tier(query: &str, path: &str) -> Option<u8> {
    if path.starts_with(query) {
        return Some(0);
    }
    if path.split('/').any(|part| part.starts_with(query)) {
        return Some(1);
    }
    if path.contains(query) {
        return Some(2);
    }
    let mut chars = path.chars();
    query.chars().all(|q| chars.any(|c| c == q)).then_some(3)
}

/// Draws the popup into `area` (normally `desired_height` rows directly above the composer).
pub fn render_path_popup(popup: &PathPopup, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let width = usize::from(area.width);
    super::popup::draw_menu_rows(
        &popup.matches,
        popup.selected,
        area,
        buf,
        theme,
        |path, y, buf, (name_style, meta_style)| {
            let hint = match path.as_str() {
                DIFF => "unstaged and staged changes",
                p if p.ends_with('/') => "folder",
                _ => "",
            };
            let hint_width = if hint.is_empty() { 0 } else { hint.len() + 2 };
            let name_room = width.saturating_sub(hint_width + 1).max(width / 2);
            let name = fit(&format!(" @{path}"), name_room);
            let (x, _) = buf.set_stringn(area.x, y, &name, width, name_style);
            let used = usize::from(x - area.x);
            if !hint.is_empty() && used + hint.len() + 1 < width {
                let hx = area.x + u16::try_from(width - hint.len() - 1).unwrap_or(0);
                buf.set_stringn(hx, y, hint, hint.len(), meta_style);
            }
        },
    );
}

#[cfg(test)]
#[path = "path_popup_tests.rs"]
mod tests;
