//! Saving a session's goal in `state_meta` under `goal:<session_id>` (as Hermes), so `/resume`
//! and `--resume` bring it back exactly — status, subgoals, counters and verdicts.
//!
//! Writes run on the blocking pool. Several can be in flight, so each carries a sequence
//! number and a write older than the last one applied is skipped: the stored goal is always
//! the newest. A failed write is logged and reported once; the goal keeps working in memory.
//! A stored value that does not parse is reported with its key and ignored, never fatal.

use std::sync::Arc;
use std::sync::Mutex;
use std::sync::PoisonError;

use super::GoalRecord;
use crate::store::SessionStore;

/// The `state_meta` key of a session's goal.
pub fn key(session_id: &str) -> String {
    format!("goal:{session_id}")
}

/// Why a stored goal could not be used.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("could not read {key} from the session database: {source}")]
    Store {
        key: String,
        source: crate::store::StoreError,
    },
    #[error("the goal stored under {key} is not readable ({source}); it was ignored")]
    Corrupt {
        key: String,
        source: serde_json::Error,
    },
}

/// The goal stored for `session_id`, if any.
pub fn load(store: &SessionStore, session_id: &str) -> Result<Option<GoalRecord>, LoadError> {
    let key = key(session_id);
    let value = store.meta_get(&key).map_err(|source| LoadError::Store {
        key: key.clone(),
        source,
    })?;
    match value {
        None => Ok(None),
        Some(json) if json.trim().is_empty() || json.trim() == "null" => Ok(None),
        Some(json) => serde_json::from_str(&json)
            .map(Some)
            .map_err(|source| LoadError::Corrupt { key, source }),
    }
}

/// Ordered, off-task writes of one session's goal.
#[derive(Clone, Default)]
pub struct GoalWriter {
    /// (sequence of the next write, sequence of the last write applied)
    order: Arc<Mutex<(u64, u64)>>,
}

impl GoalWriter {
    /// Save `record` (or `null` for "no goal") for `session_id` on the blocking pool. The
    /// callback hears about a failure (to tell the user); success is silent.
    pub fn save(
        &self,
        store: Option<Arc<SessionStore>>,
        session_id: &str,
        record: Option<&GoalRecord>,
        on_error: impl FnOnce(String) + Send + 'static,
    ) {
        let _ = self.start_save(store, session_id, record, on_error);
    }

    /// Save like [`Self::save`] and wait until the write is done (or skipped for a newer
    /// one). Shutdown uses it: a process that exits right after a pause must not lose it.
    pub async fn save_and_wait(
        &self,
        store: Option<Arc<SessionStore>>,
        session_id: &str,
        record: Option<&GoalRecord>,
        on_error: impl FnOnce(String) + Send + 'static,
    ) {
        if let Some(write) = self.start_save(store, session_id, record, on_error) {
            let _ = write.await;
        }
    }

    fn start_save(
        &self,
        store: Option<Arc<SessionStore>>,
        session_id: &str,
        record: Option<&GoalRecord>,
        on_error: impl FnOnce(String) + Send + 'static,
    ) -> Option<tokio::task::JoinHandle<()>> {
        let store = store?;
        let json = match record.map(serde_json::to_string).transpose() {
            Ok(json) => json.unwrap_or_else(|| "null".to_string()),
            Err(err) => {
                on_error(format!("the goal could not be encoded: {err}"));
                return None;
            }
        };
        let sequence = {
            let mut order = self.order.lock().unwrap_or_else(PoisonError::into_inner);
            order.0 += 1;
            order.0
        };
        let order = Arc::clone(&self.order);
        let key = key(session_id);
        Some(tokio::task::spawn_blocking(move || {
            let mut order = order.lock().unwrap_or_else(PoisonError::into_inner);
            if sequence <= order.1 {
                return;
            }
            order.1 = sequence;
            if let Err(err) = store.meta_set(&key, &json) {
                tracing::warn!(error = %err, %key, "could not save the goal");
                on_error(format!(
                    "the goal could not be saved ({err}); it works for this run only"
                ));
            }
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::GoalStatus;

    fn store() -> (tempfile::TempDir, Arc<SessionStore>) {
        let dir = tempfile::tempdir().unwrap();
        let store = SessionStore::open(&dir.path().join("state.db")).unwrap();
        (dir, Arc::new(store))
    }

    #[tokio::test]
    async fn a_saved_goal_loads_back_exactly_and_the_newest_write_wins() {
        let (_dir, store) = store();
        let writer = GoalWriter::default();
        let mut record = GoalRecord::new("four files".into(), 20);
        record.subgoals.push("each holds its number".into());
        for used in 1..=5 {
            record.turns_used = used;
            writer.save(Some(Arc::clone(&store)), "s1", Some(&record), |e| {
                panic!("{e}")
            });
        }
        record.status = GoalStatus::Paused;
        writer.save(Some(Arc::clone(&store)), "s1", Some(&record), |e| {
            panic!("{e}")
        });
        for _ in 0..100 {
            if load(&store, "s1").unwrap().as_ref() == Some(&record) {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        assert_eq!(load(&store, "s1").unwrap(), Some(record));
        assert_eq!(load(&store, "other").unwrap(), None);
        assert_eq!(
            store
                .meta_get("goal:s1")
                .unwrap()
                .map(|v| v.contains("four files")),
            Some(true)
        );
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn save_and_wait_is_on_disk_when_it_returns_even_behind_queued_writes() {
        let (_dir, store) = store();
        let writer = GoalWriter::default();
        let mut record = GoalRecord::new("three steps".into(), 1);
        for used in 0..50 {
            record.turns_used = used;
            writer.save(Some(Arc::clone(&store)), "s1", Some(&record), |e| {
                panic!("{e}")
            });
        }
        record.status = GoalStatus::Paused;
        writer
            .save_and_wait(Some(Arc::clone(&store)), "s1", Some(&record), |e| {
                panic!("{e}")
            })
            .await;
        assert_eq!(load(&store, "s1").unwrap(), Some(record));
    }

    #[test]
    fn a_corrupt_value_names_its_key() {
        let (_dir, store) = store();
        store.meta_set("goal:s2", "{not json").unwrap();
        let err = load(&store, "s2").unwrap_err().to_string();
        assert!(err.contains("goal:s2"), "{err}");
        store.meta_set("goal:s3", "null").unwrap();
        assert_eq!(load(&store, "s3").unwrap(), None);
    }
}
