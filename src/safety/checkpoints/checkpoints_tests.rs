use std::path::Path;
use std::path::PathBuf;

use pretty_assertions::assert_eq;
use tempfile::TempDir;

use super::git::Git;
use super::git::split_nul;
use super::repo::ShadowRepo;
use super::*;

/// A HERMES_HOME and a work dir with a `.gitignore`, nested dirs, an ignored file and a file
/// over the (1 KB) size cap.
struct Fixture {
    home: TempDir,
    work_tmp: TempDir,
    work: PathBuf,
    store: CheckpointStore,
}

fn settings() -> CheckpointSettings {
    CheckpointSettings {
        max_snapshots: 50,
        max_file_bytes: 1024,
        max_files: 1000,
    }
}

fn fixture_with(settings: CheckpointSettings) -> Fixture {
    let home = tempfile::tempdir().unwrap();
    let work_tmp = tempfile::tempdir().unwrap();
    let work = work_tmp.path().canonicalize().unwrap();
    write(&work, ".gitignore", "*.log\n");
    write(&work, "README.md", "readme\n");
    write(&work, "src/main.rs", "fn main() {}\n");
    write(&work, "src/nested/deep/mod.rs", "// deep\n");
    write(&work, "app.log", "log line\n");
    write(&work, "big.bin", &"x".repeat(2048));
    let store = CheckpointStore::new(home.path().join("checkpoints"), settings)
        .with_home_dir(home.path().join("user-home"));
    Fixture {
        home,
        work_tmp,
        work,
        store,
    }
}

fn fixture() -> Fixture {
    fixture_with(settings())
}

fn write(dir: &Path, rel: &str, content: &str) {
    let path = dir.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, content).unwrap();
}

fn read(dir: &Path, rel: &str) -> Option<String> {
    std::fs::read_to_string(dir.join(rel)).ok()
}

fn created(outcome: SnapshotOutcome) -> Checkpoint {
    match outcome {
        SnapshotOutcome::Created(c) => c,
        other => panic!("expected a new checkpoint, got {other:?}"),
    }
}

/// The files checkpoint `id` holds, read straight from the shadow repo.
fn tracked(f: &Fixture, id: &str) -> Vec<String> {
    tracked_in(f.store.root(), &f.work, id)
}

fn tracked_in(root: &Path, work: &Path, id: &str) -> Vec<String> {
    let repo = ShadowRepo::locate(root, work);
    let out = Git::bare(&repo.dir)
        .run(&["ls-tree", "-r", "-z", "--name-only", id])
        .unwrap();
    split_nul(&out)
        .iter()
        .map(|p| String::from_utf8_lossy(p).into_owned())
        .collect()
}

#[test]
fn snapshot_honours_gitignore_and_the_size_cap() {
    let f = fixture();
    let cp = created(f.store.snapshot(&f.work, "before turn 1").unwrap());
    assert_eq!(cp.id.len(), 10);
    assert_eq!(cp.label, "before turn 1");
    assert_eq!(
        tracked(&f, &cp.id),
        vec![
            ".gitignore",
            "README.md",
            "src/main.rs",
            "src/nested/deep/mod.rs"
        ]
    );
    let repo = ShadowRepo::locate(f.store.root(), &f.work);
    let recorded = std::fs::read_to_string(repo.dir.join("HERMES_WORKDIR")).unwrap();
    assert_eq!(recorded.trim_end(), f.work.to_string_lossy());
}

#[test]
fn unchanged_tree_makes_no_new_checkpoint() {
    let f = fixture();
    let first = created(f.store.snapshot(&f.work, "one").unwrap());
    // Ignored and oversized files do not count as changes.
    write(&f.work, "app.log", "more log\n");
    write(&f.work, "big.bin", &"y".repeat(4096));
    match f.store.snapshot(&f.work, "two").unwrap() {
        SnapshotOutcome::Unchanged(c) => assert_eq!(c.id, first.id),
        other => panic!("expected unchanged, got {other:?}"),
    }
    assert_eq!(f.store.list(&f.work).unwrap().len(), 1);
}

#[test]
fn list_shows_what_each_following_turn_changed() {
    let f = fixture();
    let one = created(f.store.snapshot(&f.work, "before turn 1").unwrap());
    write(&f.work, "src/main.rs", "fn main() { changed(); }\n");
    write(&f.work, "new.txt", "new\n");
    let two = created(f.store.snapshot(&f.work, "before turn 2").unwrap());
    write(&f.work, "README.md", "edited\n");

    let list = f.store.list(&f.work).unwrap();
    let summary: Vec<(&str, &str, Vec<&str>)> = list
        .iter()
        .map(|c| {
            let files = c.changed_files.iter().map(String::as_str).collect();
            (c.id.as_str(), c.label.as_str(), files)
        })
        .collect();
    assert_eq!(
        summary,
        vec![
            (two.id.as_str(), "before turn 2", vec!["README.md"]),
            (
                one.id.as_str(),
                "before turn 1",
                vec!["new.txt", "src/main.rs"]
            ),
        ]
    );
}

#[test]
fn diff_shows_what_restoring_would_change() {
    let f = fixture();
    f.store.snapshot(&f.work, "before turn 1").unwrap();
    write(&f.work, "src/main.rs", "fn main() { broken }\n");
    let diff = f.store.diff(&f.work, "1").unwrap();
    assert!(diff.contains("--- a/src/main.rs"), "{diff}");
    assert!(diff.contains("-fn main() { broken }"), "{diff}");
    assert!(diff.contains("+fn main() {}"), "{diff}");
    write(&f.work, "src/main.rs", "fn main() {}\n");
    assert_eq!(f.store.diff(&f.work, "1").unwrap(), "");
}

#[test]
fn restore_brings_back_a_real_checkpoint() {
    let f = fixture();
    let before = created(f.store.snapshot(&f.work, "before turn 1").unwrap());
    // The turn: edit, delete, create (in a new nested dir), touch ignored and oversized files.
    write(&f.work, "src/main.rs", "fn main() { turn_one(); }\n");
    std::fs::remove_file(f.work.join("README.md")).unwrap();
    write(&f.work, "src/extra/deeper/new.rs", "// new\n");
    write(&f.work, "app.log", "written during the turn\n");
    write(&f.work, "huge.bin", &"z".repeat(4096));

    let report = f.store.restore(&f.work, &before.id).unwrap();
    assert_eq!(report.restored_to.id, before.id);
    assert_eq!(report.restored, vec!["README.md", "src/main.rs"]);
    assert_eq!(report.removed, vec!["src/extra/deeper/new.rs"]);
    assert!(report.kept.is_empty());

    assert_eq!(
        read(&f.work, "src/main.rs").as_deref(),
        Some("fn main() {}\n")
    );
    assert_eq!(read(&f.work, "README.md").as_deref(), Some("readme\n"));
    assert!(!f.work.join("src/extra").exists(), "empty dirs are removed");
    assert_eq!(
        read(&f.work, "app.log").as_deref(),
        Some("written during the turn\n")
    );
    assert_eq!(read(&f.work, "huge.bin").map(|s| s.len()), Some(4096));
    assert_eq!(
        read(&f.work, "src/nested/deep/mod.rs").as_deref(),
        Some("// deep\n")
    );

    // The safety snapshot is the newest checkpoint and undoes the rollback.
    let list = f.store.list(&f.work).unwrap();
    assert_eq!(list.len(), 2);
    assert_eq!(list[0].id, report.safety.id);
    assert_eq!(list[0].label, format!("before rollback to {}", before.id));
    let undo = f.store.restore(&f.work, &report.safety.id).unwrap();
    assert_eq!(undo.removed, vec!["README.md"]);
    assert_eq!(
        read(&f.work, "src/main.rs").as_deref(),
        Some("fn main() { turn_one(); }\n")
    );
    assert_eq!(
        read(&f.work, "src/extra/deeper/new.rs").as_deref(),
        Some("// new\n")
    );
    assert!(!f.work.join("README.md").exists());
}

#[test]
fn restore_by_index_counts_from_the_newest() {
    let f = fixture();
    f.store.snapshot(&f.work, "one").unwrap();
    write(&f.work, "src/main.rs", "two\n");
    f.store.snapshot(&f.work, "two").unwrap();
    write(&f.work, "src/main.rs", "three\n");
    let report = f.store.restore(&f.work, "2").unwrap();
    assert_eq!(report.restored_to.label, "one");
    assert_eq!(
        read(&f.work, "src/main.rs").as_deref(),
        Some("fn main() {}\n")
    );
}

#[test]
fn restore_never_overwrites_a_file_that_was_not_snapshotted() {
    let f = fixture();
    let before = created(f.store.snapshot(&f.work, "one").unwrap());
    // README.md grows past the cap: it is no longer snapshotted, so restoring leaves it.
    write(&f.work, "README.md", &"r".repeat(2048));
    let report = f.store.restore(&f.work, &before.id).unwrap();
    assert_eq!(report.kept, vec!["README.md"]);
    assert_eq!(read(&f.work, "README.md").map(|s| s.len()), Some(2048));
}

#[test]
fn old_checkpoints_beyond_max_snapshots_are_dropped() {
    let f = fixture_with(CheckpointSettings {
        max_snapshots: 3,
        ..settings()
    });
    let mut ids = Vec::new();
    for turn in 1..=5 {
        write(&f.work, "src/main.rs", &format!("turn {turn}\n"));
        ids.push(created(f.store.snapshot(&f.work, &format!("turn {turn}")).unwrap()).id);
    }
    let list = f.store.list(&f.work).unwrap();
    let labels: Vec<&str> = list.iter().map(|c| c.label.as_str()).collect();
    assert_eq!(labels, vec!["turn 5", "turn 4", "turn 3"]);
    // Ids stay stable when older checkpoints go.
    assert_eq!(list[2].id, ids[2]);
    assert!(matches!(
        f.store.restore(&f.work, &ids[0]),
        Err(CheckpointError::UnknownCheckpoint { .. })
    ));
}

#[test]
fn unknown_ids_are_errors() {
    let f = fixture();
    assert!(matches!(
        f.store.diff(&f.work, "1"),
        Err(CheckpointError::UnknownCheckpoint { .. })
    ));
    f.store.snapshot(&f.work, "one").unwrap();
    for id in ["2", "0", "zzzz", "abc", "deadbeefdeadbeef"] {
        let err = f.store.restore(&f.work, id).unwrap_err();
        assert!(
            matches!(&err, CheckpointError::UnknownCheckpoint { id: got } if got == id),
            "{id}: {err:?}"
        );
    }
    assert_eq!(
        read(&f.work, "src/main.rs").as_deref(),
        Some("fn main() {}\n")
    );
}

#[test]
fn home_root_and_store_dirs_are_skipped() {
    let f = fixture();
    let home_store = CheckpointStore::new(f.store.root().to_path_buf(), settings())
        .with_home_dir(f.work.clone());
    for (store, dir) in [
        (&home_store, f.work.clone()),
        (&f.store, PathBuf::from("/")),
        (
            &home_store,
            f.work_tmp.path().parent().unwrap().to_path_buf(),
        ),
    ] {
        match store.snapshot(&dir, "x").unwrap() {
            SnapshotOutcome::Skipped { reason } => assert!(reason.contains("no checkpoint")),
            other => panic!("{}: expected skipped, got {other:?}", dir.display()),
        }
    }
    assert!(f.store.repos().unwrap().is_empty());
    std::fs::create_dir_all(f.store.root().join("inside")).unwrap();
    let inside = f.store.root().join("inside");
    assert!(matches!(
        f.store.snapshot(&inside, "x").unwrap(),
        SnapshotOutcome::Skipped { .. }
    ));
}

#[test]
fn too_many_files_skips_the_snapshot() {
    let f = fixture_with(CheckpointSettings {
        max_files: 3,
        ..settings()
    });
    match f.store.snapshot(&f.work, "x").unwrap() {
        SnapshotOutcome::Skipped { reason } => assert!(reason.contains("more than 3 files")),
        other => panic!("expected skipped, got {other:?}"),
    }
}

#[test]
fn store_inside_the_work_dir_is_not_snapshotted() {
    let f = fixture();
    let store = CheckpointStore::new(f.work.join("hermes-home/checkpoints"), settings())
        .with_home_dir(f.home.path().to_path_buf());
    let first = created(store.snapshot(&f.work, "one").unwrap());
    assert!(store.root().is_dir());
    let files = tracked_in(store.root(), &f.work, &first.id);
    assert!(
        files.iter().all(|p| !p.starts_with("hermes-home")),
        "{files:?}"
    );
}

#[test]
fn nested_repositories_are_skipped() {
    let f = fixture();
    let nested = f.work.join("vendor/lib");
    std::fs::create_dir_all(nested.join(".git")).unwrap();
    Git::bare(&nested.join(".git"))
        .run(&["init", "--quiet"])
        .unwrap();
    write(&nested, "lib.rs", "// vendored\n");
    let cp = created(f.store.snapshot(&f.work, "one").unwrap());
    assert!(tracked(&f, &cp.id).iter().all(|p| !p.starts_with("vendor")));
}

#[test]
fn labels_are_one_line() {
    let f = fixture();
    let cp = created(
        f.store
            .snapshot(&f.work, "before turn 2:\nwrite_file a\tb")
            .unwrap(),
    );
    assert_eq!(cp.label, "before turn 2: write_file a b");
    assert_eq!(f.store.list(&f.work).unwrap()[0].label, cp.label);
}

#[test]
fn repos_and_prune() {
    let f = fixture();
    let other = tempfile::tempdir().unwrap();
    write(other.path(), "a.txt", "a\n");
    f.store.snapshot(&f.work, "one").unwrap();
    f.store.snapshot(other.path(), "one").unwrap();
    let repos = f.store.repos().unwrap();
    assert_eq!(repos.len(), 2);
    assert!(repos.iter().all(|r| r.checkpoints == 1 && r.disk_bytes > 0));
    assert!(
        repos
            .iter()
            .all(|r| r.work_dir_exists && r.newest_unix.is_some())
    );

    let gone = other.path().canonicalize().unwrap();
    drop(other);
    let report = f.store.prune(PruneOptions::default()).unwrap();
    assert_eq!(report.removed.len(), 1);
    assert_eq!(
        report.removed[0].0.work_dir.as_deref(),
        Some(gone.as_path())
    );
    assert_eq!(report.kept, 1);
    let repos = f.store.repos().unwrap();
    assert_eq!(repos.len(), 1);
    assert_eq!(repos[0].work_dir.as_deref(), Some(f.work.as_path()));
    // The kept repo still restores after gc.
    write(&f.work, "src/main.rs", "changed\n");
    f.store.restore(&f.work, "1").unwrap();
    assert_eq!(
        read(&f.work, "src/main.rs").as_deref(),
        Some("fn main() {}\n")
    );
}

#[test]
fn prune_trims_to_max_snapshots_and_frees_objects() {
    let f = fixture();
    for turn in 1..=4 {
        write(&f.work, "src/main.rs", &format!("turn {turn}\n"));
        f.store.snapshot(&f.work, &format!("turn {turn}")).unwrap();
    }
    let small = CheckpointStore::new(
        f.store.root().to_path_buf(),
        CheckpointSettings {
            max_snapshots: 2,
            ..settings()
        },
    );
    let report = small.prune(PruneOptions::default()).unwrap();
    assert_eq!(report.trimmed, 2);
    assert_eq!(small.list(&f.work).unwrap().len(), 2);
    let repo = ShadowRepo::locate(f.store.root(), &f.work);
    let count = Git::bare(&repo.dir).text(&["count-objects", "-v"]).unwrap();
    assert!(count.contains("count: 0"), "loose objects left: {count}");
}

#[test]
fn prune_by_age() {
    use super::prune::PruneOptions as Options;
    let f = fixture();
    f.store.snapshot(&f.work, "one").unwrap();
    let kept = f
        .store
        .prune(Options {
            missing_work_dirs: false,
            older_than_days: Some(1),
        })
        .unwrap();
    assert!(kept.removed.is_empty());
    assert_eq!(kept.kept, 1);
}

#[test]
fn settings_from_config() {
    let config = crate::config::CheckpointsConfig::default();
    assert_eq!(
        CheckpointSettings::from_config(&config),
        CheckpointSettings::default()
    );
}

/// Times a snapshot of this repository, or of `HERMES_CHECKPOINT_TIMING_DIR` (run with
/// `--ignored --nocapture`).
#[test]
#[ignore = "timing only"]
fn time_snapshot_of_this_repo() {
    let home = tempfile::tempdir().unwrap();
    let store = CheckpointStore::new(
        home.path().join("checkpoints"),
        CheckpointSettings::default(),
    );
    let dir = std::env::var_os("HERMES_CHECKPOINT_TIMING_DIR")
        .map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")), PathBuf::from);
    let repo = dir.as_path();
    for run in ["first", "second (unchanged)"] {
        let start = std::time::Instant::now();
        let outcome = store.snapshot(repo, run).unwrap();
        eprintln!("{run}: {:?} -> {outcome:?}", start.elapsed());
    }
    let start = std::time::Instant::now();
    let list = store.list(repo).unwrap();
    eprintln!("list: {:?} ({} checkpoints)", start.elapsed(), list.len());
}

#[test]
fn removal_reasons() {
    let day = 86_400;
    let now = 100 * day;
    let summary = |exists: bool, newest: Option<u64>| RepoSummary {
        repo_dir: PathBuf::from("/x"),
        work_dir: Some(PathBuf::from("/w")),
        work_dir_exists: exists,
        checkpoints: usize::from(newest.is_some()),
        newest_unix: newest,
        disk_bytes: 0,
    };
    let age = PruneOptions {
        missing_work_dirs: false,
        older_than_days: Some(30),
    };
    let reason = super::prune::removal_reason;
    assert_eq!(reason(&summary(true, Some(now - day)), age, now), None);
    assert_eq!(
        reason(&summary(true, Some(now - 31 * day)), age, now).as_deref(),
        Some("older than 30 days")
    );
    assert_eq!(
        reason(&summary(true, None), age, now).as_deref(),
        Some("no checkpoints")
    );
    assert_eq!(
        reason(&summary(false, Some(now)), PruneOptions::default(), now).as_deref(),
        Some("work dir missing")
    );
    assert_eq!(reason(&summary(false, Some(now)), age, now), None);
}
