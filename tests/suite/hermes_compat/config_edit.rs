//! `hermes config set` on a `config.yaml` Python wrote keeps everything else as it was: Python
//! writes its full defaults plus a section it does not know (a plugin's), its own commented
//! sections, and the user adds a comment of their own; hermes changes three values; the file
//! differs in exactly those three lines, and Python still loads it — the new values, its own
//! keys, and no new complaint from its own validator.

use super::home::SharedHome;
use super::python::PythonHermes;
use crate::support::ScriptedServer;

const USER_COMMENT: &str = "  # keep this: the team agreed on the turn budget";

/// Python's own validator (`validate_config_structure`), one issue per line.
const PYTHON_VALIDATE: &str = "from hermes_cli.config import validate_config_structure\nfor issue in validate_config_structure():\n    print(issue)";

#[test]
fn hermes_config_set_keeps_what_python_wrote() {
    let Some(py) = PythonHermes::locate() else {
        return;
    };
    let h = SharedHome::new(
        "config-edit",
        py,
        ScriptedServer::start_echo_on_own_thread(),
    );
    let work = h.work("project");
    let base_url = h.server.base_url();
    h.python_code(&format!(
        "import copy\nfrom hermes_cli.config import DEFAULT_CONFIG, save_config\n\
         cfg = copy.deepcopy(DEFAULT_CONFIG)\n\
         cfg['model'] = {{'provider': 'custom', 'base_url': '{base_url}', 'default': 'scripted-model'}}\n\
         cfg['my_plugin'] = {{'answer': 42, 'names': ['a', 'b']}}\n\
         save_config(cfg, strip_defaults=False)"
    ))
    .ok();
    let config_path = h.path("config.yaml");
    let written = std::fs::read_to_string(&config_path).unwrap();
    assert!(
        written.lines().any(|l| l.starts_with('#')),
        "Python writes commented sections"
    );
    let with_comment = written.replacen(
        "\n  max_turns: 90\n",
        &format!("\n{USER_COMMENT}\n  max_turns: 90\n"),
        1,
    );
    assert_ne!(
        with_comment, written,
        "the default config has agent.max_turns: 90"
    );
    std::fs::write(&config_path, &with_comment).unwrap();
    let complaints_before = h.python_code(PYTHON_VALIDATE).ok().stdout;

    for (key, value) in [
        ("agent.max_turns", "42"),
        ("display.skin", "mono"),
        ("memory.memory_char_limit", "3000"),
    ] {
        h.hermes(&work, &["config", "set", key, value]).ok();
    }
    let edited = std::fs::read_to_string(&config_path).unwrap();
    check_only_lines_changed(
        &h,
        &with_comment,
        &edited,
        &[
            "  max_turns: 42",
            "  skin: mono",
            "  memory_char_limit: 3000",
        ],
    );

    for (key, want) in [
        ("agent.max_turns", "42"),
        ("display.skin", "mono"),
        ("memory.memory_char_limit", "3000"),
        ("my_plugin.answer", "42"),
        ("model.base_url", base_url.as_str()),
    ] {
        let got = h.python(&work, &["config", "get", key]);
        h.check(got.code() == Some(0) && got.stdout.trim() == want, || {
            format!("after hermes config set, Python's `config get {key}` is not {want:?}:\n{got}")
        });
    }
    let complaints_after = h.python_code(PYTHON_VALIDATE).ok().stdout;
    h.check(complaints_after == complaints_before, || {
        format!("Python's validator complains after hermes's edits:\nbefore:\n{complaints_before}\nafter:\n{complaints_after}")
    });
    h.finish();
}

/// `after` is `before` with some lines replaced by exactly `wanted` (each once), nothing else.
fn check_only_lines_changed(h: &SharedHome, before: &str, after: &str, wanted: &[&str]) {
    let (old, new): (Vec<&str>, Vec<&str>) = (before.lines().collect(), after.lines().collect());
    if old.len() != new.len() {
        let first = old
            .iter()
            .zip(&new)
            .position(|(a, b)| a != b)
            .unwrap_or(old.len().min(new.len()));
        h.check(false, || {
            format!(
                "hermes config set changed the number of lines of Python's config.yaml ({} → {}); first difference at line {}: {:?} → {:?}",
                old.len(),
                new.len(),
                first + 1,
                old.get(first),
                new.get(first),
            )
        });
        return;
    }
    let changed: Vec<(usize, &str, &str)> = old
        .iter()
        .zip(&new)
        .enumerate()
        .filter(|(_, (a, b))| a != b)
        .map(|(i, (a, b))| (i + 1, *a, *b))
        .collect();
    let mut got: Vec<&str> = changed.iter().map(|c| c.2).collect();
    got.sort_unstable();
    let mut want = wanted.to_vec();
    want.sort_unstable();
    h.check(got == want, || {
        format!("hermes config set changed other lines of Python's config.yaml (line, before, after): {changed:#?}")
    });
}
