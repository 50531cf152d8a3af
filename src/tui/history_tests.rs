use super::*;
use pretty_assertions::assert_eq;

fn history(entries: &[&str]) -> InputHistory {
    let mut h = InputHistory::new(PathBuf::from("/nonexistent/tui_history"));
    for e in entries {
        h.push(*e);
    }
    h
}

#[test]
fn push_skips_empty_and_consecutive_duplicates() {
    let h = history(&["a", "a", "  ", "", "b", "a", "a"]);
    assert_eq!(h.entries(), ["a", "b", "a"]);
}

#[test]
fn push_caps_at_max_entries() {
    let mut h = history(&[]);
    for i in 0..MAX_ENTRIES + 5 {
        h.push(format!("e{i}"));
    }
    assert_eq!(h.len(), MAX_ENTRIES);
    assert_eq!(h.entries()[0], "e5");
}

#[test]
fn older_and_newer_walk_and_restore_the_draft() {
    let mut h = history(&["one", "two", "three"]);
    assert_eq!(h.newer(), None);
    assert_eq!(h.older("draft"), Some("three"));
    assert!(h.is_navigating());
    assert_eq!(h.older("ignored"), Some("two"));
    assert_eq!(h.older("ignored"), Some("one"));
    assert_eq!(h.older("ignored"), None);
    assert_eq!(h.newer(), Some("two"));
    assert_eq!(h.newer(), Some("three"));
    assert_eq!(h.newer(), Some("draft"));
    assert!(!h.is_navigating());
    assert_eq!(h.newer(), None);
}

#[test]
fn older_on_empty_history_is_none() {
    let mut h = history(&[]);
    assert_eq!(h.older("x"), None);
    assert!(!h.is_navigating());
}

#[test]
fn push_and_reset_end_navigation() {
    let mut h = history(&["one"]);
    h.older("d");
    h.reset_navigation();
    assert!(!h.is_navigating());
    h.older("d");
    h.push("two");
    assert!(!h.is_navigating());
    assert_eq!(h.older(""), Some("two"));
}

#[test]
fn persistence_round_trip_keeps_multiline_entries() -> std::io::Result<()> {
    let dir = tempfile::tempdir()?;
    let path = InputHistory::default_path(&dir.path().join("home"));
    let mut h = InputHistory::load(&path);
    assert!(h.is_empty());
    h.push("first");
    h.push("multi\nline \"quoted\"\n\ttabbed");
    h.push("unicode ❯ ☤");
    h.save()?;
    let text = std::fs::read_to_string(&path)?;
    assert_eq!(text.lines().count(), 3);

    let loaded = InputHistory::load(&path);
    assert_eq!(loaded.entries(), h.entries());
    assert_eq!(loaded.path(), path.as_path());
    Ok(())
}

#[test]
fn snapshot_and_save_entries_cap_the_file() -> std::io::Result<()> {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join(HISTORY_FILE);
    let entries: Vec<String> = (0..MAX_ENTRIES + 10).map(|i| format!("e{i}")).collect();
    save_entries(&path, &entries)?;
    let loaded = InputHistory::load(&path);
    assert_eq!(loaded.len(), MAX_ENTRIES);
    assert_eq!(loaded.entries()[0], "e10");

    let (snap_path, snap_entries) = loaded.snapshot();
    assert_eq!(snap_path, path);
    assert_eq!(snap_entries, loaded.entries());
    // No temp file is left behind.
    assert_eq!(std::fs::read_dir(dir.path())?.count(), 1);
    Ok(())
}

#[cfg(unix)]
#[test]
fn saved_file_is_private() -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir()?;
    let path = dir.path().join(HISTORY_FILE);
    save_entries(&path, &["secret".to_owned()])?;
    let mode = std::fs::metadata(&path)?.permissions().mode();
    assert_eq!(mode & 0o777, 0o600);
    Ok(())
}

#[test]
fn corrupt_or_missing_file_loads_empty() -> std::io::Result<()> {
    let dir = tempfile::tempdir()?;
    assert!(InputHistory::load(&dir.path().join("missing")).is_empty());

    let binary = dir.path().join("binary");
    std::fs::write(&binary, [0xff, 0xfe, 0x00, 0x80, b'\n', 0xc3])?;
    assert!(InputHistory::load(&binary).is_empty());

    let garbage = dir.path().join("garbage");
    std::fs::write(&garbage, "not json\n{\"a\":1}\n\"unterminated\n")?;
    assert!(InputHistory::load(&garbage).is_empty());

    // A directory where the file should be: unreadable, still no panic.
    assert!(InputHistory::load(dir.path()).is_empty());
    Ok(())
}

#[test]
fn corrupt_lines_are_skipped_good_ones_kept() {
    let entries = parse_entries("\"ok\"\nbroken\n\n\"two\\nlines\"\n");
    assert_eq!(entries, vec!["ok".to_owned(), "two\nlines".to_owned()]);
}

#[test]
fn overlapping_saves_of_one_process_all_succeed() {
    // The save after a sent prompt and the one at /quit can overlap (same process).
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(HISTORY_FILE);
    let entries: Vec<String> = (0..200).map(|i| format!("prompt {i}")).collect();
    let failures: Vec<String> = std::thread::scope(|scope| {
        // All started before any is joined, so the saves overlap.
        let mut handles = Vec::new();
        for _ in 0..8 {
            handles.push(scope.spawn(|| {
                (0..25)
                    .filter_map(|_| save_entries(&path, &entries).err())
                    .map(|e| e.to_string())
                    .collect::<Vec<_>>()
            }));
        }
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    assert!(failures.is_empty(), "{failures:?}");
    assert_eq!(InputHistory::load(&path).entries(), entries.as_slice());
    let stray: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name() != HISTORY_FILE)
        .collect();
    assert!(stray.is_empty(), "{stray:?}");
}
