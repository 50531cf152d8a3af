//! State that tools share across the calls of one session: the background processes, the
//! todo list and the variables loaded skills pass through to `execute_code` scripts. Dropped when the session ends; dropping (or `shutdown`) kills the session's
//! background process groups. It holds no files and no history.

use std::sync::Mutex;
use std::sync::PoisonError;

use crate::tools::process_registry::ProcessRegistry;
use crate::tools::todo::TodoItem;

#[derive(Default)]
pub struct SessionTools {
    processes: ProcessRegistry,
    todos: Mutex<Vec<TodoItem>>,
    /// Names from loaded skills' `required_environment_variables` (provider credentials
    /// are never added: see `providers::is_provider_credential`).
    env_passthrough: Mutex<std::collections::BTreeSet<String>>,
}

impl SessionTools {
    pub fn new() -> Self {
        Self::default()
    }

    /// The background processes started by `terminal(background=true)`.
    pub fn processes(&self) -> &ProcessRegistry {
        &self.processes
    }

    /// A snapshot of the todo list.
    pub fn todos(&self) -> Vec<TodoItem> {
        self.with_todos(|todos| todos.clone())
    }

    /// Read or change the todo list under its lock.
    pub fn with_todos<R>(&self, f: impl FnOnce(&mut Vec<TodoItem>) -> R) -> R {
        let mut todos = self.todos.lock().unwrap_or_else(PoisonError::into_inner);
        f(&mut todos)
    }

    /// Let scripts see `names` (a loaded skill declared them). Provider credentials are
    /// refused; the refused names are returned.
    pub fn pass_env_through(&self, names: &[String]) -> Vec<String> {
        let mut allowed = self
            .env_passthrough
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let mut refused = Vec::new();
        for name in names.iter().map(|n| n.trim()).filter(|n| !n.is_empty()) {
            if crate::providers::is_provider_credential(name) {
                refused.push(name.to_string());
            } else {
                allowed.insert(name.to_string());
            }
        }
        refused
    }

    /// The variables loaded skills pass through, sorted.
    pub fn env_passthrough(&self) -> Vec<String> {
        self.env_passthrough
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .iter()
            .cloned()
            .collect()
    }

    /// Kill every background process group still running. Idempotent.
    pub fn shutdown(&self) {
        self.processes.kill_all();
    }
}

impl Drop for SessionTools {
    fn drop(&mut self) {
        self.shutdown();
    }
}
