//! Text for the `hermes sessions …` commands: list, show, export, delete, prune. The binary
//! only parses flags and prints what these return.
//!
//! `show` and `export` print conversation text, so they take a [`Redactor`]
//! (`security.redact_secrets` and the known secret values); [`show`] and [`export`] without
//! one redact with the default (on, format rules only), so nothing prints a key unmasked
//! unless the caller passes a redactor that is off.

use super::Result;
use super::SessionStore;
use super::StoreError;
use super::time::format_utc;
use super::types::Hidden;
use super::types::ListQuery;
use crate::util::redact::Redactor;

/// `hermes sessions export --format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportFormat {
    Markdown,
    Json,
}

/// `hermes sessions list [--search TEXT] [--limit N]`: newest first, one line each.
pub fn list(store: &SessionStore, search: Option<&str>, limit: usize) -> Result<String> {
    let sessions = store.list_sessions(&ListQuery {
        limit,
        search: search.map(str::to_string),
        cwd: None,
        include_hidden: Hidden::Exclude,
    })?;
    if sessions.is_empty() {
        return Ok("no sessions yet\n".to_string());
    }
    let mut out = String::new();
    for s in sessions {
        let label = s
            .title
            .clone()
            .or(s.first_user_message.clone())
            .unwrap_or_else(|| "(no messages)".to_string());
        out.push_str(&format!(
            "{}  {}  {:>4} msgs  {}\n",
            s.id,
            format_utc(s.started_at),
            s.message_count,
            one_line(&label, 70)
        ));
    }
    Ok(out)
}

/// `hermes sessions show ID`: the session's facts and its conversation as markdown,
/// redacted with the default [`Redactor`] (on). See [`show_with`].
pub fn show(store: &SessionStore, key: &str) -> Result<String> {
    show_with(store, key, &Redactor::default())
}

/// [`show`] with the caller's redactor.
pub fn show_with(store: &SessionStore, key: &str, redactor: &Redactor) -> Result<String> {
    let row = store
        .get_session(key)?
        .ok_or_else(|| StoreError::NotFound(key.to_string()))?;
    let mut out = format!(
        "session  {}\ntitle    {}\nstarted  {}\nmodel    {} ({})\ncwd      {}\nmessages {}  tool calls {}\ntokens   in {}  out {}  cache read {}\ncost     {}\n\n",
        row.id,
        redactor.redact(row.title.as_deref().unwrap_or("—")),
        format_utc(row.started_at),
        row.model.as_deref().unwrap_or("?"),
        row.billing_provider.as_deref().unwrap_or("?"),
        row.cwd.as_deref().unwrap_or("?"),
        row.message_count,
        row.tool_call_count,
        row.input_tokens,
        row.output_tokens,
        row.cache_read_tokens,
        row.estimated_cost_usd
            .map_or_else(|| "unknown".to_string(), |c| format!("${c:.4}")),
    );
    out.push_str(&store.export_markdown(&row.id, redactor)?);
    Ok(out)
}

/// `hermes sessions export ID --format md|json`, redacted with the default [`Redactor`]
/// (on). See [`export_with`].
pub fn export(store: &SessionStore, key: &str, format: ExportFormat) -> Result<String> {
    export_with(store, key, format, &Redactor::default())
}

/// [`export`] with the caller's redactor: build it from `security.redact_secrets` and the
/// known secret values (`EnvLookup::secret_values`).
pub fn export_with(
    store: &SessionStore,
    key: &str,
    format: ExportFormat,
    redactor: &Redactor,
) -> Result<String> {
    let row = store
        .get_session(key)?
        .ok_or_else(|| StoreError::NotFound(key.to_string()))?;
    match format {
        ExportFormat::Markdown => store.export_markdown(&row.id, redactor),
        ExportFormat::Json => {
            let value = store.export_json(&row.id, redactor)?;
            Ok(serde_json::to_string_pretty(&value).unwrap_or_else(|_| value.to_string()))
        }
    }
}

/// `hermes sessions delete ID`.
pub fn delete(store: &SessionStore, key: &str) -> Result<String> {
    let row = store
        .get_session(key)?
        .ok_or_else(|| StoreError::NotFound(key.to_string()))?;
    store.delete_session(&row.id)?;
    Ok(format!("deleted session {}\n", row.id))
}

/// `hermes sessions prune --older-than DAYS`.
pub fn prune(store: &SessionStore, days: u32) -> Result<String> {
    let removed = store.prune_older_than(days)?;
    Ok(format!(
        "removed {removed} ended session(s) started more than {days} days ago\n"
    ))
}

fn one_line(text: &str, max_chars: usize) -> String {
    let flat: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= max_chars {
        flat
    } else {
        let mut cut: String = flat.chars().take(max_chars.saturating_sub(1)).collect();
        cut.push('…');
        cut
    }
}

#[cfg(test)]
#[path = "cli_tests.rs"]
mod tests;
