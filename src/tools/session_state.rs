//! State that tools share across the calls of one session (background processes, the todo
//! list). Dropped when the session ends; dropping kills the session's background processes.

#[derive(Default)]
pub struct SessionTools {}
