//! Approval rules: what happens to a classified command (or a sensitive file write), given
//! YOLO, `approvals.mode`, the `command_allowlist`, what the user allowed this session and
//! what they refused this turn.
//!
//! Pure bookkeeping — it never asks anyone and never touches the disk; the engine's gate does
//! the asking, the timeout and the saving of "always". Invariants: a hardline finding is
//! blocked in every mode; a command the user refused is refused again, without asking, for
//! the rest of that turn (compared after `classify::normalize`); approvals are per pattern
//! key, so "allow this session" for one recursive delete allows the next one too — as in
//! Hermes — while "once" allows only the call that asked.

use std::collections::BTreeSet;
use std::sync::Mutex;
use std::sync::PoisonError;
use std::time::Duration;

use crate::config::schema::ApprovalMode;
use crate::protocol::ApprovalDecision;
use crate::protocol::Yolo;
use crate::safety::classify::Classification;
use crate::safety::classify::Finding;
use crate::safety::classify::Tier;
use crate::safety::deny_rules::DenyRules;

/// What the model is told when the user refuses.
pub const USER_REFUSED: &str = "The user denied permission to run this. It was not run. Do not \
retry it or try to get the same effect another way; tell the user what you wanted to do and ask \
how they want to proceed.";
/// What the model is told when it asks again for something refused earlier in the turn.
pub const REFUSED_EARLIER: &str = "The user already denied this exact command earlier in this \
turn, so it was refused again without asking. Do not retry it; ask the user how to proceed.";

/// The approval settings of one session (from config.yaml and the command line).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApprovalSettings {
    pub mode: ApprovalMode,
    pub timeout: Duration,
    /// `command_allowlist`: pattern keys approved "always".
    pub allowlist: Vec<String>,
    /// `approvals.deny`: globs of commands that never run, YOLO included.
    pub deny: Vec<String>,
}

impl Default for ApprovalSettings {
    fn default() -> Self {
        Self {
            mode: ApprovalMode::Manual,
            timeout: Duration::from_secs(60),
            allowlist: Vec::new(),
            deny: Vec::new(),
        }
    }
}

/// The verdict before anyone is asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Assessment {
    /// Nothing to ask about (benign, YOLO, `approvals.mode: off`): runs, sandboxed.
    Allow,
    /// Every finding was approved earlier (this session, or "always"): runs unsandboxed.
    Approved,
    /// Hardline: never runs.
    Block { reason: String },
    /// The user refused this same command earlier in the turn.
    RefusedEarlier,
    /// Needs a decision (the user's, or the smart approver's): the findings not yet approved.
    Ask { findings: Vec<Finding> },
}

/// Session-wide approval state, shared by every turn (and later every subagent) of a session.
#[derive(Debug)]
pub struct SessionApprovals {
    settings: ApprovalSettings,
    deny: DenyRules,
    state: Mutex<SessionState>,
}

#[derive(Debug)]
struct SessionState {
    yolo: Yolo,
    /// Keys allowed for this session ("session", and "always" answers).
    session_keys: BTreeSet<String>,
    /// Keys allowed always (the allowlist plus "always" answers).
    always: BTreeSet<String>,
}

/// Per-turn state: the normalised commands the user refused in this turn.
#[derive(Debug, Default)]
pub struct TurnApprovals {
    refused: Mutex<BTreeSet<String>>,
}

impl TurnApprovals {
    fn was_refused(&self, normalized: &str) -> bool {
        self.refused
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .contains(normalized)
    }

    fn refuse(&self, normalized: &str) {
        self.refused
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(normalized.to_string());
    }
}

impl SessionApprovals {
    pub fn new(settings: ApprovalSettings, yolo: Yolo) -> Self {
        let always: BTreeSet<String> = settings.allowlist.iter().cloned().collect();
        Self {
            deny: DenyRules::new(&settings.deny),
            settings,
            state: Mutex::new(SessionState {
                yolo,
                session_keys: BTreeSet::new(),
                always,
            }),
        }
    }

    pub fn settings(&self) -> &ApprovalSettings {
        &self.settings
    }

    /// The `approvals.deny` pattern a shell command matches: it must not run, in any mode.
    pub fn deny_rule(&self, command: &str, normalized: &str) -> Option<&str> {
        self.deny.matching(command, normalized)
    }

    pub fn yolo(&self) -> Yolo {
        self.lock().yolo
    }

    /// `/yolo`: takes effect for the next check, including the rest of a running turn.
    pub fn set_yolo(&self, yolo: Yolo) {
        self.lock().yolo = yolo;
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, SessionState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The verdict for `classification` of a command whose normal form is `normalized`.
    pub fn assess(
        &self,
        classification: &Classification,
        normalized: &str,
        turn: &TurnApprovals,
    ) -> Assessment {
        if let Some(finding) = classification.hardline() {
            return Assessment::Block {
                reason: format!(
                    "blocked: {} — hermes never runs this, even in YOLO mode",
                    finding.reason
                ),
            };
        }
        let dangerous: Vec<&Finding> = classification
            .findings
            .iter()
            .filter(|f| f.tier == Tier::Dangerous)
            .collect();
        if dangerous.is_empty() {
            return Assessment::Allow;
        }
        if turn.was_refused(normalized) {
            return Assessment::RefusedEarlier;
        }
        let state = self.lock();
        if state.yolo == Yolo::On || self.settings.mode == ApprovalMode::Off {
            return Assessment::Allow;
        }
        let open: Vec<Finding> = dangerous
            .into_iter()
            .filter(|f| !state.session_keys.contains(f.key) && !state.always.contains(f.key))
            .cloned()
            .collect();
        if open.is_empty() {
            Assessment::Approved
        } else {
            Assessment::Ask { findings: open }
        }
    }

    /// Records a decision about `findings`. Returns the allowlist to save when the answer was
    /// "always" and it added a key (the whole list, for `command_allowlist`).
    pub fn record(
        &self,
        decision: ApprovalDecision,
        findings: &[Finding],
        normalized: &str,
        turn: &TurnApprovals,
    ) -> Option<Vec<String>> {
        match decision {
            ApprovalDecision::Once => None,
            ApprovalDecision::Deny => {
                turn.refuse(normalized);
                None
            }
            ApprovalDecision::Session => {
                let mut state = self.lock();
                for finding in findings {
                    state.session_keys.insert(finding.key.to_string());
                }
                None
            }
            ApprovalDecision::Always => {
                let mut state = self.lock();
                let mut added = false;
                for finding in findings {
                    state.session_keys.insert(finding.key.to_string());
                    added |= state.always.insert(finding.key.to_string());
                }
                added.then(|| state.always.iter().cloned().collect())
            }
        }
    }
}

#[cfg(test)]
#[path = "approvals_tests.rs"]
mod tests;
