//! Saved spawn trees (`HERMES_HOME/spawn-trees/`): when a top-level batch of subagents has
//! finished, its `Event::Subagent` stream is written as one JSON file, so the monitor can
//! reopen it later (`/agents history`).
//!
//! Files are written atomically and read back tolerantly (an unreadable file is skipped in
//! the list, and named in the error when loaded). Ids are file stems of our own making; a
//! requested id with anything but `[A-Za-z0-9_-]` is refused, so it cannot name another path.

use std::path::Path;
use std::path::PathBuf;

use crate::protocol::SpawnTreeInfo;
use crate::protocol::SubagentEvent;
use crate::protocol::SubagentEventKind;
use crate::util::fs::FileMode;
use crate::util::fs::atomic_write;

/// Newest trees listed.
const MAX_LISTED: usize = 50;

#[derive(Debug, thiserror::Error)]
pub enum SpawnTreeError {
    #[error("no saved spawn tree {0}")]
    Unknown(String),
    #[error("{path}: {reason}")]
    Unreadable { path: String, reason: String },
    #[error("cannot save the spawn tree in {path}: {reason}")]
    Write { path: String, reason: String },
}

#[derive(Debug, Clone)]
pub struct SpawnTrees {
    dir: PathBuf,
}

impl SpawnTrees {
    pub fn new(dir: PathBuf) -> Self {
        Self { dir }
    }

    /// Saves one finished batch; returns its id.
    pub fn save(&self, events: &[SubagentEvent]) -> Result<String, SpawnTreeError> {
        let write_error = |reason: String| SpawnTreeError::Write {
            path: self.dir.display().to_string(),
            reason,
        };
        std::fs::create_dir_all(&self.dir).map_err(|e| write_error(e.to_string()))?;
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        let stamp = crate::util::time::format_minutes(i64::try_from(now).unwrap_or(0))
            .replace(['-', ':'], "")
            .replace(' ', "_");
        let suffix = uuid::Uuid::new_v4().simple().to_string();
        let id = format!("{stamp}_{}", &suffix[..6]);
        let text = serde_json::to_string(events).map_err(|e| write_error(e.to_string()))?;
        atomic_write(
            &self.dir.join(format!("{id}.json")),
            text.as_bytes(),
            FileMode::Exactly(0o600),
        )
        .map_err(|e| write_error(e.to_string()))?;
        Ok(id)
    }

    /// The newest trees first.
    pub fn list(&self) -> Vec<SpawnTreeInfo> {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        let mut ids: Vec<String> = entries
            .filter_map(Result::ok)
            .filter_map(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                name.strip_suffix(".json").map(str::to_string)
            })
            .filter(|id| valid_id(id))
            .collect();
        ids.sort_unstable_by(|a, b| b.cmp(a));
        ids.into_iter()
            .take(MAX_LISTED)
            .filter_map(|id| {
                let events = self.load(&id).ok()?;
                let modified = std::fs::metadata(self.path_of(&id))
                    .and_then(|m| m.modified())
                    .ok()
                    .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                    .map_or(0, |d| d.as_secs());
                Some(summarise(id, &events, modified))
            })
            .collect()
    }

    pub fn load(&self, id: &str) -> Result<Vec<SubagentEvent>, SpawnTreeError> {
        if !valid_id(id) {
            return Err(SpawnTreeError::Unknown(id.to_string()));
        }
        let path = self.path_of(id);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(SpawnTreeError::Unknown(id.to_string()));
            }
            Err(e) => return Err(unreadable(&path, &e.to_string())),
        };
        serde_json::from_str(&text).map_err(|e| unreadable(&path, &e.to_string()))
    }

    fn path_of(&self, id: &str) -> PathBuf {
        self.dir.join(format!("{id}.json"))
    }
}

fn unreadable(path: &Path, reason: &str) -> SpawnTreeError {
    SpawnTreeError::Unreadable {
        path: path.display().to_string(),
        reason: reason.to_string(),
    }
}

fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

fn summarise(id: String, events: &[SubagentEvent], modified_unix: u64) -> SpawnTreeInfo {
    let mut subagents = 0u32;
    let mut goals = Vec::new();
    for event in events {
        if let SubagentEventKind::Spawned { depth, goal, .. } = &event.kind {
            subagents += 1;
            if *depth == 1 {
                let short: String = goal.chars().take(40).collect();
                goals.push(short);
            }
        }
    }
    SpawnTreeInfo {
        id,
        finished: crate::util::time::format_minutes(i64::try_from(modified_unix).unwrap_or(0)),
        subagents,
        goals: goals.join(" · "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::SubagentRole;

    fn spawned(id: &str, depth: u32, goal: &str) -> SubagentEvent {
        SubagentEvent {
            id: id.to_string(),
            kind: SubagentEventKind::Spawned {
                parent: None,
                depth,
                index: 0,
                label: goal.to_string(),
                goal: goal.to_string(),
                role: SubagentRole::Leaf,
                model: "m".to_string(),
            },
        }
    }

    #[test]
    fn saved_trees_list_newest_first_and_load_back() {
        let dir = tempfile::tempdir().unwrap();
        let trees = SpawnTrees::new(dir.path().join("spawn-trees"));
        assert!(trees.list().is_empty());
        let events = vec![spawned("sa1", 1, "alpha"), spawned("sa1.1", 2, "deep")];
        let id = trees.save(&events).unwrap();
        let listed = trees.list();
        assert_eq!(listed.len(), 1);
        assert_eq!(listed[0].id, id);
        assert_eq!(listed[0].subagents, 2);
        assert_eq!(listed[0].goals, "alpha");
        assert_eq!(trees.load(&id).unwrap(), events);
    }

    #[test]
    fn bad_ids_and_broken_files_are_errors_not_panics() {
        let dir = tempfile::tempdir().unwrap();
        let trees = SpawnTrees::new(dir.path().to_path_buf());
        assert!(matches!(
            trees.load("../etc/passwd"),
            Err(SpawnTreeError::Unknown(_))
        ));
        assert!(matches!(
            trees.load("nope"),
            Err(SpawnTreeError::Unknown(_))
        ));
        std::fs::write(dir.path().join("broken.json"), "{not json").unwrap();
        assert!(matches!(
            trees.load("broken"),
            Err(SpawnTreeError::Unreadable { .. })
        ));
        assert!(trees.list().is_empty(), "an unreadable file is skipped");
    }
}
