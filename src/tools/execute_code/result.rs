//! The `execute_code` result as the model gets it: Hermes's JSON (`status`, `output`,
//! `exit_code`, `tool_calls_made`, `duration_seconds`, the stdout truncation fields and
//! `error`), with Hermes's messages for a timeout, an interrupt and a failing script.
//!
//! Invariants: every result has `status`, `output`, `tool_calls_made` and
//! `duration_seconds`; cut output says so twice (Hermes's marker in the middle, and
//! `[output truncated at 50KB]` at the end) and in `stdout_truncated`; terminal escape
//! sequences are removed.

use serde_json::Value;
use serde_json::json;

use super::run::Ending;
use super::run::Finished;
use crate::tools::ToolOutcome;
use crate::tools::output::strip_ansi;

/// Hermes's interrupt line.
pub const INTERRUPTED: &str = "[execution interrupted — user sent a new message]";
/// The note at the end of cut output.
pub const TRUNCATED_NOTE: &str = "[output truncated at 50KB]";

/// The result text and how the call went.
pub fn assemble(finished: &Finished, tool_calls: u64, timeout_secs: u64) -> (String, ToolOutcome) {
    let (stdout, metadata) = stdout_text(finished);
    let stdout = strip_ansi(&stdout).into_owned();
    let (stderr_head, _) = finished.stderr.retained();
    let stderr = strip_ansi(&String::from_utf8_lossy(stderr_head)).into_owned();
    let stderr = if finished.stderr.total() > stderr_head.len() as u64 {
        format!("{stderr}\n[stderr truncated at 10KB]")
    } else {
        stderr
    };
    let duration = (finished.duration.as_secs_f64() * 100.0).round() / 100.0;
    let exit_code = match finished.ending {
        Ending::Exited(code) => code,
        Ending::TimedOut | Ending::Interrupted => -1,
    };
    let mut result = json!({
        "status": "success",
        "output": stdout,
        "exit_code": exit_code,
        "tool_calls_made": tool_calls,
        "duration_seconds": duration,
    });
    if let (Value::Object(map), Value::Object(extra)) = (&mut result, metadata) {
        map.extend(extra);
    }
    let outcome = match finished.ending {
        Ending::TimedOut => {
            let message = format!("Script timed out after {timeout_secs}s and was killed.");
            result["status"] = json!("timeout");
            result["output"] = json!(if stdout.is_empty() {
                format!("⏰ {message}")
            } else {
                format!("{stdout}\n\n⏰ {message}")
            });
            result["error"] = json!(message);
            ToolOutcome::Error
        }
        Ending::Interrupted => {
            result["status"] = json!("interrupted");
            result["output"] = json!(format!("{stdout}\n{INTERRUPTED}"));
            ToolOutcome::Cancelled
        }
        Ending::Exited(0) => ToolOutcome::Ok,
        Ending::Exited(code) => {
            result["status"] = json!("error");
            if stderr.is_empty() {
                result["error"] = json!(format!("Script exited with code {code}"));
            } else {
                result["output"] = json!(format!("{stdout}\n--- stderr ---\n{stderr}"));
                result["error"] = json!(stderr);
            }
            ToolOutcome::Error
        }
    };
    (result.to_string(), outcome)
}

/// Stdout as text, head and tail around Hermes's marker when it was cut, and the
/// truncation fields.
fn stdout_text(finished: &Finished) -> (String, Value) {
    let (head, tail) = finished.stdout.retained();
    let total = finished.stdout.total();
    let captured = (head.len() + tail.len()) as u64;
    let omitted = total.saturating_sub(captured);
    let mut metadata = json!({
        "stdout_truncated": omitted > 0,
        "stdout_bytes_captured": captured,
        "stdout_bytes_total": total,
        "stdout_bytes_omitted": omitted,
    });
    if omitted == 0 {
        let mut all = head.to_vec();
        all.extend_from_slice(&tail);
        return (String::from_utf8_lossy(&all).into_owned(), metadata);
    }
    metadata["warning"] = json!(
        "execute_code stdout was truncated; the script did run, but only the captured \
         head/tail output is included. Re-run only with narrower output if the omitted data \
         is required."
    );
    let text = format!(
        "{}\n\n... [OUTPUT TRUNCATED - {} bytes omitted out of {} total] ...\n\n{}\n{TRUNCATED_NOTE}",
        String::from_utf8_lossy(head),
        thousands(omitted),
        thousands(total),
        String::from_utf8_lossy(&tail),
    );
    (text, metadata)
}

/// `12345678` → `12,345,678`, as Python's `{:,}`.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
#[path = "result_tests.rs"]
mod tests;
