use super::*;

#[test]
fn keys_hermes_reads_raw_or_by_another_name_are_used() {
    for key in [
        "hooks",
        "hooks.pre_tool_call",
        "hooks_auto_accept",
        "command_allowlist",
        "mcp_servers",
        "mcp_servers.github.command",
        "agent",
        "agent.max_turns",
        "agent.max_iterations",
        "agent.api_max_retries",
        "max_turns",
        "memory.memory_enabled",
        "memory.user_char_limit",
        "auxiliary.vision",
        "stt.local",
        "model.name",
        "approvals.deny",
    ] {
        assert!(is_used(key), "{key}");
    }
    for key in [
        "agent.reasoning_overrides",
        "agent.gateway_timeout",
        "discord",
        "memory.provider",
        "auxiliary.web_extract",
        "stt.mistral",
        "hook",
        "hooks_auto",
    ] {
        assert!(!is_used(key), "{key}");
    }
}

#[test]
fn unused_keys_are_grouped_per_section_and_typos_apart() {
    let raw: Value = serde_norway::from_str(
        "hooks: {}\nagent:\n  max_turns: 5\n  gateway_timeout: 9\n  max_turn: 3\ndiscord:\n  x: 1\n\
         model: m\nwhatever: 1\nmemory:\n  provider: mem0\n  memory_enabled: false\n",
    )
    .unwrap();
    let unused = unused_keys(&raw);
    assert_eq!(
        unused.kept,
        vec![
            (None, vec!["discord".to_string()]),
            (Some("agent".into()), vec!["gateway_timeout".to_string()]),
            (Some("memory".into()), vec!["provider".to_string()]),
        ]
    );
    assert_eq!(unused.unknown, vec!["agent.max_turn", "whatever"]);
}
