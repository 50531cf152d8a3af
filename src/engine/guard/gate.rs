//! `ApprovalGate`: the engine's `CommandPolicy` for one turn. It classifies a command (or a
//! file write), applies the session's approval rules, asks the smart approver and/or the user
//! when the rules say so, remembers the answer, and takes the turn's file checkpoint before
//! the first mutation it lets through.
//!
//! It does not run anything itself and never blocks the session actor: every wait happens on
//! the tool's task. Invariants: a hardline command never gets a request; a refusal (by the
//! user, a timeout, an interrupt or the smart approver) reaches the model as a denied tool
//! result; the checkpoint is attempted at most once per turn, and its failure never stops the
//! tool (it is reported once as a warning).

use std::path::Path;
use std::sync::Arc;

use async_trait::async_trait;
use tokio_util::sync::CancellationToken;

use super::SessionGuard;
use super::ask::Question;
use super::smart::SmartVerdict;
use crate::protocol::ApprovalDecision;
use crate::protocol::ApprovalKind;
use crate::protocol::DecidedBy;
use crate::protocol::Event;
use crate::protocol::Notice;
use crate::protocol::NoticeLevel;
use crate::safety::CommandPolicy;
use crate::safety::CommandVerdict;
use crate::safety::approvals::Assessment;
use crate::safety::approvals::REFUSED_EARLIER;
use crate::safety::approvals::TurnApprovals;
use crate::safety::approvals::USER_REFUSED;
use crate::safety::classify;
use crate::safety::classify::Classification;
use crate::safety::classify::Finding;
use crate::safety::classify::keys;
use crate::safety::paths::sensitive_write;
use crate::safety::sandbox::Sandbox;
use crate::safety::sandbox::denial::Denial;

const COMMAND_CHOICES: [ApprovalDecision; 4] = [
    ApprovalDecision::Once,
    ApprovalDecision::Session,
    ApprovalDecision::Always,
    ApprovalDecision::Deny,
];
/// A sensitive write, or a command that edits hermes's own settings, is approved one call at
/// a time: "always let the agent change my approval settings" is not a choice hermes offers.
const ONE_AT_A_TIME: [ApprovalDecision; 2] = [ApprovalDecision::Once, ApprovalDecision::Deny];

pub struct ApprovalGate {
    session: Arc<SessionGuard>,
    /// Shared with the gates `via` makes: one turn, one set of answers, one checkpoint.
    turn: Arc<TurnApprovals>,
    turn_id: u64,
    cancel: CancellationToken,
    checkpoint_taken: Arc<tokio::sync::Mutex<bool>>,
    /// The tool this gate's requests come through (`execute_code`), shown with the agent.
    via: Option<String>,
}

/// One thing to decide: a command or a file write, classified.
struct Subject<'a> {
    kind: ApprovalKind,
    /// The file tool asking, for writes (shown with the reason).
    tool: Option<&'a str>,
    text: &'a str,
    cwd: &'a Path,
    classification: Classification,
    normalized: String,
}

impl ApprovalGate {
    pub fn new(session: Arc<SessionGuard>, turn_id: u64, cancel: CancellationToken) -> Self {
        Self {
            session,
            turn: Arc::new(TurnApprovals::default()),
            turn_id,
            cancel,
            checkpoint_taken: Arc::new(tokio::sync::Mutex::new(false)),
            via: None,
        }
    }

    /// The same turn's gate for calls made through `tool` (a script's `terminal()`): the
    /// same rules, answers and checkpoint; its requests say where they come from.
    fn labelled(&self, tool: &str) -> Self {
        Self {
            session: Arc::clone(&self.session),
            turn: Arc::clone(&self.turn),
            turn_id: self.turn_id,
            cancel: self.cancel.clone(),
            checkpoint_taken: Arc::clone(&self.checkpoint_taken),
            via: Some(tool.to_string()),
        }
    }

    async fn decide(&self, subject: &Subject<'_>) -> CommandVerdict {
        let rules = &self.session.approvals;
        if subject.kind == ApprovalKind::Command
            && let Some(pattern) = rules.deny_rule(subject.text, &subject.normalized)
        {
            return CommandVerdict::Deny {
                reason: crate::safety::deny_rules::blocked_reason(pattern),
            };
        }
        let assessment = rules.assess(&subject.classification, &subject.normalized, &self.turn);
        let findings = match assessment {
            Assessment::Allow => return CommandVerdict::Allow,
            Assessment::Approved => return CommandVerdict::Approved,
            Assessment::Block { reason } => return CommandVerdict::Deny { reason },
            Assessment::RefusedEarlier => {
                return CommandVerdict::Deny {
                    reason: REFUSED_EARLIER.to_string(),
                };
            }
            Assessment::Ask { findings } => findings,
        };
        let reasons = reasons(&findings);
        match self.session.unattended {
            Some(crate::config::CronApprovalMode::Deny) => {
                return CommandVerdict::Deny {
                    reason: format!(
                        "BLOCKED: Command flagged as dangerous ({reasons}) but cron jobs run \
                         without a user present to approve it. Find an alternative approach \
                         that avoids this command. To allow dangerous commands in cron jobs, \
                         set approvals.cron_mode: approve in config.yaml."
                    ),
                };
            }
            Some(crate::config::CronApprovalMode::Approve) => {
                self.notice(format!(
                    "approved unattended (approvals.cron_mode: approve): {}",
                    subject.text
                ));
                return CommandVerdict::Approved;
            }
            None => {}
        }
        let cwd = subject.cwd.display().to_string();
        if let Some(smart) = &self.session.smart {
            match smart
                .review(subject.text, &reasons, &cwd, &self.cancel)
                .await
            {
                SmartVerdict::Approve => {
                    self.notice(format!("smart approval allowed: {}", subject.text));
                    return CommandVerdict::Allow;
                }
                SmartVerdict::Deny => {
                    self.notice(format!("smart approval refused: {}", subject.text));
                    return CommandVerdict::Deny {
                        reason: format!(
                            "The approval reviewer (approvals.mode: smart) refused this as \
                             unsafe ({reasons}). It was not run; do not retry it."
                        ),
                    };
                }
                SmartVerdict::Escalate => {}
            }
        }
        let settings = findings.iter().any(|f| f.key == keys::HERMES_SETTINGS);
        let choices = match subject.kind {
            ApprovalKind::Command if !settings => COMMAND_CHOICES.to_vec(),
            ApprovalKind::Command | ApprovalKind::FileWrite | ApprovalKind::HookConsent => {
                ONE_AT_A_TIME.to_vec()
            }
        };
        let question = Question {
            agent: self.session.agent.clone(),
            via: self.via.clone(),
            kind: subject.kind,
            subject: subject.text.to_string(),
            reason: match subject.tool {
                Some(tool) => format!("{tool}: {reasons}"),
                None => reasons.clone(),
            },
            cwd,
            choices,
        };
        let (decision, decided_by) = self.session.asker.ask(question, &self.cancel).await;
        let save = rules.record(decision, &findings, &subject.normalized, &self.turn);
        if let Some(allowlist) = save {
            self.session.save_allowlist(allowlist).await;
        }
        match (decision, decided_by) {
            (ApprovalDecision::Once | ApprovalDecision::Session | ApprovalDecision::Always, _) => {
                CommandVerdict::Approved
            }
            (ApprovalDecision::Deny, DecidedBy::User) => CommandVerdict::Deny {
                reason: USER_REFUSED.to_string(),
            },
            (ApprovalDecision::Deny, DecidedBy::Timeout) => CommandVerdict::Deny {
                reason: format!(
                    "Nobody approved this within {} s (approvals.timeout), so it was not run. \
                     Do not retry it; tell the user it needs their approval.",
                    self.session.asker.timeout.as_secs()
                ),
            },
            (ApprovalDecision::Deny, DecidedBy::Cancelled) => CommandVerdict::Deny {
                reason: "The approval request was cancelled (the user interrupted), so it was \
                         not run."
                    .to_string(),
            },
        }
    }

    /// Snapshot the working directory before the turn's first mutation.
    async fn checkpoint(&self, what: &str) {
        let mut taken = self.checkpoint_taken.lock().await;
        if *taken {
            return;
        }
        *taken = true;
        let label = format!("before turn {}: {}", self.turn_id, excerpt(what, 80));
        if let Some(problem) = self.session.snapshot(label).await {
            self.session.asker.events.send(Event::Notice(Notice {
                level: NoticeLevel::Warning,
                text: format!("checkpoint skipped: {problem}"),
            }));
        }
    }

    fn notice(&self, text: String) {
        self.session.asker.events.send(Event::Notice(Notice {
            level: NoticeLevel::Info,
            text,
        }));
    }
}

#[async_trait]
impl CommandPolicy for ApprovalGate {
    async fn check_command(&self, command: &str, cwd: &Path) -> CommandVerdict {
        let shell = &self.session.shell;
        let subject = Subject {
            kind: ApprovalKind::Command,
            tool: None,
            text: command,
            cwd,
            classification: classify::classify(command, shell),
            normalized: classify::normalize(command, shell),
        };
        let verdict = self.decide(&subject).await;
        if runs(&verdict) && subject.classification.writes_files {
            self.checkpoint(command).await;
        }
        verdict
    }

    async fn check_write(&self, tool: &str, path: &Path) -> CommandVerdict {
        let shell = &self.session.shell;
        let shown = path.display().to_string();
        let cwd = self.session.work_dir.as_path();
        let findings: Vec<Finding> = sensitive_write(&shown, cwd, shell).into_iter().collect();
        let subject = Subject {
            kind: ApprovalKind::FileWrite,
            tool: Some(tool),
            text: &shown,
            cwd,
            classification: Classification {
                findings,
                writes_files: true,
            },
            normalized: format!("{tool} {shown}"),
        };
        let verdict = self.decide(&subject).await;
        if runs(&verdict) {
            self.checkpoint(&format!("{tool} {shown}")).await;
        }
        verdict
    }

    fn sandbox(&self) -> Option<Arc<Sandbox>> {
        Some(Arc::clone(&self.session.sandbox))
    }

    fn via(&self, tool: &str) -> Option<Arc<dyn CommandPolicy>> {
        Some(Arc::new(self.labelled(tool)))
    }

    async fn check_script(&self, tool: &str) -> CommandVerdict {
        match self.session.unattended {
            Some(crate::config::CronApprovalMode::Deny) => CommandVerdict::Deny {
                reason: format!(
                    "BLOCKED: {tool} runs arbitrary local Python (including subprocess calls \
                     that bypass shell-string approval checks). Cron jobs run without a user \
                     present to approve it. Use normal tools instead, or set \
                     approvals.cron_mode: approve only if this cron profile is intentionally \
                     trusted."
                ),
            },
            Some(crate::config::CronApprovalMode::Approve) | None => CommandVerdict::Allow,
        }
    }

    async fn escalate(&self, command: &str, cwd: &Path, denial: &Denial) -> CommandVerdict {
        let question = Question {
            agent: self.session.agent.clone(),
            via: self.via.clone(),
            kind: ApprovalKind::Command,
            subject: command.to_string(),
            reason: format!(
                "the sandbox blocked {} — approve to run it once outside the sandbox",
                denial.describe()
            ),
            cwd: cwd.display().to_string(),
            choices: ONE_AT_A_TIME.to_vec(),
        };
        let (decision, decided_by) = self.session.asker.ask(question, &self.cancel).await;
        let why = match (decision, decided_by) {
            (ApprovalDecision::Once | ApprovalDecision::Session | ApprovalDecision::Always, _) => {
                return CommandVerdict::Approved;
            }
            (ApprovalDecision::Deny, DecidedBy::User) => "the user refused",
            (ApprovalDecision::Deny, DecidedBy::Timeout) => "nobody answered in time",
            (ApprovalDecision::Deny, DecidedBy::Cancelled) => "the request was cancelled",
        };
        CommandVerdict::Deny {
            reason: format!(
                "The sandbox blocked this command: {}. Running it outside the sandbox was not \
                 approved ({why}). Do not retry it; work inside the workspace or tell the user \
                 what you need.",
                denial.describe()
            ),
        }
    }
}

/// Whether a verdict lets the call go ahead (sandboxed or not).
fn runs(verdict: &CommandVerdict) -> bool {
    match verdict {
        CommandVerdict::Allow | CommandVerdict::Approved => true,
        CommandVerdict::Deny { .. } => false,
    }
}

fn reasons(findings: &[Finding]) -> String {
    let mut reasons: Vec<&str> = findings.iter().map(|f| f.reason.as_str()).collect();
    reasons.dedup();
    reasons.join("; ")
}

fn excerpt(text: &str, max_chars: usize) -> String {
    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut out: String = one_line.chars().take(max_chars).collect();
    if one_line.chars().count() > max_chars {
        out.push('…');
    }
    out
}
