use super::*;
use crate::model::ToolCall;
use pretty_assertions::assert_eq;

fn call(id: &str) -> ToolCall {
    ToolCall {
        id: id.into(),
        name: "terminal".into(),
        arguments: "{}".into(),
    }
}

fn calls(ids: &[&str]) -> Message {
    Message::assistant("", ids.iter().map(|id| call(id)).collect())
}

fn result(id: &str, text: &str) -> Message {
    Message::tool_result(&call(id), text)
}

#[test]
fn a_whole_history_comes_back_unchanged() {
    let history = vec![
        Message::user("hi"),
        calls(&["a", "b"]),
        result("a", "1"),
        result("b", "2"),
        Message::assistant("done", Vec::new()),
    ];
    let repaired = repair_tool_results(history.clone());
    assert!(!repaired.changed());
    assert_eq!(repaired.history, history);
    assert!(repaired.trailing.is_empty());
}

#[test]
fn calls_killed_mid_run_get_interrupted_results_that_close_the_history() {
    let history = vec![Message::user("hi"), calls(&["a", "b"]), result("a", "1")];
    let repaired = repair_tool_results(history);
    assert_eq!(repaired.added, 1);
    assert_eq!(repaired.trailing, vec![result("b", INTERRUPTED_RESULT)]);
    assert_eq!(repaired.history.len(), 4);
    assert_eq!(repaired.history[3], result("b", INTERRUPTED_RESULT));
    // Repairing again changes nothing.
    let again = repair_tool_results(repaired.history.clone());
    assert!(!again.changed());
    assert_eq!(again.history, repaired.history);
}

#[test]
fn an_unanswered_call_in_the_middle_is_answered_in_place_and_not_trailing() {
    let history = vec![
        Message::user("hi"),
        calls(&["a"]),
        Message::user("again"),
        Message::assistant("ok", Vec::new()),
    ];
    let repaired = repair_tool_results(history);
    assert_eq!(repaired.added, 1);
    assert!(repaired.trailing.is_empty());
    assert_eq!(repaired.history[2], result("a", INTERRUPTED_RESULT));
    assert_eq!(repaired.history[3], Message::user("again"));
}

#[test]
fn results_that_answer_nothing_or_answer_twice_are_left_out() {
    let history = vec![
        Message::user("hi"),
        result("stray", "x"),
        calls(&["a"]),
        result("a", "1"),
        result("a", "1 again"),
        Message::assistant("done", Vec::new()),
    ];
    let repaired = repair_tool_results(history);
    assert_eq!(repaired.dropped, 2);
    assert_eq!(repaired.added, 0);
    assert_eq!(
        repaired.history,
        vec![
            Message::user("hi"),
            calls(&["a"]),
            result("a", "1"),
            Message::assistant("done", Vec::new()),
        ]
    );
}
