//! `YoloPolicy`: the command policy used until interactive approvals exist.
//!
//! With YOLO on, every command runs except the hardline list; with YOLO off, every command is
//! refused with a message telling the user how to allow commands. It never prompts and never
//! remembers anything between calls.

use async_trait::async_trait;

use crate::safety::hardline;
use crate::tools::CommandPolicy;
use crate::tools::CommandVerdict;

/// Whether commands run without approval (`--yolo`, `/yolo`): the protocol's `Yolo`.
pub use crate::protocol::Yolo as YoloMode;

/// The reason given for every command when YOLO is off.
pub const APPROVAL_UNAVAILABLE: &str = "terminal commands need approval, and interactive approvals are not available in this build yet: re-run with --yolo (or type /yolo in the TUI) to allow commands (dangerous ones like rm -rf / are still blocked)";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct YoloPolicy {
    mode: YoloMode,
}

impl YoloPolicy {
    pub fn new(mode: YoloMode) -> Self {
        Self { mode }
    }

    pub fn mode(&self) -> YoloMode {
        self.mode
    }

    /// The synchronous decision; `check` is this behind the async trait.
    pub fn verdict(&self, command: &str) -> CommandVerdict {
        // Hardline first in both modes, so the refusal names the real reason.
        if let Some(reason) = hardline::check(command) {
            return CommandVerdict::Deny {
                reason: format!("blocked: {reason} — hermes never runs this, even in YOLO mode"),
            };
        }
        match self.mode {
            YoloMode::On => CommandVerdict::Allow,
            YoloMode::Off => CommandVerdict::Deny {
                reason: APPROVAL_UNAVAILABLE.to_string(),
            },
        }
    }
}

#[async_trait]
impl CommandPolicy for YoloPolicy {
    async fn check(&self, command: &str) -> CommandVerdict {
        self.verdict(command)
    }
}

#[cfg(test)]
#[path = "policy_tests.rs"]
mod tests;
