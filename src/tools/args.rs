//! Argument helpers shared by the tools: typed parsing of the model's JSON arguments with a
//! readable error, lenient number/bool fields (models sometimes send `"30"` for `30`), and
//! previews. Paths are resolved by `util::paths::resolve_path`.
//!
//! Nothing here touches the filesystem.

use serde::Deserialize;
use serde::Deserializer;
use serde::de::DeserializeOwned;

use crate::tools::ToolOutput;

/// Parse `args` into `T`, or a `ToolOutput::error` naming the tool and the problem.
pub fn parse<T: DeserializeOwned>(tool: &str, args: serde_json::Value) -> Result<T, ToolOutput> {
    // Some models send `null` or a JSON-encoded string instead of an object.
    let args = match args {
        serde_json::Value::Null => serde_json::Value::Object(Default::default()),
        serde_json::Value::String(s) => {
            serde_json::from_str(&s).unwrap_or(serde_json::Value::String(s))
        }
        other => other,
    };
    serde_json::from_value(args)
        .map_err(|e| ToolOutput::error(format!("invalid arguments for {tool}: {e}")))
}

/// `text` cut to `max_chars` characters with `…` when longer; first line only.
pub fn preview_text(text: &str, max_chars: usize) -> String {
    let line = text.lines().next().unwrap_or("");
    let mut out: String = line.chars().take(max_chars).collect();
    if line.chars().count() > max_chars || text.lines().nth(1).is_some() {
        out.push('…');
    }
    out
}

/// A string field of `args` for previews, or "".
pub fn str_field<'a>(args: &'a serde_json::Value, key: &str) -> &'a str {
    args.get(key).and_then(|v| v.as_str()).unwrap_or("")
}

#[derive(Deserialize)]
#[serde(untagged)]
enum NumOrString {
    Num(f64),
    Str(String),
}

/// `Option<f64>` from a number or a numeric string.
pub fn lenient_f64<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    match Option::<NumOrString>::deserialize(d)? {
        None => Ok(None),
        Some(NumOrString::Num(n)) => Ok(Some(n)),
        Some(NumOrString::Str(s)) if s.trim().is_empty() => Ok(None),
        Some(NumOrString::Str(s)) => s
            .trim()
            .parse()
            .map(Some)
            .map_err(|_| serde::de::Error::custom(format!("expected a number, got {s:?}"))),
    }
}

/// `Option<u64>` from a non-negative integer (or integral float) or a numeric string.
pub fn lenient_u64<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    match lenient_f64(d)? {
        None => Ok(None),
        Some(n) if n >= 0.0 && n.fract() == 0.0 && n <= u64::MAX as f64 => Ok(Some(n as u64)),
        Some(n) => Err(serde::de::Error::custom(format!(
            "expected a non-negative integer, got {n}"
        ))),
    }
}

#[derive(Deserialize)]
#[serde(untagged)]
enum BoolOrString {
    Bool(bool),
    Str(String),
}

/// `bool` (default false) from a bool or `"true"`/`"false"`.
pub fn lenient_bool<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    match Option::<BoolOrString>::deserialize(d)? {
        None => Ok(false),
        Some(BoolOrString::Bool(b)) => Ok(b),
        Some(BoolOrString::Str(s)) => match s.trim().to_ascii_lowercase().as_str() {
            "true" | "yes" | "1" => Ok(true),
            "false" | "no" | "0" | "" => Ok(false),
            other => Err(serde::de::Error::custom(format!(
                "expected true or false, got {other:?}"
            ))),
        },
    }
}

#[cfg(test)]
#[path = "args_tests.rs"]
mod tests;
