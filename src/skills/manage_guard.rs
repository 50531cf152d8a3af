//! The injection scan around `skill_manage` writes: before a write, `WriteSnapshot::take`
//! records the one file (or new skill directory) the action will change; after it,
//! `scan_written` scans what is now on disk, and `restore` puts the old state back when the
//! write is refused (`skills.guard_agent_created: true`).
//!
//! Scanning what was written, rather than the arguments, covers `patch` (whose result only
//! exists after the replacement) the same way as `create` and `edit`. Not here: the scan
//! rules (`guard`) or the actions themselves (`manage`). Invariant: `restore` only touches
//! the snapshot's own path, which `manage`'s own path checks produced.

use std::path::PathBuf;

use crate::skills::SkillError;
use crate::skills::catalog::SkillCatalog;
use crate::skills::guard;
use crate::skills::guard::SkillFindings;
use crate::skills::manage;

/// What an action is about to change.
#[derive(Debug)]
pub enum WriteSnapshot {
    /// `create`: the skill does not exist yet; refusing removes what was created.
    NewSkill,
    /// A file of an existing skill, with its bytes before (`None`: it did not exist).
    File {
        path: PathBuf,
        before: Option<Vec<u8>>,
        is_skill_md: bool,
    },
    /// Nothing to scan (`delete`, `remove_file`, or an action that will fail anyway).
    Nothing,
}

impl WriteSnapshot {
    pub fn take(catalog: &SkillCatalog, action: &str, name: &str, file_path: Option<&str>) -> Self {
        let file_path = file_path.map(str::trim).filter(|p| !p.is_empty());
        let Some(dir) = manage::locate(catalog, name) else {
            return if action == "create" {
                Self::NewSkill
            } else {
                Self::Nothing
            };
        };
        let target = match (action, file_path) {
            ("edit", _) | ("patch", None) => Some((dir.join("SKILL.md"), true)),
            ("patch" | "write_file", Some(p)) if manage::is_skill_md_path(p, &dir) => {
                Some((dir.join("SKILL.md"), true))
            }
            ("patch" | "write_file", Some(p)) => {
                manage::support_target(&dir, p).ok().map(|t| (t, false))
            }
            _ => None,
        };
        match target {
            Some((path, is_skill_md)) => Self::File {
                before: std::fs::read(&path).ok(),
                path,
                is_skill_md,
            },
            None => Self::Nothing,
        }
    }

    /// What the scanner finds in the written skill (`name`, reloaded through `catalog`).
    pub fn scan_written(&self, catalog: &SkillCatalog, name: &str) -> SkillFindings {
        let clean = SkillFindings {
            index: Vec::new(),
            body: Vec::new(),
        };
        match self {
            Self::Nothing => clean,
            Self::NewSkill
            | Self::File {
                is_skill_md: true, ..
            } => catalog.lookup(name).map_or(clean, |(s, _)| {
                guard::scan_skill(&s.name, &s.description, &s.raw)
            }),
            Self::File { path, .. } => {
                std::fs::read_to_string(path).map_or(clean, |text| guard::scan_skill("", "", &text))
            }
        }
    }

    /// Undo the write: the old bytes back, a new file or skill removed.
    pub fn restore(&self, catalog: &SkillCatalog, name: &str) -> Result<(), SkillError> {
        match self {
            Self::Nothing => Ok(()),
            Self::NewSkill => match manage::locate(catalog, name) {
                Some(dir) => std::fs::remove_dir_all(&dir).map_err(|e| SkillError::io(&dir, e)),
                None => Ok(()),
            },
            Self::File {
                path,
                before: Some(bytes),
                ..
            } => manage::write_atomic(path, bytes),
            Self::File {
                path, before: None, ..
            } => std::fs::remove_file(path).map_err(|e| SkillError::io(path, e)),
        }
    }
}
