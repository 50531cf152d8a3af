use pretty_assertions::assert_eq;

use crate::model::Role;
use crate::store::EndReason;
use crate::store::NewSession;
use crate::store::Source;
use crate::store::test_support::append;
use crate::store::test_support::exec;
use crate::store::test_support::new_session;
use crate::store::test_support::seed;
use crate::store::test_support::temp_store;

#[test]
fn continue_picks_the_most_recently_used_cli_session() {
    let (_dir, store) = temp_store();
    assert_eq!(store.most_recent_session(&Source::Cli).unwrap(), None);
    // Started last but never used since; an older session had the latest message.
    seed(&store, "older_but_active", &[(Role::User, "hi")]);
    store.create_session(&new_session("newest_start")).unwrap();
    seed(&store, "other_dir", &[(Role::User, "elsewhere")]);
    store
        .create_session(&NewSession {
            source: Source::Subagent,
            ..new_session("sub")
        })
        .unwrap();
    append(&store, "sub", &[(Role::User, "task")]);
    store
        .create_session(&NewSession {
            source: Source::Other("telegram".into()),
            ..new_session("tg")
        })
        .unwrap();
    append(&store, "tg", &[(Role::User, "from the phone")]);
    exec(
        &store,
        "UPDATE sessions SET started_at = 10, cwd = '/elsewhere' WHERE id = 'other_dir';
         UPDATE messages SET timestamp = 11 WHERE session_id = 'other_dir';
         UPDATE sessions SET started_at = 1 WHERE id = 'older_but_active';
         UPDATE messages SET timestamp = 50 WHERE session_id = 'older_but_active';
         UPDATE sessions SET started_at = 40 WHERE id = 'newest_start';
         UPDATE sessions SET started_at = 60 WHERE id IN ('sub', 'tg');
         UPDATE messages SET timestamp = 70 WHERE session_id IN ('sub', 'tg');",
    );
    // Ended and archived sessions count too; the working directory does not matter.
    store
        .end_session("older_but_active", EndReason::CliClose)
        .unwrap();
    exec(
        &store,
        "UPDATE sessions SET archived = 1 WHERE id = 'older_but_active'",
    );
    assert_eq!(
        store.most_recent_session(&Source::Cli).unwrap().as_deref(),
        Some("older_but_active")
    );
    // A tie on last use goes to the later start.
    exec(
        &store,
        "UPDATE sessions SET started_at = 50 WHERE id = 'newest_start'",
    );
    assert_eq!(
        store.most_recent_session(&Source::Cli).unwrap().as_deref(),
        Some("newest_start")
    );
    assert_eq!(
        store
            .most_recent_session(&Source::Other("telegram".into()))
            .unwrap()
            .as_deref(),
        Some("tg")
    );
}

#[test]
fn resume_follows_compression_to_the_live_tip() {
    let (_dir, store) = temp_store();
    seed(&store, "root", &[(Role::User, "start")]);
    store.end_session("root", EndReason::Compression).unwrap();
    store
        .create_session(&NewSession {
            parent_session_id: Some("root".into()),
            ..new_session("mid")
        })
        .unwrap();
    append(
        &store,
        "mid",
        &[(Role::User, "summary"), (Role::User, "more")],
    );
    store.end_session("mid", EndReason::Compression).unwrap();
    store
        .create_session(&NewSession {
            parent_session_id: Some("mid".into()),
            ..new_session("tip")
        })
        .unwrap();
    append(&store, "tip", &[(Role::User, "latest")]);
    // A subagent and a branch of the tip are never resume targets.
    store
        .create_session(&NewSession {
            source: Source::Subagent,
            parent_session_id: Some("tip".into()),
            model_config: Some(serde_json::json!({"_delegate_from": "tip"})),
            ..new_session("delegate")
        })
        .unwrap();
    append(&store, "delegate", &[(Role::User, "task")]);
    store.branch_session("tip", "branch", None).unwrap();
    exec(
        &store,
        "UPDATE sessions SET parent_session_id = 'tip' WHERE id = 'branch'",
    );
    for from in ["root", "mid", "tip"] {
        assert_eq!(store.resume_target(from).unwrap(), "tip", "from {from}");
    }
    // A session that was not compressed resumes as itself.
    seed(&store, "plain", &[(Role::User, "x")]);
    assert_eq!(store.resume_target("plain").unwrap(), "plain");
    assert_eq!(store.resume_target("missing").unwrap(), "missing");
}

#[test]
fn an_empty_compression_head_resumes_its_descendant_with_messages() {
    let (_dir, store) = temp_store();
    store.create_session(&new_session("head")).unwrap();
    store
        .create_session(&NewSession {
            parent_session_id: Some("head".into()),
            ..new_session("child")
        })
        .unwrap();
    append(&store, "child", &[(Role::User, "the transcript")]);
    assert_eq!(store.resume_target("head").unwrap(), "child");
}
