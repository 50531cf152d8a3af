//! hermes's bundled skills and their sync into `HERMES_HOME/skills/` (spec-002a §3.1,
//! §3.14.9), sharing the directory with Python Hermes without either program undoing the
//! other's work.
//!
//! The skills shipped in `assets/skills/` are compiled in as a static table of (path, text).
//! `sync_bundled` runs Hermes's own algorithm (`tools/skills_sync.py` `sync_skills`) over them,
//! recording origin hashes in `skills/.hermes_bundled_manifest` (Hermes's manifest format, see
//! `manifest`):
//!
//! - not recorded, no local copy → copy it, record its hash;
//! - not recorded, a local copy exists → never overwritten; recorded only when byte-identical;
//! - recorded without a hash (v1) → the local copy becomes the baseline;
//! - recorded, local copy changed since → user-modified, left alone on every sync;
//! - recorded, copy unchanged, bundle changed → replaced, new hash recorded;
//! - recorded, no local copy → a tombstone: the user deleted it, never re-added;
//! - recorded but no longer bundled → the entry is dropped (the copy stays).
//!
//! Why a manifest of our own: Python Hermes's sync only manages the names in *its* bundle and
//! deletes every other entry from `.bundled_manifest`, and its curator treats names listed
//! there as built-ins it may prune. So hermes never adds its skills there; unlisted skills are
//! ones Python Hermes neither syncs, updates, deletes nor curates. hermes in turn only reads
//! `.bundled_manifest`: a name listed there is Python Hermes's and never installed by hermes.
//! The one rewrite is a migration: hermes builds before this wrote their own entries (with
//! FNV hashes) into `.bundled_manifest`; those move to our manifest on the first sync. A
//! `HERMES_HOME/.no-bundled-skills` marker (Python's opt-out) turns the sync off.
//!
//! `reset_bundled` (`hermes skills reset NAME [--restore]`) drops a record and re-syncs; with
//! `ResetMode::Restore` it first deletes the copy so the bundled version comes back.

use std::path::Path;

use crate::skills::SkillError;
use crate::skills::manifest;
use crate::skills::manifest::HERMES_MANIFEST;
use crate::skills::manifest::Manifest;
use crate::skills::manifest::PYTHON_MANIFEST;
use crate::skills::skill::parse_frontmatter;

/// Python Hermes's opt-out marker in `HERMES_HOME`: no bundled skills are seeded.
pub const NO_BUNDLED_SKILLS_MARKER: &str = ".no-bundled-skills";

macro_rules! bundled {
    ($($path:literal),* $(,)?) => {
        &[$(($path, include_str!(concat!("../../assets/skills/", $path)))),*]
    };
}

/// Every bundled file: (path relative to the skills directory, contents).
pub const BUNDLED: &[(&str, &str)] = bundled![
    "software-development/code-review/SKILL.md",
    "software-development/code-review/references/checklist.md",
    "software-development/debug-test-failure/SKILL.md",
    "software-development/git-commit/SKILL.md",
    "software-development/refactor-safely/SKILL.md",
    "software-development/write-docs/SKILL.md",
];

/// What one sync did, by skill name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SyncReport {
    pub copied: Vec<String>,
    pub updated: Vec<String>,
    /// Bundled skills whose local copy was edited by the user (left alone).
    pub user_modified: Vec<String>,
    /// A same-named local skill existed before the bundled one was first offered (kept).
    pub kept_existing: Vec<String>,
    /// Recorded but deleted locally (not re-added).
    pub user_deleted: Vec<String>,
    /// Records dropped because the skill is no longer bundled.
    pub cleaned: Vec<String>,
    /// Names Python Hermes's manifest tracks, so they are its skills, not ours.
    pub owned_by_python: Vec<String>,
    /// Records moved out of `.bundled_manifest`, where older hermes builds wrote them.
    pub migrated: Vec<String>,
    /// `HERMES_HOME/.no-bundled-skills` exists: nothing was synced.
    pub opted_out: bool,
    pub unchanged: usize,
    pub errors: Vec<String>,
}

impl SyncReport {
    /// One line for logs and `hermes skills` output.
    pub fn summary(&self) -> String {
        if self.opted_out {
            return format!("Bundled skills: off ({NO_BUNDLED_SKILLS_MARKER} is present).");
        }
        let mut parts = vec![
            format!("{} new", self.copied.len()),
            format!("{} updated", self.updated.len()),
            format!("{} unchanged", self.unchanged),
        ];
        let named = |label: &str, names: &[String]| {
            format!("{} {label}: {}", names.len(), names.join(", "))
        };
        if !self.user_modified.is_empty() {
            parts.push(named("user-modified (kept)", &self.user_modified));
        }
        if !self.kept_existing.is_empty() {
            parts.push(named("existing local skill(s) kept", &self.kept_existing));
        }
        if !self.owned_by_python.is_empty() {
            parts.push(named("left to Python Hermes", &self.owned_by_python));
        }
        if !self.errors.is_empty() {
            parts.push(format!(
                "{} error(s): {}",
                self.errors.len(),
                self.errors.join("; ")
            ));
        }
        format!("Bundled skills: {}.", parts.join(", "))
    }
}

/// `hermes skills reset` behaviour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResetMode {
    /// Forget the origin hash, keep the current copy.
    KeepCopy,
    /// Also replace the copy with the bundled version.
    Restore,
}

/// One bundled skill assembled from the table.
#[derive(Debug, Clone)]
struct BundledSkill {
    name: String,
    /// Directory relative to the skills dir (`software-development/git-commit`).
    rel_dir: String,
    /// (path relative to the skill dir, contents), sorted.
    files: Vec<(String, Vec<u8>)>,
}

impl BundledSkill {
    fn hash(&self) -> String {
        manifest::files_hash(self.files.iter().map(|(p, b)| (p.as_str(), b.as_slice())))
    }
}

/// Sync the compiled-in bundled skills into `skills_dir`.
pub fn sync_bundled(skills_dir: &Path) -> SyncReport {
    sync_from(skills_dir, BUNDLED)
}

/// Sync an explicit table of bundled files (tests simulate upgrades with this).
pub fn sync_from(skills_dir: &Path, files: &[(&str, &str)]) -> SyncReport {
    let mut report = SyncReport::default();
    if skills_dir
        .parent()
        .is_some_and(|home| home.join(NO_BUNDLED_SKILLS_MARKER).exists())
    {
        report.opted_out = true;
        return report;
    }
    if let Err(e) = std::fs::create_dir_all(skills_dir) {
        report.errors.push(format!("{}: {e}", skills_dir.display()));
        once_if_read_only(&mut report, skills_dir);
        return report;
    }
    let bundled = group(files);
    // Without reading Python Hermes's manifest we cannot tell which names are its skills.
    let (python, mut ours) = match (
        manifest::read(&skills_dir.join(PYTHON_MANIFEST)),
        manifest::read(&skills_dir.join(HERMES_MANIFEST)),
    ) {
        (Ok(python), Ok(ours)) => (python, ours.unwrap_or_default()),
        (Err(e), _) | (_, Err(e)) => {
            report.errors.push(e.to_string());
            return report;
        }
    };
    let python = match migrate_legacy(skills_dir, &bundled, python, &mut ours, &mut report) {
        Ok(python) => python,
        Err(e) => {
            report.errors.push(e.to_string());
            return report;
        }
    };
    let before = ours.clone();
    for skill in &bundled {
        if python.contains_key(&skill.name) {
            report.owned_by_python.push(skill.name.clone());
            continue;
        }
        sync_one(skills_dir, skill, &mut ours, &mut report);
    }
    report.cleaned = ours
        .keys()
        .filter(|name| !bundled.iter().any(|b| &b.name == *name))
        .cloned()
        .collect();
    for name in &report.cleaned {
        ours.remove(name);
    }
    let path = skills_dir.join(HERMES_MANIFEST);
    if (ours != before || !path.exists())
        && let Err(e) = manifest::write(&path, &ours)
    {
        report.errors.push(e.to_string());
    }
    once_if_read_only(&mut report, skills_dir);
    report
}

/// A read-only home fails every write the same way: say so once, plainly.
fn once_if_read_only(report: &mut SyncReport, skills_dir: &Path) {
    let dir = match skills_dir.parent() {
        Some(home) if !skills_dir.exists() => home,
        _ => skills_dir,
    };
    if !report.errors.is_empty() && dir.is_dir() && !crate::util::fs::is_writable_dir(dir) {
        report.errors = vec![format!(
            "{} is read-only, so bundled skills were not installed or updated",
            dir.display()
        )];
    }
}

/// One skill through Hermes's decision table (see the module docs).
fn sync_one(skills_dir: &Path, skill: &BundledSkill, ours: &mut Manifest, report: &mut SyncReport) {
    let dest = skills_dir.join(&skill.rel_dir);
    let bundled_hash = skill.hash();
    let name = skill.name.clone();
    let Some(origin) = ours.get(&name).cloned() else {
        if !dest.exists() {
            match install(&dest, skill) {
                Ok(()) => {
                    ours.insert(name.clone(), bundled_hash);
                    report.copied.push(name);
                }
                Err(e) => report.errors.push(e.to_string()),
            }
        } else if manifest::dir_hash(&dest) == bundled_hash {
            ours.insert(name, bundled_hash);
            report.unchanged += 1;
        } else {
            report.kept_existing.push(name);
        }
        return;
    };
    if !dest.exists() {
        report.user_deleted.push(name);
        return;
    }
    let current = manifest::dir_hash(&dest);
    if origin.is_empty() {
        ours.insert(name, current);
        report.unchanged += 1;
    } else if current != origin {
        report.user_modified.push(name);
    } else if bundled_hash != origin {
        match install(&dest, skill) {
            Ok(()) => {
                ours.insert(name.clone(), bundled_hash);
                report.updated.push(name);
            }
            Err(e) => report.errors.push(e.to_string()),
        }
    } else {
        report.unchanged += 1;
    }
}

/// Move the records older hermes builds wrote into `.bundled_manifest` (names of our bundle
/// with an FNV or empty hash) into our manifest, translating the hash: an unchanged copy gets
/// its MD5, a changed one the bundled MD5 (so it still reads as user-modified), a deleted one
/// stays a tombstone. Returns Python's manifest as it now is.
fn migrate_legacy(
    skills_dir: &Path,
    bundled: &[BundledSkill],
    python: Option<Manifest>,
    ours: &mut Manifest,
    report: &mut SyncReport,
) -> Result<Manifest, SkillError> {
    let Some(mut python) = python else {
        return Ok(Manifest::new());
    };
    for skill in bundled {
        let Some(old) = python.get(&skill.name).cloned() else {
            continue;
        };
        if !(old.is_empty() || manifest::is_legacy_hash(&old)) {
            continue;
        }
        let dest = skills_dir.join(&skill.rel_dir);
        let origin = if !dest.exists() {
            skill.hash()
        } else if old.is_empty() {
            String::new()
        } else if manifest::legacy_dir_hash(&dest) == old {
            manifest::dir_hash(&dest)
        } else {
            skill.hash()
        };
        ours.entry(skill.name.clone()).or_insert(origin);
        python.remove(&skill.name);
        report.migrated.push(skill.name.clone());
    }
    if !report.migrated.is_empty() {
        manifest::write(&skills_dir.join(PYTHON_MANIFEST), &python)?;
    }
    Ok(python)
}

/// Reset the bundled skill `name` (see `ResetMode`).
pub fn reset_bundled(skills_dir: &Path, name: &str, mode: ResetMode) -> Result<String, SkillError> {
    reset_from(skills_dir, BUNDLED, name, mode)
}

/// `reset_bundled` over an explicit table. A name Python Hermes tracks can have its record
/// cleared (as its own `reset` does) but not restored: hermes does not ship its files.
pub fn reset_from(
    skills_dir: &Path,
    files: &[(&str, &str)],
    name: &str,
    mode: ResetMode,
) -> Result<String, SkillError> {
    let python_path = skills_dir.join(PYTHON_MANIFEST);
    let mut python = manifest::read(&python_path)?.unwrap_or_default();
    let bundled = group(files);
    let ours_skill = bundled.iter().find(|s| s.name == name);
    let Some(skill) = ours_skill.filter(|_| !python.contains_key(name)) else {
        if python.contains_key(name) {
            if mode == ResetMode::Restore {
                return Err(SkillError::BundledByPython(name.to_string()));
            }
            python.remove(name);
            manifest::write(&python_path, &python)?;
            return Ok(format!(
                "Cleared Python Hermes's sync record for '{name}'; its next sync re-baselines on your copy."
            ));
        }
        return Err(SkillError::NotBundled(name.to_string()));
    };
    let dest = skills_dir.join(&skill.rel_dir);
    if mode == ResetMode::Restore && dest.exists() {
        std::fs::remove_dir_all(&dest).map_err(|e| SkillError::io(&dest, e))?;
    }
    let path = skills_dir.join(HERMES_MANIFEST);
    let mut ours = manifest::read(&path)?.unwrap_or_default();
    let had_entry = ours.remove(name).is_some();
    manifest::write(&path, &ours)?;
    let report = sync_from(skills_dir, files);
    if let Some(error) = report.errors.first() {
        return Err(SkillError::Install(error.clone()));
    }
    Ok(match mode {
        ResetMode::Restore => format!(
            "Restored the bundled version of '{name}' at {}.",
            dest.display()
        ),
        ResetMode::KeepCopy if had_entry => format!(
            "Cleared the sync record for '{name}'; your copy is kept and future syncs re-baseline on it."
        ),
        ResetMode::KeepCopy => format!("'{name}' had no sync record; nothing to reset."),
    })
}

/// Names of the compiled-in bundled skills.
pub fn bundled_names() -> Vec<String> {
    group(BUNDLED).into_iter().map(|s| s.name).collect()
}

/// Who seeded a skill into `skills_dir`, as far as the two manifests say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BundledBy {
    Hermes,
    PythonHermes,
}

/// Which manifest records `name` (also for a deleted skill: its tombstone).
pub fn bundled_by(skills_dir: &Path, name: &str) -> Option<BundledBy> {
    if manifest::read_or_empty(&skills_dir.join(HERMES_MANIFEST)).contains_key(name) {
        Some(BundledBy::Hermes)
    } else if manifest::read_or_empty(&skills_dir.join(PYTHON_MANIFEST)).contains_key(name) {
        Some(BundledBy::PythonHermes)
    } else {
        None
    }
}

/// Group table rows into skills: each `…/SKILL.md` makes a skill of its directory; other rows
/// belong to the skill whose directory contains them.
fn group(files: &[(&str, &str)]) -> Vec<BundledSkill> {
    let mut skills: Vec<BundledSkill> = files
        .iter()
        .filter_map(|(path, text)| {
            let rel_dir = path.strip_suffix("/SKILL.md")?;
            let dir_name = rel_dir.rsplit('/').next().unwrap_or(rel_dir);
            let name = parse_frontmatter(text)
                .ok()
                .and_then(|(m, _)| m.name)
                .filter(|n| !n.is_empty())
                .unwrap_or_else(|| dir_name.to_string());
            Some(BundledSkill {
                name,
                rel_dir: rel_dir.to_string(),
                files: Vec::new(),
            })
        })
        .collect();
    for (path, text) in files {
        if let Some(skill) = skills
            .iter_mut()
            .filter(|s| path.starts_with(&format!("{}/", s.rel_dir)))
            .max_by_key(|s| s.rel_dir.len())
        {
            let rel = path[skill.rel_dir.len() + 1..].to_string();
            skill.files.push((rel, text.as_bytes().to_vec()));
        }
    }
    for skill in &mut skills {
        skill.files.sort();
    }
    skills
}

/// Replace `dest` with exactly the skill's files (built in a temp sibling, then renamed).
fn install(dest: &Path, skill: &BundledSkill) -> Result<(), SkillError> {
    let parent = dest.parent().unwrap_or(dest);
    std::fs::create_dir_all(parent).map_err(|e| SkillError::io(parent, e))?;
    let tmp = parent.join(format!(".{}.sync-tmp", skill.name));
    let old = parent.join(format!(".{}.sync-old", skill.name));
    for stale in [&tmp, &old] {
        if stale.exists() {
            std::fs::remove_dir_all(stale).map_err(|e| SkillError::io(stale, e))?;
        }
    }
    for (rel, bytes) in &skill.files {
        let path = tmp.join(rel);
        if let Some(p) = path.parent() {
            std::fs::create_dir_all(p).map_err(|e| SkillError::io(p, e))?;
        }
        std::fs::write(&path, bytes).map_err(|e| SkillError::io(&path, e))?;
    }
    if dest.exists() {
        std::fs::rename(dest, &old).map_err(|e| SkillError::io(dest, e))?;
    }
    std::fs::rename(&tmp, dest).map_err(|e| SkillError::io(dest, e))?;
    if old.exists() {
        std::fs::remove_dir_all(&old).map_err(|e| SkillError::io(&old, e))?;
    }
    Ok(())
}

#[cfg(test)]
#[path = "bundled_tests.rs"]
mod tests;
