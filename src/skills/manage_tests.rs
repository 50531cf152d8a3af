use super::*;
use crate::skills::test_support::*;

fn content(name: &str, body: &str) -> String {
    skill_md(name, "A test skill", "", body)
}

fn setup() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let home = tempfile::tempdir().unwrap();
    let root = home.path().join("skills");
    let ext = home.path().join("ext");
    std::fs::create_dir_all(&root).unwrap();
    add_skill(&ext, "team/shared-ops", "shared-ops", "External");
    (home, root, ext)
}

#[test]
fn create_writes_under_local_root_with_category() {
    let (_home, root, ext) = setup();
    let c = load(&root, std::slice::from_ref(&ext));
    let msg = create(
        &c,
        "my-skill",
        &content("my-skill", "Steps."),
        Some("devops"),
    )
    .unwrap();
    let path = root.join("devops/my-skill/SKILL.md");
    assert!(msg.contains(&path.display().to_string()));
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        content("my-skill", "Steps.")
    );
    let c = load(&root, &[ext]);
    assert_eq!(
        c.get("my-skill").unwrap().category.as_deref(),
        Some("devops")
    );
}

#[test]
fn create_validates_name_frontmatter_and_collisions() {
    let (_home, root, ext) = setup();
    let c = load(&root, &[ext]);
    assert!(matches!(
        create(&c, "Bad Name", &content("Bad Name", "x"), None),
        Err(SkillError::InvalidName { .. })
    ));
    assert!(matches!(
        create(&c, "ok", &content("ok", "x"), Some("../up")),
        Err(SkillError::InvalidName { .. })
    ));
    match create(
        &c,
        "ok",
        "---\nname: ok\ndescription: a: b\n---\nbody\n",
        None,
    ) {
        Err(SkillError::Frontmatter { line, .. }) => assert_eq!(line, 3),
        other => panic!("{other:?}"),
    }
    match create(&c, "ok", &content("other", "x"), None) {
        Err(SkillError::Frontmatter { message, .. }) => assert!(message.contains("does not match")),
        other => panic!("{other:?}"),
    }
    // A name already used by an external skill.
    assert!(matches!(
        create(&c, "shared-ops", &content("shared-ops", "x"), None),
        Err(SkillError::AlreadyExists { .. })
    ));
    assert!(!root.join("ok").exists());
}

#[test]
fn edit_replaces_whole_file_after_validation() {
    let (_home, root, ext) = setup();
    add_skill(&root, "mine", "mine", "Mine");
    let c = load(&root, &[ext]);
    assert!(edit(&c, "mine", "no frontmatter").is_err());
    edit(&c, "mine", &content("mine", "New body.")).unwrap();
    assert!(
        std::fs::read_to_string(root.join("mine/SKILL.md"))
            .unwrap()
            .contains("New body.")
    );
    assert!(matches!(
        edit(&c, "ghost", &content("ghost", "x")),
        Err(SkillError::NotFound(_))
    ));
}

#[test]
fn patch_requires_exactly_one_match() {
    let (_home, root, ext) = setup();
    add_skill(&root, "mine", "mine", "Mine");
    let c = load(&root, &[ext]);
    let path = root.join("mine/SKILL.md");
    let before = std::fs::read_to_string(&path).unwrap();
    let err = patch(
        &c,
        "mine",
        "absent text",
        "x",
        None,
        ReplaceMode::ExactlyOnce,
    )
    .unwrap_err();
    assert!(err.to_string().contains("old_string"), "{err}");
    let err = patch(&c, "mine", "mine", "x", None, ReplaceMode::ExactlyOnce).unwrap_err();
    assert!(err.to_string().contains("matches"), "{err}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), before);

    patch(
        &c,
        "mine",
        "Do the mine thing.",
        "Do it better.",
        None,
        ReplaceMode::ExactlyOnce,
    )
    .unwrap();
    let after = std::fs::read_to_string(&path).unwrap();
    assert_eq!(after, before.replace("Do the mine thing.", "Do it better."));
}

#[test]
fn patch_updates_external_skill_in_place() {
    let (_home, root, ext) = setup();
    let c = load(&root, std::slice::from_ref(&ext));
    patch(
        &c,
        "shared-ops",
        "External",
        "Edited",
        None,
        ReplaceMode::ExactlyOnce,
    )
    .unwrap();
    let text = std::fs::read_to_string(ext.join("team/shared-ops/SKILL.md")).unwrap();
    assert!(text.contains("description: Edited"));
    assert!(!root.join("shared-ops").exists(), "nothing copied locally");
}

#[test]
fn patch_refuses_to_break_frontmatter_and_patches_support_files() {
    let (_home, root, ext) = setup();
    add_skill(&root, "mine", "mine", "Mine");
    write(&root, "mine/references/a.md", "alpha beta alpha\n");
    let c = load(&root, &[ext]);
    let err = patch(
        &c,
        "mine",
        "description: Mine",
        "description: a: b",
        None,
        ReplaceMode::ExactlyOnce,
    )
    .unwrap_err();
    assert!(err.to_string().contains("broken frontmatter"), "{err}");
    patch(
        &c,
        "mine",
        "alpha",
        "gamma",
        Some("references/a.md"),
        ReplaceMode::All,
    )
    .unwrap();
    assert_eq!(
        std::fs::read_to_string(root.join("mine/references/a.md")).unwrap(),
        "gamma beta gamma\n"
    );
    patch(
        &c,
        "mine",
        "Mine",
        "Ours",
        Some("SKILL.md"),
        ReplaceMode::ExactlyOnce,
    )
    .unwrap();
    assert!(
        patch(
            &c,
            "mine",
            "a",
            "b",
            Some("../other/SKILL.md"),
            ReplaceMode::All
        )
        .is_err()
    );
}

#[test]
fn delete_removes_the_skill_directory() {
    let (_home, root, ext) = setup();
    add_skill(&root, "cat/mine", "mine", "Mine");
    let c = load(&root, &[ext]);
    delete(&c, "mine").unwrap();
    assert!(!root.join("cat/mine").exists());
    assert!(root.join("cat").exists());
    assert!(matches!(delete(&c, "never"), Err(SkillError::NotFound(_))));
}

#[test]
fn write_and_remove_supporting_files() {
    let (_home, root, ext) = setup();
    add_skill(&root, "mine", "mine", "Mine");
    let c = load(&root, &[ext]);
    write_file(&c, "mine", "scripts/deep/run.sh", "echo hi\n").unwrap();
    let file = root.join("mine/scripts/deep/run.sh");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "echo hi\n");
    write_file(&c, "mine", "scripts/deep/run.sh", "echo bye\n").unwrap();
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "echo bye\n");
    remove_file(&c, "mine", "scripts/deep/run.sh").unwrap();
    assert!(!root.join("mine/scripts").exists(), "empty dirs cleaned up");
    assert!(root.join("mine/SKILL.md").exists());
    assert!(remove_file(&c, "mine", "scripts/deep/run.sh").is_err());
}

#[test]
fn supporting_file_paths_cannot_escape() {
    let (home, root, ext) = setup();
    add_skill(&root, "mine", "mine", "Mine");
    let c = load(&root, &[ext]);
    for bad in [
        "../evil.md",
        "/etc/passwd",
        "references/../../evil.md",
        "notes.md",
        "references",
        "SKILL.md",
        "",
    ] {
        let err = write_file(&c, "mine", bad, "x").unwrap_err();
        assert!(
            matches!(err, SkillError::InvalidPath(_)),
            "{bad:?}: {err:?}"
        );
    }
    assert!(!root.join("evil.md").exists() && !home.path().join("evil.md").exists());
    assert!(remove_file(&c, "mine", "../mine/SKILL.md").is_err());
    assert!(root.join("mine/SKILL.md").exists());
}

#[cfg(unix)]
#[test]
fn symlinks_out_of_the_skill_are_refused() {
    let (home, root, ext) = setup();
    add_skill(&root, "mine", "mine", "Mine");
    let outside = home.path().join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    std::os::unix::fs::symlink(&outside, root.join("mine/assets")).unwrap();
    let c = load(&root, std::slice::from_ref(&ext));
    let err = write_file(&c, "mine", "assets/x.txt", "x").unwrap_err();
    assert!(err.to_string().contains("outside"), "{err}");
    assert!(!outside.join("x.txt").exists());

    // A skill directory that is itself a symlink is never deleted through.
    let target = home.path().join("elsewhere/linked");
    add_skill(&home.path().join("elsewhere"), "linked", "linked", "Linked");
    std::os::unix::fs::symlink(&target, root.join("linked")).unwrap();
    let c = load(&root, &[ext]);
    assert!(c.get("linked").is_some());
    let err = delete(&c, "linked").unwrap_err();
    assert!(err.to_string().contains("symlink"), "{err}");
    assert!(target.join("SKILL.md").exists());
}

#[test]
fn malformed_skill_can_still_be_fixed() {
    let (_home, root, ext) = setup();
    write(
        &root,
        "broken/SKILL.md",
        "---\nname: broken\ndescription: a: b\n---\nbody\n",
    );
    let c = load(&root, &[ext]);
    // Loaded as Hermes reads broken YAML, with a warning saying what was lost.
    assert_eq!(c.get("broken").unwrap().description, "a: b");
    assert!(c.warnings()[0].message.contains("invalid YAML"));
    patch(
        &c,
        "broken",
        "description: a: b",
        "description: fixed",
        None,
        ReplaceMode::ExactlyOnce,
    )
    .unwrap();
    let c = load(&root, &[]);
    assert_eq!(c.get("broken").unwrap().description, "fixed");
}
