use super::*;
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
    let manifest = read_manifest(&root);
    assert_eq!(manifest.keys().collect::<Vec<_>>(), vec!["alpha", "beta"]);
    assert_eq!(manifest["alpha"], dir_hash(&root.join("dev/alpha")));
    let text = read(&root, MANIFEST);
    assert!(
        text.starts_with("alpha:") && text.contains("\nbeta:"),
        "{text}"
    );

    let second = sync_from(&root, V1);
    assert_eq!(
        second,
        SyncReport {
            unchanged: 2,
            ..SyncReport::default()
        }
    );
    assert_eq!(read_manifest(&root), manifest);
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
fn adding_a_file_counts_as_a_user_edit() {
    let home = tempfile::tempdir().unwrap();
    let root = home.path().join("skills");
    sync_from(&root, V1);
    write(&root, "dev/alpha/scripts/mine.sh", "echo\n");
    let report = sync_from(&root, V2);
    assert_eq!(report.user_modified, vec!["alpha"]);
    assert_eq!(read(&root, "dev/alpha/SKILL.md"), V1[0].1);
}

#[test]
fn user_deleted_skill_is_not_re_added() {
    let home = tempfile::tempdir().unwrap();
    let root = home.path().join("skills");
    sync_from(&root, V1);
    std::fs::remove_dir_all(root.join("beta")).unwrap();
    let report = sync_from(&root, V2);
    assert_eq!(report.user_deleted, vec!["beta"]);
    assert!(!root.join("beta").exists());
    assert!(read_manifest(&root).contains_key("beta"));
}

#[test]
fn upstream_removed_skill_leaves_manifest_only_without_a_copy() {
    let home = tempfile::tempdir().unwrap();
    let root = home.path().join("skills");
    sync_from(&root, V1);
    let only_beta: &[(&str, &str)] = &[V1[2]];
    let report = sync_from(&root, only_beta);
    assert!(report.cleaned.is_empty(), "alpha's copy remains");
    assert!(read_manifest(&root).contains_key("alpha"));
    assert!(
        root.join("dev/alpha/SKILL.md").exists(),
        "never deleted by sync"
    );

    std::fs::remove_dir_all(root.join("dev/alpha")).unwrap();
    let report = sync_from(&root, only_beta);
    assert_eq!(report.cleaned, vec!["alpha"]);
    assert!(!read_manifest(&root).contains_key("alpha"));
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
    assert!(!read_manifest(&root).contains_key("beta"));
    // A byte-identical pre-existing copy is adopted.
    let other = tempfile::tempdir().unwrap();
    write(other.path(), "beta/SKILL.md", V1[2].1);
    let report = sync_from(other.path(), V1);
    assert_eq!(report.unchanged, 1);
    assert!(read_manifest(other.path()).contains_key("beta"));
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
    assert!(!read_manifest(&root).contains_key("beta"));
    assert!(read(&root, "beta/SKILL.md").contains("edited"));

    reset_from(&root, V1, "beta", ResetMode::Restore).unwrap();
    assert_eq!(read(&root, "beta/SKILL.md"), V1[2].1);
    assert_eq!(read_manifest(&root)["beta"], dir_hash(&root.join("beta")));
    assert!(matches!(
        reset_from(&root, V1, "nope", ResetMode::Restore),
        Err(SkillError::NotBundled(_))
    ));
}

#[test]
fn v1_manifest_lines_are_read_without_hash() {
    let home = tempfile::tempdir().unwrap();
    write(home.path(), MANIFEST, "alpha\nbeta:abc\n\n");
    let m = read_manifest(home.path());
    assert_eq!(m["alpha"], "");
    assert_eq!(m["beta"], "abc");
}

#[test]
fn hash_depends_on_paths_and_contents() {
    let a = hash_files([("a", b"x".as_slice())].into_iter());
    assert_eq!(a, hash_files([("a", b"x".as_slice())].into_iter()));
    assert_ne!(a, hash_files([("b", b"x".as_slice())].into_iter()));
    assert_ne!(a, hash_files([("a", b"y".as_slice())].into_iter()));
    assert_eq!(a.len(), 16);
}
