//! Command safety: the hardline list of commands hermes never runs, and the command policy the
//! `terminal` tool consults before running anything.
//!
//! This is the minimal policy: YOLO-or-refuse plus the hardline list. It does not classify
//! merely *dangerous* commands or ask the user for approval; the approvals issue adds that on
//! top of the same `CommandPolicy` trait. Invariant: a hardline match is refused in every mode.

pub mod checkpoints;
pub mod hardline;
pub mod hooks;
pub mod policy;

pub use policy::YoloMode;
pub use policy::YoloPolicy;
