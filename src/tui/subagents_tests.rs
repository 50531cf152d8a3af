use std::time::Duration;

use pretty_assertions::assert_eq;

use super::*;
use crate::protocol::Event;
use crate::protocol::McpStatus;
use crate::protocol::SubagentUsage;
use crate::protocol::ToolStart;
use crate::tui::test_support::sample_tree;
use crate::tui::test_support::spawned;
use crate::tui::test_support::subagent;
use crate::tui::transcript::Cell;

fn ids(tree: &SubagentTree, sort: SortMode, filter: FilterMode, now: Instant) -> Vec<String> {
    tree.rows(sort, filter, now)
        .into_iter()
        .map(|(n, level)| format!("{}@{level}", n.id))
        .collect()
}

#[test]
fn builds_the_tree_grouped_by_parent_in_spawn_order() {
    let (tree, now) = sample_tree();
    assert_eq!(
        ids(&tree, SortMode::Spawn, FilterMode::All, now),
        ["a1@0", "a1.1@1", "a2@0", "a3@0"]
    );
    let a1 = tree.get("a1").unwrap();
    assert_eq!(a1.status(), NodeStatus::Running);
    assert_eq!(a1.activity, "running terminal cargo test --lib");
    assert_eq!(a1.tool_calls(), 4);
    assert_eq!(a1.tokens(), 12_800);
    assert_eq!(a1.elapsed(now), Duration::from_secs(90));
    assert_eq!(tree.get("a1.1").unwrap().activity, "writing…");
    let a2 = tree.get("a2").unwrap();
    assert_eq!(a2.status(), NodeStatus::Ended(SubagentStatus::Completed));
    assert_eq!(a2.elapsed(now), Duration::from_millis(12_400));
    assert_eq!(
        tree.get("a3").unwrap().status(),
        NodeStatus::Ended(SubagentStatus::Failed)
    );
}

#[test]
fn totals_and_caps() {
    let (tree, _) = sample_tree();
    let t = tree.totals();
    assert_eq!((t.running, t.done, t.failed), (2, 1, 1));
    assert_eq!(t.tool_calls, 5);
    assert_eq!(t.tokens, 15_100);
    assert!((t.cost_usd - 0.0143).abs() < 1e-9);
    assert_eq!(t.max_depth, 2);
}

#[test]
fn activity_feeds_the_childs_log() {
    let (tree, _) = sample_tree();
    let a2 = tree.get("a2").unwrap();
    let cells: Vec<&Cell> = a2
        .log
        .entries()
        .iter()
        .map(super::super::transcript::Entry::cell)
        .collect();
    assert!(matches!(cells.first(), Some(Cell::Assistant(_))));
    assert!(matches!(cells.last(), Some(Cell::Info { .. })));
    let a1 = tree.get("a1").unwrap();
    assert!(matches!(
        a1.log
            .entries()
            .first()
            .map(super::super::transcript::Entry::cell),
        Some(Cell::Tool(_))
    ));
}

#[test]
fn tool_starts_count_until_usage_catches_up() {
    let now = Instant::now();
    let mut tree = SubagentTree::default();
    tree.apply(&spawned("a", None, 1, "a"), now);
    for n in 0..3 {
        let start = Event::ToolStart(ToolStart {
            call_id: format!("c{n}"),
            name: "read_file".into(),
            preview: "src/lib.rs\nmore".into(),
            arguments: serde_json::Value::Null,
            parent_call_id: None,
        });
        let kind = SubagentEventKind::Activity {
            event: Box::new(start),
        };
        tree.apply(&subagent("a", kind), now);
    }
    let node = tree.get("a").unwrap();
    assert_eq!(node.tool_calls(), 3);
    assert_eq!(node.activity, "running read_file src/lib.rs");
    let usage = SubagentEventKind::Usage(SubagentUsage {
        tool_calls: 5,
        ..SubagentUsage::default()
    });
    tree.apply(&subagent("a", usage), now);
    assert_eq!(tree.get("a").unwrap().tool_calls(), 5);
}

#[test]
fn steer_is_queued_until_delivered() {
    let now = Instant::now();
    let mut tree = SubagentTree::default();
    tree.apply(&spawned("a", None, 1, "a"), now);
    let node = tree.get_mut("a").unwrap();
    node.steer_sent("first");
    node.steer_sent("second");
    let states = |tree: &SubagentTree| -> Vec<(String, SteerState)> {
        let node = tree.get("a").unwrap();
        node.steers
            .iter()
            .map(|s| (s.text.clone(), s.state))
            .collect()
    };
    assert_eq!(
        states(&tree),
        [
            ("first".to_string(), SteerState::Queued),
            ("second".to_string(), SteerState::Queued)
        ]
    );
    let delivered = SubagentEventKind::SteerDelivered {
        text: "second".into(),
    };
    tree.apply(&subagent("a", delivered), now);
    assert_eq!(
        states(&tree),
        [
            ("first".to_string(), SteerState::Queued),
            ("second".to_string(), SteerState::Delivered)
        ]
    );
    // A delivery whose text does not match marks the oldest queued one.
    let other = SubagentEventKind::SteerDelivered {
        text: "edited".into(),
    };
    tree.apply(&subagent("a", other), now);
    assert_eq!(states(&tree)[0].1, SteerState::Delivered);
}

#[test]
fn sort_cycle_keeps_the_tree_shape() {
    let (tree, now) = sample_tree();
    let mut sort = SortMode::default();
    let mut seen = Vec::new();
    for _ in 0..4 {
        seen.push((sort.label(), ids(&tree, sort, FilterMode::All, now)));
        sort = sort.next();
    }
    assert_eq!(sort, SortMode::Spawn);
    let v = |a: &[&str]| a.iter().map(ToString::to_string).collect::<Vec<_>>();
    assert_eq!(
        seen,
        [
            ("spawn order", v(&["a1@0", "a1.1@1", "a2@0", "a3@0"])),
            ("busiest", v(&["a1@0", "a1.1@1", "a2@0", "a3@0"])),
            ("slowest", v(&["a1@0", "a1.1@1", "a2@0", "a3@0"])),
            ("status", v(&["a1@0", "a1.1@1", "a3@0", "a2@0"])),
        ]
    );
}

#[test]
fn filter_cycle() {
    let (tree, now) = sample_tree();
    let mut filter = FilterMode::default();
    let mut seen = Vec::new();
    for _ in 0..4 {
        seen.push((filter.label(), ids(&tree, SortMode::Spawn, filter, now)));
        filter = filter.next();
    }
    assert_eq!(filter, FilterMode::All);
    let v = |a: &[&str]| a.iter().map(ToString::to_string).collect::<Vec<_>>();
    assert_eq!(
        seen,
        [
            ("all", v(&["a1@0", "a1.1@1", "a2@0", "a3@0"])),
            ("running", v(&["a1@0", "a1.1@1"])),
            ("failed", v(&["a3@0"])),
            ("leaves", v(&["a1.1@1", "a2@0", "a3@0"])),
        ]
    );
}

#[test]
fn the_next_user_message_drops_finished_children() {
    let (mut tree, now) = sample_tree();
    // A turn alone (the results' turn) keeps them: turn events never reach the tree.
    assert_eq!(tree.len(), 4);
    tree.drop_finished();
    assert_eq!(
        ids(&tree, SortMode::Spawn, FilterMode::All, now),
        ["a1@0", "a1.1@1"]
    );
    // A finished parent stays while a child of it still runs.
    let finish = |status| SubagentEventKind::Finished {
        status,
        summary: String::new(),
        duration_ms: 1,
    };
    tree.apply(&subagent("a1", finish(SubagentStatus::Interrupted)), now);
    tree.drop_finished();
    assert_eq!(tree.len(), 2);
    tree.apply(&subagent("a1.1", finish(SubagentStatus::Interrupted)), now);
    tree.drop_finished();
    assert!(tree.is_empty());
    assert!(tree.get("a1").is_none());
}

#[test]
fn unknown_ids_get_a_row_and_repeated_spawns_are_ignored() {
    let now = Instant::now();
    let mut tree = SubagentTree::default();
    tree.apply(&spawned("a", None, 1, "first"), now);
    tree.apply(&spawned("a", None, 1, "again"), now);
    assert_eq!(tree.len(), 1);
    assert_eq!(tree.get("a").unwrap().label, "first");
    let usage = SubagentEventKind::Usage(SubagentUsage::default());
    tree.apply(&subagent("ghost", usage), now);
    assert_eq!(tree.get("ghost").unwrap().label, "ghost");
    // An orphan (unknown parent) is listed as a root.
    tree.apply(&spawned("o", Some("missing"), 2, "orphan"), now);
    assert_eq!(
        ids(&tree, SortMode::Spawn, FilterMode::All, now),
        ["a@0", "ghost@0", "o@0"]
    );
}

#[test]
fn mcp_tools_of_children_name_their_server_in_the_activity_and_the_log() {
    let now = Instant::now();
    let mut tree = SubagentTree::default();
    // One child spawned before the status arrives, one after: both learn the servers.
    tree.apply(&spawned("a", None, 1, "a"), now);
    tree.set_mcp_status(&McpStatus {
        servers: vec![crate::protocol::McpServerStatus {
            name: "github".into(),
            transport: crate::protocol::McpTransport::Http,
            state: crate::protocol::McpServerState::Connected,
            tools: vec!["mcp_github_list_issues".into()],
        }],
    });
    tree.apply(&spawned("b", None, 1, "b"), now);
    for id in ["a", "b"] {
        let start = Event::ToolStart(ToolStart {
            call_id: "c1".into(),
            name: "mcp_github_list_issues".into(),
            preview: "repo=hermes".into(),
            arguments: serde_json::Value::Null,
            parent_call_id: None,
        });
        let kind = SubagentEventKind::Activity {
            event: Box::new(start),
        };
        tree.apply(&subagent(id, kind), now);
        let node = tree.get(id).unwrap();
        assert_eq!(node.activity, "running list_issues (github) repo=hermes");
        let Some(Cell::Tool(tool)) = node
            .log
            .entries()
            .first()
            .map(super::super::transcript::Entry::cell)
        else {
            panic!("no tool cell in {id}'s log");
        };
        assert_eq!(tool.mcp.as_ref().map(|l| l.server.as_str()), Some("github"));
    }
}
