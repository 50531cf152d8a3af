//! Command safety: the shell-aware command classifier (`classify`: hardline, dangerous and
//! benign tiers), the sensitive-path list shared by file writes and commands (`paths`), the
//! hardline list hermes never runs, and the command policy the `terminal` tool consults
//! before running anything.
//!
//! This is the minimal policy: YOLO-or-refuse plus the hardline list. It does not classify
//! merely *dangerous* commands or ask the user for approval; the approvals issue adds that on
//! top of the same `CommandPolicy` trait. Invariant: a hardline match is refused in every mode.

pub mod checkpoints;
pub mod classify;
pub mod hardline;
pub mod hooks;
pub mod paths;
pub mod policy;

pub use policy::YoloMode;
pub use policy::YoloPolicy;
