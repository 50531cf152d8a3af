use pretty_assertions::assert_eq;

use super::*;

#[test]
fn a_successful_run_shows_what_it_printed() {
    let result = r#"{"status": "success", "output": "3 files\nsrc/a.rs\n", "tool_calls_made": 4, "duration_seconds": 0.31}"#;
    assert_eq!(
        summarize("execute_code", result).as_deref(),
        Some("3 files\nsrc/a.rs")
    );
}

#[test]
fn a_silent_run_says_so() {
    let result =
        r#"{"status": "success", "output": "", "tool_calls_made": 0, "duration_seconds": 0.1}"#;
    assert_eq!(
        summarize("execute_code", result).as_deref(),
        Some("(no output)")
    );
}

#[test]
fn an_error_not_in_the_output_is_added_once() {
    let without = r#"{"status": "error", "output": "partial\n", "error": "Script exited with code 3", "tool_calls_made": 1, "duration_seconds": 0.2}"#;
    assert_eq!(
        summarize("execute_code", without).as_deref(),
        Some("partial\nerror: Script exited with code 3")
    );
    let within = r#"{"status": "error", "output": "\n--- stderr ---\nNameError: x", "error": "NameError: x", "tool_calls_made": 0, "duration_seconds": 0.2}"#;
    assert_eq!(
        summarize("execute_code", within).as_deref(),
        Some("--- stderr ---\nNameError: x")
    );
}

#[test]
fn other_tools_and_foreign_text_are_left_alone() {
    assert_eq!(summarize("terminal", r#"{"status": "success"}"#), None);
    assert_eq!(summarize("execute_code", "not json"), None);
    assert_eq!(summarize("execute_code", r#"{"output": "x"}"#), None);
}
