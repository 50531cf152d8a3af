use super::*;
use crate::config::test_support::{home_with, read};

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(ToString::to_string).collect()
}

const PRESET_MINUS: &str = "  cli:\n    - browser\n    - clarify\n    - code_execution\n    - computer_use\n    - cronjob\n    - delegation\n    - file\n    - image_gen\n    - kanban\n";

#[test]
fn disable_writes_the_list_hermes_writes_and_keeps_comments_and_unknown_keys() {
    let (_dir, home) = home_with(Some(
        "# my settings\nmodel:\n  default: x  # pinned\nmy_plugin:\n  answer: 42\n",
    ));
    let outcome =
        change_toolsets(&home, &names(&["memory", "tts"]), ToolsetAction::Disable).unwrap();
    assert_eq!(outcome.method, EditMethod::InPlace);
    let text = read(&home);
    assert_eq!(
        text,
        format!(
            "# my settings\nmodel:\n  default: x  # pinned\nmy_plugin:\n  answer: 42\nplatform_toolsets:\n{PRESET_MINUS}    - session_search\n    - skills\n    - terminal\n    - todo\n    - vision\n    - web\n"
        )
    );
    // Enabling one again puts it back in place, sorted.
    change_toolsets(&home, &names(&["tts"]), ToolsetAction::Enable).unwrap();
    assert!(
        read(&home).contains("    - todo\n    - tts\n    - vision\n"),
        "{}",
        read(&home)
    );
}

#[test]
fn enable_takes_the_toolset_out_of_agent_disabled_toolsets() {
    let (_dir, home) = home_with(Some(
        "agent:\n  max_turns: 9\n  disabled_toolsets:\n  - memory\n  - web\n",
    ));
    change_toolsets(&home, &names(&["memory"]), ToolsetAction::Enable).unwrap();
    let text = read(&home);
    assert!(
        text.starts_with("agent:\n  max_turns: 9\n  disabled_toolsets:\n  - web\n"),
        "{text}"
    );
    assert!(text.contains("    - memory\n"), "{text}");
    assert!(!text.contains("    - web\n"), "web stays disabled: {text}");
}

#[test]
fn mcp_servers_are_preserved_and_switched_through_disabled_toolsets() {
    let (_dir, home) = home_with(Some(
        "mcp_servers:\n  github:\n    command: gh-mcp\nplatform_toolsets:\n  cli: [hermes-cli, github, no_mcp]\n",
    ));
    change_toolsets(&home, &names(&["web"]), ToolsetAction::Disable).unwrap();
    let loaded = crate::config::load::load(&home);
    let cli = loaded.config.toolsets.cli.unwrap();
    assert!(cli.contains(&"github".to_string()), "{cli:?}");
    assert!(
        !cli.contains(&"no_mcp".to_string()),
        "saving clears no_mcp, as Hermes does"
    );
    assert!(!cli.contains(&"hermes-cli".to_string()) && !cli.contains(&"web".to_string()));
    change_toolsets(&home, &names(&["github"]), ToolsetAction::Disable).unwrap();
    assert_eq!(
        crate::config::load::load(&home).config.toolsets.disabled,
        ["github"]
    );
    change_toolsets(&home, &names(&["github"]), ToolsetAction::Enable).unwrap();
    assert!(
        crate::config::load::load(&home)
            .config
            .toolsets
            .disabled
            .is_empty()
    );
}

#[test]
fn unknown_names_and_malformed_files_are_refused_untouched() {
    let (_dir, home) = home_with(Some("model: x\n"));
    let err = change_toolsets(&home, &names(&["bogus"]), ToolsetAction::Enable).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("unknown toolset 'bogus' (valid: web, browser"),
        "{err}"
    );
    assert!(
        change_toolsets(&home, &names(&["discord"]), ToolsetAction::Enable).is_err(),
        "discord is the discord platform's"
    );
    assert_eq!(read(&home), "model: x\n");
    let (_dir, home) = home_with(Some("model: [\n"));
    assert!(change_toolsets(&home, &names(&["web"]), ToolsetAction::Enable).is_err());
    assert_eq!(read(&home), "model: [\n");
}

#[test]
fn a_file_the_line_editor_cannot_edit_is_rewritten_with_a_backup() {
    let (_dir, home) = home_with(Some("platform_toolsets: {cli: [web]}  # flow\n"));
    let outcome = change_toolsets(&home, &names(&["file"]), ToolsetAction::Enable).unwrap();
    assert_eq!(outcome.method, EditMethod::Reserialized);
    assert!(
        outcome.notices[0].contains("config.yaml.bak"),
        "{:?}",
        outcome.notices
    );
    let loaded = crate::config::load::load(&home);
    assert!(
        loaded
            .config
            .toolsets
            .cli
            .unwrap()
            .contains(&"file".to_string())
    );
}
