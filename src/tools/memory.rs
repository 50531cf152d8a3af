//! The `memory` tool (as Hermes, spec-002a §4.3): curated notes that persist across sessions.
//! `action` is `add`, `replace` or `remove` (`replace`/`remove` find the entry by a unique
//! substring, `old_text`), plus `read` for the live entries; `target` is `memory` (the
//! agent's notes, `MEMORY.md`) or `user` (the user profile, `USER.md`).
//!
//! Answers are JSON objects like Hermes's: `{"success": true, "message", "usage", "entries",
//! …}` or `{"success": false, "error", "current_entries"?, "usage"?, "matches"?}`, so an agent
//! trained on Hermes recovers the same way. The work is done by `knowledge::memory_store`; file I/O
//! and lock waits run on the blocking pool. Writes reach disk at once, the system prompt at
//! the next session. A store switched off in `memory:` (config.yaml) is refused, for every
//! action; the limits are the configured ones.

use std::path::PathBuf;

use async_trait::async_trait;
use serde::Deserialize;
use serde_json::json;

use crate::knowledge::memory_settings::MemorySettings;
use crate::knowledge::memory_store::MemoryError;
use crate::knowledge::memory_store::MemoryLimits;
use crate::knowledge::memory_store::MemoryStore;
use crate::knowledge::memory_store::MemoryTarget;
use crate::knowledge::memory_store::MemoryUpdate;
use crate::model::ToolSchema;
use crate::tools::Concurrency;
use crate::tools::Tool;
use crate::tools::ToolContext;
use crate::tools::ToolOutput;
use crate::tools::args;

#[derive(Debug, Deserialize)]
struct MemoryArgs {
    #[serde(default)]
    action: Option<String>,
    #[serde(default)]
    target: Option<String>,
    #[serde(default)]
    content: Option<String>,
    #[serde(default)]
    old_text: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Action {
    Add,
    Replace,
    Remove,
    Read,
}

pub struct MemoryTool {
    store: MemoryStore,
    settings: MemorySettings,
}

impl MemoryTool {
    pub fn new(memories_dir: PathBuf) -> Self {
        Self::with_settings(memories_dir, MemorySettings::default())
    }

    /// With the `memory.memory_char_limit` / `memory.user_char_limit` of the config.
    pub fn with_limits(memories_dir: PathBuf, limits: MemoryLimits) -> Self {
        Self::with_settings(
            memories_dir,
            MemorySettings {
                limits,
                ..MemorySettings::default()
            },
        )
    }

    /// With the whole `memory:` section: limits and which stores are switched on.
    pub fn with_settings(memories_dir: PathBuf, settings: MemorySettings) -> Self {
        Self {
            store: MemoryStore::new(memories_dir).with_limits(settings.limits),
            settings,
        }
    }

    fn description(&self) -> String {
        let limits = self.settings.limits;
        let mut text = format!(
            "{DESCRIPTION}\nLimits: memory {} chars, user {} chars. When usage is over 80%, \
             consolidate (replace several entries with one shorter entry) before adding.",
            crate::knowledge::memory_store::thousands(limits.memory_chars),
            crate::knowledge::memory_store::thousands(limits.user_chars),
        );
        for target in [MemoryTarget::Memory, MemoryTarget::User] {
            if !self.settings.enabled(target) {
                text.push_str(&format!(
                    "\ntarget='{}' is switched off by the user; do not use it.",
                    target.as_str()
                ));
            }
        }
        text
    }
}

const DESCRIPTION: &str = "Save durable information to persistent memory that survives across sessions. \
Memory is injected into future system prompts, so keep it compact and focused on facts that will still matter later.\n\
Save proactively, without being asked: user preferences, name, role, habits and communication style go to target='user'; \
environment facts, project conventions, tool quirks and workarounds, corrections and explicit 'remember this' requests go to target='memory'.\n\
Skip trivial or easily rediscovered facts, raw dumps (code, logs, tables), temporary session details, and anything already in context files.\n\
Actions: add (new entry in `content`); replace (the entry containing `old_text` becomes `content`); remove (the entry containing `old_text`); \
read (the live entries; the system prompt shows the snapshot taken when this session started). \
`old_text` is a short substring that identifies exactly one entry.";

#[async_trait]
impl Tool for MemoryTool {
    fn name(&self) -> &'static str {
        "memory"
    }

    fn toolset(&self) -> &'static str {
        "memory"
    }

    fn schema(&self) -> ToolSchema {
        ToolSchema {
            name: self.name().to_string(),
            description: self.description(),
            parameters: json!({
                "type": "object",
                "properties": {
                    "action": {
                        "type": "string",
                        "enum": ["add", "replace", "remove", "read"],
                        "description": "What to do."
                    },
                    "target": {
                        "type": "string",
                        "enum": ["memory", "user"],
                        "description": "'memory' for your notes (environment, conventions, lessons), 'user' for the user profile. Default 'memory'."
                    },
                    "content": {
                        "type": "string",
                        "description": "The entry text, for add and replace."
                    },
                    "old_text": {
                        "type": "string",
                        "description": "A short substring that identifies exactly one existing entry, for replace and remove."
                    }
                },
                "required": ["action"]
            }),
        }
    }

    fn concurrency(&self) -> Concurrency {
        Concurrency::Sequential
    }

    fn preview(&self, args: &serde_json::Value) -> String {
        let action = args::str_field(args, "action");
        let target = match args::str_field(args, "target") {
            "" => "memory",
            t => t,
        };
        let text = match args::str_field(args, "content") {
            "" => args::str_field(args, "old_text"),
            c => c,
        };
        if text.is_empty() {
            format!("{action} {target}")
        } else {
            format!("{action} {target}: {}", args::preview_text(text, 60))
        }
    }

    async fn call(&self, args: serde_json::Value, _ctx: &ToolContext) -> ToolOutput {
        let args: MemoryArgs = match args::parse(self.name(), args) {
            Ok(a) => a,
            Err(e) => return e,
        };
        let (action, target) = match validate(&args) {
            Ok(v) => v,
            Err(err) => return failure(json!({"success": false, "error": err.to_string()})),
        };
        if !self.settings.enabled(target) {
            return failure(json!({
                "success": false,
                "error": format!(
                    "Memory target '{}' ({}) is disabled in config.yaml ({}: false); nothing was \
                     read or saved.",
                    target.as_str(),
                    target.file_name(),
                    MemorySettings::switch_name(target)
                ),
            }));
        }
        let store = self.store.clone();
        let content = args.content.unwrap_or_default();
        let old_text = args.old_text.unwrap_or_default();
        let result = tokio::task::spawn_blocking(move || match action {
            Action::Add => store.add(target, &content),
            Action::Replace => store.replace(target, &old_text, &content),
            Action::Remove => store.remove(target, &old_text),
            Action::Read => store.read(target),
        })
        .await;
        match result {
            Ok(Ok(update)) => ToolOutput::ok(success_json(&update).to_string()),
            Ok(Err(err)) => failure(error_json(&err)),
            Err(join) => {
                failure(json!({"success": false, "error": format!("memory task failed: {join}")}))
            }
        }
    }
}

/// A `memory` call that is malformed; the text is for the model (Hermes's wording).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum CallError {
    #[error("Invalid target '{0}'. Use 'memory' or 'user'.")]
    Target(String),
    #[error("Unknown action '{0}'. Use: add, replace, remove, read")]
    Action(String),
    #[error("Content is required for 'add' action.")]
    AddNeedsContent,
    #[error("old_text is required for 'replace' action.")]
    ReplaceNeedsOldText,
    #[error("content is required for 'replace' action (use 'remove' to delete an entry).")]
    ReplaceNeedsContent,
    #[error("old_text is required for 'remove' action.")]
    RemoveNeedsOldText,
}

fn validate(args: &MemoryArgs) -> Result<(Action, MemoryTarget), CallError> {
    let target = match args.target.as_deref().map(str::trim) {
        None | Some("") => MemoryTarget::Memory,
        Some(t) => MemoryTarget::parse(t).ok_or_else(|| CallError::Target(t.to_string()))?,
    };
    let action = match args.action.as_deref().map(str::trim).unwrap_or("") {
        "add" => Action::Add,
        "replace" => Action::Replace,
        "remove" => Action::Remove,
        "read" => Action::Read,
        other => return Err(CallError::Action(other.to_string())),
    };
    let present = |v: &Option<String>| v.as_deref().is_some_and(|s| !s.trim().is_empty());
    match action {
        Action::Add if !present(&args.content) => Err(CallError::AddNeedsContent),
        Action::Replace if !present(&args.old_text) => Err(CallError::ReplaceNeedsOldText),
        Action::Replace if !present(&args.content) => Err(CallError::ReplaceNeedsContent),
        Action::Remove if !present(&args.old_text) => Err(CallError::RemoveNeedsOldText),
        _ => Ok((action, target)),
    }
}

fn success_json(update: &MemoryUpdate) -> serde_json::Value {
    json!({
        "success": true,
        "target": update.target.as_str(),
        "message": update.message,
        "usage": update.usage(),
        "entry_count": update.entries.len(),
        "entries": update.entries,
    })
}

fn error_json(err: &MemoryError) -> serde_json::Value {
    let mut out = json!({"success": false, "error": err.to_string()});
    if let Some(entries) = err.current_entries() {
        out["current_entries"] = json!(entries);
    }
    if let Some(usage) = err.usage() {
        out["usage"] = json!(usage);
    }
    if let MemoryError::Ambiguous { matches, .. } = err {
        out["matches"] = json!(matches);
    }
    out
}

fn failure(value: serde_json::Value) -> ToolOutput {
    ToolOutput::error(value.to_string())
}

#[cfg(test)]
#[path = "memory_tests.rs"]
mod tests;
