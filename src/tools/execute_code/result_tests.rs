use std::time::Duration;

use pretty_assertions::assert_eq;
use serde_json::Value;
use serde_json::json;

use super::*;
use crate::tools::execute_code::run::MAX_STDERR_BYTES;
use crate::tools::execute_code::run::MAX_STDOUT_BYTES;
use crate::tools::execute_code::run::STDOUT_HEAD_BYTES;
use crate::tools::output::OutputBuffer;

fn finished(ending: Ending, stdout: &[u8], stderr: &[u8]) -> Finished {
    let mut out = OutputBuffer::new(STDOUT_HEAD_BYTES, MAX_STDOUT_BYTES - STDOUT_HEAD_BYTES);
    out.push(stdout);
    let mut err = OutputBuffer::new(MAX_STDERR_BYTES, 0);
    err.push(stderr);
    Finished {
        ending,
        stdout: out,
        stderr: err,
        duration: Duration::from_millis(1234),
    }
}

fn assembled(f: &Finished, calls: u64) -> (Value, ToolOutcome) {
    let (text, outcome) = assemble(f, calls, 300);
    (serde_json::from_str(&text).unwrap(), outcome)
}

#[test]
fn a_clean_run_is_hermes_shaped() {
    let (v, outcome) = assembled(
        &finished(Ending::Exited(0), b"hi \x1b[31mred\x1b[0m\n", b""),
        3,
    );
    assert_eq!(outcome, ToolOutcome::Ok);
    assert_eq!(
        v,
        json!({
            "status": "success",
            "output": "hi red\n",
            "exit_code": 0,
            "tool_calls_made": 3,
            "duration_seconds": 1.23,
            "stdout_truncated": false,
            "stdout_bytes_captured": 16,
            "stdout_bytes_total": 16,
            "stdout_bytes_omitted": 0,
        })
    );
}

#[test]
fn a_failing_script_carries_its_stderr() {
    let (v, outcome) = assembled(
        &finished(
            Ending::Exited(1),
            b"partial\n",
            b"NameError: name 'x' is not defined\n",
        ),
        0,
    );
    assert_eq!(outcome, ToolOutcome::Error);
    assert_eq!(v["status"], "error");
    assert_eq!(v["exit_code"], 1);
    assert_eq!(v["error"], "NameError: name 'x' is not defined\n");
    assert_eq!(
        v["output"],
        "partial\n\n--- stderr ---\nNameError: name 'x' is not defined\n"
    );
    let (v, _) = assembled(&finished(Ending::Exited(3), b"", b""), 0);
    assert_eq!(v["error"], "Script exited with code 3");
}

#[test]
fn timeout_and_interrupt_say_so_in_the_output() {
    let (v, outcome) = assembled(&finished(Ending::TimedOut, b"step 1\n", b""), 1);
    assert_eq!(outcome, ToolOutcome::Error);
    assert_eq!(v["status"], "timeout");
    assert_eq!(v["error"], "Script timed out after 300s and was killed.");
    assert_eq!(
        v["output"],
        "step 1\n\n\n⏰ Script timed out after 300s and was killed."
    );
    assert_eq!(v["exit_code"], -1);
    let (v, _) = assembled(&finished(Ending::TimedOut, b"", b""), 0);
    assert_eq!(
        v["output"],
        "⏰ Script timed out after 300s and was killed."
    );
    let (v, outcome) = assembled(&finished(Ending::Interrupted, b"half", b""), 0);
    assert_eq!(outcome, ToolOutcome::Cancelled);
    assert_eq!(v["status"], "interrupted");
    assert_eq!(v["output"], format!("half\n{INTERRUPTED}"));
}

#[test]
fn a_flood_keeps_head_and_tail_and_says_how_much_went() {
    let mut stdout = b"HEAD".to_vec();
    stdout.extend(std::iter::repeat_n(b'x', 2_000_000));
    stdout.extend_from_slice(b"TAIL");
    let (v, outcome) = assembled(&finished(Ending::Exited(0), &stdout, &[b'e'; 20_000]), 0);
    assert_eq!(outcome, ToolOutcome::Ok);
    let output = v["output"].as_str().unwrap();
    assert!(output.starts_with("HEAD"));
    assert!(
        output.ends_with(&format!("TAIL\n{TRUNCATED_NOTE}")),
        "{}",
        &output[output.len() - 80..]
    );
    assert!(
        output.contains(
            "... [OUTPUT TRUNCATED - 1,950,008 bytes omitted out of 2,000,008 total] ..."
        )
    );
    assert!(output.len() < MAX_STDOUT_BYTES + 300, "{}", output.len());
    assert_eq!(v["stdout_truncated"], true);
    assert_eq!(v["stdout_bytes_total"], 2_000_008);
    assert_eq!(v["stdout_bytes_omitted"], 1_950_008);
    assert!(v["warning"].as_str().unwrap().contains("truncated"));
    assert_eq!(thousands(0), "0");
    assert_eq!(thousands(999), "999");
    assert_eq!(thousands(1000), "1,000");
    assert_eq!(thousands(12_345_678), "12,345,678");
}
