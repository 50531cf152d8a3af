use super::*;
use crate::skills::test_support::*;

fn setup() -> (tempfile::TempDir, std::path::PathBuf) {
    let home = tempfile::tempdir().unwrap();
    let root = home.path().join("skills");
    write(
        &root,
        "media/gif-search/SKILL.md",
        &skill_md(
            "gif-search",
            "Find GIFs",
            "metadata:\n  hermes:\n    config:\n      - key: gif.dir\n        description: Where GIFs go\n        default: ~/gifs\n      - key: gif.size\n        description: GIF size\nrequired_environment_variables:\n  - name: TENOR_API_KEY\n    prompt: Tenor API key\n",
            "# GIF Search\n\nCall the Tenor API.",
        ),
    );
    write(&root, "media/gif-search/scripts/search.sh", "#!/bin/sh\n");
    add_skill(&root, "research", "research", "Single research skill");
    add_skill(&root, "review", "review", "Review code");
    write(
        &root,
        "win/SKILL.md",
        &skill_md("win", "Windows", "platforms: [windows]\n", "w"),
    );
    let bundles = home.path().join("skill-bundles");
    write(
        &bundles,
        "research.yaml",
        "description: Research bundle\nskills: [review, nonexistent, win, media/gif-search]\ninstruction: Cite sources.\n",
    );
    (home, root)
}

fn catalog(home: &std::path::Path, root: &std::path::Path) -> SkillCatalog {
    load(root, &[]).with_bundles(&home.join("skill-bundles"))
}

#[test]
fn skill_invocation_is_hermes_formatted_user_message() {
    let (home, root) = setup();
    let c = catalog(home.path(), &root);
    let msg = skill_invocation(&c, "/gif-search", "  funny cats ").unwrap();
    let dir = root.join("media/gif-search");
    let expected = format!(
        "[IMPORTANT: The user has invoked the \"gif-search\" skill, indicating they want you to follow its instructions. The full skill content is loaded below.]\n\
         \n\
         # GIF Search\n\
         \n\
         Call the Tenor API.\n\
         \n\
         [Skill directory: {dir}]\n\
         {SKILL_DIR_NOTE}\n\
         \n\
         [Skill config (from ~/.hermes/config.yaml):\n  gif.dir = ~/gifs\n  gif.size = (not set)\n]\n\
         \n\
         [This skill has supporting files (paths relative to the skill directory above):]\n\
         - scripts/search.sh\n\
         \n\
         Load any of these with skill_view(name=\"gif-search\", file_path=\"<path>\"), or run scripts directly by absolute path.\n\
         \n\
         The user has provided the following instruction alongside the skill invocation: funny cats",
        dir = dir.display()
    );
    assert_eq!(msg, expected);
}

#[test]
fn bare_invocation_has_no_instruction_line() {
    let (home, root) = setup();
    let c = catalog(home.path(), &root);
    let msg = skill_invocation(&c, "review", "").unwrap();
    assert!(msg.contains("Do the review thing."));
    assert!(!msg.contains("The user has provided the following instruction"));
}

#[test]
fn unknown_and_hidden_skills_are_not_invocable() {
    let (home, root) = setup();
    let c = catalog(home.path(), &root);
    assert_eq!(skill_invocation(&c, "nope", "x"), None);
    assert_eq!(skill_invocation(&c, "win", "x"), None);
}

#[test]
fn context_resolves_config_and_notes_missing_env() {
    let (home, root) = setup();
    let c = catalog(home.path(), &root);
    let config = |k: &str| (k == "gif.size").then(|| "large".to_string());
    let ctx = InvocationContext {
        env: &no_env,
        config: &config,
        home_display: "/h",
    };
    let msg = skill_invocation_with(&c, "gif-search", "", Some(&ctx)).unwrap();
    assert!(
        msg.contains(
            "[Skill config (from /h/config.yaml):\n  gif.dir = ~/gifs\n  gif.size = large\n]"
        ),
        "{msg}"
    );
    assert!(msg.contains("[Skill setup note: Required environment variables are not set: TENOR_API_KEY (Tenor API key)."), "{msg}");
    assert!(msg.contains("/h/.env"));

    let env = |k: &str| (k == "TENOR_API_KEY").then(|| "secret".to_string());
    let ctx = InvocationContext {
        env: &env,
        config: &config,
        home_display: "/h",
    };
    let msg = skill_invocation_with(&c, "gif-search", "", Some(&ctx)).unwrap();
    assert!(!msg.contains("setup note"));
    assert!(!msg.contains("secret"), "values are never shown");
}

#[test]
fn bundle_wins_and_lists_missing_skills() {
    let (home, root) = setup();
    let c = catalog(home.path(), &root);
    let msg = skill_invocation(&c, "research", "compare Rust TUIs").unwrap();
    let header_end = msg.find("\n\n[Loaded as part").unwrap();
    assert_eq!(
        &msg[..header_end],
        "[IMPORTANT: The user has invoked the \"research\" skill bundle, loading 2 skills together. Treat every skill below as active guidance for this turn.]\n\
         \n\
         Skills loaded: review, gif-search\n\
         Skills missing (skipped): nonexistent, win\n\
         \n\
         Bundle instruction: Cite sources.\n\
         \n\
         User instruction: compare Rust TUIs"
    );
    assert!(!msg.contains("Single research skill") && !msg.contains("Do the research thing."));
    let review = msg.find("Do the review thing.").unwrap();
    let gif = msg.find("Call the Tenor API.").unwrap();
    assert!(
        header_end < review && review < gif,
        "skills follow the header in bundle order"
    );
    assert!(
        msg.contains("[Loaded as part of the \"research\" skill bundle: skill \"gif-search\".]")
    );
}

#[test]
fn bundle_with_no_resolvable_skill_still_answers() {
    let home = tempfile::tempdir().unwrap();
    let root = home.path().join("skills");
    write(
        &home.path().join("skill-bundles"),
        "empty.yaml",
        "skills: [ghost]\n",
    );
    let c = catalog(home.path(), &root);
    let msg = skill_invocation(&c, "empty", "").unwrap();
    assert!(msg.contains("loading 0 skills"));
    assert!(msg.contains("Skills loaded: (none)\nSkills missing (skipped): ghost"));
}

#[test]
fn slash_names_include_bundles_and_visible_skills() {
    let (home, root) = setup();
    let c = catalog(home.path(), &root);
    assert_eq!(
        slash_names(&c),
        vec![
            ("gif-search".to_string(), "Find GIFs".to_string()),
            ("research".to_string(), "Research bundle".to_string()),
            ("review".to_string(), "Review code".to_string()),
        ]
    );
}

#[test]
fn missing_env_lists_unset_or_empty_variables() {
    let (home, root) = setup();
    let c = catalog(home.path(), &root);
    let skill = c.get("gif-search").unwrap();
    let missing = missing_env(skill, &no_env);
    assert_eq!(missing.len(), 1);
    assert_eq!(missing[0].name, "TENOR_API_KEY");
    assert_eq!(missing[0].prompt.as_deref(), Some("Tenor API key"));
    assert!(missing_env(skill, &|_| Some(" ".to_string())).len() == 1);
    assert!(missing_env(skill, &|_| Some("v".to_string())).is_empty());
}
