//! Every way a stored session ends, in process against the scripted server: `/new`,
//! `/resume` to another session, `/branch`, a compression split and the session stopping each
//! set `sessions.ended_at` / `end_reason` once, with Hermes's values; a resumed session is
//! re-opened; each API call lands in `session_model_usage` (compression summaries under
//! Hermes's `compression` task) and the session's totals.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use std::sync::Arc;
use std::time::Duration;

use hermes::engine::BusyInputMode;
use hermes::engine::compress::CompressionSettings;
use hermes::engine::compress::Enabled;
use hermes::protocol::Event;
use hermes::protocol::Notice;
use hermes::protocol::Op;
use hermes::protocol::TurnOutcome;
use hermes::store::SessionRow;
use hermes::store::SessionStore;
use support::Response;
use support::ScriptedServer;
use support::engine::Session;
use support::engine::start;

fn store() -> (tempfile::TempDir, Arc<SessionStore>) {
    let dir = tempfile::tempdir().unwrap();
    let store = Arc::new(SessionStore::open(&dir.path().join("state.db")).unwrap());
    (dir, store)
}

fn begin(
    server: &ScriptedServer,
    store: &Arc<SessionStore>,
    compression: CompressionSettings,
) -> Session {
    let store = Arc::clone(store);
    start(server, move |spec| {
        spec.store = Some(store);
        spec.session_id = "first".into();
        spec.busy_input = BusyInputMode::Queue;
        spec.compression = compression;
    })
}

async fn say(s: &mut Session, text: &str) {
    s.send(Op::user(text));
    assert_eq!(s.turn_outcome().await, TurnOutcome::Completed);
}

/// The session's id once the actor announces one other than `not`.
async fn next_session_id(s: &mut Session, not: &str) -> String {
    match s
        .until(|e| matches!(e, Event::SessionInfo(i) if i.session_id != not))
        .await
    {
        Event::SessionInfo(info) => info.session_id,
        _ => unreachable!(),
    }
}

fn row(store: &SessionStore, id: &str) -> SessionRow {
    store.session(id).unwrap().unwrap()
}

/// Ends written off the actor's task land shortly after the event that announced them.
async fn ended(store: &SessionStore, id: &str) -> SessionRow {
    for _ in 0..200 {
        let r = row(store, id);
        if r.ended_at.is_some() {
            return r;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("session {id} was not ended");
}

fn reason(r: &SessionRow) -> &str {
    r.end_reason.as_deref().unwrap_or("(none)")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn new_resume_branch_and_stop_each_end_a_session_once() {
    let server = ScriptedServer::start([
        Response::text(["one"]).with_usage(100, 5),
        Response::text(["two"]).with_usage(120, 6),
        Response::text(["three"]).with_usage(140, 7),
    ])
    .await;
    let (_dir, store) = store();
    let mut s = begin(&server, &store, CompressionSettings::default());
    say(&mut s, "hello").await;
    let first = row(&store, "first");
    assert_eq!(
        (
            first.api_call_count,
            first.input_tokens,
            first.output_tokens
        ),
        (1, 100, 5)
    );
    assert_eq!(first.ended_at, None);

    s.send(Op::NewSession);
    let second = next_session_id(&mut s, "first").await;
    assert_eq!(reason(&ended(&store, "first").await), "new_session");
    say(&mut s, "again").await;
    assert_eq!(row(&store, &second).ended_at, None);

    s.send(Op::ResumeSession {
        target: "first".into(),
    });
    s.until(|e| matches!(e, Event::HistoryReplay { .. })).await;
    assert_eq!(reason(&ended(&store, &second).await), "resumed_other");
    let reopened = row(&store, "first");
    assert_eq!(
        (reopened.ended_at, reopened.end_reason.as_deref()),
        (None, None),
        "resuming re-opens the session, as Hermes does"
    );

    s.send(Op::BranchSession {
        title: Some("fork".into()),
    });
    let branch = next_session_id(&mut s, "first").await;
    let first = ended(&store, "first").await;
    assert_eq!(reason(&first), "branched");
    say(&mut s, "in the branch").await;

    s.send(Op::Shutdown);
    s.until(|e| matches!(e, Event::ShutdownComplete)).await;
    let branch_row = row(&store, &branch);
    assert_eq!(reason(&branch_row), "cli_close");
    assert_eq!(branch_row.api_call_count, 1);
    // Ended once: the earlier ends were not overwritten by the later ones.
    let again = row(&store, "first");
    assert_eq!(
        (again.ended_at, reason(&again)),
        (first.ended_at, "branched")
    );
    assert_eq!(reason(&row(&store, &second)), "resumed_other");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_compression_split_ends_the_parent_and_titles_the_child_next_in_line() {
    let server = ScriptedServer::start([
        Response::text(["one"]),
        Response::text(["two"]),
        Response::text(["three"]),
        Response::text(["## Task so far\nThe user counted."]).with_usage(900, 40),
        Response::text(["four"]).with_usage(300, 8),
    ])
    .await;
    let (_dir, store) = store();
    let settings = CompressionSettings {
        enabled: Enabled::Yes,
        threshold: 0.2,
        protect_first_n: 1,
        protect_last_n: 2,
    };
    let mut s = begin(&server, &store, settings);
    for text in ["a", "b", "c"] {
        say(&mut s, text).await;
    }
    s.send(Op::SetTitle {
        title: "counting".into(),
    });
    s.until(|e| matches!(e, Event::Notice(Notice { text, .. }) if text.contains("titled")))
        .await;
    s.send(Op::user("x".repeat(120_000)));
    let child = next_session_id(&mut s, "first").await;
    assert_eq!(s.turn_outcome().await, TurnOutcome::Completed);
    let parent = ended(&store, "first").await;
    assert_eq!(reason(&parent), "compression");
    let child_row = row(&store, &child);
    assert_eq!(child_row.parent_session_id.as_deref(), Some("first"));
    assert_eq!(child_row.title.as_deref(), Some("counting #2"));
    assert_eq!(child_row.ended_at, None);
    // The summary is an auxiliary call of the parent; the reply after it is the child's.
    assert_eq!((child_row.api_call_count, child_row.input_tokens), (1, 300));
    let usage: Vec<(String, String, i64, i64)> = {
        let conn = rusqlite::Connection::open(store.path()).unwrap();
        let mut stmt = conn
            .prepare(
                "SELECT session_id, task, api_call_count, input_tokens FROM session_model_usage \
                 ORDER BY session_id, task",
            )
            .unwrap();
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap()
    };
    assert_eq!(
        usage,
        vec![
            (child.clone(), String::new(), 1, 300),
            ("first".into(), String::new(), 3, 30),
            ("first".into(), "compression".into(), 1, 900),
        ]
    );
    s.send(Op::Shutdown);
    s.until(|e| matches!(e, Event::ShutdownComplete)).await;
    assert_eq!(reason(&row(&store, &child)), "cli_close");
    assert_eq!(reason(&row(&store, "first")), "compression");
}

/// Another program holding `state.db` locked longer than the busy timeout (a `sqlite3` shell
/// in a transaction): the turn goes on, and its messages are saved once the lock is released,
/// in order, with one notice at most.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reply_written_while_the_database_is_locked_is_saved_once_it_is_released() {
    let server = ScriptedServer::start([Response::text(["one"]), Response::text(["two"])]).await;
    let (_dir, store) = store();
    let mut s = begin(&server, &store, CompressionSettings::default());
    say(&mut s, "a").await;
    // Hold a write lock for 7 s from another connection (the busy timeout is 5 s).
    let path = store.path().to_path_buf();
    let (locked_tx, locked_rx) = std::sync::mpsc::channel();
    let holder = std::thread::spawn(move || {
        let conn = rusqlite::Connection::open(&path).unwrap();
        conn.execute_batch("BEGIN EXCLUSIVE").unwrap();
        locked_tx.send(()).unwrap();
        std::thread::sleep(Duration::from_secs(7));
        conn.execute_batch("COMMIT").unwrap();
    });
    locked_rx.recv().unwrap();
    let started = std::time::Instant::now();
    say(&mut s, "b").await;
    assert!(
        started.elapsed() < Duration::from_secs(12),
        "the turn waited {:?}",
        started.elapsed()
    );
    holder.join().unwrap();
    // The retry runs every second once the lock is gone.
    let mut contents = Vec::new();
    for _ in 0..50 {
        contents = store
            .messages("first")
            .unwrap()
            .into_iter()
            .map(|m| m.content)
            .collect();
        if contents.len() == 4 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(contents, vec!["a", "one", "b", "two"]);
}
