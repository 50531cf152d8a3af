//! Knowledge the agent carries between turns and sessions: persistent memory (`MEMORY.md`,
//! `USER.md`), project context files (`AGENTS.md`, `.hermes.md`, …) for the system prompt,
//! progressive discovery of subdirectory context files for tool results, and the
//! prompt-injection scanner they share.
//!
//! Nothing here builds the system prompt itself (`engine::prompt` does, calling the render
//! functions once at session start) or talks to the model. Invariant: everything that reaches
//! the prompt or a tool result from disk has passed `injection::scan*` first.

pub mod context_files;
pub mod discovery;
/// Moved to `util` (the auth store in `config` needs it too); kept here for old paths.
pub use crate::util::file_lock;
pub mod injection;
pub mod memory_settings;
pub mod memory_snapshot;
pub mod memory_store;

pub use context_files::ProjectContext;
pub use context_files::load_project_context;
pub use discovery::SubdirContext;
pub use discovery::paths_touched;
pub use injection::Finding;
pub use injection::FindingKind;
pub use injection::ScanScope;
pub use memory_settings::MemorySettings;
pub use memory_snapshot::MemorySnapshot;
pub use memory_store::MemoryStore;
pub use memory_store::MemoryTarget;
