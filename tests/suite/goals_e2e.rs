//! The `/goal` loop end to end in the engine, against the scripted provider: the spec's
//! walkthrough (four files, one per turn, then "✓ Goal achieved"), a separate judge model, the
//! turn budget, fail-open judge errors and unreadable verdicts, a user message pre-empting a
//! continuation, a subgoal reaching the judge mid-loop, the repeated-reply guard, interrupts,
//! and a goal surviving a restart through `state_meta`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use std::sync::Arc;
use std::time::Duration;

use hermes::protocol::Event;
use hermes::protocol::GoalCommand;
use hermes::protocol::GoalProgress;
use hermes::protocol::GoalSnapshot;
use hermes::protocol::GoalStatus;
use hermes::protocol::GoalUpdate;
use hermes::protocol::Notice;
use hermes::protocol::Op;
use hermes::protocol::PauseCause;
use hermes::protocol::VerdictOutcome;
use serde_json::Value;
use support::Response;
use support::ScriptedCall;
use support::ScriptedServer;
use support::engine::SYSTEM;
use support::engine::Session;
use support::engine::endpoint;
use support::engine::start;
use support::engine::test_session;

const MARKER: &str = "[Continuing toward your standing goal]";

fn verdict(done: bool, reason: &str) -> Response {
    Response::text([serde_json::json!({"done": done, "reason": reason}).to_string()])
}

/// A verdict streamed slowly (~600 ms), so the test can act while the judge thinks.
fn slow_verdict(done: bool, reason: &str) -> Response {
    let json = serde_json::json!({"done": done, "reason": reason}).to_string();
    let (a, b) = json.split_at(json.len() / 2);
    Response::text(["", a, "", b]).with_delay_ms(200)
}

/// A session on `main` whose goal judge is `judge`, adjusted by `configure`.
fn judged_session(
    main: &ScriptedServer,
    judge: &ScriptedServer,
    configure: impl FnOnce(&mut hermes::engine::SessionSpec),
) -> Session {
    start(main, |spec| {
        spec.goals.judge = Some(endpoint(judge));
        configure(spec);
    })
}

fn set(text: &str) -> Op {
    Op::Goal(GoalCommand::Set { text: text.into() })
}

/// Goal progress lines until the loop stops (achieved or paused), and the last goal state.
async fn run_loop(s: &mut Session) -> (Vec<GoalProgress>, Option<GoalSnapshot>) {
    let mut lines = Vec::new();
    let mut state = None;
    loop {
        match s
            .until(|e| matches!(e, Event::GoalProgress(_) | Event::GoalUpdate { .. }))
            .await
        {
            Event::GoalUpdate(GoalUpdate { goal }) => state = goal,
            Event::GoalProgress(progress) => {
                let end = matches!(
                    progress,
                    GoalProgress::Achieved { .. } | GoalProgress::Paused { .. }
                );
                lines.push(progress);
                if end {
                    // The state that follows the last line.
                    if let Event::GoalUpdate(GoalUpdate { goal }) =
                        s.until(|e| matches!(e, Event::GoalUpdate { .. })).await
                    {
                        state = goal;
                    }
                    return (lines, state);
                }
            }
            _ => unreachable!(),
        }
    }
}

fn text_lines(lines: &[GoalProgress]) -> Vec<String> {
    lines.iter().map(GoalProgress::line).collect()
}

fn system_of(body: &Value) -> String {
    body["messages"][0]["content"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

fn last_user(body: &Value) -> String {
    body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .rev()
        .find(|m| m["role"] == "user")
        .and_then(|m| m["content"].as_str())
        .unwrap_or_default()
        .to_string()
}

fn is_judge(body: &Value) -> bool {
    system_of(body).starts_with("You judge whether an AI agent has achieved a standing goal")
}

#[tokio::test]
async fn the_walkthrough_creates_four_files_one_per_turn_then_the_goal_is_achieved() {
    let mut script = Vec::new();
    let replies = [
        "I've created note_1.txt with the content \"1\". I'll continue with the remaining files on the next turn as you specified.",
        "Created note_2.txt. Two more to go.",
        "Created note_3.txt.",
        "All four files have been created: note_1.txt through note_4.txt, each containing its number.",
    ];
    let reasons = [
        "Only 1 of 4 files has been created; 3 files remain.",
        "2 of 4 files created; 2 remain.",
        "3 of 4 files created; 1 remains.",
    ];
    for n in 1..=4 {
        script.push(Response::tool_calls([ScriptedCall::terminal(
            &format!("call_{n}"),
            &format!("echo \"{n}\" > note_{n}.txt"),
        )]));
        script.push(Response::text([replies[n - 1]]));
        script.push(match n {
            4 => verdict(
                true,
                "All four files were created with the specified content, completing the goal.",
            ),
            _ => verdict(false, reasons[n - 1]),
        });
    }
    let server = ScriptedServer::start(script).await;
    let mut s = start(&server, |_| {});
    let goal =
        "Create four files note_{1..4}.txt, one per turn, each containing its number as text";
    s.send(set(goal));
    let (lines, state) = run_loop(&mut s).await;
    assert_eq!(
        text_lines(&lines),
        [
            format!("⊙ Goal set (20-turn budget): {goal}"),
            format!("↻ Continuing toward goal (1/20): {}", reasons[0]),
            format!("↻ Continuing toward goal (2/20): {}", reasons[1]),
            format!("↻ Continuing toward goal (3/20): {}", reasons[2]),
            "✓ Goal achieved: All four files were created with the specified content, completing the goal."
                .to_string(),
        ]
    );
    for n in 1..=4 {
        let text = std::fs::read_to_string(s.dir.path().join(format!("note_{n}.txt"))).unwrap();
        assert_eq!(text.trim(), n.to_string());
    }
    let state = state.unwrap();
    assert_eq!(state.status, GoalStatus::Achieved);
    assert_eq!(state.turns_used, 3, "four turns used three continuations");
    assert_eq!(state.verdicts.len(), 4);
    assert_eq!(state.verdicts[3].outcome, VerdictOutcome::Done);
    assert_eq!(state.verdicts[3].turn, 4);

    let requests = server.completion_requests();
    assert_eq!(requests.len(), 12);
    let (judges, turns): (Vec<_>, Vec<_>) = requests.iter().partition(|r| is_judge(&r.body));
    assert_eq!(judges.len(), 4);
    // The conversation's system prompt never changes; continuations are user messages.
    assert!(turns.iter().all(|r| system_of(&r.body) == SYSTEM));
    assert_eq!(last_user(&turns[0].body), goal);
    for turn in [2, 4, 6] {
        let prompt = last_user(&turns[turn].body);
        assert!(prompt.starts_with(MARKER), "{prompt}");
        assert!(prompt.contains(&format!("Goal: {goal}")), "{prompt}");
    }
    // The judge sees the goal and the latest reply only, never the conversation.
    let first_judge = &judges[0].body;
    assert_eq!(first_judge["messages"].as_array().unwrap().len(), 2);
    let asked = last_user(first_judge);
    assert!(asked.contains(&format!("Goal: {goal}")), "{asked}");
    assert!(asked.contains(replies[0]), "{asked}");
    assert!(
        !asked.contains("echo"),
        "tool calls are not shown to the judge"
    );
    // Achieved: no further turn or judge call.
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(server.completion_requests().len(), 12);
}

#[tokio::test]
async fn a_separate_judge_model_achieves_the_goal_after_three_turns() {
    let main = ScriptedServer::start_echo().await;
    let judge = ScriptedServer::start([
        verdict(false, "not yet"),
        verdict(false, "closer"),
        verdict(true, "done now"),
    ])
    .await;
    let mut s = judged_session(&main, &judge, |_| {});
    s.send(set("say three things"));
    let (lines, state) = run_loop(&mut s).await;
    assert_eq!(
        text_lines(&lines),
        [
            "⊙ Goal set (20-turn budget): say three things",
            "↻ Continuing toward goal (1/20): not yet",
            "↻ Continuing toward goal (2/20): closer",
            "✓ Goal achieved: done now",
        ]
    );
    assert_eq!(state.unwrap().turns_used, 2);
    assert_eq!(
        main.completion_requests().len(),
        3,
        "three turns on the main model"
    );
    assert!(
        main.completion_requests()
            .iter()
            .all(|r| !is_judge(&r.body))
    );
    assert_eq!(judge.completion_requests().len(), 3);
    // The judge saw the echo of the continuation prompt, i.e. the latest reply.
    let asked = last_user(&judge.completion_requests()[2].body);
    assert!(asked.contains("You said: [Continuing toward"), "{asked}");
}

#[tokio::test]
async fn the_budget_pauses_the_goal_with_the_spec_line() {
    let main = ScriptedServer::start_echo().await;
    let judge = ScriptedServer::start((0..5).map(|i| verdict(false, &format!("step {i}")))).await;
    let mut s = judged_session(&main, &judge, |spec| spec.goals.max_turns = 2);
    s.send(set("never quite done"));
    let (lines, state) = run_loop(&mut s).await;
    assert_eq!(
        text_lines(&lines),
        [
            "⊙ Goal set (2-turn budget): never quite done",
            "↻ Continuing toward goal (1/2): step 0",
            "↻ Continuing toward goal (2/2): step 1",
            "⏸ Goal paused — 2/2 turns used. Use /goal resume to keep going, or /goal clear to stop.",
        ]
    );
    assert!(matches!(
        lines[3],
        GoalProgress::Paused {
            cause: PauseCause::Budget,
            ..
        }
    ));
    assert_eq!(state.unwrap().status, GoalStatus::Paused);
    assert_eq!(main.completion_requests().len(), 3);

    // /goal resume resets the counter and continues at once.
    s.send(Op::Goal(GoalCommand::Resume));
    let (lines, _) = run_loop(&mut s).await;
    assert_eq!(
        text_lines(&lines)[..2],
        [
            "▶ Goal resumed — 0/2 turns used.",
            "↻ Continuing toward goal (1/2): resumed with /goal resume",
        ]
    );
}

#[tokio::test]
async fn judge_errors_fail_open_and_three_unreadable_verdicts_pause() {
    let main = ScriptedServer::start_echo().await;
    let judge = ScriptedServer::start([
        Response::status(400),
        Response::text(["I think it is done?"]),
        Response::text(["{\"done\": \"maybe\"}"]),
        Response::text(["<html>oops</html>"]),
    ])
    .await;
    let mut s = judged_session(&main, &judge, |_| {});
    s.send(set("keep going"));
    let (lines, state) = run_loop(&mut s).await;
    let text = text_lines(&lines);
    assert_eq!(text.len(), 5, "{text:#?}");
    assert!(
        text[1].starts_with("↻ Continuing toward goal (1/20): the judge could not be asked"),
        "{}",
        text[1]
    );
    assert!(text[2].contains("not the JSON asked for"), "{}", text[2]);
    assert!(text[3].contains("not the JSON asked for"), "{}", text[3]);
    assert!(matches!(
        lines[4],
        GoalProgress::Paused {
            used: 3,
            cause: PauseCause::UnreadableVerdicts,
            ..
        }
    ));
    let outcomes: Vec<_> = state.unwrap().verdicts.iter().map(|v| v.outcome).collect();
    assert_eq!(
        outcomes,
        [
            VerdictOutcome::JudgeError,
            VerdictOutcome::Unreadable,
            VerdictOutcome::Unreadable,
            VerdictOutcome::Unreadable,
        ]
    );
}

#[tokio::test]
async fn a_queued_user_message_goes_before_the_continuation_and_is_judged() {
    let server = ScriptedServer::start([
        Response::text(["first ", "turn ", "reply"]).with_delay_ms(150),
        Response::text(["answer to the user"]),
        verdict(false, "the user's question was answered, the goal is not"),
        Response::text(["continuation reply"]),
        verdict(true, "finished"),
    ])
    .await;
    let mut s = start(&server, |_| {});
    s.send(set("the goal"));
    s.until(|e| matches!(e, Event::MessageDelta { .. })).await;
    s.send(Op::Queue {
        text: "a quick question".into(),
    });
    let (lines, _) = run_loop(&mut s).await;
    // (The "⊙ Goal set" line went by while the test waited for the first delta.)
    assert_eq!(lines.len(), 2, "{:#?}", text_lines(&lines));
    let requests = server.completion_requests();
    let order: Vec<String> = requests
        .iter()
        .map(|r| {
            if is_judge(&r.body) {
                format!("judge: {}", last_user(&r.body))
            } else {
                last_user(&r.body)
            }
        })
        .collect();
    assert_eq!(order[0], "the goal");
    assert_eq!(
        order[1], "a quick question",
        "the user's message went first"
    );
    assert!(
        order[2].starts_with("judge:") && order[2].contains("answer to the user"),
        "the judge ran after the user's turn, on its reply: {}",
        order[2]
    );
    assert!(order[3].starts_with(MARKER));
    assert_eq!(requests.len(), 5, "no judge call for the pre-empted turn");
}

#[tokio::test]
async fn a_message_sent_while_the_judge_thinks_wins_and_the_judge_runs_again_after_it() {
    let main = ScriptedServer::start([
        Response::text(["turn one"]),
        Response::text(["answer to the user"]),
        Response::text(["continuation"]),
    ])
    .await;
    let judge = ScriptedServer::start([
        slow_verdict(false, "stale verdict"),
        verdict(false, "judged the user's turn"),
        verdict(true, "done"),
    ])
    .await;
    let mut s = judged_session(&main, &judge, |_| {});
    s.send(set("g"));
    s.until(|e| matches!(e, Event::GoalUpdate(GoalUpdate { goal: Some(g) }) if g.judging))
        .await;
    // The judge is answering (slowly) when the user's message arrives.
    judge.wait_for_requests(1, Duration::from_secs(5)).await;
    s.send(Op::user("me first"));
    let (lines, _) = run_loop(&mut s).await;
    assert_eq!(
        text_lines(&lines)[0],
        "↻ Continuing toward goal (1/20): judged the user's turn",
        "{:#?}",
        text_lines(&lines)
    );
    assert!(!text_lines(&lines).iter().any(|l| l.contains("stale")));
    assert_eq!(last_user(&main.completion_requests()[1].body), "me first");
}

#[tokio::test]
async fn a_subgoal_added_mid_turn_reaches_the_judge_and_the_continuation() {
    let server = ScriptedServer::start([
        Response::text(["work ", "in ", "progress"]).with_delay_ms(150),
        verdict(false, "tests are not mentioned"),
        Response::text(["added tests"]),
        verdict(true, "goal and criterion met"),
    ])
    .await;
    let mut s = start(&server, |_| {});
    s.send(set("write the parser"));
    s.until(|e| matches!(e, Event::MessageDelta { .. })).await;
    s.send(Op::Goal(GoalCommand::AddSubgoal {
        text: "add regression tests".into(),
    }));
    let (lines, state) = run_loop(&mut s).await;
    assert!(matches!(lines.last(), Some(GoalProgress::Achieved { .. })));
    assert_eq!(state.unwrap().subgoals, ["add regression tests"]);
    let requests = server.completion_requests();
    let judge_prompt = last_user(&requests[1].body);
    assert!(
        judge_prompt.contains("every one must also be met):\n1. add regression tests"),
        "{judge_prompt}"
    );
    let continuation = last_user(&requests[2].body);
    assert!(
        continuation.contains("1. add regression tests"),
        "{continuation}"
    );
}

#[tokio::test]
async fn three_near_identical_replies_pause_the_goal() {
    let stuck = "I could not find the configuration file. Let me look for it again.";
    let main = ScriptedServer::start([
        Response::text([stuck]),
        Response::text([stuck]),
        Response::text([stuck]),
    ])
    .await;
    let judge = ScriptedServer::start((0..3).map(|_| verdict(false, "file not found yet"))).await;
    let mut s = judged_session(&main, &judge, |_| {});
    s.send(set("find the config"));
    let (lines, _) = run_loop(&mut s).await;
    let last = lines.last().unwrap();
    assert!(
        matches!(
            last,
            GoalProgress::Paused {
                used: 2,
                cause: PauseCause::RepeatedReplies,
                ..
            }
        ),
        "{last:?}"
    );
    assert!(last.detail().unwrap().contains("nearly identical"));
}

#[tokio::test]
async fn interrupting_pauses_and_a_new_goal_mid_turn_is_refused() {
    let server =
        ScriptedServer::start(
            [Response::text((0..50).map(|i| format!("w{i} "))).with_delay_ms(50)],
        )
        .await;
    let mut s = start(&server, |_| {});
    s.send(set("a long job"));
    s.until(|e| matches!(e, Event::MessageDelta { .. })).await;
    s.send(set("another goal"));
    match s.until(|e| matches!(e, Event::Notice { .. })).await {
        Event::Notice(Notice { text, .. }) => assert!(text.contains("/stop it first"), "{text}"),
        _ => unreachable!(),
    }
    s.send(Op::Goal(GoalCommand::Status));
    match s.until(|e| matches!(e, Event::Notice { .. })).await {
        Event::Notice(Notice { text, .. }) => {
            assert!(
                text.starts_with("Goal (active, 0/20 turns used): a long job"),
                "{text}"
            )
        }
        _ => unreachable!(),
    }
    s.send(Op::Interrupt);
    let (lines, _) = run_loop(&mut s).await;
    assert!(matches!(
        lines.last(),
        Some(GoalProgress::Paused {
            cause: PauseCause::Interrupted,
            ..
        })
    ));
}

#[tokio::test]
async fn a_goal_survives_a_restart_and_resumes_where_it_stood() {
    let server = ScriptedServer::start([
        Response::text(["step one"]),
        verdict(false, "more to do"),
        Response::text(["step ", "two"]).with_delay_ms(100),
        // After the restart:
        Response::text(["step three"]),
        verdict(true, "all steps done"),
    ])
    .await;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("state.db");
    let store = Arc::new(hermes::store::SessionStore::open(&db).unwrap());
    let mut s = test_session()
        .in_dir(dir)
        .with_spec(|spec| {
            spec.session_id = "goal-session".into();
            spec.store = Some(Arc::clone(&store));
        })
        .build(&server);
    s.send(set("three steps"));
    s.send(Op::Goal(GoalCommand::AddSubgoal {
        text: "each step says its number".into(),
    }));
    s.until(|e| matches!(e, Event::GoalProgress(GoalProgress::Continuing { .. })))
        .await;
    s.until(|e| matches!(e, Event::MessageDelta { .. })).await;
    s.send(Op::Goal(GoalCommand::Pause));
    let (lines, before) = run_loop(&mut s).await;
    assert!(matches!(
        lines.last(),
        Some(GoalProgress::Paused {
            cause: PauseCause::User,
            ..
        })
    ));
    s.until(|e| matches!(e, Event::TurnComplete { .. })).await;
    s.send(Op::Shutdown);
    s.until(|e| matches!(e, Event::ShutdownComplete)).await;
    drop(s.handle);
    let before = before.unwrap();
    assert_eq!(before.turns_used, 1);

    // A new process: the stored session and its goal come back exactly.
    let store = Arc::new(hermes::store::SessionStore::open(&db).unwrap());
    let (row, resumed) = hermes::engine::spec_parts::load_resumed(
        Some(&store),
        &hermes::engine::spec_parts::ResumeTarget::Session("goal-session".into()),
    )
    .unwrap();
    let mut s = test_session()
        .in_dir(s.dir)
        .with_spec(|spec| {
            spec.session_id = row.id;
            spec.store = Some(store);
            spec.resumed = Some(resumed);
        })
        .build(&server);
    match s.until(|e| matches!(e, Event::GoalProgress(_))).await {
        Event::GoalProgress(restored) => assert_eq!(
            restored.line(),
            "⊙ Goal restored (paused, 1/20 turns used): three steps"
        ),
        _ => unreachable!(),
    }
    match s.until(|e| matches!(e, Event::GoalUpdate { .. })).await {
        Event::GoalUpdate(GoalUpdate { goal }) => assert_eq!(goal.unwrap(), before),
        _ => unreachable!(),
    }
    s.send(Op::Goal(GoalCommand::Resume));
    let (lines, state) = run_loop(&mut s).await;
    assert_eq!(
        text_lines(&lines),
        [
            "▶ Goal resumed — 0/20 turns used.",
            "↻ Continuing toward goal (1/20): resumed with /goal resume",
            "✓ Goal achieved: all steps done",
        ]
    );
    let state = state.unwrap();
    assert_eq!(state.subgoals, ["each step says its number"]);
    assert_eq!(
        state.verdicts.len(),
        2,
        "the verdict from before the restart is kept"
    );
    let requests = server.completion_requests();
    let resumed_turn = &requests[3].body;
    assert!(
        resumed_turn["messages"].as_array().unwrap().len() > 4,
        "the resumed turn carries the stored conversation"
    );
    assert!(last_user(resumed_turn).contains("1. each step says its number"));
}
