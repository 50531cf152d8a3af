//! The `CommandPolicy` the tools ask before a side effect, and `HardlineOnly`: the policy for
//! commands the user typed themselves (`!cmd`) and for tool tests — everything runs except
//! the hardline list, and file writes are not guarded.
//!
//! The agent's own tool calls go through the engine's approval gate (`engine::guard`, the
//! other implementation) instead. `HardlineOnly` never prompts and remembers nothing between
//! calls.

use std::path::Path;
use std::sync::Arc;

use async_trait::async_trait;

use crate::safety::hardline;
use crate::safety::sandbox::Sandbox;
use crate::safety::sandbox::denial::Denial;

/// Whether a tool may do something with side effects: run a shell command, or write a file.
/// The engine's implementation classifies, asks the user when needed (and waits), and takes
/// the turn's file checkpoint before the first mutation it allows.
#[async_trait]
pub trait CommandPolicy: Send + Sync {
    /// May `command` run in `cwd`?
    async fn check_command(&self, command: &str, cwd: &Path) -> CommandVerdict;
    /// May the file tool `tool` write `path` (absolute, already resolved against the cwd)?
    async fn check_write(&self, tool: &str, path: &Path) -> CommandVerdict;
    /// The sandbox that `Allow`ed commands run in; `None` runs them unconfined.
    fn sandbox(&self) -> Option<Arc<Sandbox>> {
        None
    }
    /// The policy for calls made through `tool` (an `execute_code` script's tool calls): the
    /// same decisions, with requests that say where they come from. `None`: use this one.
    fn via(&self, tool: &str) -> Option<Arc<dyn CommandPolicy>> {
        let _ = tool;
        None
    }
    /// May the script tool `tool` (`execute_code`) run at all? Its script can do anything a
    /// process can, so where nobody can be asked (cron's `deny`) it is refused. Each tool call
    /// the script makes is still checked on its own.
    async fn check_script(&self, tool: &str) -> CommandVerdict {
        let _ = tool;
        CommandVerdict::Allow
    }
    /// `command` failed inside the sandbox because of `denial`: may it run again outside?
    /// `Approved` re-runs it once unconfined; the default (no one to ask) refuses.
    async fn escalate(&self, command: &str, _cwd: &Path, denial: &Denial) -> CommandVerdict {
        let _ = command;
        CommandVerdict::Deny {
            reason: crate::safety::sandbox::denial::refusal_text(denial),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CommandVerdict {
    /// Runs — inside the sandbox, when the policy has one.
    Allow,
    /// A person approved it (once, this session, always, or a saved allowlist entry): it runs
    /// outside the sandbox, because that is what approving means.
    Approved,
    /// Refused; `reason` is shown to the model and the user.
    Deny { reason: String },
}

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
