use std::collections::BTreeMap;
use std::path::Path;

use super::*;

fn tools(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(n, t)| (n.to_string(), t.to_string()))
        .collect()
}

fn env() -> EnvLookup {
    EnvLookup::from_maps(BTreeMap::new(), BTreeMap::new())
}

#[test]
fn lists_the_toolsets_hermes_has_with_state_tools_and_reasons() {
    let loaded = crate::config::load::parse(
        "memory:\n  memory_enabled: false\n  user_profile_enabled: false\nagent:\n  disabled_toolsets: [todo]\nmcp_servers:\n  github:\n    command: gh\n",
        Path::new("/h/config.yaml"),
    );
    let ours = tools(&[
        ("terminal", "terminal"),
        ("process", "terminal"),
        ("todo", "todo"),
        ("memory", "memory"),
        ("web_search", "web"),
    ]);
    let list = toolset_list(&loaded.config, &env(), &ours, None);
    let names: Vec<&str> = list.toolsets.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["web", "terminal", "todo", "memory", "github"]);
    let web = &list.toolsets[0];
    assert!(web.enabled && web.label.contains("Web Search"));
    assert_eq!(web.tools[0].name, "web_search");
    assert_eq!(web.tools[0].unavailable, None);
    assert_eq!(
        web.tools[1].unavailable.as_deref(),
        Some("not in hermes yet")
    );
    assert!(
        !list.toolsets[2].enabled,
        "todo is in agent.disabled_toolsets"
    );
    let memory = &list.toolsets[3].tools[0];
    assert!(
        memory
            .unavailable
            .as_deref()
            .unwrap()
            .contains("memory.memory_enabled")
    );
    assert!(list.toolsets[4].enabled && list.toolsets[4].tools.is_empty());
    assert_eq!(list.applies, APPLIES);
    assert!(not_in_hermes(&ours).contains(&"browser"));
    assert!(!not_in_hermes(&ours).contains(&"web"));
}

#[test]
fn in_session_follows_the_running_selection_not_the_file() {
    let loaded = crate::config::load::parse("model: x\n", Path::new("/h/config.yaml"));
    let ours = tools(&[("terminal", "terminal"), ("todo", "todo")]);
    let cfg = crate::config::toolsets::ToolsetsConfig::default();
    let session = ToolSelection::from_flag(&["terminal".into()], &cfg);
    let list = toolset_list(&loaded.config, &env(), &ours, Some(&session));
    assert!(list.toolsets.iter().all(|t| t.enabled));
    let in_session: Vec<bool> = list.toolsets.iter().map(|t| t.in_session).collect();
    assert_eq!(in_session, [true, false]);
}
