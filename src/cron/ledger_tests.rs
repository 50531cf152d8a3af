use super::*;

#[test]
fn a_terminal_row_is_never_rewritten() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = Ledger::open(&dir.path().join("executions.db")).unwrap();
    let id = ledger
        .claim("job1", "builtin", "2026-06-01T10:00:00+00:00")
        .unwrap();
    assert!(ledger.in_flight("job1").unwrap());
    assert!(ledger.mark_running(&id, "t1").unwrap());
    assert!(!ledger.mark_running(&id, "t2").unwrap());
    let done = Finish {
        succeeded: true,
        duration_ms: 5,
        ..Finish::default()
    };
    assert!(ledger.finish(&id, "t3", &done).unwrap());
    let failed = Finish {
        succeeded: false,
        error: Some("late".into()),
        ..Finish::default()
    };
    assert!(!ledger.finish(&id, "t4", &failed).unwrap());
    let row = ledger.latest("job1").unwrap().unwrap();
    assert_eq!((row.status.as_str(), row.error), ("completed", None));
    assert!(!ledger.in_flight("job1").unwrap());
}

#[test]
fn a_live_owners_rows_are_not_marked_unknown() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("executions.db");
    let first = Ledger::open(&path).unwrap();
    first.claim("job1", "builtin", "t0").unwrap();
    // Another ledger in this (live) process must not claim the row is abandoned.
    let second = Ledger::open(&path).unwrap();
    assert_eq!(second.recover("t1").unwrap(), 0);
}

#[test]
fn the_process_start_time_is_read_from_proc() {
    assert!(process_start_time(std::process::id()).is_some());
}
