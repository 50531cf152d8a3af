//! The shared `skills/.bundled_manifest` (Hermes's `name:md5` lines; an entry whose skill
//! directory is gone records that the user deleted that bundled skill). Python seeds its 73
//! bundled skills (`tools.skills_sync.sync_skills`, what its `hermes chat` runs first), the
//! user deletes one, and then: hermes (`skills list` and a session start) must leave the
//! manifest byte-identical and not bring the skill back; Python's next sync must find its
//! manifest as it left it. Skills hermes installs itself and the user deletes must not come
//! back either, and Python's curator must not take them for its own to manage.

use std::collections::BTreeSet;
use std::path::Path;
use std::path::PathBuf;

use super::home::SharedHome;
use super::python::PythonHermes;
use crate::support::ScriptedServer;

/// Python's own sync, as `hermes chat` runs it at start-up.
pub const PYTHON_SKILLS_SYNC: &str = "import json\nfrom tools.skills_sync import sync_skills\nprint(json.dumps(sync_skills(quiet=True)))";

/// A bundled skill of Hermes 0.19 that the "user" deletes.
const DELETED_BY_USER: &str = "airtable";

#[test]
fn bundled_manifest_survives_a_round_trip_and_deleted_skills_stay_deleted() {
    let Some(py) = PythonHermes::locate() else {
        return;
    };
    let h = SharedHome::new("manifest", py, ScriptedServer::start_echo_on_own_thread());
    h.write_provider_config();
    let work = h.work("project");
    let skills = h.path("skills");
    let manifest_path = skills.join(".bundled_manifest");

    // 1. Python seeds its bundled skills; the user deletes one; Python keeps the tombstone.
    h.python_code(PYTHON_SKILLS_SYNC).ok();
    let seeded = std::fs::read_to_string(&manifest_path).unwrap();
    assert_eq!(
        seeded.lines().count(),
        73,
        "Python 0.19 seeds 73 bundled skills:\n{seeded}"
    );
    assert!(
        seeded
            .lines()
            .all(|l| l.split_once(':').is_some_and(|(_, h)| is_md5(h))),
        "Python's manifest is name:md5 lines:\n{seeded}"
    );
    let deleted = skill_dir(&skills, DELETED_BY_USER).expect("Python installed the skill");
    std::fs::remove_dir_all(&deleted).unwrap();
    h.python_code(PYTHON_SKILLS_SYNC).ok();
    let python_manifest = std::fs::read(&manifest_path).unwrap();
    assert_eq!(
        python_manifest,
        seeded.as_bytes(),
        "Python keeps the entry of a deleted skill"
    );
    assert!(
        skill_dir(&skills, DELETED_BY_USER).is_none(),
        "Python did not reinstall it"
    );
    let before_hermes = skill_dirs(&skills);

    // 2. hermes lists the skills and starts a session.
    h.hermes(&work, &["skills", "list"]).ok();
    h.hermes(&work, &["-z", "hello"]).ok();
    check_manifest(
        &h,
        &manifest_path,
        &python_manifest,
        "hermes skills list + hermes -z",
    );
    h.check(skill_dir(&skills, DELETED_BY_USER).is_none(), || {
        format!("hermes reinstalled {DELETED_BY_USER}, which the user deleted under Python (issue 18 item 6)")
    });
    let installed_by_hermes: Vec<String> = skill_dirs(&skills)
        .difference(&before_hermes)
        .cloned()
        .collect();

    // 3. Python again: its manifest is as it left it, the deleted skill stays deleted.
    let sync = h.python_code(PYTHON_SKILLS_SYNC).ok();
    check_manifest(
        &h,
        &manifest_path,
        &python_manifest,
        "Python's sync after hermes",
    );
    h.check(skill_dir(&skills, DELETED_BY_USER).is_none(), || {
        format!("Python reinstalled {DELETED_BY_USER} after hermes ran (hermes dropped its tombstone, issue 18 item 6):\n{sync}")
    });

    // 4. The skills hermes installed into Python's tree: Python's curator leaves them alone,
    //    and one the user deletes does not come back.
    eprintln!("hermes_compat[manifest]: hermes installed {installed_by_hermes:?}");
    if let Some(victim) = installed_by_hermes.first() {
        let names = installed_by_hermes
            .iter()
            .map(|dir| format!("{:?}", dir_name(dir)))
            .collect::<Vec<_>>()
            .join(", ");
        let curated = h
            .python_code(&format!(
                "from tools.skill_usage import list_agent_created_skill_names as f\nprint(sorted(set(f()) & {{{names}}}))"
            ))
            .ok();
        h.check(curated.stdout.trim() == "[]", || {
            format!(
                "Python's curator would manage skills hermes installed: {}",
                curated.stdout.trim()
            )
        });
        std::fs::remove_dir_all(skills.join(victim)).unwrap();
        h.python_code(PYTHON_SKILLS_SYNC).ok();
        h.hermes(&work, &["skills", "list"]).ok();
        h.hermes(&work, &["-z", "hello again"]).ok();
        h.check(!skills.join(victim).exists(), || {
            format!("hermes reinstalled its bundled skill {victim} after the user deleted it")
        });
        check_manifest(
            &h,
            &manifest_path,
            &python_manifest,
            "deleting a hermes skill + hermes",
        );
    }
    h.finish();
}

fn check_manifest(h: &SharedHome, path: &Path, want: &[u8], step: &str) {
    let now = std::fs::read(path).unwrap_or_default();
    h.check(now == want, || {
        let (want, now) = (String::from_utf8_lossy(want), String::from_utf8_lossy(&now));
        let want_lines: BTreeSet<&str> = want.lines().collect();
        let now_lines: BTreeSet<&str> = now.lines().collect();
        format!(
            "after {step}, skills/.bundled_manifest is not byte-identical to Python's (issue 18 item 6); lines dropped: {:?}; lines added: {:?}",
            want_lines.difference(&now_lines).collect::<Vec<_>>(),
            now_lines.difference(&want_lines).collect::<Vec<_>>()
        )
    });
}

fn is_md5(hash: &str) -> bool {
    hash.len() == 32 && hash.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Every directory holding a SKILL.md, relative to `skills`.
pub fn skill_dirs(skills: &Path) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    collect(skills, skills, &mut found);
    found
}

fn collect(root: &Path, dir: &Path, found: &mut BTreeSet<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let hidden = entry.file_name().to_string_lossy().starts_with('.');
        if path.is_dir() && !hidden {
            if path.join("SKILL.md").is_file() {
                found.insert(path.strip_prefix(root).unwrap().display().to_string());
            }
            collect(root, &path, found);
        }
    }
}

fn skill_dir(skills: &Path, name: &str) -> Option<PathBuf> {
    skill_dirs(skills)
        .into_iter()
        .find(|d| dir_name(d) == name)
        .map(|d| skills.join(d))
}

fn dir_name(relative: &str) -> &str {
    relative.rsplit('/').next().unwrap_or(relative)
}
