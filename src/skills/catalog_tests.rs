use super::*;
use crate::skills::test_support::*;

#[test]
fn discovers_categories_and_flat_skills_sorted() {
    let home = tempfile::tempdir().unwrap();
    let root = home.path().join("skills");
    add_skill(&root, "devops/deploy", "deploy", "Deploy things");
    add_skill(&root, "flat-one", "flat-one", "A flat skill");
    add_skill(&root, "mlops/training/axolotl", "axolotl", "Fine-tune");
    // Supporting directories of a skill are not searched for skills.
    add_skill(
        &root,
        "devops/deploy/references/nested",
        "nested",
        "not a skill",
    );
    // A skill inside another skill's directory (not a support dir) is found, as in Hermes.
    add_skill(&root, "devops/deploy/canary", "canary", "Nested skill");
    // Dot directories (hub state, archives) are skipped.
    add_skill(&root, ".hub/quarantine/evil", "evil", "quarantined");

    let catalog = load(&root, &[]);
    let names: Vec<(&str, Option<&str>)> = catalog
        .list()
        .iter()
        .map(|s| (s.name.as_str(), s.category.as_deref()))
        .collect();
    assert_eq!(
        names,
        vec![
            ("deploy", Some("devops")),
            ("canary", Some("devops/deploy")),
            ("flat-one", None),
            ("axolotl", Some("mlops/training")),
        ]
    );
    assert!(catalog.warnings().is_empty(), "{:?}", catalog.warnings());
    let deploy = catalog.get("deploy").unwrap();
    assert_eq!(deploy.dir, root.join("devops/deploy"));
    assert_eq!(deploy.origin, SkillOrigin::Local);
    assert!(deploy.body.contains("Do the deploy thing."));
    assert_eq!(
        deploy.supporting_files(),
        vec!["references/nested/SKILL.md"]
    );
    // Lookup by category path and slug.
    assert_eq!(catalog.get("devops/deploy").unwrap().name, "deploy");
    assert_eq!(catalog.get("/Flat One").unwrap().name, "flat-one");
    assert!(catalog.get("missing").is_none());
}

#[test]
fn broken_yaml_still_loads_as_hermes_reads_it_with_a_warning() {
    let home = tempfile::tempdir().unwrap();
    let root = home.path().join("skills");
    add_skill(&root, "good", "good", "Fine");
    let bad = write(
        &root,
        "tools/bad/SKILL.md",
        "---\nname: bad\ndescription: colon: here\nplatforms: [linux]\n---\nbody\n",
    );
    let catalog = load(&root, &[]);
    assert_eq!(catalog.list().len(), 2, "Hermes loads it, so do we");
    let skill = catalog.get("bad").unwrap();
    assert_eq!(skill.description, "colon: here");
    assert_eq!(skill.meta.platforms, vec!["linux"]);
    let w = &catalog.warnings()[0];
    assert_eq!(w.path, bad);
    assert_eq!(w.line, Some(3));
    let shown = w.to_string();
    assert!(
        shown.starts_with(&format!("{}:3: invalid YAML", bad.display())),
        "{shown}"
    );
}

#[test]
fn an_unclosed_fence_loads_the_skill_without_frontmatter_and_warns() {
    let home = tempfile::tempdir().unwrap();
    let root = home.path().join("skills");
    write(
        &root,
        "open/SKILL.md",
        "---\nname: other\n\nDoes a thing.\n",
    );
    let catalog = load(&root, &[]);
    let skill = catalog.get("open").unwrap();
    assert_eq!(
        skill.name, "open",
        "named after its directory, as Hermes does"
    );
    assert_eq!(catalog.warnings().len(), 1);
    assert!(catalog.warnings()[0].message.contains("not closed"));
}

#[test]
fn dependency_and_cache_directories_are_not_searched() {
    let home = tempfile::tempdir().unwrap();
    let root = home.path().join("skills");
    add_skill(&root, "tools/real", "real", "A skill");
    for dir in ["node_modules", "venv", "site-packages", "__pycache__"] {
        add_skill(&root, &format!("tools/real-dev/{dir}/pkg"), dir, "vendored");
    }
    let names: Vec<String> = load(&root, &[])
        .all()
        .iter()
        .map(|(s, _)| s.name.clone())
        .collect();
    assert_eq!(names, vec!["real"]);
}

#[test]
fn missing_fields_fall_back_to_directory_and_body() {
    let home = tempfile::tempdir().unwrap();
    let root = home.path().join("skills");
    write(
        &root,
        "notes/no-front/SKILL.md",
        "# Title\n\nTakes notes well.\n",
    );
    write(
        &root,
        "nameless/SKILL.md",
        "---\nversion: 2\n---\n# T\nDescribes itself.\n",
    );
    let catalog = load(&root, &[]);
    let a = catalog.get("no-front").unwrap();
    assert_eq!(a.description, "Takes notes well.");
    assert_eq!(a.category.as_deref(), Some("notes"));
    let b = catalog.get("nameless").unwrap();
    assert_eq!(b.description, "Describes itself.");
    assert_eq!(b.meta.version.as_deref(), Some("2"));
}

#[test]
fn frontmatter_category_used_for_flat_skills() {
    let home = tempfile::tempdir().unwrap();
    let root = home.path().join("skills");
    write(
        &root,
        "x/SKILL.md",
        &skill_md(
            "x",
            "d",
            "metadata:\n  hermes:\n    category: devops\n",
            "b",
        ),
    );
    assert_eq!(
        load(&root, &[]).get("x").unwrap().category.as_deref(),
        Some("devops")
    );
}

#[test]
fn external_dirs_load_and_local_wins() {
    let home = tempfile::tempdir().unwrap();
    let root = home.path().join("skills");
    let ext = home.path().join("team");
    add_skill(&root, "shared", "shared", "Local version");
    add_skill(&ext, "ops/shared", "shared", "External version");
    add_skill(&ext, "ops/only-external", "only-external", "From the team");
    let missing = home.path().join("does-not-exist");

    let catalog = load(&root, &[missing, ext.clone()]);
    assert!(catalog.warnings().is_empty(), "{:?}", catalog.warnings());
    assert_eq!(catalog.get("shared").unwrap().description, "Local version");
    let external = catalog.get("only-external").unwrap();
    assert_eq!(external.origin, SkillOrigin::External(ext));
    assert_eq!(catalog.list().len(), 2);
    assert!(
        catalog
            .render_index_for_prompt()
            .contains("only-external: From the team")
    );
}

#[test]
fn same_name_twice_in_one_root_warns() {
    let home = tempfile::tempdir().unwrap();
    let root = home.path().join("skills");
    add_skill(&root, "a/dup", "dup", "first");
    add_skill(&root, "b/dup", "dup", "second");
    let catalog = load(&root, &[]);
    assert_eq!(catalog.get("dup").unwrap().description, "first");
    assert_eq!(catalog.warnings().len(), 1);
    assert!(catalog.warnings()[0].message.contains("already used"));
}

#[test]
fn platform_filtering_hides_everywhere() {
    let home = tempfile::tempdir().unwrap();
    let root = home.path().join("skills");
    write(
        &root,
        "win/SKILL.md",
        &skill_md("win", "Windows only", "platforms: [windows]\n", "b"),
    );
    add_skill(&root, "any", "any", "Everywhere");
    let on_linux = load(&root, &[]);
    assert!(on_linux.get("win").is_none());
    assert_eq!(on_linux.list().len(), 1);
    assert!(!on_linux.render_index_for_prompt().contains("win"));
    let (win, visibility) = on_linux.lookup("win").unwrap();
    assert_eq!(visibility, Visibility::HiddenPlatform);
    assert_eq!(on_linux.reasons(win), vec!["for windows only"]);

    let on_windows = SkillCatalog::load(
        &root,
        &[],
        Platform::Windows,
        &Availability::unknown(),
        &Environments::default(),
        &no_env,
    );
    assert!(on_windows.get("win").is_some());
}

#[test]
fn tool_conditions_only_decide_the_prompt_index() {
    let home = tempfile::tempdir().unwrap();
    let root = home.path().join("skills");
    let fallback = "metadata:\n  hermes:\n    fallback_for_toolsets: [web]\n";
    let requires = "metadata:\n  hermes:\n    requires_toolsets: [terminal]\n";
    write(
        &root,
        "ddg/SKILL.md",
        &skill_md("ddg", "DuckDuckGo", fallback, "b"),
    );
    write(
        &root,
        "shell/SKILL.md",
        &skill_md("shell", "Needs terminal", requires, "b"),
    );
    let load_with = |tools: &[&str], toolsets: &[&str]| {
        SkillCatalog::load(
            &root,
            &[],
            Platform::Linux,
            &Availability::new(tools, toolsets),
            &Environments::default(),
            &no_env,
        )
    };
    let indexed = |tools: &[&str], toolsets: &[&str]| {
        let index = load_with(tools, toolsets).render_index_for_prompt();
        ["ddg", "shell"]
            .into_iter()
            .filter(|n| index.contains(&format!("- {n}:")))
            .collect::<Vec<_>>()
    };
    assert_eq!(indexed(&["web_search"], &["web"]), Vec::<&str>::new());
    assert_eq!(indexed(&[], &[]), vec!["ddg"]);
    assert_eq!(indexed(&["terminal"], &["web", "terminal"]), vec!["shell"]);
    assert_eq!(indexed(&["terminal"], &["terminal"]), vec!["ddg", "shell"]);
    // Hermes still lists them and loads them by name (skills_list, skill_view, /shell).
    let none = load_with(&[], &[]);
    assert_eq!(none.list().len(), 2);
    let shell = none.get("shell").unwrap();
    assert_eq!(none.lookup("shell").unwrap().1, Visibility::Unindexed);
    assert_eq!(
        none.reasons(shell),
        vec!["needs toolset `terminal`, which this session does not have"]
    );
    assert!(none.reasons(none.get("ddg").unwrap()).is_empty());
}

#[test]
fn a_skill_for_an_inactive_environment_is_not_offered_but_loads_by_name() {
    let home = tempfile::tempdir().unwrap();
    let root = home.path().join("skills");
    let s6 = "environments: [s6]\n";
    write(
        &root,
        "s6/SKILL.md",
        &skill_md("s6-sup", "s6 only", s6, "b"),
    );
    let odd = "environments: [mars]\n";
    write(
        &root,
        "odd/SKILL.md",
        &skill_md("odd", "unknown tag", odd, "b"),
    );
    let load_in = |active: &[&str]| {
        SkillCatalog::load(
            &root,
            &[],
            Platform::Linux,
            &Availability::unknown(),
            &Environments::active(active),
            &no_env,
        )
    };
    let outside = load_in(&[]);
    let listed: Vec<&str> = outside.list().iter().map(|s| s.name.as_str()).collect();
    assert_eq!(listed, vec!["odd"], "an unknown tag never hides a skill");
    assert!(!outside.render_index_for_prompt().contains("s6-sup"));
    let skill = outside.get("s6-sup").expect("an explicit load is consent");
    assert_eq!(
        outside.reasons(skill),
        vec!["for the s6 environment, not active here"]
    );
    assert_eq!(load_in(&["s6"]).list().len(), 2);
}

#[test]
fn index_is_compact_grouped_and_stable() {
    let home = tempfile::tempdir().unwrap();
    let root = home.path().join("skills");
    add_skill(&root, "devops/deploy", "deploy", "Deploy things");
    add_skill(&root, "devops/backup", "backup", "Back up   the\n database");
    add_skill(&root, "loose", "loose", &"long ".repeat(40));
    let catalog = load(&root, &[]);
    let index = catalog.render_index_for_prompt();
    let block = index
        .split("<available_skills>\n")
        .nth(1)
        .and_then(|s| s.split("\n</available_skills>").next())
        .unwrap();
    let long: String = "long ".repeat(40).trim().chars().take(97).collect();
    assert_eq!(
        block,
        format!(
            "  devops:\n    - backup: Back up the database\n    - deploy: Deploy things\n  general:\n    - loose: {long}..."
        )
    );
    assert!(index.starts_with("## Skills (mandatory)\n"));
    assert!(index.contains("skill_view(name)"));
    assert_eq!(index, load(&root, &[]).render_index_for_prompt());
    let empty = tempfile::tempdir().unwrap();
    assert_eq!(load(empty.path(), &[]).render_index_for_prompt(), "");
}

#[test]
fn expand_dir_handles_tilde_and_variables() {
    let env = |k: &str| match k {
        "HOME" => Some("/home/u".to_string()),
        "SKILLS_REPO" => Some("/repo".to_string()),
        _ => None,
    };
    assert_eq!(
        expand_dir("~/.agents/skills", &env),
        PathBuf::from("/home/u/.agents/skills")
    );
    assert_eq!(
        expand_dir("${SKILLS_REPO}/skills", &env),
        PathBuf::from("/repo/skills")
    );
    assert_eq!(expand_dir("$SKILLS_REPO/x", &env), PathBuf::from("/repo/x"));
    assert_eq!(expand_dir("${NOPE}/x", &env), PathBuf::from("${NOPE}/x"));
    assert_eq!(expand_dir("/a/~b/$", &env), PathBuf::from("/a/~b/$"));
}

#[test]
fn loader_reads_external_dirs_through_its_env() {
    let home = tempfile::tempdir().unwrap();
    let root = home.path().join("skills");
    let ext = home.path().join("ext");
    add_skill(&ext, "x", "x", "external x");
    let ext_str = ext.to_string_lossy().into_owned();
    let mut loader = SkillLoader::new(&root);
    loader.platform = Platform::Linux;
    loader.external_dirs = vec![PathBuf::from("${EXT}")];
    loader.env = Arc::new(move |k| (k == "EXT").then(|| ext_str.clone()));
    let catalog = loader.load();
    assert_eq!(catalog.get("x").unwrap().description, "external x");
    assert_eq!(catalog.external_roots(), &[ext]);
}
