//! What an `execute_code` cell shows instead of the JSON the model got: what the script
//! printed, and the error when the printed text does not already carry it. The calls it made
//! are the cell's own lines and its duration is in the header, so neither is repeated.
//!
//! Reads Hermes's result shape (`{"status", "output", "error", "tool_calls_made", ...}`);
//! anything else (a bounded cut, a result from another program) returns `None` for the
//! generic view.

use serde_json::Value;

/// The cell text for a finished `execute_code` call, when `output` is its result.
pub fn summarize(tool: &str, output: &str) -> Option<String> {
    if tool != "execute_code" {
        return None;
    }
    let value: Value = serde_json::from_str(output).ok()?;
    let status = value.get("status")?.as_str()?;
    let printed = value
        .get("output")
        .and_then(Value::as_str)
        .unwrap_or("")
        .trim_end()
        .trim_start_matches('\n');
    let error = value
        .get("error")
        .and_then(Value::as_str)
        .unwrap_or("")
        .trim();
    let mut lines = Vec::new();
    if !printed.trim().is_empty() {
        lines.push(printed.to_string());
    }
    if !error.is_empty() && !printed.contains(error) {
        lines.push(format!("error: {error}"));
    }
    if lines.is_empty() {
        lines.push(match status {
            "success" => "(no output)".to_string(),
            other => other.to_string(),
        });
    }
    Some(lines.join("\n"))
}

#[cfg(test)]
#[path = "script_summary_tests.rs"]
mod tests;
