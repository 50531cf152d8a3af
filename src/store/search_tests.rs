use pretty_assertions::assert_eq;

use super::*;
use crate::model::Role;
use crate::store::NewSession;
use crate::store::Source;
use crate::store::test_support::append;
use crate::store::test_support::new_session;
use crate::store::test_support::seed;
use crate::store::test_support::temp_store;

fn q(s: &str) -> Option<String> {
    sanitize(s).map(|(fts, _)| fts)
}

#[test]
fn sanitize_quotes_terms_and_keeps_only_well_placed_operators() {
    assert_eq!(q("hello world").as_deref(), Some(r#""hello" "world""#));
    assert_eq!(q(r#""unbalanced"#).as_deref(), Some(r#""unbalanced""#));
    assert_eq!(q("AND OR"), None);
    assert_eq!(q("   "), None);
    assert_eq!(q("!!! ()"), None);
    assert_eq!(q("col:x").as_deref(), Some(r#""col:x""#));
    assert_eq!(q("foo OR bar").as_deref(), Some(r#""foo" OR "bar""#));
    assert_eq!(q("NOT foo OR").as_deref(), Some(r#""foo""#));
    assert_eq!(q("a AND OR b").as_deref(), Some(r#""a" OR "b""#));
    assert_eq!(
        q(r#""exact phrase" rest*"#).as_deref(),
        Some(r#""exact phrase" "rest"*"#)
    );
    assert_eq!(q(r#"a"b"#).as_deref(), Some(r#""a""b""#));
    assert_eq!(q("or and").as_deref(), Some(r#""or" "and""#));
    let (_, terms) = sanitize(r#"deploy "the thing" x*"#).unwrap();
    assert_eq!(terms, ["deploy", "the thing", "x"]);
}

fn search(store: &SessionStore, query: &str) -> SearchResults {
    store
        .search(&SearchRequest {
            query,
            limit: 5,
            exclude_session: None,
        })
        .unwrap()
}

fn sessions(r: &SearchResults) -> Vec<&str> {
    r.hits.iter().map(|h| h.session_id.as_str()).collect()
}

#[test]
fn finds_english_words_with_a_marked_snippet() {
    let (_dir, store) = temp_store();
    let ids = seed(
        &store,
        "s1",
        &[
            (Role::User, "How do I configure the nginx reverse proxy?"),
            (Role::Assistant, "Edit /etc/nginx/sites-enabled/default."),
        ],
    );
    seed(&store, "s2", &[(Role::User, "unrelated chatter")]);
    let r = search(&store, "reverse proxy");
    assert_eq!(r.mode, SearchMode::Words);
    assert_eq!(sessions(&r), ["s1"]);
    let hit = &r.hits[0];
    assert_eq!(hit.message_id, ids[0]);
    assert_eq!(hit.role, "user");
    assert!(
        hit.snippet.contains(">>>reverse<<<") && hit.snippet.contains(">>>proxy<<<"),
        "{}",
        hit.snippet
    );
    // Case-insensitive, and tool names are searchable.
    assert_eq!(sessions(&search(&store, "NGINX")), ["s1"]);
}

#[test]
fn falls_back_to_substrings_when_words_find_nothing() {
    let (_dir, store) = temp_store();
    seed(&store, "s1", &[(Role::User, "the reindexing job failed")]);
    let r = search(&store, "index");
    assert_eq!(r.mode, SearchMode::Substring);
    assert_eq!(sessions(&r), ["s1"]);
    // Too short for the trigram index: nothing, and no error.
    assert!(search(&store, "ix").hits.is_empty());
}

#[test]
fn finds_cjk_text_by_substring() {
    let (_dir, store) = temp_store();
    seed(&store, "ja", &[(Role::User, "これは日本語のテキストです")]);
    seed(&store, "zh", &[(Role::User, "我们讨论了数据库迁移的问题")]);
    seed(&store, "en", &[(Role::User, "plain english")]);
    let r = search(&store, "本語");
    assert_eq!(r.mode, SearchMode::Scan);
    assert_eq!(sessions(&r), ["ja"]);
    assert!(
        r.hits[0].snippet.contains(">>>本語<<<"),
        "{}",
        r.hits[0].snippet
    );
    let r = search(&store, "日本語のテ");
    assert_eq!(r.mode, SearchMode::Substring);
    assert_eq!(sessions(&r), ["ja"]);
    assert!(r.hits[0].snippet.contains(">>>"), "{}", r.hits[0].snippet);
    assert_eq!(sessions(&search(&store, "数据库迁移")), ["zh"]);
    assert!(search(&store, "中文").hits.is_empty());
}

#[test]
fn one_hit_per_lineage_and_hidden_sessions_left_out() {
    let (_dir, store) = temp_store();
    seed(&store, "root", &[(Role::User, "kubernetes ingress setup")]);
    store
        .create_session(&NewSession {
            parent_session_id: Some("root".into()),
            ..new_session("compressed")
        })
        .unwrap();
    append(
        &store,
        "compressed",
        &[(Role::User, "kubernetes ingress again")],
    );
    store.branch_session("compressed", "branch", None).unwrap();
    store
        .create_session(&NewSession {
            source: Source::Subagent,
            ..new_session("sub")
        })
        .unwrap();
    append(&store, "sub", &[(Role::User, "kubernetes from a subagent")]);
    store
        .create_session(&NewSession {
            source: Source::Tool,
            ..new_session("tool")
        })
        .unwrap();
    append(&store, "tool", &[(Role::User, "kubernetes from a tool")]);
    seed(&store, "other", &[(Role::User, "kubernetes elsewhere")]);
    let r = search(&store, "kubernetes");
    let mut roots: Vec<&str> = r.hits.iter().map(|h| h.lineage_root.as_str()).collect();
    roots.sort();
    assert_eq!(roots, ["other", "root"], "{:?}", r.hits);
    assert_eq!(store.lineage_root("branch").unwrap(), "root");
    assert_eq!(store.lineage_root("root").unwrap(), "root");
    // The caller's own session is excluded.
    let r = store
        .search(&SearchRequest {
            query: "elsewhere",
            limit: 5,
            exclude_session: Some("other"),
        })
        .unwrap();
    assert!(r.hits.is_empty());
}

#[test]
fn lineage_loops_and_missing_parents_terminate() {
    let (_dir, store) = temp_store();
    store
        .create_session(&NewSession {
            model_config: Some(serde_json::json!({"_branched_from": "b"})),
            ..new_session("a")
        })
        .unwrap();
    store
        .create_session(&NewSession {
            model_config: Some(serde_json::json!({"_branched_from": "a"})),
            ..new_session("b")
        })
        .unwrap();
    store
        .create_session(&NewSession {
            model_config: Some(serde_json::json!({"_branched_from": "deleted"})),
            ..new_session("c")
        })
        .unwrap();
    let root = store.lineage_root("a").unwrap();
    assert!(root == "a" || root == "b");
    assert_eq!(store.lineage_root("c").unwrap(), "c");
}

#[test]
fn hostile_queries_never_error() {
    let (_dir, store) = temp_store();
    seed(
        &store,
        "s",
        &[(Role::User, "some text with col:x and (parens)")],
    );
    for query in [
        r#""unbalanced"#,
        "AND OR",
        "col:x",
        "NEAR(a b)",
        "a + b - c",
        "*",
        "^start",
        "'; DROP TABLE messages; --",
        r#"""""#,
        "x*y",
        "{a b}",
        "😀 emoji",
    ] {
        let r = store.search(&SearchRequest {
            query,
            limit: 5,
            exclude_session: None,
        });
        assert!(r.is_ok(), "{query}: {r:?}");
    }
    assert_eq!(sessions(&search(&store, "col:x")), ["s"]);
    assert_eq!(store.load_history("s").unwrap().len(), 1);
}

#[test]
fn a_raw_fts_syntax_error_is_typed() {
    let (_dir, store) = temp_store();
    seed(&store, "s", &[(Role::User, "anything at all")]);
    for raw in ["AND OR", "col:x", "a NEAR("] {
        let err = fts_hits(&store.conn(), "messages_fts", raw, None, 5)
            .err()
            .unwrap_or_else(|| panic!("{raw} was accepted"));
        assert!(matches!(err, StoreError::SearchSyntax(_)), "{raw}: {err:?}");
        assert!(err.to_string().contains("try plain words"), "{err}");
    }
}

#[test]
fn text_snippet_marks_and_trims() {
    let s = text_snippet("aaaaaaaaaa本語bbbbbbbbbb", "本語", 3);
    assert_eq!(s, "…aaa>>>本語<<<bbb…");
    assert_eq!(text_snippet("short", "zz", 10), "short");
}

#[test]
fn a_session_with_many_matches_does_not_crowd_out_others() {
    let (_dir, store) = temp_store();
    seed(
        &store,
        "quiet",
        &[
            (Role::User, "one mention of gazebo"),
            (Role::User, "東京の天気"),
        ],
    );
    let noisy: Vec<String> = (0..300)
        .map(|i| format!("gazebo gazebo gazebo {i} 東京の天気"))
        .collect();
    let noisy: Vec<(Role, &str)> = noisy.iter().map(|t| (Role::User, t.as_str())).collect();
    seed(&store, "noisy", &noisy);
    for query in ["gazebo", "東京", "東京の天"] {
        let r = store
            .search(&SearchRequest {
                query,
                limit: 5,
                exclude_session: None,
            })
            .unwrap();
        let mut got = sessions(&r);
        got.sort();
        assert_eq!(got, ["noisy", "quiet"], "{query}: {:?}", r.mode);
        assert!(
            r.hits.iter().all(|h| h.snippet.contains(MARK_START)),
            "{r:?}"
        );
    }
}
