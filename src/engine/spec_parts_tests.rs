use super::*;

fn skill(root: &Path, name: &str, toolsets: &str) {
    let dir = root.join(name);
    std::fs::create_dir_all(&dir).unwrap();
    let text = format!(
        "---\nname: {name}\ndescription: {name} skill\nmetadata:\n  hermes:\n    requires_toolsets: [{toolsets}]\n---\nDo it.\n"
    );
    std::fs::write(dir.join("SKILL.md"), text).unwrap();
}

#[test]
fn the_prompt_index_leaves_out_skills_whose_toolsets_the_session_lacks() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("skills");
    skill(&root, "needs-terminal", "terminal");
    // Hermes's own research-paper-writing asks for `files`, which no session has.
    skill(&root, "needs-files", "terminal, files");
    let loader = SkillLoader::new(&root);
    let mut notices = Vec::new();
    let mut tools = ToolRegistry::core();
    tools
        .register(Arc::new(SkillViewTool::new(Arc::new(loader.clone()))))
        .unwrap();
    let (index, commands) = skills_overview(&loader, &tools, &mut notices);
    assert!(notices.is_empty(), "{notices:?}");
    assert!(
        index.contains("- needs-terminal: needs-terminal skill"),
        "{index}"
    );
    assert!(!index.contains("needs-files"), "{index}");
    // As in Hermes, it is still a slash command (and listed, and viewable).
    assert!(commands.iter().any(|c| c.name == "needs-files"));
}

#[test]
fn without_a_skills_tool_the_index_leaves_the_prompt() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("skills");
    skill(&root, "needs-terminal", "terminal");
    let loader = SkillLoader::new(&root);
    let (index, commands) = skills_overview(&loader, &ToolRegistry::core(), &mut Vec::new());
    assert_eq!(index, "", "the skills toolset is off");
    assert!(
        commands.iter().any(|c| c.name == "needs-terminal"),
        "/skill still works"
    );
}

fn registry() -> (tempfile::TempDir, ToolRegistry) {
    let dir = tempfile::tempdir().unwrap();
    let home = HermesHome::from_base(dir.path(), None).unwrap();
    let skills = Arc::new(SkillLoader::new(dir.path().join("skills")));
    let web = web_settings(
        &home,
        &crate::config::Config::default(),
        &EnvLookup::from_maps(Default::default(), Default::default()),
    );
    let tools = build_tools(&home, None, &skills, &MemorySettings::default(), &web);
    (dir, tools)
}

#[test]
fn every_built_tool_is_in_the_hermes_toolset_it_names() {
    let (_dir, tools) = registry();
    for tool in tools.tools() {
        let def = crate::config::toolset_catalog::get(tool.toolset());
        assert!(
            def.is_some_and(|d| d.tools.contains(&tool.name())),
            "{} says toolset {}, which Hermes's table does not give it",
            tool.name(),
            tool.toolset()
        );
    }
}

#[test]
fn apply_toolsets_keeps_only_the_selected_tools() {
    use crate::config::toolsets::ToolsetsConfig;
    let (_dir, tools) = registry();
    let config = ToolsetsConfig {
        cli: Some(vec!["file".into(), "memory".into(), "todo".into()]),
        disabled: vec!["memory".into()],
        ..ToolsetsConfig::default()
    };
    let selection = crate::config::toolset_selection::ToolSelection::from_config(&config, &[]);
    let kept = apply_toolsets(&tools, &selection);
    assert_eq!(
        kept.names(),
        ["read_file", "write_file", "patch", "search_files", "todo"]
    );
    let all = hermes_tools(&tools);
    assert!(
        all.iter()
            .any(|(n, t)| n == "session_search" && t == "session_search")
    );
}
