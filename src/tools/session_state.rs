//! State that tools share across the calls of one session: the background processes and the
//! todo list. Dropped when the session ends; dropping (or `shutdown`) kills the session's
//! background process groups. It holds no files and no history.

use std::sync::Mutex;
use std::sync::PoisonError;

use crate::tools::process_registry::ProcessRegistry;
use crate::tools::todo::TodoItem;

#[derive(Default)]
pub struct SessionTools {
    processes: ProcessRegistry,
    todos: Mutex<Vec<TodoItem>>,
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
