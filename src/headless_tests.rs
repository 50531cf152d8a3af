use super::*;
use crate::protocol::ClarifyAnswer;
use crate::protocol::ClarifyRequest;
use pretty_assertions::assert_eq;
use tokio::sync::mpsc;

/// A fake engine: answers the first `UserInput` with `script`, then confirms shutdown.
fn fake_session(script: Vec<Event>) -> (SessionHandle, tokio::task::JoinHandle<Vec<Op>>) {
    let (ops_tx, mut ops_rx) = mpsc::unbounded_channel::<Op>();
    let (events_tx, events_rx) = mpsc::unbounded_channel();
    let task = tokio::spawn(async move {
        let mut seen = Vec::new();
        while let Some(op) = ops_rx.recv().await {
            seen.push(op.clone());
            match op {
                Op::UserInput { .. } => {
                    for event in &script {
                        events_tx.send(event.clone()).unwrap();
                    }
                }
                Op::Shutdown => {
                    events_tx.send(Event::ShutdownComplete).unwrap();
                    break;
                }
                _ => {}
            }
        }
        seen
    });
    (
        SessionHandle {
            ops: ops_tx,
            events: events_rx,
        },
        task,
    )
}

fn message(text: &str) -> Event {
    Event::MessageComplete(MessageComplete {
        turn_id: 1,
        text: text.into(),
        reasoning: None,
    })
}

fn tool(name: &str, preview: &str, status: ToolStatus, output: &str) -> [Event; 2] {
    [
        Event::ToolStart(ToolStart {
            call_id: "c1".into(),
            name: name.into(),
            preview: preview.into(),
            arguments: serde_json::json!({}),
            parent_call_id: None,
        }),
        Event::ToolComplete(ToolComplete {
            call_id: "c1".into(),
            name: name.into(),
            status,
            output: output.into(),
            duration_ms: 120,
        }),
    ]
}

async fn run(script: Vec<Event>, output: OutputMode) -> (HeadlessReport, String, String) {
    let (handle, _task) = fake_session(script);
    let mut out = Vec::new();
    let mut err = Vec::new();
    let report = run_one_shot(
        handle,
        "hi".into(),
        Vec::new(),
        output,
        PromptMode::Decline,
        &mut out,
        &mut err,
    )
    .await;
    (
        report,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

#[tokio::test]
async fn final_answer_on_stdout_progress_on_stderr() {
    let mut script = vec![message("Let me look.")];
    script.extend(tool("terminal", "ls", ToolStatus::Ok, "a\nb"));
    script.extend(tool(
        "patch",
        "x.rs",
        ToolStatus::Error,
        "old_string not found\nmore",
    ));
    script.push(message("Done: two files."));
    script.push(Event::TurnComplete(TurnComplete {
        turn_id: 1,
        outcome: TurnOutcome::Completed,
    }));
    let (report, out, err) = run(script, OutputMode::Text).await;
    assert_eq!(out, "Done: two files.\n");
    assert_eq!(
        err,
        "💬 Let me look.\n💻 ls\n   ✓ 0.1s\n🔧 x.rs\n   ✗ error (0.1s): old_string not found\n"
    );
    assert_eq!(report.exit_code, 0);
    assert_eq!(report.answer, "Done: two files.");
}

#[tokio::test]
async fn failures_map_to_documented_exit_codes() {
    let script = vec![
        Event::Error(ErrorEvent {
            kind: ErrorKind::RateLimited,
            text: "rate limited by the provider".into(),
        }),
        Event::TurnComplete(TurnComplete {
            turn_id: 1,
            outcome: TurnOutcome::Failed {
                kind: ErrorKind::RateLimited,
            },
        }),
    ];
    let (report, out, err) = run(script, OutputMode::Text).await;
    assert_eq!(out, "");
    assert_eq!(err, "error: rate limited by the provider\n");
    assert_eq!(report.exit_code, exit_code::RATE_LIMITED);
}

#[tokio::test]
async fn json_mode_prints_every_event_as_a_line() {
    let script = vec![
        message("hello"),
        Event::TurnComplete(TurnComplete {
            turn_id: 1,
            outcome: TurnOutcome::Completed,
        }),
    ];
    let (report, out, err) = run(script, OutputMode::Json).await;
    assert_eq!(err, "");
    let events: Vec<Event> = out
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(events.len(), 3);
    assert_eq!(events[0], message("hello"));
    assert_eq!(events[2], Event::ShutdownComplete);
    assert_eq!(report.answer, "hello");
}

#[tokio::test]
async fn clarify_is_declined_without_a_terminal() {
    let script = vec![Event::ClarifyRequest(ClarifyRequest {
        id: "q1".into(),
        question: "Which?".into(),
        choices: vec!["a".into()],
    })];
    let (handle, task) = fake_session(script);
    let ops = handle.ops.clone();
    let runner = tokio::spawn(async move {
        let mut out = Vec::new();
        let mut err = Vec::new();
        run_one_shot(
            handle,
            "hi".into(),
            Vec::new(),
            OutputMode::Text,
            PromptMode::Decline,
            &mut out,
            &mut err,
        )
        .await
    });
    // Give the runner time to answer, then end the fake session.
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    ops.send(Op::Shutdown).unwrap();
    let seen = task.await.unwrap();
    assert!(seen.contains(&Op::ClarifyReply {
        id: "q1".into(),
        answer: ClarifyAnswer::Declined
    }));
    runner.abort();
}

#[test]
fn every_outcome_has_an_exit_code() {
    assert_eq!(exit_code_for(&TurnOutcome::Completed), 0);
    assert_eq!(
        exit_code_for(&TurnOutcome::Interrupted {
            done: String::new()
        }),
        130
    );
    assert_eq!(exit_code_for(&TurnOutcome::IterationLimit { limit: 3 }), 9);
    assert_eq!(
        exit_code_for(&TurnOutcome::Failed {
            kind: ErrorKind::Auth
        }),
        3
    );
    assert_eq!(
        exit_code_for(&TurnOutcome::Failed {
            kind: ErrorKind::Hang
        }),
        6
    );
}
