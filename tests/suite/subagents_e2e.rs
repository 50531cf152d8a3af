//! Subagents end to end through the engine and the scripted provider in echo mode (each
//! request is answered from its own messages, so parallel children get deterministic replies):
//! a background batch whose results come back as one message in input order, a child's
//! dangerous command approved from the parent's queue, a child stopped by the user, and a
//! batch over the concurrency cap refused.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use std::sync::Arc;
use std::time::Duration;

use hermes::protocol::ApprovalDecision;
use hermes::protocol::Event;
use hermes::protocol::Op;
use hermes::protocol::SpawnTree;
use hermes::protocol::SpawnTrees;
use hermes::protocol::SubagentControl;
use hermes::protocol::SubagentEvent;
use hermes::protocol::SubagentEventKind;
use hermes::protocol::SubagentStatus;
use hermes::protocol::ToolComplete;
use hermes::protocol::ToolStart;
use hermes::protocol::TurnOutcome;
use hermes::protocol::Yolo;
use hermes::tools::delegate::DelegateTaskTool;
use hermes::tools::registry::ToolRegistry;
use support::ScriptedServer;
use support::engine::Session;
use support::engine::start;

fn with_delegation(server: &ScriptedServer, yolo: Yolo) -> Session {
    start(server, |spec| {
        let mut tools = ToolRegistry::core();
        tools.register(Arc::new(DelegateTaskTool)).unwrap();
        spec.tools = Arc::new(tools);
        spec.yolo = yolo;
    })
}

/// Events (after `seen`) until the second turn — the one the subagents' results started —
/// has completed; returns them all.
async fn until_results_answered(s: &mut Session, mut seen: Vec<Event>) -> Vec<Event> {
    let completed = |events: &[Event]| {
        events
            .iter()
            .filter(|e| matches!(e, Event::TurnComplete { .. }))
            .count()
    };
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    while completed(&seen) < 2 {
        let event = tokio::time::timeout_at(deadline, s.handle.events.recv())
            .await
            .expect("timed out")
            .expect("stream ended");
        seen.push(event);
    }
    seen
}

async fn collect_until_results_answered(s: &mut Session) -> Vec<Event> {
    until_results_answered(s, Vec::new()).await
}

fn subagent_events(events: &[Event]) -> Vec<&SubagentEvent> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Subagent(s) => Some(s),
            _ => None,
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_background_batch_reports_back_in_input_order() {
    let server = ScriptedServer::start_echo().await;
    let mut s = with_delegation(&server, Yolo::Off);
    s.send(Op::user("delegate: alpha ;; bravo ;; charlie"));
    let events = collect_until_results_answered(&mut s).await;
    let sub = subagent_events(&events);
    let spawned: Vec<(String, u32)> = sub
        .iter()
        .filter_map(|e| match &e.kind {
            SubagentEventKind::Spawned {
                goal, index, depth, ..
            } => {
                assert_eq!(*depth, 1);
                Some((goal.clone(), *index))
            }
            _ => None,
        })
        .collect();
    assert_eq!(
        spawned,
        vec![
            ("alpha".to_string(), 0),
            ("bravo".to_string(), 1),
            ("charlie".to_string(), 2)
        ]
    );
    let finished: Vec<SubagentStatus> = sub
        .iter()
        .filter_map(|e| match &e.kind {
            SubagentEventKind::Finished { status, .. } => Some(*status),
            _ => None,
        })
        .collect();
    assert_eq!(finished, vec![SubagentStatus::Completed; 3]);
    assert!(
        sub.iter()
            .any(|e| matches!(&e.kind, SubagentEventKind::Activity { .. })),
        "children's own events are forwarded"
    );
    // The tool returned at once; the results came back as the next user message, in order.
    let requests = server.completion_requests();
    let results_message = requests
        .iter()
        .filter_map(|r| {
            r.body["messages"]
                .as_array()
                .and_then(|m| m.last())
                .and_then(|m| m["content"].as_str())
                .map(str::to_string)
        })
        .find(|text| text.starts_with("Results from 3 subagent(s)"))
        .expect("the results message");
    let a = results_message.find("You said: Goal: alpha").unwrap();
    let b = results_message.find("You said: Goal: bravo").unwrap();
    let c = results_message.find("You said: Goal: charlie").unwrap();
    assert!(a < b && b < c, "{results_message}");
    // Children never saw the parent's conversation or its system prompt.
    let child = requests
        .iter()
        .find(|r| r.body.to_string().contains("Goal: alpha"))
        .unwrap();
    assert!(!child.body.to_string().contains("delegate: alpha"));
    let child_tools = child.body["tools"].to_string();
    assert!(
        !child_tools.contains("delegate_task"),
        "leaves cannot delegate"
    );
    assert!(
        !child_tools.contains("clarify"),
        "leaves cannot ask the user"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_childs_dangerous_command_is_approved_from_the_parents_queue() {
    let server = ScriptedServer::start_echo().await;
    let mut s = with_delegation(&server, Yolo::Off);
    std::fs::create_dir_all(s.dir.path().join("build/x")).unwrap();
    s.send(Op::user("delegate: run: rm -rf build"));
    // Keep what arrives before the request: the main turn may complete meanwhile.
    let mut seen = Vec::new();
    let request = loop {
        let event = s.until(|_| true).await;
        if let Event::ApprovalRequest(request) = &event {
            break request.clone();
        }
        seen.push(event);
    };
    assert_eq!(request.subject, "rm -rf build");
    assert!(
        request.agent.contains("run: rm -rf build"),
        "{}",
        request.agent
    );
    s.send(Op::ApprovalReply {
        id: request.id,
        decision: ApprovalDecision::Once,
    });
    let events = until_results_answered(&mut s, seen).await;
    assert!(
        !s.dir.path().join("build").exists(),
        "the child's command ran"
    );
    assert!(subagent_events(&events).iter().any(|e| matches!(
        e.kind,
        SubagentEventKind::Finished {
            status: SubagentStatus::Completed,
            ..
        }
    )));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopped_child_reports_interrupted_and_the_others_finish() {
    let server = ScriptedServer::start_echo().await;
    let mut s = with_delegation(&server, Yolo::Off);
    s.send(Op::user("delegate: run: sleep 30 ;; quick one"));
    let mut seen = Vec::new();
    let id = loop {
        let event = s.until(|_| true).await;
        let started = match &event {
            Event::Subagent(SubagentEvent {
                id,
                kind: SubagentEventKind::Activity { event },
            }) if matches!(**event, Event::ToolStart { .. }) => Some(id.clone()),
            _ => None,
        };
        seen.push(event);
        if let Some(id) = started {
            break id;
        }
    };
    s.send(Op::Subagent {
        id: id.clone(),
        control: SubagentControl::Stop,
    });
    let events = until_results_answered(&mut s, seen).await;
    let statuses: Vec<(String, SubagentStatus)> = subagent_events(&events)
        .iter()
        .filter_map(|e| match &e.kind {
            SubagentEventKind::Finished { status, .. } => Some((e.id.clone(), *status)),
            _ => None,
        })
        .collect();
    assert!(
        statuses.contains(&(id, SubagentStatus::Interrupted)),
        "{statuses:?}"
    );
    assert!(
        statuses
            .iter()
            .any(|(_, s)| *s == SubagentStatus::Completed),
        "{statuses:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_over_the_cap_is_an_error_not_cut() {
    let server = ScriptedServer::start_echo().await;
    let mut s = with_delegation(&server, Yolo::Off);
    s.send(Op::user("delegate: a ;; b ;; c ;; d"));
    let done = s.until(|e| matches!(e, Event::ToolComplete { .. })).await;
    let Event::ToolComplete(ToolComplete { output, .. }) = done else {
        unreachable!()
    };
    assert!(output.contains("max_concurrent_children (3)"), "{output}");
    assert_eq!(s.turn_outcome().await, TurnOutcome::Completed);
    let requests = server.completion_requests();
    assert_eq!(requests.len(), 2, "no child ever called the model");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn children_are_stored_as_hidden_subagent_sessions_linked_to_the_parent() {
    use hermes::store::ListQuery;
    use hermes::store::SessionStore;
    use hermes::store::Source;
    let server = ScriptedServer::start_echo().await;
    let db_dir = tempfile::tempdir().unwrap();
    let store = Arc::new(SessionStore::open(&db_dir.path().join("state.db")).unwrap());
    let mut s = start(&server, {
        let store = Arc::clone(&store);
        move |spec| {
            let mut tools = ToolRegistry::core();
            tools.register(Arc::new(DelegateTaskTool)).unwrap();
            spec.tools = Arc::new(tools);
            spec.store = Some(store);
        }
    });
    s.send(Op::user("delegate: stored child"));
    collect_until_results_answered(&mut s).await;
    let visible = store.list_sessions(&ListQuery::default()).unwrap();
    assert_eq!(visible.len(), 1, "children are hidden from listings");
    let all = store
        .list_sessions(&ListQuery {
            include_hidden: hermes::store::Hidden::Include,
            ..ListQuery::default()
        })
        .unwrap();
    assert_eq!(all.len(), 2);
    let child = all.iter().find(|row| row.id != visible[0].id).unwrap();
    let row = store.session(&child.id).unwrap().unwrap();
    assert_eq!(row.source, Source::Subagent);
    assert_eq!(
        row.parent_session_id.as_deref(),
        Some(visible[0].id.as_str())
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_orchestrator_waits_for_its_own_workers_at_depth_two() {
    let server = ScriptedServer::start_echo().await;
    let mut s = start(&server, |spec| {
        let mut tools = ToolRegistry::core();
        tools.register(Arc::new(DelegateTaskTool)).unwrap();
        spec.tools = Arc::new(tools);
        spec.delegation.settings.max_depth = 2;
    });
    s.send(Op::user("orchestrate: leaf one ;; leaf two"));
    let events = collect_until_results_answered(&mut s).await;
    let spawned: Vec<(String, u32, Option<String>)> = subagent_events(&events)
        .iter()
        .filter_map(|e| match &e.kind {
            SubagentEventKind::Spawned { depth, parent, .. } => {
                Some((e.id.clone(), *depth, parent.clone()))
            }
            _ => None,
        })
        .collect();
    assert_eq!(
        spawned,
        vec![
            ("sa1".to_string(), 1, None),
            ("sa1.1".to_string(), 2, Some("sa1".to_string())),
            ("sa1.2".to_string(), 2, Some("sa1".to_string())),
        ]
    );
    // The orchestrator's summary carries its workers' results; the main agent gets it.
    let requests = server.completion_requests();
    let last_user = requests
        .iter()
        .filter_map(|r| {
            r.body["messages"].as_array()?.last()?["content"]
                .as_str()
                .map(str::to_string)
        })
        .find(|t| t.starts_with("Results from 1 subagent(s)"))
        .unwrap();
    assert!(
        last_user.contains("Results from 2 subagent(s)"),
        "{last_user}"
    );
    assert!(last_user.contains("Goal: leaf two"), "{last_user}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_silent_child_times_out_and_a_steer_is_delivered_at_the_next_call() {
    let server = ScriptedServer::start_echo().await;
    let mut s = start(&server, |spec| {
        let mut tools = ToolRegistry::core();
        tools.register(Arc::new(DelegateTaskTool)).unwrap();
        spec.tools = Arc::new(tools);
        spec.delegation.settings.child_timeout = Some(Duration::from_secs(2));
    });
    s.send(Op::user("delegate: run: sleep 30 ;; run: sleep 1"));
    let mut seen = Vec::new();
    // Steer the short sleeper while its command runs.
    let short = loop {
        let event = s.until(|_| true).await;
        let started = match &event {
            Event::Subagent(SubagentEvent {
                id,
                kind: SubagentEventKind::Activity { event },
            }) if matches!(&**event, Event::ToolStart(ToolStart { preview, .. }) if preview == "sleep 1") => {
                Some(id.clone())
            }
            _ => None,
        };
        seen.push(event);
        if let Some(id) = started {
            break id;
        }
    };
    s.send(Op::Subagent {
        id: short.clone(),
        control: SubagentControl::Steer {
            text: "mention the weather".into(),
        },
    });
    let events = until_results_answered(&mut s, seen).await;
    let sub = subagent_events(&events);
    assert!(sub.iter().any(|e| e.id == short
        && matches!(&e.kind, SubagentEventKind::SteerDelivered { text } if text == "mention the weather")));
    let timed_out = sub
        .iter()
        .find_map(|e| match &e.kind {
            SubagentEventKind::Finished {
                status: SubagentStatus::TimedOut,
                summary,
                ..
            } => Some(summary.clone()),
            _ => None,
        })
        .expect("the silent child timed out");
    assert!(timed_out.contains("child_timeout_seconds"), "{timed_out}");
    let requests = server.completion_requests();
    assert!(
        requests
            .iter()
            .any(|r| r.body.to_string().contains("mention the weather")),
        "the steer reached the child's model"
    );
}

fn processes_running(pattern: &str) -> bool {
    std::process::Command::new("pgrep")
        .args(["-f", pattern])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_child_or_its_process_outlives_the_session() {
    let server = ScriptedServer::start_echo().await;
    let mut s = with_delegation(&server, Yolo::Off);
    s.send(Op::user("delegate: run: sleep 31.5"));
    s.until(|e| {
        matches!(e, Event::Subagent(SubagentEvent { kind: SubagentEventKind::Activity { event }, .. })
            if matches!(**event, Event::ToolStart { .. }))
    })
    .await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(processes_running("sleep 31.5"), "the child's command runs");
    s.send(Op::Shutdown);
    let finished = s
        .until(|e| {
            matches!(
                e,
                Event::Subagent(SubagentEvent {
                    kind: SubagentEventKind::Finished { .. },
                    ..
                })
            )
        })
        .await;
    assert!(matches!(
        finished,
        Event::Subagent(SubagentEvent {
            kind: SubagentEventKind::Finished {
                status: SubagentStatus::Interrupted,
                ..
            },
            ..
        })
    ));
    s.until(|e| matches!(e, Event::ShutdownComplete)).await;
    assert!(
        !processes_running("sleep 31.5"),
        "the child's command died with the session"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_child_that_runs_out_of_calls_fails_and_says_why_while_its_sibling_succeeds() {
    let server = ScriptedServer::start_echo().await;
    let mut s = start(&server, |spec| {
        let mut tools = ToolRegistry::core();
        tools.register(Arc::new(DelegateTaskTool)).unwrap();
        spec.tools = Arc::new(tools);
        // One API call each: a child that needs a tool round-trip cannot finish.
        spec.delegation.settings.max_iterations = 1;
    });
    s.send(Op::user("delegate: run: echo hi ;; just answer"));
    let events = collect_until_results_answered(&mut s).await;
    let finished: Vec<(SubagentStatus, String)> = subagent_events(&events)
        .iter()
        .filter_map(|e| match &e.kind {
            SubagentEventKind::Finished {
                status, summary, ..
            } => Some((*status, summary.clone())),
            _ => None,
        })
        .collect();
    assert!(
        finished
            .iter()
            .any(|(s, summary)| *s == SubagentStatus::Failed && summary.contains("1 API calls")),
        "{finished:?}"
    );
    assert!(
        finished
            .iter()
            .any(|(s, _)| *s == SubagentStatus::Completed),
        "{finished:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn subagent_approvals_deny_or_once_answer_without_asking() {
    for (mode, ran) in [
        (hermes::engine::delegation::SubagentApprovals::Deny, false),
        (hermes::engine::delegation::SubagentApprovals::Once, true),
    ] {
        let server = ScriptedServer::start_echo().await;
        let mut s = start(&server, |spec| {
            let mut tools = ToolRegistry::core();
            tools.register(Arc::new(DelegateTaskTool)).unwrap();
            spec.tools = Arc::new(tools);
            spec.yolo = Yolo::Off;
            spec.delegation.settings.approvals = mode;
        });
        std::fs::create_dir_all(s.dir.path().join("build/x")).unwrap();
        s.send(Op::user("delegate: run: rm -rf build"));
        let events = collect_until_results_answered(&mut s).await;
        assert!(
            !events
                .iter()
                .any(|e| matches!(e, Event::ApprovalRequest(_))),
            "{mode:?} never asks"
        );
        assert_eq!(!s.dir.path().join("build").exists(), ran, "{mode:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_batch_is_saved_as_a_spawn_tree_and_loads_back() {
    let server = ScriptedServer::start_echo().await;
    let home_dir = tempfile::tempdir().unwrap();
    let home = hermes::config::HermesHome::from_base(home_dir.path(), None).unwrap();
    let mut s = start(&server, |spec| {
        let mut tools = ToolRegistry::core();
        tools.register(Arc::new(DelegateTaskTool)).unwrap();
        spec.tools = Arc::new(tools);
        spec.safety.home = Some(home.clone());
    });
    s.send(Op::user("delegate: first ;; second"));
    collect_until_results_answered(&mut s).await;
    s.send(Op::ListSpawnTrees);
    let Event::SpawnTrees(SpawnTrees { trees }) =
        s.until(|e| matches!(e, Event::SpawnTrees { .. })).await
    else {
        unreachable!()
    };
    assert_eq!(trees.len(), 1, "{trees:?}");
    assert_eq!(trees[0].subagents, 2);
    assert_eq!(trees[0].goals, "first · second");
    s.send(Op::LoadSpawnTree {
        id: trees[0].id.clone(),
    });
    let Event::SpawnTree(SpawnTree { events, .. }) =
        s.until(|e| matches!(e, Event::SpawnTree { .. })).await
    else {
        unreachable!()
    };
    let finished = events
        .iter()
        .filter(|e| matches!(e.kind, SubagentEventKind::Finished { .. }))
        .count();
    assert_eq!(finished, 2);
    assert!(home.root().join("spawn-trees").is_dir());
}
