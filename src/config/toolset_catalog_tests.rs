use std::collections::BTreeSet;

use super::*;

#[test]
fn every_include_names_a_toolset_and_configurable_follows_hermes_order() {
    for def in all() {
        for include in &def.includes {
            assert!(
                get(include).is_some(),
                "{} includes unknown {include}",
                def.name
            );
        }
    }
    let names: Vec<&str> = configurable().iter().map(|l| l.name).collect();
    assert_eq!(&names[..4], ["web", "browser", "terminal", "file"]);
    assert_eq!(names.len(), 25);
    for name in &names {
        assert!(is_configurable(name), "{name}");
    }
    assert_eq!(all().len(), 57, "Hermes 0.19 has 57 toolsets");
}

#[test]
fn resolve_expands_includes_and_the_all_alias() {
    let debugging = resolve("debugging");
    let expected: BTreeSet<&str> = [
        "terminal",
        "process",
        "web_search",
        "web_extract",
        "read_file",
        "write_file",
        "patch",
        "search_files",
    ]
    .into();
    assert_eq!(debugging, expected);
    assert_eq!(
        resolve("safe"),
        [
            "web_search",
            "web_extract",
            "vision_analyze",
            "image_generate"
        ]
        .into()
    );
    assert!(resolve("nope").is_empty());
    assert!(resolve("all").is_superset(&resolve("hermes-cli")));
    assert_eq!(resolve("*"), resolve("all"));
    assert!(is_known("all") && is_known("hermes-cli") && !is_known("hermes"));
}

#[test]
fn disabling_a_bundle_keeps_the_core_tools() {
    assert!(tools_removed_by_disabling("hermes-cli").is_empty());
    let discord = tools_removed_by_disabling("hermes-discord");
    assert_eq!(discord, ["discord", "discord_admin"].into());
    assert!(
        tools_removed_by_disabling("coding").is_empty(),
        "a posture toolset"
    );
    assert_eq!(tools_removed_by_disabling("memory"), ["memory"].into());
}

#[test]
fn hermes_tools_are_in_the_toolsets_hermes_gives_them() {
    // Each built-in tool's `toolset()` (src/tools) is the Hermes toolset of the same name.
    for (tool, toolset) in [
        ("terminal", "terminal"),
        ("process", "terminal"),
        ("read_file", "file"),
        ("write_file", "file"),
        ("patch", "file"),
        ("search_files", "file"),
        ("todo", "todo"),
        ("clarify", "clarify"),
        ("memory", "memory"),
        ("session_search", "session_search"),
        ("skills_list", "skills"),
        ("skill_view", "skills"),
        ("skill_manage", "skills"),
        ("delegate_task", "delegation"),
        ("text_to_speech", "tts"),
        ("vision_analyze", "vision"),
        ("web_search", "web"),
        ("web_extract", "web"),
    ] {
        assert!(
            get(toolset).is_some_and(|d| d.tools.contains(&tool)),
            "{tool} is not in Hermes's {toolset}"
        );
    }
}
