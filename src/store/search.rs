//! Full-text search over stored messages for `session_search`.
//!
//! A user query is first turned into a safe FTS5 query: every word becomes a quoted term,
//! balanced `"phrases"` stay phrases, a trailing `*` keeps prefix search, and `AND`/`OR`/`NOT`
//! survive only between two terms. So `"unbalanced`, `AND OR` or `col:x` just search words.
//! Then: the `unicode61` index (`messages_fts`) for ordinary text; when the query has CJK
//! characters, or the word search finds nothing, the `trigram` index (`messages_fts_trigram`,
//! substring match, terms of 3+ characters); for shorter CJK terms a `LIKE` scan.
//!
//! Hits are ranked by bm25, restricted to active messages of visible sessions (not `subagent`
//! or `tool`), and reduced to the best hit per session lineage (the root reached through
//! `parent_session_id`, `model_config._branched_from` and `_delegate_from`). Formatting for
//! the model lives in `tools::session_search`, not here.

use std::collections::HashMap;
use std::collections::HashSet;

use rusqlite::Connection;
use rusqlite::OptionalExtension;
use rusqlite::params_from_iter;

use crate::store::Result;
use crate::store::SessionStore;
use crate::store::StoreError;
use crate::store::sessions::like_escape;
use crate::store::types::HIDDEN_SOURCES_SQL;

/// Which index answered a search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SearchMode {
    /// `unicode61` word search.
    Words,
    /// `trigram` substring search.
    Substring,
    /// `LIKE` scan (CJK terms shorter than 3 characters).
    Scan,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchRequest<'a> {
    pub query: &'a str,
    /// Maximum number of lineages returned.
    pub limit: usize,
    /// The caller's own session, left out.
    pub exclude_session: Option<&'a str>,
}

/// The best-ranked matching message of one session lineage.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchHit {
    pub message_id: i64,
    pub session_id: String,
    pub lineage_root: String,
    pub role: String,
    pub timestamp: f64,
    /// Text around the match with the matched terms between `>>>` and `<<<`.
    pub snippet: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct SearchResults {
    pub mode: SearchMode,
    pub hits: Vec<SearchHit>,
}

pub(crate) const MARK_START: &str = ">>>";
pub(crate) const MARK_END: &str = "<<<";

#[derive(Debug, Clone, PartialEq, Eq)]
enum Item {
    /// A quoted FTS5 term or phrase, and its bare text.
    Term {
        fts: String,
        text: String,
    },
    Op(&'static str),
}

/// The user's query as a safe FTS5 query plus its bare terms; `None` when nothing searchable.
pub(crate) fn sanitize(query: &str) -> Option<(String, Vec<String>)> {
    let mut items: Vec<Item> = Vec::new();
    let mut rest = query;
    while let Some(start) = rest.find(|c: char| !c.is_whitespace()) {
        rest = &rest[start..];
        if let Some(body) = rest.strip_prefix('"')
            && let Some(end) = body.find('"')
        {
            push_term(&mut items, &body[..end], false);
            rest = &body[end + 1..];
            continue;
        }
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let word = &rest[..end];
        rest = &rest[end..];
        match word {
            "AND" => items.push(Item::Op("AND")),
            "OR" => items.push(Item::Op("OR")),
            "NOT" => items.push(Item::Op("NOT")),
            _ => {
                let (word, prefix) = match word.strip_suffix('*') {
                    Some(w) => (w, true),
                    None => (word, false),
                };
                push_term(&mut items, word.trim_matches('"'), prefix);
            }
        }
    }
    let mut out: Vec<&str> = Vec::new();
    let mut terms = Vec::new();
    for (i, item) in items.iter().enumerate() {
        match item {
            Item::Term { fts, text } => {
                out.push(fts);
                terms.push(text.clone());
            }
            Item::Op(op) => {
                let after_term = matches!(out.last(), Some(last) if !is_op(last));
                let before_term = matches!(items.get(i + 1), Some(Item::Term { .. }));
                if after_term && before_term {
                    out.push(op);
                }
            }
        }
    }
    if terms.is_empty() {
        return None;
    }
    Some((out.join(" "), terms))
}

fn is_op(s: &str) -> bool {
    matches!(s, "AND" | "OR" | "NOT")
}

fn push_term(items: &mut Vec<Item>, text: &str, prefix: bool) {
    let text = text.trim();
    if !text.chars().any(char::is_alphanumeric) {
        return;
    }
    let mut fts = format!("\"{}\"", text.replace('"', "\"\""));
    if prefix {
        fts.push('*');
    }
    items.push(Item::Term {
        fts,
        text: text.to_string(),
    });
}

/// Han, Hiragana, Katakana, Hangul and their punctuation/extension blocks.
pub(crate) fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x1100..=0x11FF | 0x2E80..=0x2FFF | 0x3000..=0x30FF | 0x3100..=0x31FF
        | 0x3200..=0x9FFF | 0xA960..=0xA97F | 0xAC00..=0xD7FF | 0xF900..=0xFAFF
        | 0xFF00..=0xFFEF | 0x20000..=0x3FFFF)
}

/// Active messages of visible sessions, minus the session bound to `?{exclude_param}`.
fn visible_filter(exclude_param: usize) -> String {
    format!(
        "COALESCE(m.active, 1) = 1 AND COALESCE(s.source, '') NOT IN {HIDDEN_SOURCES_SQL} \
         AND (?{exclude_param} IS NULL OR s.id <> ?{exclude_param})"
    )
}

struct RawHit {
    message_id: i64,
    session_id: String,
    role: String,
    timestamp: f64,
    /// Filled for the hits that are kept (FTS) or at once (scan).
    snippet: String,
}

/// The SQL text is fixed, so a generic SQLITE_ERROR while running a MATCH comes from the
/// query ("fts5: syntax error near …", "no such column: col"); busy, I/O and corruption
/// errors have their own codes and stay database errors.
fn match_error(e: rusqlite::Error) -> StoreError {
    match &e {
        rusqlite::Error::SqliteFailure(f, Some(msg)) if f.code == rusqlite::ErrorCode::Unknown => {
            StoreError::SearchSyntax(msg.clone())
        }
        _ => StoreError::Sqlite(e),
    }
}

/// Keep the first row of each session from a ranked row stream, stopping (and so stopping
/// SQLite) once `max` sessions are found.
fn first_per_session(
    rows: impl Iterator<Item = rusqlite::Result<RawHit>>,
    max: usize,
) -> rusqlite::Result<Vec<RawHit>> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for row in rows {
        let row = row?;
        if seen.insert(row.session_id.clone()) {
            out.push(row);
            if out.len() >= max {
                break;
            }
        }
    }
    Ok(out)
}

fn raw_hit(r: &rusqlite::Row<'_>) -> rusqlite::Result<RawHit> {
    Ok(RawHit {
        message_id: r.get(0)?,
        session_id: r.get(1)?,
        role: r.get::<_, Option<String>>(2)?.unwrap_or_default(),
        timestamp: r.get::<_, Option<f64>>(3)?.unwrap_or(0.0),
        snippet: String::new(),
    })
}

/// The best-ranked visible message of each matching session (bm25 order), at most `max`
/// sessions. Rows stream in rank order, so a query stops as soon as it has enough sessions
/// however many messages one session matches. Snippets are left empty; see `fts_snippet`.
fn fts_hits(
    conn: &Connection,
    table: &str,
    fts_query: &str,
    exclude: Option<&str>,
    max: usize,
) -> Result<Vec<RawHit>> {
    let sql = format!(
        "SELECT m.id, m.session_id, m.role, m.timestamp \
         FROM {table} JOIN messages m ON m.id = {table}.rowid \
         JOIN sessions s ON s.id = m.session_id \
         WHERE {table} MATCH ?1 AND {} ORDER BY {table}.rank",
        visible_filter(2)
    );
    let run = || -> rusqlite::Result<Vec<RawHit>> {
        let mut stmt = conn.prepare_cached(&sql)?;
        let rows = stmt.query_map(rusqlite::params![fts_query, exclude], raw_hit)?;
        first_per_session(rows, max)
    };
    run().map_err(match_error)
}

/// The FTS snippet of one message for `fts_query`.
fn fts_snippet(conn: &Connection, table: &str, fts_query: &str, message_id: i64) -> Result<String> {
    let sql = format!(
        "SELECT snippet({table}, 0, '{MARK_START}', '{MARK_END}', '…', 24) FROM {table} \
         WHERE {table} MATCH ?1 AND rowid = ?2"
    );
    let mut stmt = conn.prepare_cached(&sql).map_err(match_error)?;
    let snippet = stmt
        .query_row(rusqlite::params![fts_query, message_id], |r| {
            r.get::<_, Option<String>>(0)
        })
        .optional()
        .map_err(match_error)?;
    Ok(snippet.flatten().unwrap_or_default())
}

/// `LIKE` fallback: the newest visible message containing every term, per session, newest
/// first, at most `max` sessions (the scan stops once it has them).
fn scan_hits(
    conn: &Connection,
    terms: &[String],
    exclude: Option<&str>,
    max: usize,
) -> Result<Vec<RawHit>> {
    let likes: Vec<String> = (0..terms.len())
        .map(|i| format!("m.content LIKE ?{} ESCAPE '\\'", i + 2))
        .collect();
    let sql = format!(
        "SELECT m.id, m.session_id, m.role, m.timestamp, m.content \
         FROM messages m JOIN sessions s ON s.id = m.session_id \
         WHERE {} AND {} ORDER BY m.id DESC",
        visible_filter(1),
        likes.join(" AND ")
    );
    let mut p: Vec<rusqlite::types::Value> =
        vec![exclude.map_or(rusqlite::types::Value::Null, |e| e.to_string().into())];
    p.extend(terms.iter().map(|t| format!("%{}%", like_escape(t)).into()));
    let mut stmt = conn.prepare(&sql)?;
    let rows = stmt.query_map(params_from_iter(p), |r| {
        let content: String = r.get::<_, Option<String>>(4)?.unwrap_or_default();
        Ok(RawHit {
            snippet: text_snippet(&content, &terms[0], 40),
            ..raw_hit(r)?
        })
    })?;
    Ok(first_per_session(rows, max)?)
}

/// `radius` characters either side of the first occurrence of `term`, marked.
pub(crate) fn text_snippet(content: &str, term: &str, radius: usize) -> String {
    let Some(at) = content.find(term) else {
        return content.chars().take(radius * 2).collect();
    };
    let before: Vec<char> = content[..at].chars().collect();
    let after: Vec<char> = content[at + term.len()..].chars().collect();
    let start = before.len().saturating_sub(radius);
    let mut out = String::new();
    if start > 0 {
        out.push('…');
    }
    out.extend(&before[start..]);
    out.push_str(MARK_START);
    out.push_str(term);
    out.push_str(MARK_END);
    out.extend(after.iter().take(radius));
    if after.len() > radius {
        out.push('…');
    }
    out
}

/// The root of a session's lineage (itself when it has no parent).
pub(crate) fn lineage_root(
    conn: &Connection,
    session_id: &str,
    cache: &mut HashMap<String, String>,
) -> Result<String> {
    if let Some(root) = cache.get(session_id) {
        return Ok(root.clone());
    }
    let mut stmt = conn.prepare_cached(
        "SELECT COALESCE(parent_session_id, \
           CASE WHEN json_valid(model_config) THEN \
             COALESCE(json_extract(model_config, '$._branched_from'), \
                      json_extract(model_config, '$._delegate_from')) END) \
         FROM sessions WHERE id = ?1",
    )?;
    let mut seen: HashSet<String> = HashSet::new();
    let mut current = session_id.to_string();
    while seen.insert(current.clone()) && seen.len() <= 64 {
        let parent: Option<String> = stmt
            .query_row([&current], |r| r.get::<_, Option<String>>(0))
            .optional()?
            .flatten();
        match parent {
            Some(p) if !p.is_empty() && p != current => {
                let exists = conn
                    .query_row("SELECT 1 FROM sessions WHERE id = ?1", [&p], |_| Ok(()))
                    .optional()?
                    .is_some();
                if !exists {
                    break;
                }
                current = p;
            }
            _ => break,
        }
    }
    cache.insert(session_id.to_string(), current.clone());
    Ok(current)
}

impl SessionStore {
    /// Search stored messages; one hit per session lineage, best first. An empty or
    /// unsearchable query gives no hits. Never returns a raw FTS error: a query FTS5 still
    /// rejects gives `StoreError::SearchSyntax`.
    pub fn search(&self, req: &SearchRequest<'_>) -> Result<SearchResults> {
        let Some((fts_query, terms)) = sanitize(req.query) else {
            return Ok(SearchResults {
                mode: SearchMode::Words,
                hits: Vec::new(),
            });
        };
        let limit = req.limit.max(1);
        // Sessions, not messages: several sessions of one lineage collapse below.
        let max = (limit * 4).max(20);
        let conn = self.conn();
        let cjk = req.query.chars().any(is_cjk);
        let mut table = Some("messages_fts");
        let mut mode = SearchMode::Words;
        let mut raw = if cjk {
            Vec::new()
        } else {
            fts_hits(&conn, "messages_fts", &fts_query, req.exclude_session, max)?
        };
        let long_enough = terms.iter().all(|t| t.chars().count() >= 3);
        if raw.is_empty() && long_enough {
            mode = SearchMode::Substring;
            table = Some("messages_fts_trigram");
            raw = fts_hits(
                &conn,
                "messages_fts_trigram",
                &fts_query,
                req.exclude_session,
                max,
            )?;
        } else if raw.is_empty() && cjk {
            mode = SearchMode::Scan;
            table = None;
            raw = scan_hits(&conn, &terms, req.exclude_session, max)?;
        }
        let mut cache = HashMap::new();
        let mut seen = HashSet::new();
        let mut hits = Vec::new();
        for h in raw {
            let root = lineage_root(&conn, &h.session_id, &mut cache)?;
            if !seen.insert(root.clone()) {
                continue;
            }
            let snippet = match table {
                Some(t) => fts_snippet(&conn, t, &fts_query, h.message_id)?,
                None => h.snippet,
            };
            hits.push(SearchHit {
                message_id: h.message_id,
                session_id: h.session_id,
                lineage_root: root,
                role: h.role,
                timestamp: h.timestamp,
                snippet,
            });
            if hits.len() >= limit {
                break;
            }
        }
        Ok(SearchResults { mode, hits })
    }

    /// The root of `session_id`'s lineage.
    pub fn lineage_root(&self, session_id: &str) -> Result<String> {
        lineage_root(&self.conn(), session_id, &mut HashMap::new())
    }
}

#[cfg(test)]
#[path = "search_tests.rs"]
mod tests;
