use super::*;
use crate::skills::skill::Platform;

const LIST_AUTHOR: &str =
    include_str!("../../tests/fixtures/skill-frontmatter/list-author/SKILL.md");
const MULTILINE: &str =
    include_str!("../../tests/fixtures/skill-frontmatter/multiline-description/SKILL.md");
const UNKNOWN_TOOLSET: &str =
    include_str!("../../tests/fixtures/skill-frontmatter/unknown-toolset/SKILL.md");

fn clean(text: &str) -> SkillMeta {
    let read = read_frontmatter(text);
    assert!(read.problems.is_empty(), "{:?}", read.problems);
    read.meta
}

#[test]
fn a_list_author_and_a_numeric_version_are_accepted() {
    let meta = clean(LIST_AUTHOR);
    assert_eq!(
        meta.author.as_deref(),
        Some("kshitijk4poor, alt-glitch, purzbeats")
    );
    assert_eq!(meta.version.as_deref(), Some("1.0"));
    assert_eq!(meta.license.as_deref(), Some("MIT"));
    assert_eq!(meta.tags, vec!["render", "media"], "a comma string, split");
    assert_eq!(meta.related_skills, vec!["other-skill"]);
    assert_eq!(meta.commands, vec!["python3"]);
    assert!(parse_frontmatter(LIST_AUTHOR).is_ok(), "strict reading too");
}

#[test]
fn setup_secrets_and_legacy_prerequisites_become_required_variables() {
    let meta = clean(LIST_AUTHOR);
    let names: Vec<&str> = meta.required_env.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, vec!["RENDER_CLOUD_KEY", "RENDER_TOKEN"]);
    let cloud = &meta.required_env[0];
    assert_eq!(cloud.prompt.as_deref(), Some("Cloud API key"));
    assert_eq!(cloud.help.as_deref(), Some("https://example.invalid/keys"));
    let token = &meta.required_env[1];
    assert_eq!(token.prompt, None);
    assert_eq!(
        token.help.as_deref(),
        Some("Run scripts/setup.sh first."),
        "setup.help is the fallback help"
    );
}

#[test]
fn a_multi_line_description_keeps_its_lines() {
    let meta = clean(MULTILINE);
    let description = meta.description.unwrap();
    assert!(description.starts_with("Drive the desktop in the background"));
    assert_eq!(description.lines().count(), 3);
    assert_eq!(meta.category.as_deref(), Some("desktop"));
}

#[test]
fn requires_toolsets_naming_an_unknown_toolset_is_read_as_written() {
    let meta = clean(UNKNOWN_TOOLSET);
    assert_eq!(meta.conditions.requires_toolsets, vec!["terminal", "files"]);
    assert_eq!(meta.author.as_deref(), Some("Someone"));
}

#[test]
fn scalars_lists_and_booleans_are_coerced_silently() {
    let text = "---\nname: x\nversion: 2\nauthor: true\nplatforms: MacOS\n\
        metadata:\n  hermes:\n    tags: \"[a, 'b']\"\n    requires_tools: terminal\n---\nbody\n";
    let meta = clean(text);
    assert_eq!(meta.version.as_deref(), Some("2"));
    assert_eq!(meta.author.as_deref(), Some("True"), "as Python prints it");
    assert_eq!(meta.platforms, vec!["macos"]);
    assert_eq!(meta.tags, vec!["a", "b"]);
    assert_eq!(meta.conditions.requires_tools, vec!["terminal"]);
}

#[test]
fn a_repeated_key_keeps_its_last_value() {
    let meta = clean("---\nname: x\ndescription: first\ndescription: second\n---\nbody\n");
    assert_eq!(meta.description.as_deref(), Some("second"));
}

#[test]
fn malformed_variable_and_config_entries_are_skipped_as_hermes_skips_them() {
    let text = "---\nname: x\nrequired_environment_variables:\n  - prompt: no name\n\
        \x20 - name: 9BAD\n  - name: OK_VAR\n    optional: yes\n  - OK_VAR\n  - LATER\n\
        metadata:\n  hermes:\n    config:\n      key: one.key\n      description: A single mapping\n---\nb\n";
    let meta = clean(text);
    let names: Vec<&str> = meta.required_env.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(
        names,
        vec!["OK_VAR", "LATER"],
        "no name, invalid, repeat: skipped"
    );
    assert!(meta.required_env[0].optional);
    assert_eq!(
        meta.config,
        vec![ConfigSetting {
            key: "one.key".into(),
            description: Some("A single mapping".into()),
            default: None,
            prompt: Some("A single mapping".into()),
        }]
    );
    let text = "---\nname: x\nmetadata:\n  hermes:\n    config:\n      - key: no.description\n      - just-a-string\n---\nb\n";
    assert!(clean(text).config.is_empty());
}

#[test]
fn what_hermes_would_silently_lose_is_a_problem_but_not_fatal() {
    let read = read_frontmatter("---\nname: [a, b]\ndescription: d\n---\nbody\n");
    assert_eq!(read.meta.name, None);
    assert_eq!(read.meta.description.as_deref(), Some("d"));
    assert_eq!(read.problems.len(), 1);
    assert_eq!(read.problems[0].line, 2);
    assert!(read.problems[0].message.contains("'name'"));
    assert!(parse_frontmatter("---\nname: [a, b]\n---\nbody\n").is_err());

    let read = read_frontmatter("---\n- a\n- b\n---\nbody");
    assert!(read.problems[0].message.contains("mapping"));
    assert_eq!(read.body, "body");
}

#[test]
fn a_rule_line_is_not_a_fence() {
    let (yaml, body) = split_frontmatter("----\ntext\n").unwrap();
    assert_eq!(yaml, None);
    assert_eq!(body, "----\ntext\n");
    let (yaml, _) = split_frontmatter("---  \nname: x\n---\nb").unwrap();
    assert_eq!(yaml, Some("name: x\n"));
}

#[test]
fn platforms_match_as_hermes_matches_sys_platform() {
    assert!(Platform::Windows.admits("win"));
    assert!(Platform::Linux.admits("lin"));
    assert!(Platform::Macos.admits("macos"));
    assert!(Platform::Macos.admits("darwin"));
    assert!(Platform::Macos.admits("osx"), "a hermes extra");
    assert!(!Platform::Linux.admits("macos"));
    assert!(!Platform::Windows.admits("windows-server"));
}
