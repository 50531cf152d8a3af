//! One cron job as `jobs.json` holds it. Hermes's jobs are JSON objects whose fields grow
//! between versions, so a [`Job`] keeps the whole object and reads fields leniently (a field
//! of the wrong type reads as absent, as Hermes's `_normalize_job_record` does); writing back
//! keeps every key hermes does not know, so Python Hermes loses nothing after hermes saved.
//!
//! Invariants: `id` is never changed after creation; accessors never panic on hand-edited
//! values; setters write the JSON types Python Hermes writes (`null`, not a missing key, for
//! the fields its `create_job` always writes).

use serde_json::Map;
use serde_json::Value;

/// Keys Python Hermes's `create_job` writes (a new job has them all; serde_json writes an
/// object's keys sorted, which Python reads the same).
pub const HERMES_FIELDS: [&str; 29] = [
    "id",
    "name",
    "prompt",
    "skills",
    "skill",
    "model",
    "provider",
    "provider_snapshot",
    "model_snapshot",
    "base_url",
    "script",
    "no_agent",
    "context_from",
    "schedule",
    "schedule_display",
    "repeat",
    "enabled",
    "state",
    "paused_at",
    "paused_reason",
    "created_at",
    "next_run_at",
    "last_run_at",
    "last_status",
    "last_error",
    "last_delivery_error",
    "deliver",
    "origin",
    "enabled_toolsets",
];

/// A job object from `jobs.json`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Job(pub Map<String, Value>);

impl Job {
    pub fn from_map(map: Map<String, Value>) -> Self {
        Self(map)
    }

    pub fn into_value(self) -> Value {
        Value::Object(self.0)
    }

    pub fn get(&self, key: &str) -> Option<&Value> {
        self.0.get(key)
    }

    /// A string field, trimmed; empty or non-string reads as `None`.
    pub fn text(&self, key: &str) -> Option<&str> {
        self.0
            .get(key)
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty())
    }

    pub fn flag(&self, key: &str) -> Option<bool> {
        self.0.get(key).and_then(Value::as_bool)
    }

    pub fn set(&mut self, key: &str, value: Value) {
        self.0.insert(key.to_string(), value);
    }

    /// Sets a string field, or `null` for `None`.
    pub fn set_text(&mut self, key: &str, value: Option<&str>) {
        let value = value.map_or(Value::Null, |v| Value::String(v.to_string()));
        self.set(key, value);
    }

    pub fn id(&self) -> &str {
        self.text("id").unwrap_or("unknown")
    }

    pub fn prompt(&self) -> &str {
        self.0.get("prompt").and_then(Value::as_str).unwrap_or("")
    }

    /// The attached skills in order, deduplicated: `skills` (a list or one string), else the
    /// legacy single `skill` (Hermes's `_normalize_skill_list`).
    pub fn skills(&self) -> Vec<String> {
        let raw: Vec<&Value> = match self.0.get("skills") {
            Some(Value::Array(items)) => items.iter().collect(),
            Some(value @ Value::String(_)) => vec![value],
            _ => self.0.get("skill").into_iter().collect(),
        };
        let mut out: Vec<String> = Vec::new();
        for item in raw {
            if let Some(text) = item.as_str().map(str::trim).filter(|t| !t.is_empty())
                && !out.iter().any(|s| s == text)
            {
                out.push(text.to_string());
            }
        }
        out
    }

    /// The display name: `name`, else the first 50 characters of the prompt, the first skill,
    /// the script or the id (Hermes's `_normalize_job_record`).
    pub fn name(&self) -> String {
        if let Some(name) = self.text("name") {
            return name.to_string();
        }
        let skills = self.skills();
        let source = [
            Some(self.prompt()),
            skills.first().map(String::as_str),
            self.text("script"),
            Some(self.id()),
        ]
        .into_iter()
        .flatten()
        .find(|s| !s.trim().is_empty())
        .unwrap_or("cron job");
        let short: String = source.chars().take(50).collect();
        match short.trim() {
            "" => "cron job".to_string(),
            trimmed => trimmed.to_string(),
        }
    }

    /// The schedule object (`{"kind": "once"|"interval"|"cron", ...}`), if it is one.
    pub fn schedule(&self) -> Option<&Map<String, Value>> {
        self.0.get("schedule").and_then(Value::as_object)
    }

    pub fn schedule_kind(&self) -> Option<&str> {
        self.schedule()
            .and_then(|s| s.get("kind"))
            .and_then(Value::as_str)
    }

    /// `schedule_display`, else the schedule's display/value/expr/run_at, else `?`.
    pub fn schedule_display(&self) -> String {
        if let Some(display) = self.text("schedule_display") {
            return display.to_string();
        }
        if let Some(schedule) = self.schedule() {
            for key in ["display", "value", "expr", "run_at"] {
                if let Some(text) = schedule
                    .get(key)
                    .and_then(Value::as_str)
                    .map(str::trim)
                    .filter(|t| !t.is_empty())
                {
                    return text.to_string();
                }
            }
        }
        "?".to_string()
    }

    pub fn enabled(&self) -> bool {
        self.flag("enabled").unwrap_or(true)
    }

    /// `state`, else `scheduled`/`paused` from `enabled`.
    pub fn state(&self) -> &str {
        match self.text("state") {
            Some(state) => state,
            None if self.enabled() => "scheduled",
            None => "paused",
        }
    }

    pub fn is_paused(&self) -> bool {
        !self.enabled() || self.state() == "paused"
    }

    pub fn next_run_at(&self) -> Option<&str> {
        self.text("next_run_at")
    }

    pub fn last_run_at(&self) -> Option<&str> {
        self.text("last_run_at")
    }

    /// `repeat.times`: `None` is forever.
    pub fn repeat_times(&self) -> Option<i64> {
        self.0
            .get("repeat")
            .and_then(|r| r.get("times"))
            .and_then(Value::as_i64)
            .filter(|t| *t > 0)
    }

    /// `repeat.completed`, 0 when absent or not a non-negative integer.
    pub fn repeat_completed(&self) -> i64 {
        self.0
            .get("repeat")
            .and_then(|r| r.get("completed"))
            .and_then(Value::as_i64)
            .filter(|c| *c >= 0)
            .unwrap_or(0)
    }

    /// `deliver` as a comma-separated string (lists are flattened); `local` when empty.
    pub fn deliver(&self) -> String {
        match self.0.get("deliver") {
            Some(Value::String(text)) if !text.trim().is_empty() => text.trim().to_string(),
            Some(Value::Array(items)) => {
                let parts: Vec<&str> = items
                    .iter()
                    .filter_map(Value::as_str)
                    .map(str::trim)
                    .filter(|p| !p.is_empty())
                    .collect();
                if parts.is_empty() {
                    "local".to_string()
                } else {
                    parts.join(",")
                }
            }
            _ => "local".to_string(),
        }
    }

    /// `origin` when it names a platform and a chat (Hermes's `_resolve_origin`).
    pub fn origin(&self) -> Option<&Map<String, Value>> {
        let origin = self.0.get("origin")?.as_object()?;
        let platform = origin.get("platform").is_some_and(is_present);
        let chat = origin.get("chat_id").is_some_and(is_present);
        (platform && chat).then_some(origin)
    }

    pub fn script(&self) -> Option<&str> {
        self.text("script")
    }

    pub fn no_agent(&self) -> bool {
        self.flag("no_agent").unwrap_or(false)
    }

    pub fn workdir(&self) -> Option<&str> {
        self.text("workdir")
    }

    /// hermes's `profile` pin (`default` is the root profile); Python Hermes ignores the key.
    pub fn profile(&self) -> Option<&str> {
        self.text("profile")
    }

    /// `context_from` as a list (a single string is one entry).
    pub fn context_from(&self) -> Vec<String> {
        string_list(self.0.get("context_from"))
    }

    /// `enabled_toolsets`; empty means "the cron platform's defaults".
    pub fn enabled_toolsets(&self) -> Vec<String> {
        string_list(self.0.get("enabled_toolsets"))
    }
}

/// A new job id as Hermes makes them: the first 12 hex digits of a random UUID.
pub fn new_id() -> String {
    uuid::Uuid::new_v4().simple().to_string()[..12].to_string()
}

fn is_present(value: &Value) -> bool {
    match value {
        Value::Null => false,
        Value::String(s) => !s.trim().is_empty(),
        _ => true,
    }
}

fn string_list(value: Option<&Value>) -> Vec<String> {
    match value {
        Some(Value::String(s)) if !s.trim().is_empty() => vec![s.trim().to_string()],
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(Value::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
#[path = "job_tests.rs"]
mod tests;
