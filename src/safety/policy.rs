//! `HardlineOnly`: the command policy for commands the user typed themselves (`!cmd`) and for
//! tool tests — everything runs except the hardline list, and file writes are not guarded.
//!
//! The agent's own tool calls go through the engine's approval gate instead. It never
//! prompts and remembers nothing between calls.

use std::path::Path;

use async_trait::async_trait;

use crate::safety::hardline;
use crate::tools::CommandPolicy;
use crate::tools::CommandVerdict;

/// Whether commands run without approval (`--yolo`, `/yolo`): the protocol's `Yolo`.
pub use crate::protocol::Yolo as YoloMode;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct HardlineOnly;

impl HardlineOnly {
    /// The synchronous decision; `check_command` is this behind the async trait.
    pub fn verdict(command: &str) -> CommandVerdict {
        match hardline::check(command) {
            Some(reason) => CommandVerdict::Deny {
                reason: format!("blocked: {reason} — hermes never runs this, even in YOLO mode"),
            },
            None => CommandVerdict::Allow,
        }
    }
}

#[async_trait]
impl CommandPolicy for HardlineOnly {
    async fn check_command(&self, command: &str, _cwd: &Path) -> CommandVerdict {
        Self::verdict(command)
    }

    async fn check_write(&self, _tool: &str, _path: &Path) -> CommandVerdict {
        CommandVerdict::Allow
    }
}

#[cfg(test)]
#[path = "policy_tests.rs"]
mod tests;
