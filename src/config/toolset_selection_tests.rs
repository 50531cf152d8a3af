use std::collections::BTreeSet;

use super::*;

fn config(cli: Option<&[&str]>, disabled: &[&str]) -> ToolsetsConfig {
    ToolsetsConfig {
        toolsets: vec!["hermes-cli".into()],
        cli: cli.map(|names| names.iter().map(ToString::to_string).collect()),
        disabled: disabled.iter().map(ToString::to_string).collect(),
    }
}

fn set(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(ToString::to_string).collect()
}

/// What Python Hermes 0.19's `_get_platform_tools({}, "cli")` returns (without xAI
/// credentials or HASS_TOKEN).
const HERMES_CLI_DEFAULT: &[&str] = &[
    "browser",
    "clarify",
    "code_execution",
    "computer_use",
    "cronjob",
    "delegation",
    "file",
    "image_gen",
    "kanban",
    "memory",
    "session_search",
    "skills",
    "terminal",
    "todo",
    "tts",
    "vision",
    "web",
];

#[test]
fn the_default_is_the_hermes_cli_preset_minus_the_default_off_toolsets() {
    let enabled = enabled_toolsets(&config(None, &[]), &[], DefaultMcp::Include);
    assert_eq!(enabled, set(HERMES_CLI_DEFAULT));
}

#[test]
fn an_explicit_list_is_taken_as_written() {
    let enabled = enabled_toolsets(
        &config(Some(&["terminal", "file"]), &[]),
        &[],
        DefaultMcp::Include,
    );
    // `kanban` is recovered: the preset lists its tools and no configurable toolset owns them.
    assert_eq!(enabled, set(&["file", "kanban", "terminal"]));
    let none = enabled_toolsets(&config(Some(&[]), &[]), &[], DefaultMcp::Include);
    assert_eq!(none, set(&["kanban"]));
}

#[test]
fn a_preset_beside_configurable_names_adds_what_it_covers_but_not_default_off_toolsets() {
    let enabled = enabled_toolsets(
        &config(Some(&["hermes-cli", "spotify"]), &[]),
        &[],
        DefaultMcp::Include,
    );
    let mut expected = set(HERMES_CLI_DEFAULT);
    expected.insert("spotify".into());
    assert_eq!(enabled, expected);
    let debugging = enabled_toolsets(&config(Some(&["debugging"]), &[]), &[], DefaultMcp::Include);
    assert!(
        debugging.contains("web") && debugging.contains("file") && debugging.contains("terminal")
    );
    assert!(!debugging.contains("memory"));
}

#[test]
fn disabled_toolsets_go_last_whatever_else_says() {
    let enabled = enabled_toolsets(&config(None, &["memory", "web"]), &[], DefaultMcp::Include);
    assert!(!enabled.contains("memory") && !enabled.contains("web"));
    let enabled = enabled_toolsets(
        &config(Some(&["memory"]), &["memory"]),
        &[],
        DefaultMcp::Include,
    );
    assert!(!enabled.contains("memory"));
}

#[test]
fn mcp_servers_are_all_on_unless_the_list_names_some_or_says_no_mcp() {
    let servers = vec!["github".to_string(), "fs".to_string()];
    let all = enabled_toolsets(&config(None, &[]), &servers, DefaultMcp::Include);
    assert!(all.contains("github") && all.contains("fs"));
    let edit_view = enabled_toolsets(&config(None, &[]), &servers, DefaultMcp::Exclude);
    assert!(!edit_view.contains("github"));
    let allow = enabled_toolsets(
        &config(Some(&["file", "github"]), &[]),
        &servers,
        DefaultMcp::Include,
    );
    assert!(allow.contains("github") && !allow.contains("fs"));
    let none = enabled_toolsets(
        &config(Some(&["file", "no_mcp"]), &[]),
        &servers,
        DefaultMcp::Include,
    );
    assert!(!none.contains("github") && !none.contains("fs") && !none.contains("no_mcp"));
    let disabled = enabled_toolsets(&config(None, &["fs"]), &servers, DefaultMcp::Include);
    assert!(disabled.contains("github") && !disabled.contains("fs"));
}

#[test]
fn a_selection_offers_tools_by_name_and_mcp_tools_by_server() {
    let servers = vec!["github".to_string()];
    let selection = ToolSelection::from_config(&config(Some(&["file", "todo"]), &[]), &servers);
    assert!(selection.offers("read_file", "file"));
    assert!(selection.offers("todo", "todo"));
    assert!(!selection.offers("terminal", "terminal"));
    assert!(!selection.offers("memory", "memory"));
    assert!(
        selection.offers("mcp_github_x", "mcp-github"),
        "a list naming no server has them all"
    );
    assert!(
        !selection.offers("hermes_only", "unknown"),
        "an unlisted tool goes by its toolset"
    );

    let selection = ToolSelection::from_config(&config(None, &["memory"]), &servers);
    assert!(selection.offers("mcp_github_x", "mcp-github"));
    assert!(!selection.offers("memory", "memory"));
    assert!(selection.offers("terminal", "terminal"));
}

#[test]
fn the_flag_replaces_the_config_but_disabled_toolsets_still_go() {
    let cfg = config(Some(&["file"]), &["memory"]);
    let flag = ToolSelection::from_flag(&["terminal".into(), "memory".into()], &cfg);
    assert!(flag.offers("terminal", "terminal"));
    assert!(!flag.offers("read_file", "file"));
    assert!(!flag.offers("memory", "memory"));
    assert!(!flag.offers_mcp("github"), "--toolsets without the server");
    let all = ToolSelection::from_flag(&["all".into()], &cfg);
    assert!(all.offers("read_file", "file") && all.offers_mcp("github"));
    assert!(!all.offers("memory", "memory"));
    let bundle = ToolSelection::from_flag(&["all".into()], &config(None, &["hermes-cli"]));
    assert!(
        bundle.offers("terminal", "terminal"),
        "disabling a bundle keeps core tools"
    );
    let composite = ToolSelection::from_flag(&["all".into()], &config(None, &["debugging"]));
    assert!(
        !composite.offers("read_file", "file"),
        "a disabled composite takes its tools"
    );
    assert!(composite.offers("todo", "todo"));
    assert!(ToolSelection::everything().offers("anything", "anywhere"));
}
