//! Safety services: the shell-aware command classifier (hardline and dangerous tiers), the
//! sensitive-path check for file writes, the approval rules, file checkpoints, shell hooks,
//! the `CommandPolicy` the tools ask before a side effect, and `HardlineOnly` for commands the
//! user types.
//!
//! Nothing here asks the user or talks to a frontend: the engine's guard (`engine::guard`)
//! turns these decisions into approval requests. Invariant: a hardline command is refused in
//! every mode, YOLO included.

pub mod approvals;
pub mod checkpoints;
pub mod classify;
pub mod deny_rules;
pub mod hardline;
pub mod hooks;
pub mod paths;
pub mod policy;
pub mod sandbox;

pub use policy::CommandPolicy;
pub use policy::CommandVerdict;
pub use policy::HardlineOnly;
pub use policy::YoloMode;
