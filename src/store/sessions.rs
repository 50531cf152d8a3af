//! Session rows: create, end/reopen, titles, lookup by id / prefix / title, listings, delete
//! and prune.
//!
//! Not here: messages (`messages`), token accounting (`usage`), `--continue` and resume
//! targets (`resume`), search (`search`), export (`export`). Invariants: every write is one
//! committed transaction; a session ends once (the first end reason wins, as in Hermes) until
//! it is re-opened; deleting a session deletes its messages (and their FTS rows, via triggers)
//! and its usage rows (foreign-key cascade) and detaches, never deletes, its child sessions;
//! titles are unique among sessions (Hermes's `idx_sessions_title_unique`); prune selects only
//! ended sessions, as Hermes's does.

use rusqlite::Connection;
use rusqlite::OptionalExtension;
use rusqlite::Row;
use rusqlite::params;

use crate::store::Result;
use crate::store::SessionStore;
use crate::store::StoreError;
use crate::store::time;
use crate::store::types::EndReason;
use crate::store::types::HIDDEN_SOURCES_SQL;
use crate::store::types::Hidden;
use crate::store::types::ListQuery;
use crate::store::types::NewSession;
use crate::store::types::SessionRow;
use crate::store::types::SessionSummary;
use crate::store::types::Source;
use crate::store::types::one_line;

/// The estimated cost, NULL when the writer could not price the calls (Hermes's
/// `cost_status = 'unknown'` with a 0 amount).
const KNOWN_COST_SQL: &str =
    "CASE WHEN cost_status = 'unknown' THEN NULL ELSE estimated_cost_usd END";

pub(crate) const SESSION_COLS: &str = "id, source, user_id, model, model_config, system_prompt, \
     parent_session_id, started_at, ended_at, end_reason, message_count, tool_call_count, \
     input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, reasoning_tokens, cwd, \
     billing_provider, billing_base_url, \
     CASE WHEN cost_status = 'unknown' THEN NULL ELSE estimated_cost_usd END, \
     title, api_call_count, archived";

/// A non-negative count from a nullable integer column.
pub(crate) fn count(r: &Row<'_>, i: usize) -> rusqlite::Result<u64> {
    Ok(r.get::<_, Option<i64>>(i)?.unwrap_or(0).max(0) as u64)
}

pub(crate) fn session_from_row(r: &Row<'_>) -> rusqlite::Result<SessionRow> {
    let model_config: Option<String> = r.get(4)?;
    Ok(SessionRow {
        id: r.get(0)?,
        source: Source::parse(&r.get::<_, Option<String>>(1)?.unwrap_or_default()),
        user_id: r.get(2)?,
        model: r.get(3)?,
        model_config: model_config.and_then(|c| serde_json::from_str(&c).ok()),
        system_prompt: r.get(5)?,
        parent_session_id: r.get(6)?,
        started_at: r.get::<_, Option<f64>>(7)?.unwrap_or(0.0),
        ended_at: r.get(8)?,
        end_reason: r.get(9)?,
        message_count: count(r, 10)?,
        tool_call_count: count(r, 11)?,
        input_tokens: count(r, 12)?,
        output_tokens: count(r, 13)?,
        cache_read_tokens: count(r, 14)?,
        cache_write_tokens: count(r, 15)?,
        reasoning_tokens: count(r, 16)?,
        cwd: r.get(17)?,
        billing_provider: r.get(18)?,
        billing_base_url: r.get(19)?,
        estimated_cost_usd: r.get(20)?,
        title: r.get(21)?,
        api_call_count: count(r, 22)?,
        archived: r.get::<_, Option<i64>>(23)?.unwrap_or(0) != 0,
    })
}

fn non_empty(s: &str) -> Option<&str> {
    Some(s.trim()).filter(|s| !s.is_empty())
}

/// `%`, `_` and `\` escaped for `LIKE … ESCAPE '\'`.
pub(crate) fn like_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if matches!(c, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Map a constraint failure on insert/update to the typed error it means.
pub(crate) fn constraint_error(e: rusqlite::Error, id: &str, title: Option<&str>) -> StoreError {
    if let rusqlite::Error::SqliteFailure(_, Some(msg)) = &e {
        if msg.contains("sessions.title") {
            return StoreError::TitleInUse(title.unwrap_or_default().to_string());
        }
        if msg.contains("sessions.id") {
            return StoreError::AlreadyExists(id.to_string());
        }
    }
    StoreError::Sqlite(e)
}

pub(crate) fn session_exact(conn: &Connection, id: &str) -> Result<Option<SessionRow>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {SESSION_COLS} FROM sessions WHERE id = ?1"
    ))?;
    Ok(stmt.query_row([id], session_from_row).optional()?)
}

/// The first user message's first line, from `SUBSTR(content, 1, 400)`.
const FIRST_USER_SQL: &str = "(SELECT SUBSTR(m.content, 1, 400) FROM messages m \
     WHERE m.session_id = s.id AND m.role = 'user' AND COALESCE(m.active, 1) = 1 \
     ORDER BY m.timestamp, m.id LIMIT 1)";

impl SessionStore {
    /// Create a session row (started now).
    pub fn create_session(&self, s: &NewSession) -> Result<()> {
        let model_config = s
            .model_config
            .as_ref()
            .map(serde_json::to_string)
            .transpose()?;
        let title = s.title.as_deref().and_then(non_empty);
        let conn = self.conn();
        conn.execute(
            "INSERT INTO sessions (id, source, model, model_config, system_prompt, \
             parent_session_id, started_at, cwd, billing_provider, billing_base_url, title, \
             message_count, tool_call_count) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, 0, 0)",
            params![
                s.id,
                s.source.as_str(),
                non_empty(&s.model),
                model_config,
                // Stored byte for byte: a resumed session must send exactly this prompt.
                (!s.system_prompt.is_empty()).then_some(s.system_prompt.as_str()),
                s.parent_session_id.as_deref().and_then(non_empty),
                time::now(),
                non_empty(&s.cwd),
                non_empty(&s.provider),
                non_empty(&crate::store::usage::billing_base_url(&s.base_url)),
                title,
            ],
        )
        .map_err(|e| {
            if let rusqlite::Error::SqliteFailure(_, Some(msg)) = &e
                && msg.contains("FOREIGN KEY")
            {
                return StoreError::NotFound(s.parent_session_id.clone().unwrap_or_default());
            }
            constraint_error(e, &s.id, title)
        })?;
        Ok(())
    }

    /// Mark the session ended now. Like Hermes's `end_session`, an already-ended session keeps
    /// its first end time and reason (re-open it first to end it again). Returns whether this
    /// call ended it.
    pub fn end_session(&self, session_id: &str, reason: EndReason) -> Result<bool> {
        let conn = self.conn();
        let n = conn.execute(
            "UPDATE sessions SET ended_at = ?2, end_reason = ?3 \
             WHERE id = ?1 AND ended_at IS NULL",
            params![session_id, time::now(), reason.as_str()],
        )?;
        if n == 0 && session_exact(&conn, session_id)?.is_none() {
            return Err(StoreError::NotFound(session_id.to_string()));
        }
        Ok(n > 0)
    }

    /// Clear `ended_at` / `end_reason` (resuming a session, as Hermes does).
    pub fn reopen_session(&self, session_id: &str) -> Result<()> {
        let conn = self.conn();
        let n = conn.execute(
            "UPDATE sessions SET ended_at = NULL, end_reason = NULL WHERE id = ?1",
            [session_id],
        )?;
        found(n, session_id)
    }

    /// Hermes's lineage title: `base` when no session has it, else `base #N` one past the
    /// highest number in use (an existing ` #N` suffix on `title` is taken off first).
    pub fn next_title_in_lineage(&self, title: &str) -> Result<String> {
        let base = match title.rsplit_once(" #") {
            Some((head, n)) if !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()) => head,
            _ => title,
        };
        let conn = self.conn();
        let mut stmt = conn
            .prepare("SELECT title FROM sessions WHERE title = ?1 OR title LIKE ?2 ESCAPE '\\'")?;
        let titles = stmt
            .query_map(params![base, format!("{} #%", like_escape(base))], |r| {
                r.get::<_, String>(0)
            })?
            .collect::<rusqlite::Result<Vec<String>>>()?;
        if titles.is_empty() {
            return Ok(base.to_string());
        }
        let highest = titles
            .iter()
            .filter_map(|t| t.rsplit_once(" #").and_then(|(_, n)| n.parse::<u64>().ok()))
            .fold(1, u64::max);
        Ok(format!("{base} #{}", highest + 1))
    }

    /// Set (or with an empty string, clear) the title. Titles are unique: a title another
    /// session holds gives `StoreError::TitleInUse`.
    pub fn set_title(&self, session_id: &str, title: &str) -> Result<()> {
        let title = non_empty(title);
        let conn = self.conn();
        let n = conn
            .execute(
                "UPDATE sessions SET title = ?2 WHERE id = ?1",
                params![session_id, title],
            )
            .map_err(|e| constraint_error(e, session_id, title))?;
        found(n, session_id)
    }

    /// The session with this exact id.
    pub fn session(&self, id: &str) -> Result<Option<SessionRow>> {
        session_exact(&self.conn(), id)
    }

    /// Resolve `key` as a full id, then an exact title (most recent first), then a unique id
    /// prefix. Several sessions sharing the prefix give `StoreError::Ambiguous`.
    pub fn get_session(&self, key: &str) -> Result<Option<SessionRow>> {
        let key = key.trim();
        if key.is_empty() {
            return Ok(None);
        }
        let conn = self.conn();
        if let Some(row) = session_exact(&conn, key)? {
            return Ok(Some(row));
        }
        let by_title = conn
            .query_row(
                &format!(
                    "SELECT {SESSION_COLS} FROM sessions WHERE title = ?1 \
                     ORDER BY started_at DESC LIMIT 1"
                ),
                [key],
                session_from_row,
            )
            .optional()?;
        if by_title.is_some() {
            return Ok(by_title);
        }
        let mut stmt = conn.prepare(
            "SELECT id FROM sessions WHERE id LIKE ?1 ESCAPE '\\' \
             ORDER BY started_at DESC LIMIT 6",
        )?;
        let ids = stmt
            .query_map([format!("{}%", like_escape(key))], |r| {
                r.get::<_, String>(0)
            })?
            .collect::<rusqlite::Result<Vec<String>>>()?;
        match ids.as_slice() {
            [] => Ok(None),
            [one] => session_exact(&conn, one),
            _ => Err(StoreError::Ambiguous {
                key: key.to_string(),
                matches: ids,
            }),
        }
    }

    /// Sessions newest first (by start), filtered as `q` says.
    pub fn list_sessions(&self, q: &ListQuery) -> Result<Vec<SessionSummary>> {
        let search = q
            .search
            .as_deref()
            .and_then(non_empty)
            .map(|s| format!("%{}%", like_escape(s)));
        let sql = format!(
            "SELECT s.id, s.title, s.source, s.model, s.started_at, s.message_count, s.cwd, \
             s.input_tokens, s.output_tokens, {KNOWN_COST_SQL}, {FIRST_USER_SQL} \
             FROM sessions s \
             WHERE (?1 IS NULL OR s.cwd = ?1) \
             AND (?2 = 1 OR (COALESCE(s.source, '') NOT IN {HIDDEN_SOURCES_SQL} \
                  AND COALESCE(s.archived, 0) = 0)) \
             AND (?3 IS NULL OR s.title LIKE ?3 ESCAPE '\\' OR s.id LIKE ?3 ESCAPE '\\' \
                  OR (SELECT m.content FROM messages m WHERE m.session_id = s.id \
                      AND m.role = 'user' AND COALESCE(m.active, 1) = 1 \
                      ORDER BY m.timestamp, m.id LIMIT 1) LIKE ?3 ESCAPE '\\') \
             ORDER BY s.started_at DESC LIMIT ?4"
        );
        let conn = self.conn();
        let mut stmt = conn.prepare_cached(&sql)?;
        let rows = stmt
            .query_map(
                params![
                    q.cwd.as_deref(),
                    (q.include_hidden == Hidden::Include) as i64,
                    search,
                    q.limit.min(i64::MAX as usize) as i64,
                ],
                |r| {
                    Ok(SessionSummary {
                        id: r.get(0)?,
                        title: r.get(1)?,
                        source: Source::parse(&r.get::<_, Option<String>>(2)?.unwrap_or_default()),
                        model: r.get(3)?,
                        started_at: r.get::<_, Option<f64>>(4)?.unwrap_or(0.0),
                        message_count: count(r, 5)?,
                        cwd: r.get(6)?,
                        input_tokens: count(r, 7)?,
                        output_tokens: count(r, 8)?,
                        cost_usd: r.get(9)?,
                        first_user_message: r
                            .get::<_, Option<String>>(10)?
                            .map(|m| one_line(&m, 120))
                            .filter(|m| !m.is_empty()),
                    })
                },
            )?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(rows)
    }

    /// Delete a session and its messages; its child sessions are kept, detached. Returns
    /// whether the session existed.
    pub fn delete_session(&self, session_id: &str) -> Result<bool> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let n = delete_in(&tx, session_id)?;
        tx.commit()?;
        Ok(n > 0)
    }

    /// Hermes's `sessions prune --older-than DAYS`: delete every *ended* session started
    /// more than `days` days ago (a live session is never a candidate). Returns how many were
    /// deleted.
    pub fn prune_older_than(&self, days: u32) -> Result<usize> {
        let cutoff = time::now() - f64::from(days) * 86_400.0;
        let mut conn = self.conn();
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let ids: Vec<String> = {
            let mut stmt = tx.prepare(
                "SELECT s.id FROM sessions s WHERE s.ended_at IS NOT NULL AND s.started_at < ?1",
            )?;
            stmt.query_map([cutoff], |r| r.get::<_, String>(0))?
                .collect::<rusqlite::Result<Vec<String>>>()?
        };
        for id in &ids {
            delete_in(&tx, id)?;
        }
        tx.commit()?;
        Ok(ids.len())
    }
}

fn delete_in(conn: &Connection, session_id: &str) -> rusqlite::Result<usize> {
    conn.execute(
        "UPDATE sessions SET parent_session_id = NULL WHERE parent_session_id = ?1",
        [session_id],
    )?;
    conn.execute("DELETE FROM messages WHERE session_id = ?1", [session_id])?;
    conn.execute("DELETE FROM sessions WHERE id = ?1", [session_id])
}

fn found(changed: usize, session_id: &str) -> Result<()> {
    if changed == 0 {
        Err(StoreError::NotFound(session_id.to_string()))
    } else {
        Ok(())
    }
}

#[cfg(test)]
#[path = "sessions_tests.rs"]
mod tests;
