//! Messages: append (one committed transaction each), load the active history for a resume
//! (repaired so every tool call has a result),
//! hide the last N user turns (`/undo`), branch a session, and read windows of messages for
//! `session_search` and exports.
//!
//! Not here: FTS queries (`search`). Invariants: message order is `id` order (AUTOINCREMENT, so
//! ids never go backwards); `active = 0` hides a message from history, search and export but
//! never deletes it; `sessions.message_count` counts active messages; a NULL `active` written
//! by an older Hermes counts as active.

use rusqlite::Connection;
use rusqlite::Row;
use rusqlite::TransactionBehavior;
use rusqlite::params;

use crate::model::Message;
use crate::store::Result;
use crate::store::SessionStore;
use crate::store::StoreError;
use crate::store::sessions::SESSION_COLS;
use crate::store::sessions::constraint_error;
use crate::store::sessions::session_from_row;
use crate::store::time;
use crate::store::types::MessageRow;
use crate::store::types::StoredMessage;
use crate::store::types::decode_images;
use crate::store::types::decode_reasoning_items;
use crate::store::types::decode_tool_calls;
use crate::store::types::encode_images;
use crate::store::types::encode_reasoning_items;
use crate::store::types::encode_tool_calls;
use crate::store::types::role_str;

pub(crate) const MESSAGE_COLS: &str = "id, session_id, role, content, tool_calls, tool_call_id, \
     tool_name, reasoning, finish_reason, token_count, timestamp, active, images, \
     codex_reasoning_items";

pub(crate) fn message_from_row(r: &Row<'_>) -> rusqlite::Result<MessageRow> {
    let tool_calls: Option<String> = r.get(4)?;
    Ok(MessageRow {
        id: r.get(0)?,
        session_id: r.get(1)?,
        role: r.get::<_, Option<String>>(2)?.unwrap_or_default(),
        content: r.get::<_, Option<String>>(3)?.unwrap_or_default(),
        tool_calls: decode_tool_calls(tool_calls.as_deref()),
        tool_call_id: r.get(5)?,
        tool_name: r.get(6)?,
        reasoning: r.get(7)?,
        finish_reason: r.get(8)?,
        token_count: r.get::<_, Option<i64>>(9)?.map(|n| n.max(0) as u64),
        timestamp: r.get::<_, Option<f64>>(10)?.unwrap_or(0.0),
        active: r.get::<_, Option<i64>>(11)?.unwrap_or(1) != 0,
        images: decode_images(r.get::<_, Option<String>>(12)?.as_deref()),
        codex_reasoning_items: decode_reasoning_items(r.get::<_, Option<String>>(13)?.as_deref()),
    })
}

const ACTIVE: &str = "COALESCE(active, 1) = 1";

/// Number of tool calls in a `tool_calls` JSON column, in SQL.
const TOOL_CALLS_LEN: &str =
    "CASE WHEN json_valid(tool_calls) THEN json_array_length(tool_calls) ELSE 0 END";

fn query_messages(
    conn: &Connection,
    sql: &str,
    p: impl rusqlite::Params,
) -> Result<Vec<MessageRow>> {
    let mut stmt = conn.prepare_cached(sql)?;
    let rows = stmt
        .query_map(p, message_from_row)?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(rows)
}

impl SessionStore {
    /// Append one completed message and commit it (its own transaction). Bumps the session's
    /// `message_count` and `tool_call_count`. Returns the message id.
    pub fn append_message(&self, session_id: &str, m: &StoredMessage) -> Result<i64> {
        let ids = self.append_messages(session_id, std::slice::from_ref(m))?;
        ids.first()
            .copied()
            .ok_or_else(|| StoreError::NotFound(session_id.to_string()))
    }

    /// Append several messages in one transaction (all or none), e.g. seeding a compressed
    /// continuation or importing. Returns their ids in order.
    pub fn append_messages(
        &self,
        session_id: &str,
        messages: &[StoredMessage],
    ) -> Result<Vec<i64>> {
        let encoded = messages
            .iter()
            .map(|m| encode_tool_calls(&m.tool_calls))
            .collect::<Result<Vec<_>, _>>()?;
        let calls: usize = messages.iter().map(|m| m.tool_calls.len()).sum();
        let mut conn = self.conn();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let bumped = tx
            .prepare_cached(
                "UPDATE sessions SET message_count = COALESCE(message_count, 0) + ?2, \
                 tool_call_count = COALESCE(tool_call_count, 0) + ?3 WHERE id = ?1",
            )?
            .execute(params![session_id, messages.len() as i64, calls as i64])?;
        if bumped == 0 {
            return Err(StoreError::NotFound(session_id.to_string()));
        }
        let mut ids = Vec::with_capacity(messages.len());
        {
            let mut insert = tx.prepare_cached(
                "INSERT INTO messages (session_id, role, content, tool_call_id, tool_calls, \
                 tool_name, timestamp, token_count, finish_reason, reasoning, active, images, \
                 codex_reasoning_items) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, 1, ?11, ?12)",
            )?;
            let now = time::now();
            for (m, tool_calls) in messages.iter().zip(&encoded) {
                insert.execute(params![
                    session_id,
                    role_str(m.role),
                    m.content,
                    m.tool_call_id,
                    tool_calls,
                    m.tool_name,
                    now,
                    m.token_count.map(|n| n.min(i64::MAX as u64) as i64),
                    m.finish_reason,
                    m.reasoning,
                    encode_images(&m.images),
                    encode_reasoning_items(&m.codex_reasoning_items),
                ])?;
                ids.push(tx.last_insert_rowid());
            }
        }
        tx.commit()?;
        Ok(ids)
    }

    /// The active messages of a session in order, as the engine's history (roles the engine
    /// does not know are skipped), repaired so every tool call has one result
    /// (`store::repair`). The interrupted results that close the history are stored, so a
    /// session killed during a tool call is resumable from then on; if that write fails they
    /// are kept for this run only.
    pub fn load_history(&self, session_id: &str) -> Result<Vec<Message>> {
        let history = self
            .messages(session_id)?
            .iter()
            .filter_map(MessageRow::to_message)
            .collect();
        let repaired = crate::store::repair::repair_tool_results(history);
        if repaired.changed() {
            tracing::info!(
                session = session_id,
                added = repaired.added,
                dropped = repaired.dropped,
                "repaired the tool results of a loaded history"
            );
        }
        if !repaired.trailing.is_empty() {
            let stored: Vec<StoredMessage> = repaired
                .trailing
                .iter()
                .map(StoredMessage::from_message)
                .collect();
            if let Err(err) = self.append_messages(session_id, &stored) {
                tracing::warn!(error = %err, session = session_id, "could not store the interrupted tool results");
            }
        }
        Ok(repaired.history)
    }

    /// The active messages of a session in order, with ids and times.
    pub fn messages(&self, session_id: &str) -> Result<Vec<MessageRow>> {
        query_messages(
            &self.conn(),
            &format!(
                "SELECT {MESSAGE_COLS} FROM messages WHERE session_id = ?1 AND {ACTIVE} \
                 ORDER BY id"
            ),
            [session_id],
        )
    }

    /// Up to `before` active messages before `around_id`, the message itself, and up to
    /// `after` after it, in order.
    pub fn messages_around(
        &self,
        session_id: &str,
        around_id: i64,
        before: usize,
        after: usize,
    ) -> Result<Vec<MessageRow>> {
        let conn = self.conn();
        let mut rows = query_messages(
            &conn,
            &format!(
                "SELECT {MESSAGE_COLS} FROM messages WHERE session_id = ?1 AND {ACTIVE} \
                 AND id <= ?2 ORDER BY id DESC LIMIT ?3"
            ),
            params![session_id, around_id, before as i64 + 1],
        )?;
        rows.reverse();
        rows.extend(query_messages(
            &conn,
            &format!(
                "SELECT {MESSAGE_COLS} FROM messages WHERE session_id = ?1 AND {ACTIVE} \
                 AND id > ?2 ORDER BY id LIMIT ?3"
            ),
            params![session_id, around_id, after as i64],
        )?);
        Ok(rows)
    }

    /// The first `n` and the last `n` active messages (overlapping for short sessions).
    pub fn session_edges(
        &self,
        session_id: &str,
        n: usize,
    ) -> Result<(Vec<MessageRow>, Vec<MessageRow>)> {
        let conn = self.conn();
        let first = query_messages(
            &conn,
            &format!(
                "SELECT {MESSAGE_COLS} FROM messages WHERE session_id = ?1 AND {ACTIVE} \
                 ORDER BY id LIMIT ?2"
            ),
            params![session_id, n as i64],
        )?;
        let mut last = query_messages(
            &conn,
            &format!(
                "SELECT {MESSAGE_COLS} FROM messages WHERE session_id = ?1 AND {ACTIVE} \
                 ORDER BY id DESC LIMIT ?2"
            ),
            params![session_id, n as i64],
        )?;
        last.reverse();
        Ok((first, last))
    }

    /// The session a message belongs to.
    pub fn message_session(&self, message_id: i64) -> Result<Option<String>> {
        use rusqlite::OptionalExtension;
        Ok(self
            .conn()
            .query_row(
                "SELECT session_id FROM messages WHERE id = ?1",
                [message_id],
                |r| r.get(0),
            )
            .optional()?)
    }

    /// Hide the last `n` user turns (each user message and everything after it) by setting
    /// `active = 0`. Returns how many turns were hidden (fewer when the session has fewer).
    pub fn undo_turns(&self, session_id: &str, n: usize) -> Result<usize> {
        if n == 0 {
            return Ok(0);
        }
        let mut conn = self.conn();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let users: Vec<i64> = {
            let mut stmt = tx.prepare(&format!(
                "SELECT id FROM messages WHERE session_id = ?1 AND role = 'user' AND {ACTIVE} \
                 ORDER BY id DESC LIMIT ?2"
            ))?;
            stmt.query_map(params![session_id, n as i64], |r| r.get(0))?
                .collect::<rusqlite::Result<Vec<i64>>>()?
        };
        let Some(&cut) = users.last() else {
            return Ok(0);
        };
        tx.execute(
            &format!(
                "UPDATE messages SET active = 0 WHERE session_id = ?1 AND id >= ?2 AND {ACTIVE}"
            ),
            params![session_id, cut],
        )?;
        tx.execute(
            &format!(
                "UPDATE sessions SET message_count = (SELECT COUNT(*) FROM messages \
                 WHERE session_id = ?1 AND {ACTIVE}), \
                 rewind_count = COALESCE(rewind_count, 0) + 1 WHERE id = ?1"
            ),
            [session_id],
        )?;
        tx.commit()?;
        Ok(users.len())
    }

    /// Copy `from_id`'s active messages into a new session `new_id` (same source, model,
    /// prompt and directory; `model_config._branched_from = from_id`), in one transaction.
    pub fn branch_session(&self, from_id: &str, new_id: &str, title: Option<&str>) -> Result<()> {
        let title = title.map(str::trim).filter(|t| !t.is_empty());
        let mut conn = self.conn();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let from = tx
            .query_row(
                &format!("SELECT {SESSION_COLS} FROM sessions WHERE id = ?1"),
                [from_id],
                session_from_row,
            )
            .map_err(|e| match e {
                rusqlite::Error::QueryReturnedNoRows => StoreError::NotFound(from_id.to_string()),
                other => StoreError::Sqlite(other),
            })?;
        let mut config = match from.model_config {
            Some(serde_json::Value::Object(map)) => map,
            _ => serde_json::Map::new(),
        };
        config.insert("_branched_from".to_string(), from_id.into());
        let config = serde_json::to_string(&serde_json::Value::Object(config))?;
        tx.execute(
            "INSERT INTO sessions (id, source, user_id, model, model_config, system_prompt, \
             started_at, cwd, billing_provider, billing_base_url, title, message_count, \
             tool_call_count) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, 0, 0)",
            params![
                new_id,
                from.source.as_str(),
                from.user_id,
                from.model,
                config,
                from.system_prompt,
                time::now(),
                from.cwd,
                from.billing_provider,
                from.billing_base_url,
                title,
            ],
        )
        .map_err(|e| constraint_error(e, new_id, title))?;
        tx.execute(
            &format!(
                "INSERT INTO messages (session_id, role, content, tool_call_id, tool_calls, \
                 tool_name, timestamp, token_count, finish_reason, reasoning, active, images, \
                 codex_reasoning_items) \
                 SELECT ?1, role, content, tool_call_id, tool_calls, tool_name, timestamp, \
                 token_count, finish_reason, reasoning, 1, images, codex_reasoning_items \
                 FROM messages \
                 WHERE session_id = ?2 AND {ACTIVE} ORDER BY id"
            ),
            [new_id, from_id],
        )?;
        tx.execute(
            &format!(
                "UPDATE sessions SET message_count = (SELECT COUNT(*) FROM messages \
                 WHERE session_id = ?1), tool_call_count = (SELECT COALESCE(SUM({TOOL_CALLS_LEN}), 0) \
                 FROM messages WHERE session_id = ?1) WHERE id = ?1"
            ),
            [new_id],
        )?;
        tx.commit()?;
        Ok(())
    }
}

#[cfg(test)]
#[path = "messages_tests.rs"]
mod tests;
