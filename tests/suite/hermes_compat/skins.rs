//! Every skin Hermes 0.19 ships or documents: its built-in skins (`_BUILTIN_SKINS` in
//! `hermes_cli/skin_engine.py`, dumped to YAML by Python as a user would save one) and the
//! schema template in that module's docstring (which repeats `status_bar_bg`, so it needs
//! PyYAML's last-wins rule and a warning naming the line). Each must pass
//! `hermes skins validate` with no error, and hermes's built-in skins of the same names must
//! have Hermes's colours, branding, spinner and tool prefix, key for key.

use std::collections::BTreeMap;
use std::path::Path;

use super::home::SharedHome;
use super::python::PythonHermes;
use crate::support::ScriptedServer;

/// Dumps each built-in skin to `DIR/NAME.yaml` and prints, as JSON, each one resolved the way
/// Hermes loads a skin (the default's values overlaid by the skin's): `{name: {"colors": {..},
/// "branding": {..}, "spinner": {..}, "tool_prefix": ".."}}`.
const DUMP_BUILTIN_SKINS: &str = r#"import json, yaml
from hermes_cli.skin_engine import _BUILTIN_SKINS, _build_skin_config
resolved = {}
for name, data in _BUILTIN_SKINS.items():
    with open(f"{DIR}/{name}.yaml", "w", encoding="utf-8") as f:
        yaml.safe_dump(data, f, allow_unicode=True, sort_keys=False)
    skin = _build_skin_config(data)
    resolved[name] = {"colors": skin.colors, "branding": skin.branding, "spinner": skin.spinner, "tool_prefix": skin.tool_prefix}
print(json.dumps(resolved))"#;

#[test]
fn every_skin_hermes_ships_or_documents_validates_and_builtins_match() {
    let Some(py) = PythonHermes::locate() else {
        return;
    };
    let h = SharedHome::new("skins", py, ScriptedServer::start_echo_on_own_thread());
    let work = h.work("project");
    let skins = h.work("skins");

    let dump = h
        .python_code(&DUMP_BUILTIN_SKINS.replace("{DIR}", &skins.display().to_string()))
        .ok();
    let python_skins: BTreeMap<String, serde_json::Value> =
        serde_json::from_str(dump.stdout.trim()).unwrap_or_else(|e| panic!("{e}:\n{dump}"));
    assert!(
        python_skins.len() >= 9,
        "Hermes 0.19 ships 9 skins:\n{dump}"
    );

    let (template, duplicate_line) =
        documented_template(&h.py.source_file("hermes_cli/skin_engine.py"));
    let template_path = skins.join("documented-template.yaml");
    std::fs::write(&template_path, template).unwrap();

    for name in python_skins.keys() {
        let file = skins.join(format!("{name}.yaml"));
        let run = h.hermes(&work, &["skins", "validate", &file.display().to_string()]);
        h.check(run.code() == Some(0), || {
            format!("Hermes's built-in skin {name} does not validate in hermes:\n{run}")
        });
    }
    let run = h.hermes(
        &work,
        &["skins", "validate", &template_path.display().to_string()],
    );
    h.check(run.code() == Some(0), || {
        format!("the skin template in Hermes's skin-engine docs does not validate in hermes (issue 18 item 7):\n{run}")
    });
    let said = format!("{}{}", run.stdout, run.stderr);
    h.check(
        said.contains("status_bar_bg") && said.contains(&duplicate_line.to_string()),
        || format!("the duplicate `status_bar_bg` on line {duplicate_line} of the template is not reported with its line:\n{run}"),
    );

    for (name, python) in &python_skins {
        let show = h.hermes(&work, &["skins", "show", name]);
        if show.code() != Some(0) {
            h.check(false, || {
                format!("hermes has no built-in skin {name}:\n{show}")
            });
            continue;
        }
        let shown: serde_norway::Value = serde_norway::from_str(&show.stdout)
            .unwrap_or_else(|e| panic!("hermes skins show {name} is not YAML: {e}\n{show}"));
        let shown: serde_json::Value = serde_json::to_value(&shown).unwrap();
        let differ = differences(python, &shown);
        h.check(differ.is_empty(), || {
            format!(
                "built-in skin {name} differs from Hermes 0.19's (issue 18 item 7): {differ:#?}"
            )
        });
    }
    h.finish();
}

/// Every value of Python's resolved skin (colours compared without regard to hex case) that
/// hermes's `skins show` does not have the same.
fn differences(python: &serde_json::Value, hermes: &serde_json::Value) -> Vec<String> {
    let mut differ = Vec::new();
    for section in ["colors", "branding", "spinner"] {
        let Some(entries) = python[section].as_object() else {
            continue;
        };
        for (key, want) in entries {
            let have = &hermes[section][key];
            let same = match (want.as_str(), have.as_str()) {
                (Some(w), Some(h)) if section == "colors" => w.eq_ignore_ascii_case(h),
                _ => want == have,
            };
            if !same {
                differ.push(format!("{section}.{key}: Hermes {want}, hermes {have}"));
            }
        }
    }
    if python["tool_prefix"] != hermes["tool_prefix"] {
        differ.push(format!(
            "tool_prefix: Hermes {}, hermes {}",
            python["tool_prefix"], hermes["tool_prefix"]
        ));
    }
    differ
}

/// The YAML code block of `skin_engine.py`'s docstring, dedented, and the 1-based line of its
/// second `status_bar_bg` key.
fn documented_template(source: &Path) -> (String, usize) {
    let text = std::fs::read_to_string(source).unwrap();
    let start = text
        .find(".. code-block:: yaml")
        .expect("skin_engine.py documents the skin schema");
    let block = &text[start..];
    let block = &block[block.find('\n').unwrap() + 1..];
    let end = block
        .find("\nUSAGE")
        .expect("the schema block ends before USAGE");
    let yaml: String = block[..end]
        .lines()
        .map(|l| l.strip_prefix("    ").unwrap_or(l))
        .collect::<Vec<_>>()
        .join("\n")
        .trim_matches('\n')
        .to_string()
        + "\n";
    let duplicate_line = yaml
        .lines()
        .enumerate()
        .filter(|(_, l)| l.trim_start().starts_with("status_bar_bg:"))
        .map(|(i, _)| i + 1)
        .nth(1)
        .expect("the documented template repeats status_bar_bg");
    (yaml, duplicate_line)
}
