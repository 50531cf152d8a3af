use pretty_assertions::assert_eq;

use super::*;
use crate::protocol::ErrorEvent;
use crate::protocol::ErrorKind;
use crate::protocol::MessageDelta;
use crate::protocol::Notice;
use crate::protocol::ReasoningDelta;
use crate::protocol::ToolProgress;
use crate::protocol::ToolStatus;
use crate::protocol::TurnComplete;
use crate::protocol::TurnStarted;
use crate::tui::transcript::cell::OUTPUT_HEAD_BYTES;
use crate::tui::transcript::cell::OUTPUT_TAIL_BYTES;

fn delta(turn_id: u64, text: &str) -> Event {
    Event::MessageDelta(MessageDelta {
        turn_id,
        text: text.to_string(),
    })
}

fn reasoning(turn_id: u64, text: &str) -> Event {
    Event::ReasoningDelta(ReasoningDelta {
        turn_id,
        text: text.to_string(),
    })
}

fn complete(turn_id: u64, text: &str) -> Event {
    Event::MessageComplete(MessageComplete {
        turn_id,
        text: text.to_string(),
        reasoning: None,
    })
}

fn tool_start(call_id: &str, name: &str, preview: &str) -> Event {
    Event::ToolStart(ToolStart {
        call_id: call_id.to_string(),
        name: name.to_string(),
        preview: preview.to_string(),
        arguments: serde_json::Value::Null,
        parent_call_id: None,
    })
}

fn tool_done(call_id: &str, status: ToolStatus, output: &str) -> Event {
    Event::ToolComplete(ToolComplete {
        call_id: call_id.to_string(),
        name: "terminal".to_string(),
        status,
        output: output.to_string(),
        duration_ms: 100,
    })
}

fn text_of(entry: &Entry) -> &TextCell {
    match entry.cell() {
        Cell::Assistant(t) | Cell::Reasoning(t) => t,
        other => panic!("not a text cell: {other:?}"),
    }
}

#[test]
fn deltas_append_to_one_streaming_cell_and_complete_replaces_text() {
    let mut t = Transcript::new();
    t.push_user("hi");
    t.apply(&Event::MessageStart(MessageStart { turn_id: 1 }));
    assert_eq!(t.len(), 1, "an empty message leaves no cell yet");
    t.apply(&delta(1, "Hel"));
    t.apply(&delta(1, "lo"));
    assert_eq!(t.len(), 2);
    let msg = text_of(&t.entries()[1]);
    assert_eq!(msg.text, "Hello");
    assert!(msg.is_streaming());
    t.apply(&complete(1, "Hello!"));
    let msg = text_of(&t.entries()[1]);
    assert_eq!(msg.text, "Hello!");
    assert!(!msg.is_streaming());
    assert_eq!(t.assistant_text(1), Some("Hello!"));
}

#[test]
fn rev_changes_only_when_a_word_completes_while_streaming() {
    let mut t = Transcript::new();
    t.apply(&delta(1, "one"));
    let rev = t.entries()[0].rev();
    let version = t.version();
    t.apply(&delta(1, "word"));
    assert_eq!(
        t.entries()[0].rev(),
        rev,
        "a half word changes nothing visible"
    );
    assert!(t.version() > version, "version changes on every change");
    t.apply(&delta(1, " next"));
    assert!(t.entries()[0].rev() > rev);
}

#[test]
fn a_new_message_in_the_same_turn_gets_its_own_cell() {
    let mut t = Transcript::new();
    t.apply(&Event::MessageStart(MessageStart { turn_id: 1 }));
    t.apply(&delta(1, "first"));
    t.apply(&complete(1, "first"));
    t.apply(&Event::MessageStart(MessageStart { turn_id: 1 }));
    t.apply(&delta(1, "second"));
    assert_eq!(t.len(), 2);
    assert_eq!(t.assistant_text(1), Some("second"));
    assert_eq!(t.assistant_text(2), Some("first"));
    assert_eq!(t.assistant_text(3), None);
    assert_eq!(t.assistant_text(0), None);
}

#[test]
fn reasoning_streams_then_freezes_when_the_message_starts() {
    let mut t = Transcript::new();
    t.apply(&reasoning(1, "think\n"));
    t.apply(&reasoning(1, "more\n"));
    assert_eq!(t.len(), 1);
    assert!(text_of(&t.entries()[0]).is_streaming());
    t.apply(&Event::MessageStart(MessageStart { turn_id: 1 }));
    t.apply(&delta(1, "answer"));
    assert_eq!(t.len(), 2);
    let r = text_of(&t.entries()[0]);
    assert_eq!(r.text, "think\nmore\n");
    assert!(!r.is_streaming());
    assert_eq!(r.line_count(), 2);
}

#[test]
fn unstreamed_reasoning_goes_before_the_message() {
    let mut t = Transcript::new();
    t.apply(&Event::MessageStart(MessageStart { turn_id: 1 }));
    t.apply(&Event::MessageComplete(MessageComplete {
        turn_id: 1,
        text: "answer".to_string(),
        reasoning: Some("because".to_string()),
    }));
    assert_eq!(t.len(), 2);
    assert!(matches!(t.entries()[0].cell(), Cell::Reasoning(r) if r.text == "because"));
    assert!(matches!(t.entries()[1].cell(), Cell::Assistant(m) if m.text == "answer"));
}

#[test]
fn tool_lifecycle_keeps_progress_then_output() {
    let mut t = Transcript::new();
    t.apply(&tool_start("c1", "terminal", "echo hi"));
    t.apply(&Event::ToolProgress(ToolProgress {
        call_id: "c1".to_string(),
        text: "line a\nline b\n".to_string(),
    }));
    let Cell::Tool(tool) = t.entries()[0].cell() else {
        panic!("tool cell expected");
    };
    assert_eq!(tool.state, ToolState::Running);
    assert_eq!(tool.progress, ["line a", "line b"]);
    t.apply(&tool_done("c1", ToolStatus::Ok, "hi\n"));
    let Cell::Tool(tool) = t.entries()[0].cell() else {
        panic!("tool cell expected");
    };
    assert_eq!(tool.state, ToolState::Finished(ToolStatus::Ok));
    assert_eq!(tool.output, "hi\n");
    assert_eq!(tool.duration_ms, Some(100));
    assert!(tool.progress.is_empty());
}

#[test]
fn parallel_tools_complete_in_any_order() {
    let mut t = Transcript::new();
    t.apply(&tool_start("a", "read_file", "a.txt"));
    t.apply(&tool_start("b", "read_file", "b.txt"));
    t.apply(&tool_done("b", ToolStatus::Error, "nope"));
    t.apply(&tool_done("a", ToolStatus::Ok, "A"));
    let states: Vec<_> = t
        .entries()
        .iter()
        .map(|e| match e.cell() {
            Cell::Tool(tool) => (tool.preview.clone(), tool.state),
            other => panic!("unexpected {other:?}"),
        })
        .collect();
    assert_eq!(
        states,
        [
            ("a.txt".to_string(), ToolState::Finished(ToolStatus::Ok)),
            ("b.txt".to_string(), ToolState::Finished(ToolStatus::Error)),
        ]
    );
}

#[test]
fn tool_output_is_bounded_head_and_tail() {
    let mut t = Transcript::new();
    t.apply(&tool_start("c", "terminal", "yes"));
    let big = format!("HEAD{}TAIL", "é".repeat(100_000));
    t.apply(&tool_done("c", ToolStatus::Ok, &big));
    let Cell::Tool(tool) = t.entries()[0].cell() else {
        panic!("tool cell expected");
    };
    assert!(tool.output.len() <= OUTPUT_HEAD_BYTES + OUTPUT_TAIL_BYTES + 64);
    assert!(tool.output.starts_with("HEAD"));
    assert!(tool.output.ends_with("TAIL"));
    assert!(tool.output.contains("bytes omitted"));
}

#[test]
fn progress_lines_are_bounded() {
    let mut t = Transcript::new();
    t.apply(&tool_start("c", "terminal", "seq"));
    for i in 0..1000 {
        t.apply(&Event::ToolProgress(ToolProgress {
            call_id: "c".to_string(),
            text: format!("{i}\n"),
        }));
    }
    let Cell::Tool(tool) = t.entries()[0].cell() else {
        panic!("tool cell expected");
    };
    assert_eq!(tool.progress.len(), cell::MAX_PROGRESS_LINES);
    assert_eq!(tool.progress.back().map(String::as_str), Some("999"));
}

#[test]
fn interrupted_turn_freezes_live_cells_and_adds_a_marker() {
    let mut t = Transcript::new();
    t.apply(&delta(3, "partial"));
    t.apply(&tool_start("c", "terminal", "sleep 100"));
    t.apply(&Event::TurnComplete(TurnComplete {
        turn_id: 3,
        outcome: TurnOutcome::Interrupted {
            done: "nothing finished".to_string(),
        },
    }));
    assert_eq!(t.len(), 3);
    assert!(!text_of(&t.entries()[0]).is_streaming());
    assert!(matches!(
        t.entries()[1].cell(),
        Cell::Tool(tool) if tool.state == ToolState::Finished(ToolStatus::Cancelled)
    ));
    assert!(matches!(
        t.entries()[2].cell(),
        Cell::Interrupted { done } if done == "nothing finished"
    ));
}

#[test]
fn notices_errors_and_iteration_limit_become_cells() {
    let mut t = Transcript::new();
    t.apply(&Event::Notice(Notice {
        level: NoticeLevel::Warning,
        text: "retrying".to_string(),
    }));
    t.apply(&Event::Error(ErrorEvent {
        kind: ErrorKind::RateLimited,
        text: "slow down".to_string(),
    }));
    t.apply(&Event::TurnComplete(TurnComplete {
        turn_id: 1,
        outcome: TurnOutcome::Failed {
            kind: ErrorKind::RateLimited,
        },
    }));
    t.apply(&Event::TurnComplete(TurnComplete {
        turn_id: 2,
        outcome: TurnOutcome::IterationLimit { limit: 90 },
    }));
    assert_eq!(t.len(), 3, "a failed turn does not repeat its error");
    assert!(matches!(
        t.entries()[1].cell(),
        Cell::Error {
            kind: ErrorKind::RateLimited,
            ..
        }
    ));
    assert!(matches!(
        t.entries()[2].cell(),
        Cell::Notice { level: NoticeLevel::Warning, text } if text.contains("90")
    ));
}

#[test]
fn ignored_events_do_not_change_the_version() {
    let mut t = Transcript::new();
    let v = t.version();
    t.apply(&Event::TurnStarted(TurnStarted { turn_id: 1 }));
    t.apply(&Event::StatusUpdate(Default::default()));
    assert_eq!(t.version(), v);
}

#[test]
fn clear_empties_but_ids_keep_growing() {
    let mut t = Transcript::new();
    t.push_user("a");
    let first = t.entries()[0].id();
    t.clear();
    assert!(t.is_empty());
    t.push_info("Help", "line");
    assert!(t.entries()[0].id() > first);
    assert_eq!(t.position(t.entries()[0].id()), Ok(0));
    assert_eq!(t.position(first), Err(0));
}

#[test]
fn bench_transcript_builds_n_cells() {
    assert_eq!(bench_transcript(0).len(), 0);
    assert_eq!(bench_transcript(1234).len(), 1234);
}
