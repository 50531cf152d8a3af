//! The `session_search` tool (as Hermes): recall from past sessions stored in `state.db`, with
//! no LLM call. One tool, three shapes chosen by the arguments:
//!
//! - DISCOVERY (`query`, optional `limit`, default 5): full-text search (see `store::search`),
//!   one result per session lineage, each with the session's id/title/date, a snippet around
//!   the match, the ±5 messages around it, and one-line summaries of the session's first and
//!   last 3 messages.
//! - SCROLL (`session_id` and/or `around_message_id`, optional `window`, default 5): the stored
//!   messages around a message id (or the start of the session), as stored.
//! - BROWSE (no arguments): the most recent sessions.
//!
//! Subagent and tool sessions are never shown; the calling session is left out of discovery
//! and browse. A malformed query is a readable tool error, never a raw SQL error. The store is
//! synchronous, so each call runs on the blocking pool.

use std::collections::HashSet;
use std::sync::Arc;

use async_trait::async_trait;
use serde::Deserialize;

use crate::model::ToolSchema;
use crate::store::Hidden;
use crate::store::ListQuery;
use crate::store::MessageRow;
use crate::store::SearchMode;
use crate::store::SearchRequest;
use crate::store::SessionRow;
use crate::store::SessionStore;
use crate::store::StoreError;
use crate::store::time::format_utc;
use crate::tools::Concurrency;
use crate::tools::Tool;
use crate::tools::ToolContext;
use crate::tools::ToolOutput;
use crate::tools::args;

const DEFAULT_LIMIT: usize = 5;
const MAX_LIMIT: usize = 20;
const DEFAULT_WINDOW: usize = 5;
const MAX_WINDOW: usize = 50;
const BROWSE_DEFAULT: usize = 10;
/// Characters of each message in a discovery window.
const WINDOW_CHARS: usize = 300;
/// Characters of each first/last message summary.
const EDGE_CHARS: usize = 100;
/// Characters of one message when scrolling (tool outputs can be huge).
const SCROLL_CHARS: usize = 4_000;

#[derive(Debug, Deserialize)]
struct Args {
    #[serde(default)]
    query: Option<String>,
    #[serde(default, deserialize_with = "args::lenient_u64")]
    limit: Option<u64>,
    #[serde(default)]
    session_id: Option<String>,
    #[serde(default, deserialize_with = "args::lenient_u64")]
    around_message_id: Option<u64>,
    #[serde(default, deserialize_with = "args::lenient_u64")]
    window: Option<u64>,
}

/// The call shape, inferred from the arguments.
#[derive(Debug, PartialEq, Eq)]
enum Shape {
    Discovery {
        query: String,
        limit: usize,
    },
    Scroll {
        session: Option<String>,
        around: Option<i64>,
        window: usize,
    },
    Browse {
        limit: usize,
    },
}

impl Args {
    fn shape(self) -> Shape {
        let clamp = |v: Option<u64>, default: usize, max: usize| {
            v.map_or(default, |v| (v as usize).clamp(1, max))
        };
        let session = self.session_id.filter(|s| !s.trim().is_empty());
        match self.query.filter(|q| !q.trim().is_empty()) {
            Some(query) => Shape::Discovery {
                query,
                limit: clamp(self.limit, DEFAULT_LIMIT, MAX_LIMIT),
            },
            None if session.is_some() || self.around_message_id.is_some() => Shape::Scroll {
                session,
                around: self
                    .around_message_id
                    .map(|id| id.min(i64::MAX as u64) as i64),
                window: clamp(self.window, DEFAULT_WINDOW, MAX_WINDOW),
            },
            None => Shape::Browse {
                limit: clamp(self.limit, BROWSE_DEFAULT, MAX_LIMIT * 2),
            },
        }
    }
}

pub struct SessionSearchTool {
    store: Arc<SessionStore>,
}

impl SessionSearchTool {
    pub fn new(store: Arc<SessionStore>) -> Self {
        Self { store }
    }
}

#[async_trait]
impl Tool for SessionSearchTool {
    fn name(&self) -> &'static str {
        "session_search"
    }

    fn toolset(&self) -> &'static str {
        "session_search"
    }

    fn schema(&self) -> ToolSchema {
        ToolSchema {
            name: self.name().to_string(),
            description: "Search and read your past conversations with this user (all earlier sessions are stored). \
                Three forms: (1) `query` — full-text search; returns matching sessions with a snippet, the messages \
                around each match (with their message ids) and the start and end of each session. Use plain words; \
                quote \"exact phrases\"; OR between words widens the search; works for Chinese/Japanese/Korean text. \
                (2) `session_id` with `around_message_id` — read the stored messages around that message (`window` \
                messages each side, default 5) to scroll backward or forward; `session_id` alone reads from the start. \
                (3) no arguments — list the most recent sessions. Use it when the user refers to earlier work \
                (\"like last time\", \"that bug we fixed\") or you need details from a previous session."
                .to_string(),
            parameters: serde_json::json!({
                "type": "object",
                "properties": {
                    "query": {"type": "string", "description": "Words to search for in past sessions."},
                    "limit": {"type": "integer", "description": "Maximum sessions to return (search default 5, browse default 10)."},
                    "session_id": {"type": "string", "description": "A session id (or unique id prefix, or exact title) to read."},
                    "around_message_id": {"type": "integer", "description": "Message id to centre the window on (from a search result)."},
                    "window": {"type": "integer", "description": "Messages to show on each side (default 5, max 50)."}
                }
            }),
        }
    }

    fn concurrency(&self) -> Concurrency {
        Concurrency::ParallelSafe
    }

    fn preview(&self, args: &serde_json::Value) -> String {
        let query = args::str_field(args, "query");
        if !query.trim().is_empty() {
            return format!("\"{}\"", args::preview_text(query, 60));
        }
        let session = args::str_field(args, "session_id");
        match args
            .get("around_message_id")
            .and_then(serde_json::Value::as_u64)
        {
            Some(id) if session.is_empty() => format!("around #{id}"),
            Some(id) => format!("{session} around #{id}"),
            None if !session.is_empty() => session.to_string(),
            None => "recent sessions".to_string(),
        }
    }

    async fn call(&self, args: serde_json::Value, ctx: &ToolContext) -> ToolOutput {
        let args: Args = match args::parse(self.name(), args) {
            Ok(a) => a,
            Err(e) => return e,
        };
        let store = Arc::clone(&self.store);
        let current = ctx.session_id.clone();
        let shape = args.shape();
        let result = tokio::task::spawn_blocking(move || match shape {
            Shape::Discovery { query, limit } => discover(&store, &query, limit, &current),
            Shape::Scroll {
                session,
                around,
                window,
            } => scroll(&store, session.as_deref(), around, window),
            Shape::Browse { limit } => browse(&store, limit, &current),
        })
        .await;
        match result {
            Ok(Ok(text)) => ToolOutput::ok(text),
            Ok(Err(e)) => ToolOutput::error(e.to_string()),
            Err(e) => ToolOutput::error(format!("session_search failed: {e}")),
        }
    }
}

/// Whitespace collapsed to single spaces, cut to `max` characters with `…`.
fn flatten(text: &str, max: usize) -> String {
    let mut out = String::new();
    let mut count = 0;
    for word in text.split_whitespace() {
        if count > 0 {
            out.push(' ');
            count += 1;
        }
        for c in word.chars() {
            if count >= max {
                out.push('…');
                return out;
            }
            out.push(c);
            count += 1;
        }
    }
    out
}

/// A message's readable text: its content, or the tool calls it made.
fn message_text(m: &MessageRow) -> String {
    let mut text = m.content.clone();
    for call in &m.tool_calls {
        if !text.is_empty() {
            text.push(' ');
        }
        text.push_str(&format!("→ {}({})", call.name, call.arguments));
    }
    text
}

fn role_label(m: &MessageRow) -> String {
    match &m.tool_name {
        Some(name) if m.role == "tool" => format!("tool {name}"),
        _ => m.role.clone(),
    }
}

fn session_header(s: &SessionRow) -> String {
    let title = s
        .title
        .as_deref()
        .map(|t| format!(" · \"{t}\""))
        .unwrap_or_default();
    format!(
        "session {}{title} · {} UTC · {} messages",
        s.id,
        format_utc(s.started_at),
        s.message_count
    )
}

fn discover(
    store: &SessionStore,
    query: &str,
    limit: usize,
    current: &str,
) -> Result<String, StoreError> {
    let results = store.search(&SearchRequest {
        query,
        limit,
        exclude_session: Some(current),
    })?;
    if results.hits.is_empty() {
        return Ok(format!(
            "No past sessions match \"{query}\". Try other or fewer words, or call session_search with no arguments to list recent sessions."
        ));
    }
    let how = match results.mode {
        SearchMode::Words => "word search",
        SearchMode::Substring | SearchMode::Scan => "substring search",
    };
    let mut out = format!(
        "Found {} past session(s) for \"{query}\" ({how}). Read more with session_search(session_id=…, around_message_id=…).\n",
        results.hits.len()
    );
    for (n, hit) in results.hits.iter().enumerate() {
        let Some(session) = store.session(&hit.session_id)? else {
            continue;
        };
        out.push_str(&format!("\n## {}. {}\n", n + 1, session_header(&session)));
        out.push_str(&format!(
            "match #{} ({}): {}\n",
            hit.message_id,
            hit.role,
            flatten(&hit.snippet, WINDOW_CHARS)
        ));
        let window = store.messages_around(&hit.session_id, hit.message_id, 5, 5)?;
        let (first, last) = store.session_edges(&hit.session_id, 3)?;
        let shown: HashSet<i64> = window.iter().map(|m| m.id).collect();
        let first: Vec<&MessageRow> = first.iter().filter(|m| !shown.contains(&m.id)).collect();
        let first_ids: HashSet<i64> = first.iter().map(|m| m.id).collect();
        let last: Vec<&MessageRow> = last
            .iter()
            .filter(|m| !shown.contains(&m.id) && !first_ids.contains(&m.id))
            .collect();
        if !first.is_empty() {
            out.push_str(&format!("start: {}\n", edge_line(&first)));
        }
        out.push_str(&format!("around #{}:\n", hit.message_id));
        for m in &window {
            let mark = if m.id == hit.message_id {
                "  ◀ match"
            } else {
                ""
            };
            out.push_str(&format!(
                "  #{} {}: {}{mark}\n",
                m.id,
                role_label(m),
                flatten(&message_text(m), WINDOW_CHARS)
            ));
        }
        if !last.is_empty() {
            out.push_str(&format!("end: {}\n", edge_line(&last)));
        }
    }
    Ok(out.trim_end().to_string())
}

fn edge_line(messages: &[&MessageRow]) -> String {
    messages
        .iter()
        .map(|m| {
            format!(
                "#{} {}: {}",
                m.id,
                m.role,
                flatten(&message_text(m), EDGE_CHARS)
            )
        })
        .collect::<Vec<_>>()
        .join(" | ")
}

fn visible_session(store: &SessionStore, key: &str) -> Result<SessionRow, StoreError> {
    match store.get_session(key)? {
        Some(s) if !s.source.is_hidden() => Ok(s),
        _ => Err(StoreError::NotFound(key.to_string())),
    }
}

fn scroll(
    store: &SessionStore,
    session: Option<&str>,
    around: Option<i64>,
    window: usize,
) -> Result<String, StoreError> {
    let session = match (session, around) {
        (Some(key), _) => visible_session(store, key)?,
        (None, Some(id)) => {
            let owner = store
                .message_session(id)?
                .ok_or_else(|| StoreError::NotFound(format!("message #{id}")))?;
            visible_session(store, &owner)?
        }
        (None, None) => return Err(StoreError::NotFound(String::new())),
    };
    let messages = match around {
        Some(id) => {
            if store.message_session(id)?.as_deref() != Some(session.id.as_str()) {
                return Ok(format!(
                    "Message #{id} is not in session {}. Use a message id from that session's search results.",
                    session.id
                ));
            }
            store.messages_around(&session.id, id, window, window)?
        }
        None => match store.session_edges(&session.id, 1)?.0.first() {
            Some(first) => store.messages_around(&session.id, first.id, 0, window * 2)?,
            None => Vec::new(),
        },
    };
    let mut out = format!("{}\n", session_header(&session));
    let (Some(first), Some(last)) = (messages.first(), messages.last()) else {
        out.push_str("(no messages)");
        return Ok(out);
    };
    out.push_str(&format!("messages #{} to #{}:\n", first.id, last.id));
    for m in &messages {
        let mark = if Some(m.id) == around { "  ◀" } else { "" };
        let text = message_text(m);
        let count = text.chars().count();
        let mut body: String = text.chars().take(SCROLL_CHARS).collect();
        if count > SCROLL_CHARS {
            body.push_str(&format!("… ({} more characters)", count - SCROLL_CHARS));
        }
        out.push_str(&format!(
            "\n[#{} {} · {}]{mark}\n{}\n",
            m.id,
            role_label(m),
            format_utc(m.timestamp),
            body.trim_end()
        ));
    }
    out.push_str(&format!(
        "\nScroll: earlier around_message_id={}, later around_message_id={}.",
        first.id, last.id
    ));
    Ok(out)
}

fn browse(store: &SessionStore, limit: usize, current: &str) -> Result<String, StoreError> {
    let sessions = store.list_sessions(&ListQuery {
        limit: limit + 1,
        include_hidden: Hidden::Exclude,
        ..ListQuery::default()
    })?;
    let sessions: Vec<_> = sessions
        .into_iter()
        .filter(|s| s.id != current)
        .take(limit)
        .collect();
    if sessions.is_empty() {
        return Ok("No past sessions yet.".to_string());
    }
    let mut out = format!("{} recent session(s), newest first:\n", sessions.len());
    for s in &sessions {
        let title = s
            .title
            .as_deref()
            .map(|t| format!(" · \"{t}\""))
            .unwrap_or_default();
        let first = s
            .first_user_message
            .as_deref()
            .map(|m| format!(" · first: {m}"))
            .unwrap_or_default();
        out.push_str(&format!(
            "- {} · {} UTC{title} · {} messages{first}\n",
            s.id,
            format_utc(s.started_at),
            s.message_count
        ));
    }
    Ok(out.trim_end().to_string())
}

#[cfg(test)]
#[path = "session_search_tests.rs"]
mod tests;
