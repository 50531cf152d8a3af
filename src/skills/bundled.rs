//! Bundled skills and their sync into `HERMES_HOME/skills/` (spec-002a §3.1, §3.14.9).
//!
//! The skills shipped in `assets/skills/` are compiled in as a static table of (path, text).
//! `sync_bundled` copies them into the skills directory and records each skill's **origin
//! hash** (the content hash at sync time) in `skills/.bundled_manifest`, one `name:hash` line
//! per skill (Hermes's v2 format; a bare `name` line is a v1 entry with no hash). On each sync:
//!
//! - not in the manifest, no local copy → copy it, record its hash;
//! - not in the manifest, a local copy exists → never overwritten; recorded only when it is
//!   byte-identical to the bundled version (else the user's own skill of that name is kept);
//! - in the manifest, local copy unchanged since the origin hash → replaced by the new bundled
//!   version when that differs, new hash recorded;
//! - in the manifest, local copy changed → user-modified, skipped permanently;
//! - in the manifest, no local copy → the user deleted it: not re-added;
//! - in the manifest but no longer bundled → the entry is dropped once no copy remains.
//!
//! `reset_bundled` (`hermes skills reset NAME [--restore]`) drops a manifest entry, keeping the
//! copy; with `ResetMode::Restore` it also replaces the copy with the bundled version.
//!
//! The hash is FNV-1a 64 over each file's `/`-separated relative path and bytes, in path
//! order, ignoring dot-files. It only detects change; it is not a security measure.

use std::collections::BTreeMap;
use std::path::Path;
use std::path::PathBuf;

use crate::skills::SkillError;
use crate::skills::catalog::find_skill_dirs;
use crate::skills::manage::write_atomic;
use crate::skills::skill::parse_frontmatter;

/// The manifest file name inside the skills directory.
pub const MANIFEST: &str = ".bundled_manifest";

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
    /// In the manifest but deleted locally (not re-added).
    pub user_deleted: Vec<String>,
    /// Manifest entries dropped because the skill is no longer bundled and no copy remains.
    pub cleaned: Vec<String>,
    pub unchanged: usize,
    pub errors: Vec<String>,
}

impl SyncReport {
    /// One line for logs and `hermes skills` output.
    pub fn summary(&self) -> String {
        let mut parts = vec![
            format!("{} new", self.copied.len()),
            format!("{} updated", self.updated.len()),
            format!("{} unchanged", self.unchanged),
        ];
        if !self.user_modified.is_empty() {
            parts.push(format!(
                "{} user-modified (kept): {}",
                self.user_modified.len(),
                self.user_modified.join(", ")
            ));
        }
        if !self.kept_existing.is_empty() {
            parts.push(format!(
                "{} existing local skill(s) kept: {}",
                self.kept_existing.len(),
                self.kept_existing.join(", ")
            ));
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
        hash_files(self.files.iter().map(|(p, b)| (p.as_str(), b.as_slice())))
    }
}

/// Sync the compiled-in bundled skills into `skills_dir`.
pub fn sync_bundled(skills_dir: &Path) -> SyncReport {
    sync_from(skills_dir, BUNDLED)
}

/// Sync an explicit table of bundled files (tests simulate upgrades with this).
pub fn sync_from(skills_dir: &Path, files: &[(&str, &str)]) -> SyncReport {
    let mut report = SyncReport::default();
    if let Err(e) = std::fs::create_dir_all(skills_dir) {
        report.errors.push(format!("{}: {e}", skills_dir.display()));
        return report;
    }
    let mut manifest = read_manifest(skills_dir);
    let bundled = group(files);
    for skill in &bundled {
        let dest = skills_dir.join(&skill.rel_dir);
        let bundled_hash = skill.hash();
        match manifest.get(&skill.name).cloned() {
            None if !dest.exists() => match install(&dest, skill) {
                Ok(()) => {
                    report.copied.push(skill.name.clone());
                    manifest.insert(skill.name.clone(), bundled_hash);
                }
                Err(e) => report.errors.push(e.to_string()),
            },
            None => {
                if dir_hash(&dest) == bundled_hash {
                    manifest.insert(skill.name.clone(), bundled_hash);
                    report.unchanged += 1;
                } else {
                    report.kept_existing.push(skill.name.clone());
                }
            }
            Some(_) if !dest.exists() => report.user_deleted.push(skill.name.clone()),
            Some(origin) if origin == bundled_hash => report.unchanged += 1,
            Some(origin) if !origin.is_empty() && dir_hash(&dest) == origin => {
                match install(&dest, skill) {
                    Ok(()) => {
                        report.updated.push(skill.name.clone());
                        manifest.insert(skill.name.clone(), bundled_hash);
                    }
                    Err(e) => report.errors.push(e.to_string()),
                }
            }
            Some(_) => report.user_modified.push(skill.name.clone()),
        }
    }
    let stale: Vec<String> = manifest
        .keys()
        .filter(|name| !bundled.iter().any(|b| &b.name == *name))
        .cloned()
        .collect();
    for name in stale {
        if find_local_copy(skills_dir, &name).is_none() {
            manifest.remove(&name);
            report.cleaned.push(name);
        }
    }
    if let Err(e) = write_manifest(skills_dir, &manifest) {
        report.errors.push(e.to_string());
    }
    report
}

/// Reset the bundled skill `name` (see `ResetMode`).
pub fn reset_bundled(skills_dir: &Path, name: &str, mode: ResetMode) -> Result<String, SkillError> {
    reset_from(skills_dir, BUNDLED, name, mode)
}

/// `reset_bundled` over an explicit table.
pub fn reset_from(
    skills_dir: &Path,
    files: &[(&str, &str)],
    name: &str,
    mode: ResetMode,
) -> Result<String, SkillError> {
    let bundled = group(files);
    let skill = bundled
        .iter()
        .find(|s| s.name == name)
        .ok_or_else(|| SkillError::NotBundled(name.to_string()))?;
    let mut manifest = read_manifest(skills_dir);
    let had_entry = manifest.remove(name).is_some();
    let message = match mode {
        ResetMode::KeepCopy => {
            write_manifest(skills_dir, &manifest)?;
            if had_entry {
                format!(
                    "Forgot the sync record for '{name}'; your copy is kept and the next sync re-baselines on it."
                )
            } else {
                format!("'{name}' had no sync record; nothing to reset.")
            }
        }
        ResetMode::Restore => {
            let dest = skills_dir.join(&skill.rel_dir);
            install(&dest, skill)?;
            manifest.insert(name.to_string(), skill.hash());
            write_manifest(skills_dir, &manifest)?;
            format!(
                "Restored the bundled version of '{name}' at {}.",
                dest.display()
            )
        }
    };
    Ok(message)
}

/// Names of the compiled-in bundled skills.
pub fn bundled_names() -> Vec<String> {
    group(BUNDLED).into_iter().map(|s| s.name).collect()
}

/// `name → origin hash` from the manifest (missing or unreadable = empty).
pub fn read_manifest(skills_dir: &Path) -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(skills_dir.join(MANIFEST)).unwrap_or_default();
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|l| match l.split_once(':') {
            Some((n, h)) => (n.trim().to_string(), h.trim().to_string()),
            None => (l.to_string(), String::new()),
        })
        .collect()
}

fn write_manifest(
    skills_dir: &Path,
    manifest: &BTreeMap<String, String>,
) -> Result<(), SkillError> {
    let text: String = manifest.iter().map(|(n, h)| format!("{n}:{h}\n")).collect();
    write_atomic(&skills_dir.join(MANIFEST), text.as_bytes())
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

/// A skill directory under `skills_dir` named `name` (by directory or frontmatter name).
fn find_local_copy(skills_dir: &Path, name: &str) -> Option<PathBuf> {
    let mut dirs = Vec::new();
    find_skill_dirs(skills_dir, 0, &mut dirs);
    dirs.into_iter().find(|d| {
        d.file_name().is_some_and(|n| n == name)
            || std::fs::read_to_string(d.join("SKILL.md"))
                .ok()
                .and_then(|t| parse_frontmatter(&t).ok().and_then(|(m, _)| m.name))
                .is_some_and(|n| n == name)
    })
}

/// The content hash of a directory on disk (see the module doc).
pub fn dir_hash(dir: &Path) -> String {
    let mut files = Vec::new();
    collect(dir, "", &mut files);
    files.sort();
    hash_files(files.iter().map(|(p, b)| (p.as_str(), b.as_slice())))
}

fn collect(dir: &Path, prefix: &str, out: &mut Vec<(String, Vec<u8>)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        let rel = if prefix.is_empty() {
            name
        } else {
            format!("{prefix}/{name}")
        };
        match entry.file_type() {
            Ok(t) if t.is_dir() => collect(&entry.path(), &rel, out),
            Ok(t) if t.is_file() => {
                if let Ok(bytes) = std::fs::read(entry.path()) {
                    out.push((rel, bytes));
                }
            }
            _ => {}
        }
    }
}

fn hash_files<'a>(files: impl Iterator<Item = (&'a str, &'a [u8])>) -> String {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let mut h = OFFSET;
    let mut feed = |bytes: &[u8]| {
        for b in bytes {
            h ^= u64::from(*b);
            h = h.wrapping_mul(PRIME);
        }
    };
    for (path, bytes) in files {
        feed(path.as_bytes());
        feed(&[0]);
        feed(&(bytes.len() as u64).to_le_bytes());
        feed(bytes);
    }
    format!("{h:016x}")
}

#[cfg(test)]
#[path = "bundled_tests.rs"]
mod tests;
