use super::*;
use crate::skills::manifest::dir_hash;
use crate::skills::skill::validate_skill_md;
use crate::skills::test_support::*;

const V1: &[(&str, &str)] = &[
    (
        "dev/alpha/SKILL.md",
        "---\nname: alpha\ndescription: A v1\n---\nalpha v1\n",
    ),
    ("dev/alpha/references/notes.md", "notes v1\n"),
    (
        "beta/SKILL.md",
        "---\nname: beta\ndescription: B v1\n---\nbeta v1\n",
    ),
];
const V2: &[(&str, &str)] = &[
    (
        "dev/alpha/SKILL.md",
        "---\nname: alpha\ndescription: A v2\n---\nalpha v2\n",
    ),
    (
        "beta/SKILL.md",
        "---\nname: beta\ndescription: B v2\n---\nbeta v2\n",
    ),
    (
        "gamma/SKILL.md",
        "---\nname: gamma\ndescription: G\n---\ngamma\n",
    ),
];

fn read(root: &Path, rel: &str) -> String {
    std::fs::read_to_string(root.join(rel)).unwrap()
}

/// hermes's own manifest.
fn ours(root: &Path) -> Manifest {
    manifest::read(&root.join(HERMES_MANIFEST))
        .unwrap()
        .unwrap_or_default()
}

/// The manifest Python Hermes wrote in `tests/fixtures/skills-manifest` (make.py): entries for
/// its skills alpha, beta (user-modified) and gamma (deleted by the user: a tombstone).
fn python_fixture() -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/skills-manifest/bundled_manifest"),
    )
    .unwrap()
}

/// Skills of our own that Python Hermes does not bundle.
const OURS: &[(&str, &str)] = &[
    (
        "dev/delta/SKILL.md",
        "---\nname: delta\ndescription: D\n---\ndelta\n",
    ),
    (
        "epsilon/SKILL.md",
        "---\nname: epsilon\ndescription: E\n---\nepsilon\n",
    ),
];

#[test]
fn shipped_skills_are_valid_and_load() {
    let names = bundled_names();
    assert!(names.len() >= 4, "{names:?}");
    for (path, text) in BUNDLED {
        if path.ends_with("/SKILL.md") {
            let meta = validate_skill_md(text).unwrap_or_else(|e| panic!("{path}: {e:?}"));
            let dir = path
                .trim_end_matches("/SKILL.md")
                .rsplit('/')
                .next()
                .unwrap();
            assert_eq!(meta.name.as_deref(), Some(dir), "{path}");
            for section in [
                "## When to Use",
                "## Procedure",
                "## Pitfalls",
                "## Verification",
            ] {
                assert!(text.contains(section), "{path} lacks {section}");
            }
        }
    }
    let home = tempfile::tempdir().unwrap();
    let root = home.path().join("skills");
    sync_bundled(&root);
    let catalog = load(&root, &[]);
    assert!(catalog.warnings().is_empty(), "{:?}", catalog.warnings());
    let mut loaded: Vec<String> = catalog.list().iter().map(|s| s.name.clone()).collect();
    loaded.sort();
    let mut expected = names;
    expected.sort();
    assert_eq!(loaded, expected);
    assert_eq!(
        catalog.get("code-review").unwrap().supporting_files(),
        vec!["references/checklist.md"]
    );
}

#[test]
fn first_run_copies_and_second_run_is_a_no_op() {
    let home = tempfile::tempdir().unwrap();
    let root = home.path().join("skills");
    let first = sync_from(&root, V1);
    assert_eq!(first.copied, vec!["alpha", "beta"]);
    assert_eq!(read(&root, "dev/alpha/references/notes.md"), "notes v1\n");
    assert_eq!(read(&root, "beta/SKILL.md"), V1[2].1);
    let manifest = ours(&root);
    assert_eq!(manifest.keys().collect::<Vec<_>>(), vec!["alpha", "beta"]);
    assert_eq!(manifest["alpha"], dir_hash(&root.join("dev/alpha")));
    assert_eq!(manifest["alpha"].len(), 32, "MD5, as Hermes records it");
    assert_eq!(
        read(&root, HERMES_MANIFEST),
        format!("alpha:{}\nbeta:{}\n", manifest["alpha"], manifest["beta"])
    );
    assert!(
        !root.join(PYTHON_MANIFEST).exists(),
        "Python Hermes's manifest is not ours to create"
    );

    let second = sync_from(&root, V1);
    assert_eq!(
        second,
        SyncReport {
            unchanged: 2,
            ..SyncReport::default()
        }
    );
    assert_eq!(ours(&root), manifest);
}

#[test]
fn upgrade_updates_pristine_and_keeps_user_edits() {
    let home = tempfile::tempdir().unwrap();
    let root = home.path().join("skills");
    sync_from(&root, V1);
    let edited = "---\nname: beta\ndescription: mine\n---\nmy own steps\n";
    std::fs::write(root.join("beta/SKILL.md"), edited).unwrap();

    let report = sync_from(&root, V2);
    assert_eq!(report.updated, vec!["alpha"]);
    assert_eq!(report.user_modified, vec!["beta"]);
    assert_eq!(report.copied, vec!["gamma"]);
    assert_eq!(read(&root, "dev/alpha/SKILL.md"), V2[0].1);
    assert!(
        !root.join("dev/alpha/references").exists(),
        "update replaces the whole skill dir"
    );
    assert_eq!(read(&root, "beta/SKILL.md"), edited);

    // And stays user-modified on every later sync.
    let again = sync_from(&root, V2);
    assert_eq!(again.user_modified, vec!["beta"]);
    assert_eq!(read(&root, "beta/SKILL.md"), edited);
    assert!(!again.summary().is_empty());
}

#[test]
fn adding_a_file_even_a_dot_file_counts_as_a_user_edit() {
    let home = tempfile::tempdir().unwrap();
    let root = home.path().join("skills");
    sync_from(&root, V1);
    write(&root, "dev/alpha/.mine", "echo\n");
    let report = sync_from(&root, V2);
    assert_eq!(report.user_modified, vec!["alpha"]);
    assert_eq!(read(&root, "dev/alpha/SKILL.md"), V1[0].1);
}

#[test]
fn user_deleted_skill_is_a_tombstone_and_not_re_added() {
    let home = tempfile::tempdir().unwrap();
    let root = home.path().join("skills");
    sync_from(&root, V1);
    std::fs::remove_dir_all(root.join("beta")).unwrap();
    let report = sync_from(&root, V2);
    assert_eq!(report.user_deleted, vec!["beta"]);
    assert!(!root.join("beta").exists());
    assert!(ours(&root).contains_key("beta"));
}

#[test]
fn a_skill_that_left_the_bundle_loses_its_record_but_keeps_its_copy() {
    let home = tempfile::tempdir().unwrap();
    let root = home.path().join("skills");
    sync_from(&root, V1);
    let only_beta: &[(&str, &str)] = &[V1[2]];
    let report = sync_from(&root, only_beta);
    assert_eq!(report.cleaned, vec!["alpha"], "as Hermes's sync does");
    assert!(!ours(&root).contains_key("alpha"));
    assert!(
        root.join("dev/alpha/SKILL.md").exists(),
        "never deleted by sync"
    );
}

#[test]
fn pre_existing_same_named_skill_is_kept() {
    let home = tempfile::tempdir().unwrap();
    let root = home.path().join("skills");
    write(
        &root,
        "beta/SKILL.md",
        "---\nname: beta\ndescription: user's own\n---\nx\n",
    );
    let report = sync_from(&root, V1);
    assert_eq!(report.kept_existing, vec!["beta"]);
    assert_eq!(report.copied, vec!["alpha"]);
    assert!(read(&root, "beta/SKILL.md").contains("user's own"));
    assert!(!ours(&root).contains_key("beta"));
    // A byte-identical pre-existing copy is adopted.
    let other = tempfile::tempdir().unwrap();
    let other_root = other.path().join("skills");
    write(&other_root, "beta/SKILL.md", V1[2].1);
    let report = sync_from(&other_root, V1);
    assert_eq!(report.unchanged, 1);
    assert!(ours(&other_root).contains_key("beta"));
}

#[test]
fn a_v1_record_takes_the_copy_as_its_baseline() {
    let home = tempfile::tempdir().unwrap();
    let root = home.path().join("skills");
    write(
        &root,
        "beta/SKILL.md",
        "---\nname: beta\ndescription: mine\n---\nx\n",
    );
    write(&root, HERMES_MANIFEST, "beta\n");
    let report = sync_from(&root, V1);
    assert_eq!(report.unchanged, 1);
    assert_eq!(ours(&root)["beta"], dir_hash(&root.join("beta")));
    assert!(read(&root, "beta/SKILL.md").contains("mine"));
}

#[test]
fn python_hermes_manifest_is_never_rewritten_and_its_tombstones_hold() {
    let home = tempfile::tempdir().unwrap();
    let root = home.path().join("skills");
    let python = python_fixture();
    write(&root, PYTHON_MANIFEST, &python);
    let report = sync_from(&root, OURS);
    assert_eq!(report.copied, vec!["delta", "epsilon"]);
    assert_eq!(read(&root, PYTHON_MANIFEST), python, "byte for byte");
    assert!(
        !root.join("gamma").exists(),
        "Python's tombstone is not ours to undo"
    );
    let mine = ours(&root);
    assert_eq!(mine.keys().collect::<Vec<_>>(), vec!["delta", "epsilon"]);
}

#[test]
fn a_name_python_hermes_tracks_is_left_to_it() {
    let home = tempfile::tempdir().unwrap();
    let root = home.path().join("skills");
    // Python Hermes bundles "beta" too and the user deleted it: neither program re-adds it.
    write(&root, PYTHON_MANIFEST, &python_fixture());
    let report = sync_from(&root, V1);
    assert_eq!(report.owned_by_python, vec!["alpha", "beta"]);
    assert!(report.copied.is_empty());
    assert!(!root.join("beta").exists());
    assert!(ours(&root).is_empty());
    assert!(report.summary().contains("left to Python Hermes"));
}

#[test]
fn records_older_hermes_wrote_into_pythons_manifest_move_to_ours() {
    let home = tempfile::tempdir().unwrap();
    let root = home.path().join("skills");
    sync_from(&root, OURS);
    // Recreate what hermes before the MD5 change left: its FNV records in Hermes's file,
    // next to Python's records; delta unchanged, epsilon edited, and no manifest of our own.
    let python = python_fixture();
    let delta_fnv = manifest::legacy_dir_hash(&root.join("dev/delta"));
    let epsilon_fnv = manifest::legacy_dir_hash(&root.join("epsilon"));
    std::fs::remove_file(root.join(HERMES_MANIFEST)).unwrap();
    write(
        &root,
        PYTHON_MANIFEST,
        &format!("{python}delta:{delta_fnv}\nepsilon:{epsilon_fnv}\n"),
    );
    write(
        &root,
        "epsilon/SKILL.md",
        "---\nname: epsilon\ndescription: mine\n---\nx\n",
    );

    let report = sync_from(&root, OURS);
    assert_eq!(report.migrated, vec!["delta", "epsilon"]);
    assert_eq!(
        read(&root, PYTHON_MANIFEST),
        python,
        "only Python's own records stay"
    );
    assert_eq!(ours(&root)["delta"], dir_hash(&root.join("dev/delta")));
    assert_eq!(report.user_modified, vec!["epsilon"]);
    assert_eq!(report.unchanged, 1);
    // Nothing left to migrate.
    assert!(sync_from(&root, OURS).migrated.is_empty());
}

#[test]
fn the_no_bundled_skills_marker_turns_the_sync_off() {
    let home = tempfile::tempdir().unwrap();
    let root = home.path().join("skills");
    write(home.path(), NO_BUNDLED_SKILLS_MARKER, "opted out\n");
    let report = sync_from(&root, V1);
    assert!(report.opted_out);
    assert!(!root.join("beta").exists());
    assert!(!root.join(HERMES_MANIFEST).exists());
    assert!(report.summary().contains("off"));
}

#[test]
fn reset_keeps_copy_or_restores() {
    let home = tempfile::tempdir().unwrap();
    let root = home.path().join("skills");
    sync_from(&root, V1);
    std::fs::write(
        root.join("beta/SKILL.md"),
        "---\nname: beta\ndescription: e\n---\nedited\n",
    )
    .unwrap();

    reset_from(&root, V1, "beta", ResetMode::KeepCopy).unwrap();
    assert!(
        !ours(&root).contains_key("beta"),
        "an edited copy is not re-recorded"
    );
    assert!(read(&root, "beta/SKILL.md").contains("edited"));

    reset_from(&root, V1, "beta", ResetMode::Restore).unwrap();
    assert_eq!(read(&root, "beta/SKILL.md"), V1[2].1);
    assert_eq!(ours(&root)["beta"], dir_hash(&root.join("beta")));
    assert!(matches!(
        reset_from(&root, V1, "nope", ResetMode::Restore),
        Err(SkillError::NotBundled(_))
    ));
}

#[test]
fn reset_of_a_python_hermes_skill_clears_its_record_only() {
    let home = tempfile::tempdir().unwrap();
    let root = home.path().join("skills");
    write(&root, PYTHON_MANIFEST, &python_fixture());
    assert!(matches!(
        reset_from(&root, OURS, "gamma", ResetMode::Restore),
        Err(SkillError::BundledByPython(_))
    ));
    let message = reset_from(&root, OURS, "gamma", ResetMode::KeepCopy).unwrap();
    assert!(message.contains("Python Hermes"), "{message}");
    let left = manifest::read(&root.join(PYTHON_MANIFEST))
        .unwrap()
        .unwrap();
    assert_eq!(left.keys().collect::<Vec<_>>(), vec!["alpha", "beta"]);
    assert_eq!(bundled_by(&root, "beta"), Some(BundledBy::PythonHermes));
    assert_eq!(bundled_by(&root, "gamma"), None);
}
