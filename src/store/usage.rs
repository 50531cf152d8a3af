//! Token accounting as Hermes does it: every API call adds its tokens to the session's totals
//! and to the `session_model_usage` row of the route it went through (model, billing provider,
//! base URL, billing mode, task), so Hermes's per-model usage and `hermes insights` count
//! hermes's turns exactly like its own.
//!
//! Main-loop calls (`record_api_call`, task `''`) update both the `sessions` totals and the
//! usage row in one transaction; auxiliary calls (`record_auxiliary_call`: compression
//! summaries, …) write only their usage row, as Hermes's `record_auxiliary_usage` does (its
//! insights add the two). hermes has no price table, so a call's cost is recorded the way
//! Hermes records a call it cannot price: 0, `cost_status = 'unknown'`, `cost_source = 'none'`.
//!
//! Invariants: `input_tokens` are the prompt tokens that were neither read from nor written to
//! the cache (Hermes's `CanonicalUsage`), so input + cache read + cache write is the whole
//! prompt; a billing base URL is stored without userinfo, query or fragment (no credentials).

use rusqlite::OptionalExtension;
use rusqlite::TransactionBehavior;
use rusqlite::params;

use crate::model::Usage;
use crate::store::Result;
use crate::store::SessionStore;
use crate::store::StoreError;
use crate::store::time;

/// What Hermes writes for a call it has no price for.
const COST_STATUS_UNKNOWN: &str = "unknown";
const COST_SOURCE_NONE: &str = "none";

/// The route an API call went through, as `sessions` / `session_model_usage` record it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BillingRoute {
    pub model: String,
    /// Hermes's provider name (`openrouter`, `anthropic`, `custom`, …).
    pub provider: String,
    pub base_url: String,
}

/// One API call's tokens in Hermes's buckets.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CallTokens {
    /// Prompt tokens not read from or written to the cache.
    pub input: u64,
    pub output: u64,
    pub cache_read: u64,
    pub cache_write: u64,
    pub reasoning: u64,
}

impl CallTokens {
    /// From a provider's usage, whose `input_tokens` counts the whole prompt.
    pub fn from_usage(u: &Usage) -> Self {
        Self {
            input: u
                .input_tokens
                .saturating_sub(u.cache_read_tokens + u.cache_write_tokens),
            output: u.output_tokens,
            cache_read: u.cache_read_tokens,
            cache_write: u.cache_write_tokens,
            reasoning: u.reasoning_tokens,
        }
    }

    fn is_empty(&self) -> bool {
        *self == Self::default()
    }
}

/// An auxiliary call's task, by Hermes's names (`session_model_usage.task`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuxTask {
    /// A context-compression summary.
    Compression,
}

impl AuxTask {
    pub fn as_str(self) -> &'static str {
        match self {
            AuxTask::Compression => "compression",
        }
    }
}

/// `url` without userinfo, query or fragment: a base URL like `http://user:key@host/v1` must
/// not put its credentials in the database. Text that is not a URL is kept up to any `?`/`#`
/// and after any `user@` in its authority.
pub fn billing_base_url(url: &str) -> String {
    let stripped = crate::util::redact::strip_url_credentials(url.trim());
    let url: &str = &stripped;
    if let Ok(mut parsed) = reqwest::Url::parse(url) {
        if parsed.has_host() {
            let _ = parsed.set_username("");
            let _ = parsed.set_password(None);
        }
        parsed.set_query(None);
        parsed.set_fragment(None);
        let text = parsed.to_string();
        // `Url` adds a `/` to a bare host; keep the URL as configured.
        return if url.ends_with('/') {
            text
        } else {
            text.trim_end_matches('/').to_string()
        };
    }
    let url = url.split(['?', '#']).next().unwrap_or_default();
    let (scheme, rest) = url.split_once("://").unwrap_or(("", url));
    let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    let host = authority.rsplit('@').next().unwrap_or(authority);
    if scheme.is_empty() {
        format!("{host}{path}")
    } else {
        format!("{scheme}://{host}{path}")
    }
}

fn text(s: &str) -> Option<&str> {
    Some(s.trim()).filter(|s| !s.is_empty())
}

impl SessionStore {
    /// One main-loop API call: add its tokens (and one call) to the session's totals and to
    /// its route's `session_model_usage` row (task `''`), in one transaction — Hermes's
    /// `update_token_counts` with per-call deltas. The session must exist.
    pub fn record_api_call(
        &self,
        session_id: &str,
        route: &BillingRoute,
        tokens: &CallTokens,
    ) -> Result<()> {
        let base_url = billing_base_url(&route.base_url);
        let (model, provider, base_url) =
            (text(&route.model), text(&route.provider), text(&base_url));
        let mut conn = self.conn();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let existing: Option<(Option<String>, Option<String>, i64)> = tx
            .query_row(
                "SELECT model, billing_provider, COALESCE(api_call_count, 0) FROM sessions \
                 WHERE id = ?1",
                [session_id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .optional()?;
        let Some((old_model, old_provider, old_calls)) = existing else {
            return Err(StoreError::NotFound(session_id.to_string()));
        };
        // Hermes: the first accounted call's route is authoritative (a fallback may have
        // answered instead of the requested provider); after that the row keeps its route.
        if old_calls == 0
            && let (Some(m), Some(p)) = (model, provider)
            && (old_model.as_deref() != Some(m) || old_provider.as_deref() != Some(p))
        {
            tx.execute(
                "UPDATE sessions SET model = ?2, billing_provider = ?3, billing_base_url = ?4, \
                 billing_mode = NULL WHERE id = ?1",
                params![session_id, m, p, base_url],
            )?;
        }
        tx.execute(
            "UPDATE sessions SET \
             input_tokens = COALESCE(input_tokens, 0) + ?2, \
             output_tokens = COALESCE(output_tokens, 0) + ?3, \
             cache_read_tokens = COALESCE(cache_read_tokens, 0) + ?4, \
             cache_write_tokens = COALESCE(cache_write_tokens, 0) + ?5, \
             reasoning_tokens = COALESCE(reasoning_tokens, 0) + ?6, \
             estimated_cost_usd = COALESCE(estimated_cost_usd, 0), \
             cost_status = ?7, cost_source = ?8, \
             billing_provider = COALESCE(billing_provider, ?9), \
             billing_base_url = COALESCE(billing_base_url, ?10), \
             model = COALESCE(model, ?11), \
             api_call_count = COALESCE(api_call_count, 0) + 1 \
             WHERE id = ?1",
            params![
                session_id,
                tokens.input as i64,
                tokens.output as i64,
                tokens.cache_read as i64,
                tokens.cache_write as i64,
                tokens.reasoning as i64,
                COST_STATUS_UNKNOWN,
                COST_SOURCE_NONE,
                provider,
                base_url,
                model,
            ],
        )?;
        // The usage row falls back to the session's route for what the call did not say.
        let (model, provider, base_url, mode): (String, String, String, String) = tx.query_row(
            "SELECT COALESCE(?2, model, 'unknown'), COALESCE(?3, billing_provider, ''), \
             COALESCE(?4, billing_base_url, ''), COALESCE(billing_mode, '') \
             FROM sessions WHERE id = ?1",
            params![session_id, model, provider, base_url],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )?;
        upsert_usage(
            &tx,
            &UsageRow {
                session_id,
                model: &model,
                provider: &provider,
                base_url: &base_url,
                mode: &mode,
                task: "",
                tokens,
                cost: Some((COST_STATUS_UNKNOWN, COST_SOURCE_NONE)),
            },
        )?;
        tx.commit()?;
        Ok(())
    }

    /// One auxiliary call (task `task`): its own `session_model_usage` row only — the session
    /// totals stay main-loop usage, as in Hermes. Calls that report no tokens are not recorded.
    pub fn record_auxiliary_call(
        &self,
        session_id: &str,
        task: AuxTask,
        route: &BillingRoute,
        tokens: &CallTokens,
    ) -> Result<()> {
        if tokens.is_empty() {
            return Ok(());
        }
        let base_url = billing_base_url(&route.base_url);
        let model = text(&route.model).unwrap_or("unknown");
        let mut conn = self.conn();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        upsert_usage(
            &tx,
            &UsageRow {
                session_id,
                model,
                provider: route.provider.trim(),
                base_url: &base_url,
                mode: "",
                task: task.as_str(),
                tokens,
                cost: None,
            },
        )
        .map_err(|e| match e {
            rusqlite::Error::SqliteFailure(_, Some(ref msg)) if msg.contains("FOREIGN KEY") => {
                StoreError::NotFound(session_id.to_string())
            }
            other => StoreError::Sqlite(other),
        })?;
        tx.commit()?;
        Ok(())
    }
}

struct UsageRow<'a> {
    session_id: &'a str,
    model: &'a str,
    provider: &'a str,
    base_url: &'a str,
    mode: &'a str,
    task: &'a str,
    tokens: &'a CallTokens,
    /// `(cost_status, cost_source)`; `None` leaves them NULL (Hermes's auxiliary rows).
    cost: Option<(&'a str, &'a str)>,
}

/// Hermes's `_record_model_usage` upsert: one call added to the route's row.
fn upsert_usage(conn: &rusqlite::Connection, row: &UsageRow<'_>) -> rusqlite::Result<()> {
    let now = time::now();
    let t = row.tokens;
    conn.execute(
        "INSERT INTO session_model_usage (session_id, model, billing_provider, \
         billing_base_url, billing_mode, task, api_call_count, input_tokens, output_tokens, \
         cache_read_tokens, cache_write_tokens, reasoning_tokens, estimated_cost_usd, \
         actual_cost_usd, cost_status, cost_source, first_seen, last_seen) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, 1, ?7, ?8, ?9, ?10, ?11, 0, 0, ?12, ?13, ?14, ?14) \
         ON CONFLICT(session_id, model, billing_provider, billing_base_url, billing_mode, task) \
         DO UPDATE SET \
         api_call_count = api_call_count + excluded.api_call_count, \
         input_tokens = input_tokens + excluded.input_tokens, \
         output_tokens = output_tokens + excluded.output_tokens, \
         cache_read_tokens = cache_read_tokens + excluded.cache_read_tokens, \
         cache_write_tokens = cache_write_tokens + excluded.cache_write_tokens, \
         reasoning_tokens = reasoning_tokens + excluded.reasoning_tokens, \
         estimated_cost_usd = estimated_cost_usd + excluded.estimated_cost_usd, \
         actual_cost_usd = actual_cost_usd + excluded.actual_cost_usd, \
         cost_status = COALESCE(excluded.cost_status, cost_status), \
         cost_source = COALESCE(excluded.cost_source, cost_source), \
         last_seen = excluded.last_seen",
        params![
            row.session_id,
            row.model,
            row.provider,
            row.base_url,
            row.mode,
            row.task,
            t.input as i64,
            t.output as i64,
            t.cache_read as i64,
            t.cache_write as i64,
            t.reasoning as i64,
            row.cost.map(|c| c.0),
            row.cost.map(|c| c.1),
            now,
        ],
    )?;
    Ok(())
}

#[cfg(test)]
#[path = "usage_tests.rs"]
mod tests;
