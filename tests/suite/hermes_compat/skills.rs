//! All 177 of Hermes 0.19's own skills — the 73 bundled ones, seeded by Python's own sync, and
//! the 104 optional ones, copied in as `hermes skills install official/...` lays them out —
//! load in hermes with no warning: `hermes skills list` shows each one this platform may see,
//! and a session start prints nothing on stderr.
//!
//! hermes must show every skill Python's own discovery finds in the same tree (which leaves
//! out those whose `platforms:` exclude this OS); a `fallback_for_toolsets` skill (shown only
//! while that toolset is missing) may be hidden. Note the layout: Python installs the optional
//! `dogfood/adversarial-ux-test` inside the bundled `dogfood` skill's directory.

use std::path::Path;

use serde_norway::Value;

use super::home::SharedHome;
use super::manifest::PYTHON_SKILLS_SYNC;
use super::manifest::skill_dirs;
use super::python::PythonHermes;
use crate::support::ScriptedServer;

/// The names Python Hermes's own skill discovery (`tools.skills_tool._find_all_skills`) finds
/// in `HERMES_HOME/skills`, one per line.
const PYTHON_VISIBLE_SKILLS: &str = "from tools.skills_tool import _find_all_skills\nfor s in _find_all_skills():\n    print(s['name'])";

struct Skill {
    dir: String,
    name: String,
    fallback_only: bool,
}

#[test]
fn all_177_hermes_skills_load_in_hermes_without_a_warning() {
    let Some(py) = PythonHermes::locate() else {
        return;
    };
    let h = SharedHome::new("skills", py, ScriptedServer::start_echo_on_own_thread());
    h.write_provider_config();
    let work = h.work("project");
    let skills_dir = h.path("skills");
    h.python_code(PYTHON_SKILLS_SYNC).ok();
    copy_tree(&h.py.optional_skills(), &skills_dir);
    let skills: Vec<Skill> = skill_dirs(&skills_dir)
        .into_iter()
        .map(|dir| read_skill(&skills_dir, dir))
        .collect();
    assert_eq!(
        skills.len(),
        177,
        "Hermes 0.19 has 73 bundled + 104 optional skills"
    );

    let list = h.hermes(&work, &["skills", "list"]).ok();
    h.check(list.stderr_lines().is_empty(), || {
        format!(
            "hermes skills list warns about Hermes's own skills (issue 18 item 5):\n{}",
            list.stderr
        )
    });
    let listed: Vec<&str> = list
        .stdout
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    // What Python's own discovery finds in this same tree (platform filter included), minus
    // the `fallback_for_toolsets` skills, which hermes may hide while it has the toolset.
    let oracle = h.python_code(PYTHON_VISIBLE_SKILLS).ok();
    let python_sees: Vec<&str> = oracle
        .stdout
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    assert!(
        python_sees.len() >= 170,
        "Python sees Hermes's skills:\n{oracle}"
    );
    let missing: Vec<String> = python_sees
        .iter()
        .filter(|name| !listed.contains(name))
        .filter(|name| !skills.iter().any(|s| s.name == **name && s.fallback_only))
        .map(|name| {
            let dir = skills
                .iter()
                .find(|s| s.name == *name)
                .map_or("hermes's own", |s| s.dir.as_str());
            format!("{name} ({dir})")
        })
        .collect();
    h.check(missing.is_empty(), || {
        format!(
            "hermes skills list does not show {} of Hermes's skills: {missing:?}\n{list}",
            missing.len()
        )
    });
    // Every line of the table is the header or a row starting with a skill's name (hermes's
    // own bundled skills included, hence the second scan); the table ends at the count line,
    // after which come the notes on skills left out of the index or not offered here.
    let names: Vec<String> = skill_dirs(&skills_dir)
        .into_iter()
        .map(|dir| read_skill(&skills_dir, dir).name)
        .collect();
    let stray: Vec<&str> = list
        .stdout
        .lines()
        .take_while(|l| !l.contains("skill(s)"))
        .filter(|l| !l.trim().is_empty() && !l.starts_with("NAME"))
        .filter(|l| {
            !l.split_whitespace()
                .next()
                .is_some_and(|w| names.iter().any(|n| n == w))
        })
        .collect();
    h.check(stray.is_empty(), || {
        format!("multi-line descriptions break the skills list table (issue 18 item 5); stray lines: {stray:#?}")
    });

    let turn = h.hermes(&work, &["-z", "hello"]).ok();
    h.check(turn.stdout.trim() == "You said: hello", || {
        format!("{turn}")
    });
    h.check(turn.stderr_lines().is_empty(), || {
        format!(
            "a hermes session start with Hermes's skills prints warnings:\n{}",
            turn.stderr
        )
    });
    h.finish();
}

fn read_skill(skills_dir: &Path, dir: String) -> Skill {
    let text = std::fs::read_to_string(skills_dir.join(&dir).join("SKILL.md")).unwrap();
    let frontmatter = text
        .strip_prefix("---")
        .and_then(|rest| rest.split_once("\n---"))
        .map(|(fm, _)| fm)
        .unwrap_or_default();
    let parsed: Value = serde_norway::from_str(frontmatter).unwrap_or(Value::Null);
    let dir_name = dir.rsplit('/').next().unwrap_or(&dir).to_string();
    let name = parsed
        .get("name")
        .and_then(Value::as_str)
        .map(str::to_string)
        .unwrap_or(dir_name);
    Skill {
        dir,
        name,
        fallback_only: frontmatter.contains("fallback_for_toolsets"),
    }
}

/// Copy `from`'s contents into `to` (merging directories).
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}
