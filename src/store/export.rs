//! `hermes sessions export`: a session as Markdown (for reading) or JSON (for tools).
//!
//! Both contain the session's metadata and its active messages in order, tool calls included.
//! Nothing is truncated. Every text field (title, message text, reasoning, tool arguments,
//! tool output; in JSON every string) goes through the caller's [`Redactor`], so with
//! `security.redact_secrets` on an export never carries an API key the session saw. Markdown
//! is redacted field by field, before fencing, so an unterminated private key in one message
//! cannot mask the rest of the document. Not here: writing files (the CLI does that).

use serde_json::json;

use crate::store::Result;
use crate::store::SessionStore;
use crate::store::StoreError;
use crate::store::time;
use crate::store::types::MessageRow;
use crate::store::types::SessionRow;
use crate::util::redact::Redactor;

impl SessionStore {
    /// The session (exact id) as Markdown, its text passed through `redactor`.
    pub fn export_markdown(&self, session_id: &str, redactor: &Redactor) -> Result<String> {
        let (s, messages) = self.load_for_export(session_id)?;
        let title = s.title.as_deref().unwrap_or("Untitled session");
        let mut out = format!("# {}\n\n", redactor.redact(title));
        out.push_str(&format!("- id: `{}`\n", s.id));
        out.push_str(&format!(
            "- started: {} UTC\n",
            time::format_utc(s.started_at)
        ));
        if let Some(model) = &s.model {
            out.push_str(&format!("- model: {model}\n"));
        }
        if let Some(cwd) = &s.cwd {
            out.push_str(&format!("- directory: `{cwd}`\n"));
        }
        out.push_str(&format!(
            "- messages: {}, tokens: {} in / {} out",
            s.message_count, s.input_tokens, s.output_tokens
        ));
        if let Some(cost) = s.estimated_cost_usd {
            out.push_str(&format!(", cost: ${cost:.4}"));
        }
        out.push('\n');
        for m in &messages {
            out.push_str(&message_markdown(m, redactor));
        }
        Ok(out)
    }

    /// The session (exact id) as JSON: `{"session": {...}, "messages": [...]}`, messages in
    /// OpenAI chat shape plus `id` and `timestamp`; every string passed through `redactor`.
    pub fn export_json(&self, session_id: &str, redactor: &Redactor) -> Result<serde_json::Value> {
        let (s, messages) = self.load_for_export(session_id)?;
        let messages: Vec<serde_json::Value> = messages.iter().map(message_json).collect();
        let mut value = json!({
            "session": session_json(&s),
            "messages": messages,
        });
        redactor.redact_json(&mut value);
        Ok(value)
    }

    fn load_for_export(&self, session_id: &str) -> Result<(SessionRow, Vec<MessageRow>)> {
        let s = self
            .session(session_id)?
            .ok_or_else(|| StoreError::NotFound(session_id.to_string()))?;
        let messages = self.messages(session_id)?;
        Ok((s, messages))
    }
}

fn message_markdown(m: &MessageRow, redactor: &Redactor) -> String {
    let mut out = format!("\n## {}", m.role);
    if let Some(name) = &m.tool_name {
        out.push_str(&format!(" ({name})"));
    }
    out.push_str(&format!(" · {}\n\n", time::format_utc(m.timestamp)));
    if let Some(reasoning) = m.reasoning.as_deref().filter(|r| !r.trim().is_empty()) {
        out.push_str("<details><summary>reasoning</summary>\n\n");
        out.push_str(redactor.redact(reasoning).trim_end());
        out.push_str("\n\n</details>\n\n");
    }
    let content = redactor.redact(&m.content);
    if m.role == "tool" {
        out.push_str(&fenced(&content));
    } else if !content.is_empty() {
        out.push_str(content.trim_end());
        out.push('\n');
    }
    for image in &m.images {
        out.push_str(&format!("\n📎 `{}`\n", image.display()));
    }
    for call in &m.tool_calls {
        out.push_str(&format!("\n**→ {}**\n\n", call.name));
        out.push_str(&fenced(&redactor.redact(&call.arguments)));
    }
    out
}

/// `text` in a code fence longer than any backtick run inside it.
fn fenced(text: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        if c == '`' {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    let fence = "`".repeat(longest.max(2) + 1);
    format!("{fence}\n{}\n{fence}\n", text.trim_end())
}

fn session_json(s: &SessionRow) -> serde_json::Value {
    json!({
        "id": s.id,
        "source": s.source.as_str(),
        "title": s.title,
        "model": s.model,
        "model_config": s.model_config,
        "system_prompt": s.system_prompt,
        "parent_session_id": s.parent_session_id,
        "started_at": s.started_at,
        "ended_at": s.ended_at,
        "end_reason": s.end_reason,
        "message_count": s.message_count,
        "tool_call_count": s.tool_call_count,
        "input_tokens": s.input_tokens,
        "output_tokens": s.output_tokens,
        "cache_read_tokens": s.cache_read_tokens,
        "cache_write_tokens": s.cache_write_tokens,
        "reasoning_tokens": s.reasoning_tokens,
        "api_call_count": s.api_call_count,
        "estimated_cost_usd": s.estimated_cost_usd,
        "cwd": s.cwd,
        "billing_provider": s.billing_provider,
        "billing_base_url": s.billing_base_url,
    })
}

fn message_json(m: &MessageRow) -> serde_json::Value {
    let mut v = json!({
        "id": m.id,
        "role": m.role,
        "content": m.content,
        "timestamp": m.timestamp,
    });
    if let Some(obj) = v.as_object_mut() {
        if !m.tool_calls.is_empty() {
            let calls: Vec<serde_json::Value> = m
                .tool_calls
                .iter()
                .map(|c| {
                    json!({"id": c.id, "type": "function",
                           "function": {"name": c.name, "arguments": c.arguments}})
                })
                .collect();
            obj.insert("tool_calls".into(), calls.into());
        }
        if !m.images.is_empty() {
            let paths: Vec<serde_json::Value> = m
                .images
                .iter()
                .map(|p| p.display().to_string().into())
                .collect();
            obj.insert("images".into(), paths.into());
        }
        for (key, value) in [
            ("tool_call_id", &m.tool_call_id),
            ("tool_name", &m.tool_name),
            ("reasoning", &m.reasoning),
            ("finish_reason", &m.finish_reason),
        ] {
            if let Some(value) = value {
                obj.insert(key.into(), value.clone().into());
            }
        }
        if let Some(n) = m.token_count {
            obj.insert("token_count".into(), n.into());
        }
    }
    v
}

#[cfg(test)]
#[path = "export_tests.rs"]
mod tests;
