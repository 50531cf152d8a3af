//! How the command-running tools meet the sandbox: which confinement a verdict gets, and what
//! happens when a confined command fails because the sandbox refused it (on-failure
//! escalation: ask, through the policy, to run it once outside).
//!
//! `Allow` runs confined when the policy has an active sandbox; `Approved` (a person said yes)
//! runs unconfined. It does not build rules (`safety::sandbox`) or ask anyone itself (the
//! policy does). Invariant: a command the sandbox cannot be set up for is not run.

use std::path::Path;
use std::sync::Arc;

use crate::safety::CommandVerdict;
use crate::safety::sandbox::Sandbox;
use crate::safety::sandbox::denial;
use crate::tools::ToolContext;
use crate::tools::ToolOutput;
use crate::util::process::Confine;

/// A command's confinement: the sandbox it runs in and the prepared rules, or none.
pub struct Confinement {
    pub sandbox: Arc<Sandbox>,
    pub confine: Confine,
}

/// The confinement for a command the policy let through with `verdict` (not `Deny`).
/// `Err` is the tool result when the sandbox is on but could not be set up.
pub fn for_verdict(
    ctx: &ToolContext,
    verdict: &CommandVerdict,
    cwd: &Path,
) -> Result<Option<Confinement>, ToolOutput> {
    match verdict {
        CommandVerdict::Allow => {}
        CommandVerdict::Approved | CommandVerdict::Deny { .. } => return Ok(None),
    }
    let Some(sandbox) = ctx.policy.sandbox() else {
        return Ok(None);
    };
    match sandbox.confine(cwd) {
        Ok(Some(confine)) => Ok(Some(Confinement { sandbox, confine })),
        Ok(None) => Ok(None),
        Err(e) => Err(ToolOutput::error(format!(
            "the sandbox could not be set up, so the command was not run: {e}"
        ))),
    }
}

/// After a confined command failed with `output`: what to do about it.
pub enum AfterFailure {
    /// Not the sandbox's doing (or nothing the sandbox explains): keep the result.
    Keep,
    /// Approved: run it again unconfined; `note` goes before the new result.
    RunOutside { note: String },
    /// The sandbox refused it and nobody let it out: `reason` goes after the output.
    Refused { reason: String },
}

pub async fn after_failure(
    ctx: &ToolContext,
    confinement: &Confinement,
    command: &str,
    cwd: &Path,
    output: &str,
) -> AfterFailure {
    let Some(denial) = denial::find(&confinement.sandbox, cwd, output) else {
        return AfterFailure::Keep;
    };
    match ctx.policy.escalate(command, cwd, &denial).await {
        CommandVerdict::Approved | CommandVerdict::Allow => AfterFailure::RunOutside {
            note: format!(
                "[the sandbox blocked {}; the user approved running it once outside the \
                 sandbox — this is that run]\n",
                denial.describe()
            ),
        },
        CommandVerdict::Deny { reason } => AfterFailure::Refused { reason },
    }
}
