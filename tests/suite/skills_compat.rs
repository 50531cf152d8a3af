//! Hermes Agent 0.19's own skills and its bundled-skill sync, against hermes, in one shared
//! `HERMES_HOME`:
//!
//! - all 177 of Hermes's skills (73 bundled + 104 optional, from its source distribution)
//!   load with no warning, and `hermes skills list` lists exactly what Hermes's own listing
//!   lists, with every other skill named and the reason given;
//! - a round trip Python sync → hermes → Python sync leaves Hermes's `.bundled_manifest`
//!   byte-identical, keeps a skill the user deleted deleted (both programs), and leaves each
//!   program's skills alone by the other.
//!
//! Needs the sdist (`HERMES_SDIST`, default /tmp/hsdist/hermes_agent-0.19.0) and, for the
//! Python side, the Hermes virtualenv (`HERMES_PY_VENV`, default /tmp/hvenv). Without them a
//! test prints why it is skipped — except under `CI=true`, where it fails.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;
use std::path::Path;
use std::path::PathBuf;
use std::process::Command;

use hermes::skills::catalog::SkillLoader;

use crate::support::env::CleanEnv;

const HERMES_SKILLS: &[&str] = &[
    "code-review",
    "debug-test-failure",
    "git-commit",
    "refactor-safely",
    "write-docs",
];

/// `path` when it exists; otherwise `None` after saying why, or a failure under CI.
fn required(what: &str, var: &str, default: &str, inside: &str) -> Option<PathBuf> {
    let path = std::env::var_os(var).map_or_else(|| PathBuf::from(default), PathBuf::from);
    if path.join(inside).exists() {
        return Some(path);
    }
    let why = format!("{what} not found at {} (set {var})", path.display());
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "{why}: CI must provide it"
    );
    eprintln!("skipping: {why}");
    None
}

fn sdist() -> Option<PathBuf> {
    required(
        "Hermes's source distribution",
        "HERMES_SDIST",
        "/tmp/hsdist/hermes_agent-0.19.0",
        "optional-skills",
    )
}

fn venv() -> Option<PathBuf> {
    required(
        "the Python Hermes virtualenv",
        "HERMES_PY_VENV",
        "/tmp/hvenv",
        "bin/python",
    )
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

fn skill_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            skill_files(&path, out);
        } else if path.file_name().is_some_and(|n| n == "SKILL.md") {
            out.push(path);
        }
    }
}

fn hermes(home: &Path, args: &[&str]) -> (String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_hermes"))
        .clean_env()
        .args(args)
        .env("HERMES_HOME", home)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "hermes {args:?}:\n{stdout}\n{stderr}");
    (stdout, stderr)
}

/// Run Python Hermes code with `HERMES_HOME` and its bundled/optional skills from the sdist;
/// returns stdout.
fn python(venv: &Path, sdist: &Path, home: &Path, script: &str) -> String {
    let out = Command::new(venv.join("bin/python"))
        .args(["-c", script])
        .env("HERMES_HOME", home)
        .env("HERMES_BUNDLED_SKILLS", sdist.join("skills"))
        .env("HERMES_OPTIONAL_SKILLS", sdist.join("optional-skills"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "python:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

const PY_SYNC: &str = "import json\nfrom tools.skills_sync import sync_skills\n\
    r = sync_skills(quiet=True)\nprint(json.dumps({k: r[k] for k in ('copied', 'updated', 'user_modified', 'cleaned')}))";
const PY_LIST: &str = "import json\nfrom tools.skills_tool import _find_all_skills\n\
    print(json.dumps(sorted(s['name'] for s in _find_all_skills())))";
const PY_CURATED: &str = "import json\nfrom tools.skill_usage import list_agent_created_skill_names\n\
    print(json.dumps(list_agent_created_skill_names()))";

/// Names in the table of `hermes skills list` (the rows before the `N skill(s)` line).
fn table_names(list: &str) -> BTreeSet<String> {
    list.lines()
        .skip(1)
        .take_while(|l| l.split_whitespace().nth(1).is_none_or(|w| w != "skill(s)"))
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect()
}

#[test]
fn all_of_hermes_skills_load_without_a_warning_and_are_listed_as_hermes_lists_them() {
    let Some(sdist) = sdist() else { return };
    let home = tempfile::tempdir().unwrap();
    let skills = home.path().join("skills");
    copy_tree(&sdist.join("skills"), &skills);
    copy_tree(&sdist.join("optional-skills"), &skills);
    let mut files = Vec::new();
    skill_files(&skills, &mut files);
    assert_eq!(files.len(), 177, "73 bundled + 104 optional");

    let catalog = SkillLoader::new(&skills).load();
    let warnings: Vec<String> = catalog.warnings().iter().map(ToString::to_string).collect();
    assert!(warnings.is_empty(), "{}", warnings.join("\n"));
    let loaded: BTreeSet<String> = catalog.all().iter().map(|(s, _)| s.name.clone()).collect();
    assert_eq!(loaded.len(), 177, "every skill loads, under its own name");
    // The two with a list-valued author, which used to disappear.
    for name in ["comfyui", "kanban-video-orchestrator"] {
        assert!(catalog.get(name).is_some(), "{name}");
    }

    let (list, stderr) = hermes(home.path(), &["skills", "list"]);
    assert!(
        !list.contains("warning:") && !stderr.contains("warning"),
        "{list}\n{stderr}"
    );
    for name in &loaded {
        assert!(
            list.lines()
                .any(|l| l.split_whitespace().next() == Some(name.as_str())
                    || l.trim_start().starts_with(&format!("{name}:"))),
            "{name} is neither listed nor explained:\n{list}"
        );
    }
    let table = table_names(&list);
    for line in list.lines().skip(1).take(table.len()) {
        assert!(line.chars().count() <= 160, "one line per skill: {line}");
    }
    let expected_hermes: BTreeSet<String> = HERMES_SKILLS.iter().map(ToString::to_string).collect();
    assert!(
        expected_hermes.is_subset(&table),
        "hermes's own skills are seeded"
    );
    let Some(venv) = venv() else { return };
    // Hermes's own listing of the same directory (hermes's five skills included).
    let theirs: BTreeSet<String> =
        serde_json::from_str(&python(&venv, &sdist, home.path(), PY_LIST)).unwrap();
    assert_eq!(table, theirs, "hermes lists what Hermes lists");
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The directory of the skill `name` below `skills`.
fn skill_dir(skills: &Path, name: &str) -> PathBuf {
    let mut files = Vec::new();
    skill_files(skills, &mut files);
    files
        .into_iter()
        .map(|f| f.parent().unwrap().to_path_buf())
        .find(|d| d.file_name().is_some_and(|n| n == name))
        .unwrap_or_else(|| panic!("no skill {name}"))
}

fn tree_bytes(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                files.push((path.clone(), read(&path)));
            }
        }
    }
    files.sort();
    files
}

#[test]
fn a_python_hermes_python_round_trip_leaves_the_manifest_byte_identical() {
    let (Some(sdist), Some(venv)) = (sdist(), venv()) else {
        return;
    };
    let home = tempfile::tempdir().unwrap();
    let skills = home.path().join("skills");
    let manifest = skills.join(".bundled_manifest");
    let sync = |expect: &str| {
        let report = python(&venv, &sdist, home.path(), PY_SYNC);
        let report: serde_json::Value = serde_json::from_str(&report).unwrap();
        if !expect.is_empty() {
            assert_eq!(
                report,
                serde_json::from_str::<serde_json::Value>(expect).unwrap()
            );
        }
    };
    sync("");
    // The user deletes one of Hermes's skills and edits another; Hermes records both.
    let deleted = skill_dir(&skills, "arxiv");
    std::fs::remove_dir_all(&deleted).unwrap();
    let edited = skill_dir(&skills, "plan").join("SKILL.md");
    let mut text = std::fs::read_to_string(&edited).unwrap();
    text.push_str("\nMy own step.\n");
    std::fs::write(&edited, text).unwrap();
    sync(r#"{"copied": [], "updated": [], "user_modified": ["plan"], "cleaned": []}"#);
    let before = read(&manifest);
    assert!(
        String::from_utf8_lossy(&before).contains("\narxiv:"),
        "a tombstone"
    );

    // hermes: seeds its own skills, writes nothing of Hermes's.
    hermes(home.path(), &["skills", "list"]);
    assert_eq!(
        read(&manifest),
        before,
        "hermes leaves .bundled_manifest alone"
    );
    assert!(!deleted.exists(), "hermes honours Hermes's tombstone");
    let ours_manifest = skills.join(".hermes_bundled_manifest");
    let ours_before = read(&ours_manifest);
    let hermes_skill = skill_dir(&skills, "git-commit");
    let hermes_files = tree_bytes(&hermes_skill);

    // Python again: nothing to copy, update or clean; hermes's skills untouched.
    let modified = r#"{"copied": [], "updated": [], "user_modified": ["plan"], "cleaned": []}"#;
    sync(modified);
    assert_eq!(
        read(&manifest),
        before,
        "byte-identical after the round trip"
    );
    assert!(!deleted.exists());
    assert_eq!(tree_bytes(&hermes_skill), hermes_files);
    assert_eq!(read(&ours_manifest), ours_before);
    let curated: Vec<String> =
        serde_json::from_str(&python(&venv, &sdist, home.path(), PY_CURATED)).unwrap();
    for name in HERMES_SKILLS {
        assert!(
            !curated.contains(&name.to_string()),
            "Hermes's curator would manage {name}"
        );
    }

    // The user deletes one of hermes's skills: neither program brings it back.
    std::fs::remove_dir_all(&hermes_skill).unwrap();
    hermes(home.path(), &["skills", "list"]);
    assert!(!hermes_skill.exists(), "our tombstone holds");
    sync(modified);
    assert!(!hermes_skill.exists());
    assert_eq!(read(&manifest), before);
}

#[test]
fn skills_reset_restores_a_deleted_bundled_skill_from_the_command_line() {
    let home = tempfile::tempdir().unwrap();
    hermes(home.path(), &["skills", "list"]);
    let dir = skill_dir(&home.path().join("skills"), "git-commit");
    let (removed, _) = hermes(home.path(), &["skills", "remove", "git-commit"]);
    assert!(
        removed.contains("hermes skills reset git-commit --restore"),
        "{removed}"
    );
    hermes(home.path(), &["skills", "list"]);
    assert!(!dir.exists(), "a deleted bundled skill is not re-added");
    let (restored, _) = hermes(home.path(), &["skills", "reset", "git-commit", "--restore"]);
    assert!(
        restored.starts_with("Restored the bundled version of 'git-commit'"),
        "{restored}"
    );
    assert!(dir.join("SKILL.md").exists());
}
