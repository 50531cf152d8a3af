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
    let (index, commands) = skills_overview(&loader, &ToolRegistry::core(), &mut notices);
    assert!(notices.is_empty(), "{notices:?}");
    assert!(
        index.contains("- needs-terminal: needs-terminal skill"),
        "{index}"
    );
    assert!(!index.contains("needs-files"), "{index}");
    // As in Hermes, it is still a slash command (and listed, and viewable).
    assert!(commands.iter().any(|c| c.name == "needs-files"));
}
