//! Validation of the raw `hooks:` mapping from `config.yaml` into `HookSpec`s.
//!
//! Every problem is a warning and skips (or repairs) only the entry at fault: an unknown event
//! (with a "did you mean" suggestion), an entry without `command`, a matcher that is not a valid
//! regex, a bad or too-large `timeout` (default 60 s, clamped to 300 s). Unknown keys inside an
//! entry are ignored, as in Hermes. The reserved `outbound:` (and `output_spill:`) sub-sections
//! are not events and are skipped silently. It does not log: the caller decides where the
//! returned warnings go. Invariant: specs come out in config order (event keys in file order,
//! then list order), which is the order hooks run in.

use std::time::Duration;

use regex::Regex;
use serde_norway::Value;

use super::event::HookEvent;

/// Timeout used when an entry gives none (or an invalid one).
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);
/// Larger timeouts are clamped to this.
pub const MAX_TIMEOUT: Duration = Duration::from_secs(300);

/// `hooks:` keys that are sections of their own, not events.
const RESERVED_KEYS: &[&str] = &["outbound", "output_spill"];

/// One validated `hooks:` entry.
#[derive(Debug, Clone)]
pub struct HookSpec {
    pub event: HookEvent,
    /// Full-match regex on the tool name (tool events only); `None` matches every tool.
    pub matcher: Option<Regex>,
    /// The command line as configured (the consent key); split with shell rules, no shell.
    pub command: String,
    pub timeout: Duration,
}

impl HookSpec {
    /// Whether this hook fires for `tool_name` (always true without a matcher).
    pub fn matches_tool(&self, tool_name: &str) -> bool {
        self.matcher.as_ref().is_none_or(|m| m.is_match(tool_name))
    }

    /// The matcher as the user wrote it (without the full-match anchoring).
    pub fn matcher_pattern(&self) -> Option<&str> {
        self.matcher.as_ref().map(|m| {
            let anchored = m.as_str();
            anchored
                .strip_prefix("^(?:")
                .and_then(|rest| rest.strip_suffix(")$"))
                .unwrap_or(anchored)
        })
    }
}

/// Validates `config.hooks`: the usable specs, in config order, and one warning per problem.
pub fn parse_hooks(value: &Value) -> (Vec<HookSpec>, Vec<String>) {
    let mut specs = Vec::new();
    let mut warnings = Vec::new();
    let mapping = match value {
        Value::Null => return (specs, warnings),
        Value::Mapping(m) => m,
        other => {
            warnings.push(format!(
                "hooks: must be a mapping of event names to lists of hooks (got {}); ignored",
                kind(other)
            ));
            return (specs, warnings);
        }
    };
    for (key, entries) in mapping {
        let Some(name) = key.as_str() else {
            warnings.push(format!(
                "hooks: event names must be strings (got {}); skipped",
                kind(key)
            ));
            continue;
        };
        if RESERVED_KEYS.contains(&name) {
            continue;
        }
        let event = match HookEvent::parse(name) {
            Ok(event) => event,
            Err(err) => {
                warnings.push(format!("hooks: {err}; skipped"));
                continue;
            }
        };
        let list = match entries {
            Value::Null => continue,
            Value::Sequence(list) => list,
            other => {
                warnings.push(format!(
                    "hooks.{name} must be a list of hooks (got {}); skipped",
                    kind(other)
                ));
                continue;
            }
        };
        for (index, raw) in list.iter().enumerate() {
            let mut warn =
                |message: String| warnings.push(format!("hooks.{name}[{index}]{message}"));
            if let Some(spec) = parse_entry(event, raw, &mut warn) {
                specs.push(spec);
            }
        }
    }
    (specs, warnings)
}

fn parse_entry(event: HookEvent, raw: &Value, warn: &mut dyn FnMut(String)) -> Option<HookSpec> {
    let Value::Mapping(entry) = raw else {
        warn(format!(
            " must be a mapping with a `command` key (got {}); skipped",
            kind(raw)
        ));
        return None;
    };
    let command = match entry.get("command").and_then(Value::as_str).map(str::trim) {
        Some(command) if !command.is_empty() => command.to_owned(),
        _ => {
            warn(" has no non-empty `command`; skipped".to_owned());
            return None;
        }
    };
    let matcher = parse_matcher(event, entry.get("matcher"), warn)?;
    let timeout = parse_timeout(entry.get("timeout"), warn);
    Some(HookSpec {
        event,
        matcher,
        command,
        timeout,
    })
}

/// `Some(None)`: no matcher; `Some(Some(re))`: a matcher; `None`: skip the entry.
fn parse_matcher(
    event: HookEvent,
    raw: Option<&Value>,
    warn: &mut dyn FnMut(String),
) -> Option<Option<Regex>> {
    let pattern = match raw {
        None | Some(Value::Null) => return Some(None),
        Some(Value::String(s)) => s.trim(),
        Some(other) => {
            warn(format!(
                ".matcher must be a regex string (got {}); skipped",
                kind(other)
            ));
            return None;
        }
    };
    if pattern.is_empty() {
        return Some(None);
    }
    if !event.is_tool_event() {
        warn(format!(
            ".matcher `{pattern}` is ignored: matchers apply only to pre_tool_call and \
             post_tool_call, so this hook fires on every {event} event"
        ));
        return Some(None);
    }
    match Regex::new(&format!("^(?:{pattern})$")) {
        Ok(re) => Some(Some(re)),
        Err(e) => {
            let reason = e.to_string().lines().last().unwrap_or_default().to_owned();
            warn(format!(
                ".matcher `{pattern}` is not a valid regex ({reason}); skipped"
            ));
            None
        }
    }
}

fn parse_timeout(raw: Option<&Value>, warn: &mut dyn FnMut(String)) -> Duration {
    let seconds = match raw {
        None | Some(Value::Null) => return DEFAULT_TIMEOUT,
        Some(Value::Number(n)) => n.as_f64(),
        Some(Value::String(s)) => s.trim().parse::<f64>().ok(),
        Some(_) => None,
    };
    match seconds {
        Some(s) if s.is_finite() && s > MAX_TIMEOUT.as_secs_f64() => {
            warn(format!(
                ".timeout {s}s exceeds the maximum of {}s; clamped",
                MAX_TIMEOUT.as_secs()
            ));
            MAX_TIMEOUT
        }
        Some(s) if s.is_finite() && s > 0.0 => Duration::from_secs_f64(s),
        _ => {
            warn(format!(
                ".timeout must be a positive number of seconds; using the default {}s",
                DEFAULT_TIMEOUT.as_secs()
            ));
            DEFAULT_TIMEOUT
        }
    }
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Sequence(_) => "a list",
        Value::Mapping(_) => "a mapping",
        Value::Tagged(_) => "a tagged value",
    }
}

#[cfg(test)]
#[path = "config_tests.rs"]
mod tests;
