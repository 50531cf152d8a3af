//! Crash durability: a separate process appends messages and is killed with SIGKILL part-way;
//! the database must pass `PRAGMA integrity_check` and hold every message the child reported
//! committed. The child is this test binary re-run on the ignored helper test below.

use std::io::BufRead;
use std::io::BufReader;
use std::io::Write;
use std::process::Command;
use std::process::Stdio;

use crate::model::Role;
use crate::store::SessionStore;
use crate::store::StoredMessage;
use crate::store::test_support::new_session;

const DB_ENV: &str = "HERMES_STORE_DURABILITY_DB";
const CHILD_TEST: &str = "store::durability_tests::durability_child_writer";

/// Not a test on its own: the child process of `killed_writer_loses_nothing_committed`.
#[test]
#[ignore = "helper process for the durability test"]
fn durability_child_writer() {
    let Some(path) = std::env::var_os(DB_ENV) else {
        return;
    };
    let store = SessionStore::open(std::path::Path::new(&path)).unwrap();
    let out = std::io::stdout();
    let padding = "lorem ipsum dolor sit amet ".repeat(40);
    for i in 0.. {
        let text = format!("message {i} {}", &padding[..(i * 37) % padding.len()]);
        let role = if i % 2 == 0 {
            Role::User
        } else {
            Role::Assistant
        };
        let id = store
            .append_message("dur", &StoredMessage::new(role, text))
            .unwrap();
        let mut out = out.lock();
        writeln!(out, "committed {id} {i}").unwrap();
        out.flush().unwrap();
    }
}

/// Run the child until it reports `kill_after` commits, SIGKILL it, and return every
/// `(message id, index)` it reported.
fn run_and_kill(db: &std::path::Path, kill_after: usize) -> Vec<(i64, usize)> {
    let exe = std::env::current_exe().unwrap();
    let mut child = Command::new(exe)
        .args([
            CHILD_TEST,
            "--exact",
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(DB_ENV, db)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let mut committed = Vec::new();
    let mut lines = BufReader::new(stdout).lines();
    let mut killed = false;
    for line in lines.by_ref() {
        let line = line.unwrap();
        // libtest prints `test <name> ... ` without a newline before the test runs, so the
        // first report shares its line.
        if let Some(rest) = line.split_once("committed ").map(|(_, rest)| rest) {
            let mut parts = rest.split(' ');
            let id: i64 = parts.next().unwrap().parse().unwrap();
            let i: usize = parts.next().unwrap().parse().unwrap();
            committed.push((id, i));
        }
        if committed.len() >= kill_after && !killed {
            child.kill().unwrap(); // SIGKILL on Unix
            killed = true;
        }
    }
    // Lines already in the pipe were read above, up to EOF.
    child.wait().unwrap();
    assert!(
        killed,
        "child exited by itself after {} commits",
        committed.len()
    );
    committed
}

#[test]
fn killed_writer_loses_nothing_committed() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("state.db");
    SessionStore::open(&db)
        .unwrap()
        .create_session(&new_session("dur"))
        .unwrap();
    let mut reported = run_and_kill(&db, 40);
    reported.extend(run_and_kill(&db, 150));

    let store = SessionStore::open(&db).unwrap();
    assert_eq!(store.integrity_check().unwrap(), "ok");
    let rows = store.messages("dur").unwrap();
    for (id, i) in &reported {
        let row = rows
            .iter()
            .find(|r| r.id == *id)
            .unwrap_or_else(|| panic!("committed message {id} is missing"));
        assert!(row.content.starts_with(&format!("message {i} ")), "{id}");
    }
    // Every stored message is whole, and the counter moved with each one (same transaction).
    assert!(rows.len() >= reported.len());
    // At most one commit per run was killed before its report was printed.
    assert!(
        rows.len() <= reported.len() + 2,
        "{} rows, {} reported",
        rows.len(),
        reported.len()
    );
    let session = store.session("dur").unwrap().unwrap();
    assert_eq!(session.message_count as usize, rows.len());
    // The index agrees with the table.
    let fts: i64 = store
        .conn()
        .query_row("SELECT COUNT(*) FROM messages_fts", [], |r| r.get(0))
        .unwrap();
    assert_eq!(fts as usize, rows.len());
}
