//! Toolsets on one `HERMES_HOME`, Python → hermes → Python: Python Hermes's `hermes tools
//! disable` writes `platform_toolsets.cli`; hermes's `hermes tools list` shows the same state
//! for every toolset it has, and its next session leaves the disabled tools out of the
//! request; hermes's `hermes tools enable|disable` then writes a list Python reads back to
//! the same state (its own `hermes tools list`), with Python's comments still in the file.

use std::collections::BTreeMap;

use super::home::SharedHome;
use super::python::PythonHermes;
use crate::support::ScriptedServer;

/// `✓ enabled  NAME …` / `✗ disabled  NAME …` lines of either program's `tools list`.
fn states(list: &str) -> BTreeMap<String, bool> {
    list.lines()
        .take_while(|l| !l.starts_with("MCP servers"))
        .filter_map(|l| {
            let mut words = l.split_whitespace();
            let mark = words.next()?;
            let _state = words.next()?;
            let name = words.next()?;
            match mark {
                "✓" => Some((name.to_string(), true)),
                "✗" => Some((name.to_string(), false)),
                _ => None,
            }
        })
        .collect()
}

fn compare(h: &SharedHome, step: &str, ours: &str, python: &str) {
    let (ours, python) = (states(ours), states(python));
    h.check(!ours.is_empty(), || {
        format!("{step}: hermes listed no toolsets")
    });
    for (name, enabled) in &ours {
        h.check(python.get(name) == Some(enabled), || {
            format!(
                "{step}: hermes says {name} is {}, Python says {:?}",
                if *enabled { "enabled" } else { "disabled" },
                python.get(name)
            )
        });
    }
}

#[test]
fn both_programs_read_the_toolsets_the_other_wrote() {
    let Some(py) = PythonHermes::locate() else {
        return;
    };
    let h = SharedHome::new("toolsets", py, ScriptedServer::start_echo_on_own_thread());
    let work = h.work("project");
    let base_url = h.server.base_url();
    h.python_code(&format!(
        "import copy\nfrom hermes_cli.config import DEFAULT_CONFIG, save_config\n\
         cfg = copy.deepcopy(DEFAULT_CONFIG)\n\
         cfg['model'] = {{'provider': 'custom', 'base_url': '{base_url}', 'default': 'scripted-model'}}\n\
         save_config(cfg, strip_defaults=False)"
    ))
    .ok();
    let comments = |text: &str| {
        text.lines()
            .filter(|l| l.trim_start().starts_with('#'))
            .count()
    };
    let written = std::fs::read_to_string(h.path("config.yaml")).unwrap();

    h.python(&work, &["tools", "disable", "memory", "tts"]).ok();
    let ours = h.hermes(&work, &["tools", "list"]).ok();
    let python = h.python(&work, &["tools", "list"]).ok();
    compare(&h, "after Python's disable", &ours.stdout, &python.stdout);
    h.check(states(&ours.stdout).get("memory") == Some(&false), || {
        format!("hermes does not see Python's disable:\n{}", ours.stdout)
    });
    h.hermes(&work, &["-z", "hi"]).ok();
    let requests = h.server.completion_requests();
    let tools = requests
        .last()
        .map(crate::support::scripted::request::RecordedRequest::tool_names)
        .unwrap_or_default();
    h.check(
        tools.iter().any(|t| t == "terminal")
            && !tools.iter().any(|t| t == "memory" || t == "text_to_speech"),
        || format!("hermes's session after Python's disable offers {tools:?}"),
    );

    h.hermes(&work, &["tools", "disable", "todo"]).ok();
    h.hermes(&work, &["tools", "enable", "tts"]).ok();
    let ours = h.hermes(&work, &["tools", "list"]).ok();
    let python = h.python(&work, &["tools", "list"]).ok();
    compare(
        &h,
        "after hermes's enable/disable",
        &ours.stdout,
        &python.stdout,
    );
    let python_states = states(&python.stdout);
    h.check(
        python_states.get("todo") == Some(&false) && python_states.get("tts") == Some(&true),
        || format!("Python does not see hermes's changes:\n{}", python.stdout),
    );
    let edited = std::fs::read_to_string(h.path("config.yaml")).unwrap();
    h.check(comments(&edited) == comments(&written), || {
        format!("hermes's edit lost Python's comments:\n{edited}")
    });

    // agent.disabled_toolsets beside a preset plus an opt-in, written by hand.
    let mixed = edited
        .replace("platform_toolsets:\n", "platform_toolsets_old:\n")
        .replace(
            "  disabled_toolsets: []\n",
            "  disabled_toolsets: [web, session_search]\n",
        );
    h.check(mixed.contains("[web, session_search]"), || {
        format!("Python's default file has no `disabled_toolsets: []`:\n{edited}")
    });
    std::fs::write(
        h.path("config.yaml"),
        format!("{mixed}platform_toolsets:\n  cli: [hermes-cli, spotify]\n"),
    )
    .unwrap();
    let ours = h.hermes(&work, &["tools", "list"]).ok();
    let python = h.python(&work, &["tools", "list"]).ok();
    compare(
        &h,
        "a preset, an opt-in and disabled_toolsets",
        &ours.stdout,
        &python.stdout,
    );
    h.finish();
}
