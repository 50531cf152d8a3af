//! Hermes's full default `config.yaml` — `DEFAULT_CONFIG` (`_config_version: 33`, 744 lines)
//! written by Python's own `save_config` — pointed at the scripted provider with Python's own
//! `hermes config set` (as a user who picked a custom endpoint has it) starts a hermes `-z`
//! turn with no error. The warnings hermes prints on that turn are an explicit expected set,
//! and `hermes config show` must not call keys hermes uses "not used".

use super::home::SharedHome;
use super::python::PythonHermes;
use crate::support::ScriptedServer;

/// Writes `DEFAULT_CONFIG` in full, as Python Hermes writes it (comments included).
pub const WRITE_FULL_DEFAULT_CONFIG: &str = "import copy\nfrom hermes_cli.config import DEFAULT_CONFIG, save_config\nsave_config(copy.deepcopy(DEFAULT_CONFIG), strip_defaults=False)";

/// What hermes may print on stderr for a `-z` turn with Hermes's full default config. Each
/// entry must be a warning a user would agree with; today there is none to expect.
const EXPECTED_TURN_WARNINGS: &[&str] = &[];

/// Top-level keys of Hermes's config that hermes uses (issue 18 items 2, 4 and 10), which
/// `hermes config show` must therefore never list as "kept but not used".
const USED_BY_HERMES: &[&str] = &[
    "model",
    "agent",
    "providers",
    "memory",
    "prompt_caching",
    "hooks",
    "hooks_auto_accept",
    "command_allowlist",
];

#[test]
fn hermes_full_default_config_starts_a_hermes_turn() {
    let Some(py) = PythonHermes::locate() else {
        return;
    };
    let h = SharedHome::new(
        "default-config",
        py,
        ScriptedServer::start_echo_on_own_thread(),
    );
    let work = h.work("project");
    h.python_code(WRITE_FULL_DEFAULT_CONFIG).ok();
    let written = std::fs::read_to_string(h.path("config.yaml")).unwrap();
    assert!(
        written.lines().count() >= 700 && written.contains("_config_version: 33"),
        "Python wrote its full default config:\n{written}"
    );
    let base_url = h.server.base_url();
    for (key, value) in [
        ("model.provider", "custom"),
        ("model.base_url", base_url.as_str()),
        ("model.default", "scripted-model"),
    ] {
        h.python(&work, &["config", "set", key, value]).ok();
    }
    // Control: Python itself runs a turn with this config.
    let python = h.python(&work, &["-z", "hello from python"]).ok();
    assert_eq!(
        python.stdout.trim(),
        "You said: hello from python",
        "{python}"
    );

    let turn = h.hermes(&work, &["-z", "hello from hermes"]);
    h.check(
        turn.code() == Some(0) && turn.stdout.trim() == "You said: hello from hermes",
        || format!("hermes cannot run a turn with Hermes's full default config:\n{turn}"),
    );
    let warnings = turn.stderr_lines();
    h.check(warnings == EXPECTED_TURN_WARNINGS, || {
        format!("hermes -z with Hermes's default config printed {warnings:#?}, expected {EXPECTED_TURN_WARNINGS:#?}")
    });

    let show = h.hermes(&work, &["config", "show"]).ok();
    let not_used: Vec<String> = show
        .stdout
        .lines()
        .filter(|l| l.contains("not used"))
        .filter_map(|l| l.split_once(": ").map(|(_, keys)| keys.to_string()))
        .flat_map(|keys| {
            keys.split(", ")
                .map(|k| k.trim().to_string())
                .collect::<Vec<_>>()
        })
        .collect();
    let wrong: Vec<&&str> = USED_BY_HERMES
        .iter()
        .filter(|k| not_used.iter().any(|n| n == **k))
        .collect();
    h.check(wrong.is_empty(), || {
        format!(
            "hermes config show calls keys hermes uses \"not used\" (issue 18 item 4): {wrong:?}"
        )
    });
    h.finish();
}
