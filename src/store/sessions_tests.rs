use pretty_assertions::assert_eq;

use super::*;
use crate::model::Role;
use crate::store::SearchRequest;
use crate::store::test_support::exec;
use crate::store::test_support::new_session;
use crate::store::test_support::seed;
use crate::store::test_support::temp_store;

#[test]
fn create_and_read_back_every_field() {
    let (_dir, store) = temp_store();
    store
        .create_session(&NewSession {
            id: "20250101_aaaa".into(),
            source: Source::Cli,
            model: "claude-x".into(),
            provider: "anthropic".into(),
            base_url: "https://api.example".into(),
            system_prompt: "You are Hermes.".into(),
            cwd: "/home/u/proj".into(),
            parent_session_id: None,
            title: Some("  My session ".into()),
            model_config: Some(serde_json::json!({"reasoning_effort": "high"})),
        })
        .unwrap();
    let row = store.session("20250101_aaaa").unwrap().unwrap();
    assert_eq!(row.source, Source::Cli);
    assert_eq!(row.model.as_deref(), Some("claude-x"));
    assert_eq!(row.billing_provider.as_deref(), Some("anthropic"));
    assert_eq!(row.billing_base_url.as_deref(), Some("https://api.example"));
    assert_eq!(row.system_prompt.as_deref(), Some("You are Hermes."));
    assert_eq!(row.cwd.as_deref(), Some("/home/u/proj"));
    assert_eq!(row.title.as_deref(), Some("My session"));
    assert_eq!(
        row.model_config,
        Some(serde_json::json!({"reasoning_effort": "high"}))
    );
    assert!(row.started_at > 1_600_000_000.0);
    assert_eq!((row.message_count, row.tool_call_count), (0, 0));
    assert_eq!(row.ended_at, None);
    assert!(!row.archived);
}

#[test]
fn create_rejects_duplicates_and_unknown_parents() {
    let (_dir, store) = temp_store();
    store.create_session(&new_session("a")).unwrap();
    assert!(matches!(
        store.create_session(&new_session("a")),
        Err(StoreError::AlreadyExists(id)) if id == "a"
    ));
    let orphan = NewSession {
        parent_session_id: Some("nope".into()),
        ..new_session("b")
    };
    assert!(matches!(
        store.create_session(&orphan),
        Err(StoreError::NotFound(id)) if id == "nope"
    ));
    let child = NewSession {
        parent_session_id: Some("a".into()),
        ..new_session("c")
    };
    store.create_session(&child).unwrap();
    assert_eq!(
        store.session("c").unwrap().unwrap().parent_session_id,
        Some("a".into())
    );
}

#[test]
fn titles_are_unique_and_can_be_cleared() {
    let (_dir, store) = temp_store();
    store.create_session(&new_session("a")).unwrap();
    store.create_session(&new_session("b")).unwrap();
    store.set_title("a", "Refactor").unwrap();
    assert!(matches!(
        store.set_title("b", "Refactor"),
        Err(StoreError::TitleInUse(t)) if t == "Refactor"
    ));
    // Setting a session's own title again is fine.
    store.set_title("a", "Refactor").unwrap();
    store.set_title("a", "").unwrap();
    assert_eq!(store.session("a").unwrap().unwrap().title, None);
    store.set_title("b", "Refactor").unwrap();
    assert!(matches!(
        store.set_title("zzz", "x"),
        Err(StoreError::NotFound(_))
    ));
}

#[test]
fn resolve_by_id_title_and_unique_prefix() {
    let (_dir, store) = temp_store();
    store
        .create_session(&new_session("20250101_abc123"))
        .unwrap();
    store
        .create_session(&new_session("20250101_abd456"))
        .unwrap();
    store.create_session(&new_session("abcdef_other")).unwrap();
    store.set_title("20250101_abd456", "deploy fix").unwrap();
    let id = |key: &str| store.get_session(key).unwrap().map(|s| s.id);
    assert_eq!(id("20250101_abc123").as_deref(), Some("20250101_abc123"));
    assert_eq!(id("20250101_abc").as_deref(), Some("20250101_abc123"));
    assert_eq!(id("deploy fix").as_deref(), Some("20250101_abd456"));
    assert_eq!(id("missing"), None);
    assert_eq!(id("  "), None);
    // LIKE wildcards in the key are literal.
    assert_eq!(id("2025%"), None);
    match store.get_session("20250101_ab") {
        Err(StoreError::Ambiguous { matches, .. }) => {
            assert_eq!(matches.len(), 2, "{matches:?}")
        }
        other => panic!("expected Ambiguous, got {other:?}"),
    }
    // An exact title wins over an ambiguous prefix.
    store.set_title("abcdef_other", "20250101_ab").unwrap();
    assert_eq!(id("20250101_ab").as_deref(), Some("abcdef_other"));
}

fn ids(list: &[SessionSummary]) -> Vec<&str> {
    list.iter().map(|s| s.id.as_str()).collect()
}

#[test]
fn list_is_newest_first_hides_subagents_and_searches() {
    let (_dir, store) = temp_store();
    let long = format!("Please FIX the flaky login test\n{}", "x".repeat(300));
    seed(
        &store,
        "s1",
        &[(Role::User, &long), (Role::Assistant, "ok")],
    );
    seed(&store, "s2", &[(Role::User, "write a haiku about rust")]);
    store
        .create_session(&NewSession {
            source: Source::Subagent,
            ..new_session("sub")
        })
        .unwrap();
    store
        .create_session(&NewSession {
            cwd: "/elsewhere".into(),
            title: Some("Elsewhere work".into()),
            ..new_session("s3")
        })
        .unwrap();
    exec(
        &store,
        "UPDATE sessions SET started_at = 100 WHERE id = 's1';
         UPDATE sessions SET started_at = 200 WHERE id = 's2';
         UPDATE sessions SET started_at = 300 WHERE id = 'sub';
         UPDATE sessions SET started_at = 400 WHERE id = 's3';",
    );
    let all = store.list_sessions(&ListQuery::default()).unwrap();
    assert_eq!(ids(&all), ["s3", "s2", "s1"]);
    let s1 = &all[2];
    assert_eq!(
        s1.first_user_message.as_deref(),
        Some("Please FIX the flaky login test…")
    );
    assert_eq!(s1.message_count, 2);
    assert_eq!(s1.model.as_deref(), Some("test-model"));
    let with_hidden = store
        .list_sessions(&ListQuery {
            include_hidden: Hidden::Include,
            ..ListQuery::default()
        })
        .unwrap();
    assert_eq!(ids(&with_hidden), ["s3", "sub", "s2", "s1"]);
    let search = |q: &str| {
        let list = store
            .list_sessions(&ListQuery {
                search: Some(q.into()),
                ..ListQuery::default()
            })
            .unwrap();
        ids(&list)
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(search("flaky LOGIN"), ["s1"]);
    assert_eq!(search("HAIKU"), ["s2"]);
    assert_eq!(search("elsewhere"), ["s3"]);
    assert_eq!(search("s2"), ["s2"]);
    assert!(search("100%").is_empty());
    let here = store
        .list_sessions(&ListQuery {
            cwd: Some("/work/project".into()),
            limit: 1,
            ..ListQuery::default()
        })
        .unwrap();
    assert_eq!(ids(&here), ["s2"]);
}

#[test]
fn end_keeps_the_first_reason_until_reopened() {
    let (_dir, store) = temp_store();
    store.create_session(&new_session("a")).unwrap();
    assert!(store.end_session("a", EndReason::Compression).unwrap());
    let first = store.session("a").unwrap().unwrap();
    assert_eq!(first.end_reason.as_deref(), Some("compression"));
    assert!(first.ended_at.is_some());
    // A later end (a stale exit path) changes nothing, as in Hermes.
    assert!(!store.end_session("a", EndReason::CliClose).unwrap());
    let again = store.session("a").unwrap().unwrap();
    assert_eq!(
        (again.ended_at, again.end_reason.as_deref()),
        (first.ended_at, Some("compression"))
    );
    store.reopen_session("a").unwrap();
    let row = store.session("a").unwrap().unwrap();
    assert_eq!((row.ended_at, row.end_reason), (None, None));
    assert!(store.end_session("a", EndReason::CliClose).unwrap());
    assert_eq!(
        store.session("a").unwrap().unwrap().end_reason.as_deref(),
        Some("cli_close")
    );
    assert!(matches!(
        store.end_session("zz", EndReason::CliClose),
        Err(StoreError::NotFound(_))
    ));
    assert!(matches!(
        store.reopen_session("zz"),
        Err(StoreError::NotFound(_))
    ));
}

#[test]
fn end_reasons_are_hermes_values() {
    let values: Vec<&str> = [
        EndReason::CliClose,
        EndReason::AgentClose,
        EndReason::NewSession,
        EndReason::ResumedOther,
        EndReason::Branched,
        EndReason::Compression,
    ]
    .iter()
    .map(|r| r.as_str())
    .collect();
    assert_eq!(
        values,
        [
            "cli_close",
            "agent_close",
            "new_session",
            "resumed_other",
            "branched",
            "compression"
        ]
    );
}

#[test]
fn lineage_titles_number_after_the_highest() {
    let (_dir, store) = temp_store();
    assert_eq!(store.next_title_in_lineage("plan").unwrap(), "plan");
    store
        .create_session(&NewSession {
            title: Some("plan".into()),
            ..new_session("a")
        })
        .unwrap();
    assert_eq!(store.next_title_in_lineage("plan").unwrap(), "plan #2");
    store
        .create_session(&NewSession {
            title: Some("plan #4".into()),
            ..new_session("b")
        })
        .unwrap();
    assert_eq!(store.next_title_in_lineage("plan #2").unwrap(), "plan #5");
    // LIKE wildcards in the title are literal.
    assert_eq!(store.next_title_in_lineage("p_an").unwrap(), "p_an");
}

#[test]
fn delete_removes_messages_and_index_and_detaches_children() {
    let (_dir, store) = temp_store();
    seed(&store, "parent", &[(Role::User, "the quokka question")]);
    store
        .create_session(&NewSession {
            parent_session_id: Some("parent".into()),
            ..new_session("child")
        })
        .unwrap();
    assert!(store.delete_session("parent").unwrap());
    assert!(!store.delete_session("parent").unwrap());
    assert_eq!(store.session("parent").unwrap(), None);
    assert!(store.load_history("parent").unwrap().is_empty());
    let child = store.session("child").unwrap().unwrap();
    assert_eq!(child.parent_session_id, None);
    let hits = store
        .search(&SearchRequest {
            query: "quokka",
            limit: 5,
            exclude_session: None,
        })
        .unwrap();
    assert!(hits.hits.is_empty());
    let fts: i64 = store
        .conn()
        .query_row("SELECT COUNT(*) FROM messages_fts", [], |r| r.get(0))
        .unwrap();
    assert_eq!(fts, 0);
}

#[test]
fn prune_deletes_only_old_ended_sessions() {
    let (_dir, store) = temp_store();
    seed(&store, "old", &[(Role::User, "ancient")]);
    seed(&store, "old_but_live", &[(Role::User, "still open")]);
    seed(&store, "new", &[(Role::User, "fresh")]);
    store
        .create_session(&NewSession {
            parent_session_id: Some("old".into()),
            ..new_session("child")
        })
        .unwrap();
    for id in ["old", "new"] {
        store.end_session(id, EndReason::CliClose).unwrap();
    }
    let long_ago = crate::store::time::now() - 40.0 * 86_400.0;
    exec(
        &store,
        &format!(
            "UPDATE sessions SET started_at = {long_ago} WHERE id IN ('old', 'old_but_live');"
        ),
    );
    assert_eq!(store.prune_older_than(30).unwrap(), 1);
    assert_eq!(store.session("old").unwrap(), None);
    assert!(
        store.session("old_but_live").unwrap().is_some(),
        "never a live one"
    );
    assert!(store.session("new").unwrap().is_some());
    let child = store.session("child").unwrap().unwrap();
    assert_eq!(
        child.parent_session_id, None,
        "children are detached, not deleted"
    );
    assert_eq!(store.prune_older_than(30).unwrap(), 0);
}

#[test]
fn meta_round_trip() {
    let (_dir, store) = temp_store();
    assert_eq!(store.meta_get("goal:s1").unwrap(), None);
    store.meta_set("goal:s1", "ship it").unwrap();
    store.meta_set("goal:s1", "ship it twice").unwrap();
    assert_eq!(
        store.meta_get("goal:s1").unwrap().as_deref(),
        Some("ship it twice")
    );
}
