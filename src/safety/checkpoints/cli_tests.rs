use pretty_assertions::assert_eq;

use super::*;
use crate::safety::checkpoints::CheckpointSettings;
use crate::safety::checkpoints::SnapshotOutcome;

#[test]
fn formats_utc_dates() {
    assert_eq!(format_utc(0), "1970-01-01 00:00");
    assert_eq!(format_utc(951_782_400), "2000-02-29 00:00");
    assert_eq!(format_utc(1_700_000_000), "2023-11-14 22:13");
}

#[test]
fn human_sizes() {
    assert_eq!(human_size(512), "512 B");
    assert_eq!(human_size(1536), "1.5 KB");
    assert_eq!(human_size(10 * 1024 * 1024), "10.0 MB");
}

#[test]
fn checkpoint_lines_cap_the_file_list() {
    let checkpoint = Checkpoint {
        id: "0123456789".to_string(),
        created_unix: 1_700_000_000,
        label: "before turn 3: write_file src/main.rs".to_string(),
        changed_files: (1..=12).map(|i| format!("f{i}")).collect(),
    };
    assert_eq!(
        checkpoint_lines(3, &checkpoint),
        "  3  0123456789  2023-11-14 22:13  before turn 3: write_file src/main.rs\n       \
         changed: f1, f2, f3, f4, f5, f6, f7, f8, f9, f10 (+2 more)\n"
    );
}

#[test]
fn list_and_prune_text() {
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let work_dir = work.path().canonicalize().unwrap();
    std::fs::write(work_dir.join("a.txt"), "a\n").unwrap();
    let store = CheckpointStore::new(
        home.path().join("checkpoints"),
        CheckpointSettings::default(),
    )
    .with_home_dir(home.path().to_path_buf());

    assert!(
        list(&store, None)
            .unwrap()
            .starts_with("no checkpoints yet")
    );
    assert!(
        list(&store, Some(&work_dir))
            .unwrap()
            .starts_with("no checkpoints for")
    );

    let outcome = store
        .snapshot(&work_dir, "before turn 1: write_file a.txt")
        .unwrap();
    let SnapshotOutcome::Created(checkpoint) = outcome else {
        panic!("expected a checkpoint, got {outcome:?}");
    };
    std::fs::write(work_dir.join("a.txt"), "b\n").unwrap();
    let text = list(&store, Some(&work_dir)).unwrap();
    assert!(
        text.contains(&format!("  1  {}  ", checkpoint.id)),
        "{text}"
    );
    assert!(
        text.contains("before turn 1: write_file a.txt\n       changed: a.txt\n"),
        "{text}"
    );

    let all = list(&store, None).unwrap();
    assert!(
        all.contains(&format!("{}  1 checkpoint(s)", work_dir.display())),
        "{all}"
    );
    assert!(all.contains("1 repo(s)"), "{all}");

    let pruned = prune(&store, PruneOptions::default()).unwrap();
    assert!(pruned.contains("removed 0 repo(s), kept 1"), "{pruned}");

    let report = store.restore(&work_dir, "1").unwrap();
    let summary = restore_summary(&report);
    assert!(summary.contains("  restored a.txt\n"), "{summary}");
    assert!(
        summary.contains(&format!("undo with /rollback {}", report.safety.id)),
        "{summary}"
    );
}
