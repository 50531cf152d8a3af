use pretty_assertions::assert_eq;

use super::*;

/// One of every `Event` variant whose payload has fields of its own, with each optional field
/// both present and absent where serde skips it.
fn samples() -> Vec<Event> {
    let snapshot = GoalSnapshot {
        goal: "ship it".into(),
        status: GoalStatus::Active,
        subgoals: vec!["tests pass".into()],
        turns_used: 2,
        max_turns: 20,
        judging: false,
        verdicts: Vec::new(),
    };
    vec![
        Event::TurnStarted(TurnStarted { turn_id: 1 }),
        Event::MessageStart(MessageStart { turn_id: 1 }),
        Event::MessageDelta(MessageDelta {
            turn_id: 1,
            text: "Hel".into(),
        }),
        Event::ReasoningDelta(ReasoningDelta {
            turn_id: 1,
            text: "hmm".into(),
        }),
        Event::MessageComplete(MessageComplete {
            turn_id: 1,
            text: "Hello".into(),
            reasoning: None,
        }),
        Event::MessageComplete(MessageComplete {
            turn_id: 1,
            text: "Hello".into(),
            reasoning: Some("hmm".into()),
        }),
        Event::ToolStart(ToolStart {
            call_id: "c1".into(),
            name: "terminal".into(),
            preview: "ls".into(),
            arguments: serde_json::json!({"command": "ls"}),
            parent_call_id: None,
        }),
        Event::ToolProgress(ToolProgress {
            call_id: "c1".into(),
            text: "a.txt".into(),
        }),
        Event::ToolComplete(ToolComplete {
            call_id: "c1".into(),
            name: "terminal".into(),
            status: ToolStatus::Ok,
            output: "a.txt".into(),
            duration_ms: 12,
        }),
        Event::ApprovalResolved(ApprovalResolved {
            id: "a1".into(),
            decision: ApprovalDecision::Once,
            decided_by: DecidedBy::User,
        }),
        Event::CheckpointList(CheckpointList {
            checkpoints: vec![CheckpointInfo {
                id: "k1".into(),
                created: "2025-01-01 10:00".into(),
                label: "before turn 1".into(),
                changed_files: vec!["a.txt".into()],
            }],
        }),
        Event::CheckpointDiff(CheckpointDiff {
            id: "k1".into(),
            diff: "-a\n+b\n".into(),
        }),
        Event::Notice(Notice {
            level: NoticeLevel::Warning,
            text: "careful".into(),
        }),
        Event::Error(ErrorEvent {
            kind: ErrorKind::RateLimited,
            text: "slow down".into(),
        }),
        Event::TurnComplete(TurnComplete {
            turn_id: 1,
            outcome: TurnOutcome::Interrupted {
                done: "half".into(),
            },
        }),
        Event::SessionList(SessionList {
            query: "fix".into(),
            sessions: vec![SessionListItem {
                id: "s1".into(),
                title: None,
                started: "2025-01-01 10:00".into(),
                message_count: 3,
                first_message: Some("fix it".into()),
            }],
        }),
        Event::HistoryReplay(HistoryReplay {
            messages: vec![ReplayMessage::Assistant { text: "hi".into() }],
        }),
        Event::SpawnTrees(SpawnTrees {
            trees: vec![SpawnTreeInfo {
                id: "t1".into(),
                finished: "2025-01-01 10:00".into(),
                subagents: 2,
                goals: "a · b".into(),
            }],
        }),
        Event::SpawnTree(SpawnTree {
            id: "t1".into(),
            events: vec![SubagentEvent {
                id: "a1".into(),
                kind: SubagentEventKind::Activity {
                    event: Box::new(Event::MessageStart(MessageStart { turn_id: 1 })),
                },
            }],
        }),
        Event::GoalUpdate(GoalUpdate { goal: None }),
        Event::GoalUpdate(GoalUpdate {
            goal: Some(snapshot),
        }),
        Event::McpStatus(McpStatus {
            servers: vec![McpServerStatus {
                name: "fs".into(),
                transport: McpTransport::Stdio,
                state: McpServerState::Connected,
                tools: vec!["mcp_fs_read".into()],
            }],
        }),
        Event::ShutdownComplete,
    ]
}

/// The JSON each sample serialises to, one line each, as `--json` prints it. These pin the wire
/// shape: a payload type may change how it is written in Rust, never what it looks like here.
const WIRE: &[&str] = &[
    r#"{"type":"turn_started","turn_id":1}"#,
    r#"{"type":"message_start","turn_id":1}"#,
    r#"{"type":"message_delta","turn_id":1,"text":"Hel"}"#,
    r#"{"type":"reasoning_delta","turn_id":1,"text":"hmm"}"#,
    r#"{"type":"message_complete","turn_id":1,"text":"Hello"}"#,
    r#"{"type":"message_complete","turn_id":1,"text":"Hello","reasoning":"hmm"}"#,
    r#"{"type":"tool_start","call_id":"c1","name":"terminal","preview":"ls","arguments":{"command":"ls"}}"#,
    r#"{"type":"tool_progress","call_id":"c1","text":"a.txt"}"#,
    r#"{"type":"tool_complete","call_id":"c1","name":"terminal","status":"ok","output":"a.txt","duration_ms":12}"#,
    r#"{"type":"approval_resolved","id":"a1","decision":"once","decided_by":"user"}"#,
    r#"{"type":"checkpoint_list","checkpoints":[{"id":"k1","created":"2025-01-01 10:00","label":"before turn 1","changed_files":["a.txt"]}]}"#,
    r#"{"type":"checkpoint_diff","id":"k1","diff":"-a\n+b\n"}"#,
    r#"{"type":"notice","level":"warning","text":"careful"}"#,
    r#"{"type":"error","kind":"rate_limited","text":"slow down"}"#,
    r#"{"type":"turn_complete","turn_id":1,"outcome":{"outcome":"interrupted","done":"half"}}"#,
    r#"{"type":"session_list","query":"fix","sessions":[{"id":"s1","title":null,"started":"2025-01-01 10:00","message_count":3,"first_message":"fix it"}]}"#,
    r#"{"type":"history_replay","messages":[{"role":"assistant","text":"hi"}]}"#,
    r#"{"type":"spawn_trees","trees":[{"id":"t1","finished":"2025-01-01 10:00","subagents":2,"goals":"a · b"}]}"#,
    r#"{"type":"spawn_tree","id":"t1","events":[{"id":"a1","kind":"activity","event":{"type":"message_start","turn_id":1}}]}"#,
    r#"{"type":"goal_update","goal":null}"#,
    r#"{"type":"goal_update","goal":{"goal":"ship it","status":"active","subgoals":["tests pass"],"turns_used":2,"max_turns":20,"judging":false,"verdicts":[]}}"#,
    r#"{"type":"mcp_status","servers":[{"name":"fs","transport":"stdio","state":{"state":"connected"},"tools":["mcp_fs_read"]}]}"#,
    r#"{"type":"shutdown_complete"}"#,
];

#[test]
fn events_keep_their_wire_shape() {
    let samples = samples();
    assert_eq!(samples.len(), WIRE.len());
    for (event, wire) in samples.iter().zip(WIRE) {
        assert_eq!(&serde_json::to_string(event).unwrap(), wire);
        let back: Event = serde_json::from_str(wire).unwrap();
        assert_eq!(&back, event);
    }
}
