//! Which stored session a resume continues, by Hermes's rules.
//!
//! `--continue` (Hermes's `_resolve_last_session` → `search_sessions(source, limit=1)`): the
//! session of the given source used most recently — latest message time, else start time,
//! then start time, then id, newest first. Nothing else filters it: ended, archived, titled
//! or child sessions all count; subagent runs are excluded by their source (`subagent`).
//!
//! Any resume target then goes through `resume_target` (Hermes's `resolve_resume_session_id`):
//! from a session that context compression continued elsewhere, follow the compression
//! continuations to the live tip, then walk forward to the deepest descendant holding
//! messages, never into branch, subagent or tool children.
//!
//! Read-only; both walks are bounded (100 and 32 steps, as Hermes's) and stop at a cycle.

use rusqlite::OptionalExtension;

use crate::store::Result;
use crate::store::SessionStore;
use crate::store::Source;

/// The compression continuation of `parent`, preferring one that itself was compressed, then
/// a live one, then the most recently used.
const COMPRESSION_CHILD_SQL: &str = "SELECT child.id FROM sessions parent \
     JOIN sessions child ON child.parent_session_id = parent.id \
     WHERE parent.id = ?1 AND parent.end_reason = 'compression' \
     AND json_extract(COALESCE(child.model_config, '{}'), '$._branched_from') IS NULL \
     AND json_extract(COALESCE(child.model_config, '{}'), '$._delegate_from') IS NULL \
     AND COALESCE(child.source, '') != 'tool' \
     ORDER BY CASE WHEN child.end_reason = 'compression' THEN 0 \
                   WHEN child.ended_at IS NULL THEN 1 ELSE 2 END, \
     COALESCE((SELECT MAX(m.timestamp) FROM messages m WHERE m.session_id = child.id), \
              child.started_at) DESC, \
     child.started_at DESC, child.id DESC LIMIT 1";

/// The most recently started child that is not a branch, subagent or tool session.
const CONTINUATION_CHILD_SQL: &str = "SELECT id FROM sessions WHERE parent_session_id = ?1 \
     AND json_extract(COALESCE(model_config, '{}'), '$._branched_from') IS NULL \
     AND json_extract(COALESCE(model_config, '{}'), '$._delegate_from') IS NULL \
     AND COALESCE(source, '') != 'tool' \
     ORDER BY started_at DESC, id DESC LIMIT 1";

impl SessionStore {
    /// The id `--continue` picks among sessions of `source` (Hermes's rule, module docs).
    pub fn most_recent_session(&self, source: &Source) -> Result<Option<String>> {
        let conn = self.conn();
        let id = conn
            .query_row(
                "SELECT s.id FROM sessions s LEFT JOIN (SELECT session_id, \
                 MAX(timestamp) AS last_active FROM messages GROUP BY session_id) m \
                 ON m.session_id = s.id WHERE s.source = ?1 \
                 ORDER BY COALESCE(m.last_active, s.started_at) DESC, s.started_at DESC, \
                 s.id DESC LIMIT 1",
                [source.as_str()],
                |r| r.get::<_, String>(0),
            )
            .optional()?;
        Ok(id)
    }

    /// The session that resuming `session_id` should continue (module docs): `session_id`
    /// itself unless compression moved its conversation on.
    pub fn resume_target(&self, session_id: &str) -> Result<String> {
        let conn = self.conn();
        let next = |sql: &str, id: &str| -> Result<Option<String>> {
            Ok(conn
                .query_row(sql, [id], |r| r.get::<_, String>(0))
                .optional()?)
        };
        let mut current = session_id.to_string();
        let mut seen = vec![current.clone()];
        for _ in 0..100 {
            match next(COMPRESSION_CHILD_SQL, &current)? {
                Some(child) if !seen.contains(&child) => {
                    seen.push(child.clone());
                    current = child;
                }
                _ => break,
            }
        }
        let start = current.clone();
        let mut seen = vec![current.clone()];
        let mut best: Option<String> = None;
        for _ in 0..32 {
            let has_messages: bool = conn.query_row(
                "SELECT EXISTS(SELECT 1 FROM messages WHERE session_id = ?1)",
                [&current],
                |r| r.get(0),
            )?;
            if has_messages {
                best = Some(current.clone());
            }
            match next(CONTINUATION_CHILD_SQL, &current)? {
                Some(child) if !seen.contains(&child) => {
                    seen.push(child.clone());
                    current = child;
                }
                _ => break,
            }
        }
        Ok(best.unwrap_or(start))
    }
}

#[cfg(test)]
#[path = "resume_tests.rs"]
mod tests;
