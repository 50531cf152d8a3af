use super::*;
use crate::skills::test_support::*;

fn setup() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let home = tempfile::tempdir().unwrap();
    let root = home.path().join("skills");
    let ext = home.path().join("ext");
    add_skill(&root, "devops/deploy", "deploy", "Deploy things");
    add_skill(&ext, "team-thing", "team-thing", "From the team");
    write(
        &root,
        "win/SKILL.md",
        &skill_md("win", "Windows", "platforms: [windows]\n", "w"),
    );
    (home, root, ext)
}

#[test]
fn list_shows_a_table_with_sources_and_hidden_count() {
    let (_home, root, ext) = setup();
    let out = list(&load(&root, &[ext]));
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].starts_with("NAME")
            && lines[0].contains("CATEGORY")
            && lines[0].contains("DESCRIPTION")
    );
    assert!(
        lines[1].starts_with("deploy") && lines[1].contains("devops") && lines[1].contains("local")
    );
    assert!(lines[2].starts_with("team-thing") && lines[2].contains("external"));
    assert_eq!(lines[3], "2 skill(s)");
    assert_eq!(lines[5], "Not offered here:");
    assert_eq!(lines[6], "  win: for windows only");
    let empty = tempfile::tempdir().unwrap();
    assert_eq!(list(&load(empty.path(), &[])), "No skills installed.");
}

const MULTILINE: &str =
    include_str!("../../tests/fixtures/skill-frontmatter/multiline-description/SKILL.md");
const UNKNOWN_TOOLSET: &str =
    include_str!("../../tests/fixtures/skill-frontmatter/unknown-toolset/SKILL.md");
const LIST_AUTHOR: &str =
    include_str!("../../tests/fixtures/skill-frontmatter/list-author/SKILL.md");

#[test]
fn a_multi_line_description_is_one_table_line_cut_with_an_ellipsis() {
    let home = tempfile::tempdir().unwrap();
    let root = home.path().join("skills");
    write(&root, "desktop/multiline-description/SKILL.md", MULTILINE);
    let out = list_for_width(&load(&root, &[]), Some(80));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    let row = lines[1];
    assert!(row.starts_with("multiline-description  desktop"), "{row}");
    assert!(row.ends_with('…'), "{row}");
    assert!(row.chars().count() <= 80, "{row}");
    assert!(
        row.ends_with("Drive the desktop in the background…"),
        "{row}"
    );
    // Without a terminal width the column is 72 characters.
    let wide = list(&load(&root, &[]));
    let description = wide.lines().nth(1).unwrap().rsplit("  ").next().unwrap();
    let shown = description.chars().count();
    assert!(
        (60..=DEFAULT_DESCRIPTION_WIDTH).contains(&shown) && description.ends_with('…'),
        "{description}"
    );
}

#[test]
fn a_skill_needing_a_toolset_hermes_lacks_is_listed_with_the_reason() {
    let home = tempfile::tempdir().unwrap();
    let root = home.path().join("skills");
    write(&root, "research/unknown-toolset/SKILL.md", UNKNOWN_TOOLSET);
    let catalog = SkillCatalog::load(
        &root,
        &[],
        crate::skills::Platform::Linux,
        &crate::skills::Availability::new(&["terminal", "read_file"], &["terminal", "file"]),
        &crate::skills::skill::Environments::default(),
        &no_env,
    );
    let out = list(&catalog);
    assert!(
        out.lines().nth(1).unwrap().starts_with("unknown-toolset"),
        "{out}"
    );
    assert!(
        out.contains(
            "not in the agent's skill index (load them with skill_view or /name):\n  unknown-toolset: needs toolset `files`, which this session does not have"
        ),
        "{out}"
    );
    let shown = show(&catalog, "unknown-toolset").unwrap();
    assert!(
        shown.contains(
            "Status: available, but not in the agent's skill index (needs toolset `files`"
        ),
        "{shown}"
    );
    assert!(catalog.warnings().is_empty());
}

#[test]
fn sources_say_builtin_hub_or_local_and_show_lists_the_metadata() {
    let home = tempfile::tempdir().unwrap();
    let root = home.path().join("skills");
    write(&root, "creative/list-author/SKILL.md", LIST_AUTHOR);
    add_skill(&root, "apple/apple-notes", "apple-notes", "Python's");
    add_skill(&root, "hubbed", "hubbed", "From the hub");
    write(
        &root,
        ".bundled_manifest",
        "apple-notes:5e448abf984561fb33b197045ce41388\n",
    );
    write(
        &root,
        ".hub/lock.json",
        r#"{"version": 1, "installed": {"hubbed": {}}}"#,
    );
    let out = list(&load(&root, &[]));
    let source = |name: &str| {
        let row = out.lines().find(|l| l.starts_with(name)).unwrap();
        row.split_whitespace().nth(2).unwrap().to_string()
    };
    assert_eq!(source("apple-notes"), "builtin");
    assert_eq!(source("hubbed"), "hub");
    assert_eq!(source("list-author"), "local");
    let shown = show(&load(&root, &[]), "list-author").unwrap();
    for line in [
        "Version: 1.0\n",
        "Author: kshitijk4poor, alt-glitch, purzbeats\n",
        "License: MIT\n",
        "Tags: render, media\n",
        "Commands: python3\n",
        "Environment: RENDER_CLOUD_KEY, RENDER_TOKEN\n",
    ] {
        assert!(shown.contains(line), "{line:?} in\n{shown}");
    }
}

#[test]
fn show_prints_status_and_content() {
    let (_home, root, ext) = setup();
    let c = load(&root, &[ext]);
    let out = show(&c, "deploy").unwrap();
    assert!(out.starts_with("deploy — Deploy things\nPath: "));
    assert!(out.contains("Status: available"));
    assert!(out.ends_with("Do the deploy thing.\n"));
    assert!(
        show(&c, "win")
            .unwrap()
            .contains("hidden (not for this platform)")
    );
    assert!(matches!(show(&c, "nope"), Err(SkillError::NotInstalled(_))));
}

#[test]
fn show_of_an_unreadable_skill_names_the_file_and_the_problem() {
    let (_home, root, ext) = setup();
    std::fs::create_dir_all(root.join("broken")).unwrap();
    std::fs::write(
        root.join("broken/SKILL.md"),
        b"---\nname: broken\n\xff\xfe\n---\n",
    )
    .unwrap();
    let c = load(&root, &[ext]);
    let err = show(&c, "broken").unwrap_err().to_string();
    assert!(
        err.starts_with("skill 'broken' could not be loaded: ") && err.contains("broken/SKILL.md"),
        "{err}"
    );
    assert!(!err.contains("skills_list()"), "{err}");
}

#[test]
fn install_copies_a_directory_with_its_files() {
    let (home, root, ext) = setup();
    let src = home.path().join("download/my-tool");
    write(
        &src,
        "SKILL.md",
        &skill_md("my-tool", "A tool", "", "Use the tool."),
    );
    write(&src, "references/api.md", "api");
    write(&src, ".git/config", "junk");
    let c = load(&root, std::slice::from_ref(&ext));
    let msg = install(&c, &src.to_string_lossy(), &InstallOptions::default()).unwrap();
    assert!(msg.contains("(2 file(s))"), "{msg}");
    assert_eq!(
        std::fs::read_to_string(root.join("my-tool/references/api.md")).unwrap(),
        "api"
    );
    assert!(!root.join("my-tool/.git").exists());
    assert!(load(&root, &[ext]).get("my-tool").is_some());
}

#[test]
fn install_from_skill_md_path_or_single_file() {
    let (home, root, ext) = setup();
    let src = home.path().join("dl");
    write(
        &src,
        "pkg/SKILL.md",
        "---\ndescription: no name\n---\nbody\n",
    );
    write(&src, "pkg/scripts/x.sh", "x");
    let c = load(&root, std::slice::from_ref(&ext));
    let opts = InstallOptions {
        category: Some("tools".into()),
        ..InstallOptions::default()
    };
    install(&c, &src.join("pkg/SKILL.md").to_string_lossy(), &opts).unwrap();
    assert!(
        root.join("tools/pkg/scripts/x.sh").exists(),
        "named after its directory"
    );

    write(
        &src,
        "solo-skill.md",
        "---\ndescription: one file\n---\nbody\n",
    );
    install(
        &c,
        &src.join("solo-skill.md").to_string_lossy(),
        &InstallOptions::default(),
    )
    .unwrap();
    assert!(root.join("solo-skill/SKILL.md").exists());

    write(&src, "Bad Name.md", "---\ndescription: x\n---\nbody\n");
    let err = install(
        &c,
        &src.join("Bad Name.md").to_string_lossy(),
        &InstallOptions::default(),
    )
    .unwrap_err();
    assert!(err.to_string().contains("--name"), "{err}");
    let opts = InstallOptions {
        name: Some("renamed".into()),
        ..InstallOptions::default()
    };
    install(&c, &src.join("Bad Name.md").to_string_lossy(), &opts).unwrap();
    assert!(root.join("renamed/SKILL.md").exists());
}

#[test]
fn install_refuses_urls_malformed_and_existing() {
    let (home, root, ext) = setup();
    let c = load(&root, &[ext]);
    for url in [
        "https://host/x/my-skill/SKILL.md",
        "http://a/b",
        "git@github.com:o/r.git",
    ] {
        let err = install(&c, url, &InstallOptions::default()).unwrap_err();
        assert!(
            matches!(err, SkillError::NetworkInstallUnsupported(_)),
            "{url}"
        );
        assert!(err.to_string().contains("not supported in this build"));
    }
    let err = install(
        &c,
        "official/security/1password",
        &InstallOptions::default(),
    )
    .unwrap_err();
    assert!(err.to_string().contains("no such file"));

    let src = home.path().join("dl");
    write(
        &src,
        "broken/SKILL.md",
        "---\nname: broken\ndescription: a: b\n---\nx\n",
    );
    let err = install(
        &c,
        &src.join("broken").to_string_lossy(),
        &InstallOptions::default(),
    )
    .unwrap_err();
    assert!(
        matches!(err, SkillError::Frontmatter { line: 3, .. }),
        "{err:?}"
    );

    write(
        &src,
        "deploy/SKILL.md",
        &skill_md("deploy", "New deploy", "", "new"),
    );
    let err = install(
        &c,
        &src.join("deploy").to_string_lossy(),
        &InstallOptions::default(),
    )
    .unwrap_err();
    assert!(err.to_string().contains("--force"));
    assert!(root.join("devops/deploy/SKILL.md").exists());
    let opts = InstallOptions {
        force: true,
        ..InstallOptions::default()
    };
    install(&c, &src.join("deploy").to_string_lossy(), &opts).unwrap();
    assert!(!root.join("devops/deploy").exists());
    assert!(
        std::fs::read_to_string(root.join("deploy/SKILL.md"))
            .unwrap()
            .contains("New deploy")
    );
}

#[test]
fn remove_deletes_local_only() {
    let (_home, root, ext) = setup();
    let c = load(&root, std::slice::from_ref(&ext));
    let msg = remove(&c, "deploy").unwrap();
    assert!(msg.starts_with("Removed skill 'deploy'"));
    assert!(!root.join("devops/deploy").exists());
    let err = remove(&c, "team-thing").unwrap_err();
    assert!(err.to_string().contains("external"));
    assert!(ext.join("team-thing/SKILL.md").exists());
    assert!(matches!(remove(&c, "ghost"), Err(SkillError::NotFound(_))));
}

#[test]
fn removing_a_bundled_skill_explains_reset() {
    let home = tempfile::tempdir().unwrap();
    let root = home.path().join("skills");
    crate::skills::sync_bundled(&root);
    let msg = remove(&load(&root, &[]), "git-commit").unwrap();
    assert!(
        msg.contains("hermes skills reset git-commit --restore"),
        "{msg}"
    );
    let report = crate::skills::sync_bundled(&root);
    assert_eq!(report.user_deleted, vec!["git-commit"]);

    // One of Python Hermes's: its tombstone keeps both programs from re-adding it.
    add_skill(&root, "apple/apple-notes", "apple-notes", "Python's");
    write(
        &root,
        ".bundled_manifest",
        "apple-notes:5e448abf984561fb33b197045ce41388\n",
    );
    let msg = remove(&load(&root, &[]), "apple-notes").unwrap();
    assert!(msg.contains("Python Hermes's bundled skills"), "{msg}");
}
