//! The hardline list: shell commands hermes refuses in every mode, YOLO included.
//!
//! The hardline tier is implemented by the shell-aware classifier (`safety::classify`,
//! module `hard`): recursive `rm` of `/`, a top-level system directory or the home
//! directory; `mkfs`; raw writes to disk devices; the fork bomb; `kill -1`;
//! shutdown/reboot. `check` is the narrow entry point the command policy uses: it classifies
//! with a `ShellContext` read from the environment (`$HOME`, `HERMES_HOME`) and returns the
//! fixed reason of the first hardline finding.
//!
//! It ignores the dangerous tier (merely dangerous commands pass here). Invariant: quoted
//! text passed as data (e.g. `echo "rm -rf /"`) never matches; what the shell would execute
//! is what is checked, including `$(…)`, backticks, `bash -c`, `eval` and wrappers.

use super::classify::{ShellContext, classify, hardline_reason};

/// The reason `command` must never run, or `None` when it is not on the hardline list.
pub fn check(command: &str) -> Option<&'static str> {
    check_in(command, &ShellContext::from_env())
}

/// `check` with an explicit context (tests, and callers that already have one).
pub fn check_in(command: &str, ctx: &ShellContext) -> Option<&'static str> {
    classify(command, ctx)
        .hardline()
        .map(|finding| hardline_reason(finding.key))
}

#[cfg(test)]
#[path = "hardline_tests.rs"]
mod tests;
