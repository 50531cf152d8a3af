use std::path::Path;

use crate::config::load::parse;

fn load(text: &str) -> crate::config::LoadedConfig {
    parse(text, Path::new("/h/config.yaml"))
}

#[test]
fn reads_the_three_keys_as_hermes_writes_them() {
    let loaded = load(
        "toolsets:\n- hermes-cli\nplatform_toolsets:\n  cli:\n    - web\n    - 12306\n  telegram: [hermes-telegram]\nagent:\n  disabled_toolsets: [memory]\n",
    );
    let t = &loaded.config.toolsets;
    assert_eq!(t.toolsets, ["hermes-cli"]);
    assert_eq!(
        t.cli.as_deref(),
        Some(&["web".to_string(), "12306".to_string()][..])
    );
    assert_eq!(t.disabled, ["memory"]);
    assert_eq!(loaded.warnings.len(), 1, "{:?}", loaded.warnings);
    let warning = loaded.warnings[0].to_string();
    assert!(warning.contains("unknown toolset '12306'"), "{warning}");
}

#[test]
fn a_missing_or_non_list_platform_entry_means_the_preset() {
    assert_eq!(load("model: x\n").config.toolsets.cli, None);
    assert_eq!(
        load("platform_toolsets:\n  cli: hermes-cli\n")
            .config
            .toolsets
            .cli,
        None
    );
    let empty = load("platform_toolsets:\n  cli: []\n");
    assert_eq!(empty.config.toolsets.cli, Some(Vec::new()));
}

#[test]
fn unknown_names_are_warned_with_the_file_the_line_and_the_valid_names() {
    let loaded = load("platform_toolsets:\n  cli:\n  - hermes\n");
    let text: Vec<String> = loaded.warnings.iter().map(ToString::to_string).collect();
    assert_eq!(text.len(), 2, "{text:?}");
    assert!(text[0].starts_with("/h/config.yaml:2"), "{}", text[0]);
    assert!(
        text[0].contains(
            "platform 'cli' references unknown toolset 'hermes' — did you mean 'hermes-cli'?"
        ),
        "{}",
        text[0]
    );
    assert!(
        text[0].contains("(valid: web, browser, terminal, file,"),
        "{}",
        text[0]
    );
    assert!(
        text[1].contains("resolves to zero valid toolsets"),
        "{}",
        text[1]
    );

    let loaded = load("agent:\n  disabled_toolsets: [memroy]\ntoolsets: [hermes-cli]\n");
    let text: Vec<String> = loaded.warnings.iter().map(ToString::to_string).collect();
    assert_eq!(text.len(), 1, "{text:?}");
    assert!(
        text[0].contains("agent.disabled_toolsets names unknown toolset 'memroy'"),
        "{}",
        text[0]
    );
}

#[test]
fn mcp_server_names_and_no_mcp_are_valid() {
    let loaded = load(
        "mcp_servers:\n  github:\n    command: gh-mcp\nplatform_toolsets:\n  cli: [hermes-cli, github, mcp-github, no_mcp]\n",
    );
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
}
