//! The engine side of safety: the per-session `SessionGuard` (approval rules, the asker, the
//! smart approver, checkpoints, where "always" answers are saved) and the per-turn
//! `ApprovalGate` that tools consult through `CommandPolicy`.
//!
//! Classification, rules, checkpoints and hooks live in `safety/`; this module only connects
//! them to the session's events and replies. It holds no UI and never blocks the actor.

pub mod ask;
pub mod consent;
pub mod gate;
pub mod smart;

use std::path::PathBuf;
use std::sync::Arc;

use crate::config::home::HermesHome;
use crate::protocol::Event;
use crate::protocol::Notice;
use crate::protocol::NoticeLevel;
use crate::safety::approvals::SessionApprovals;
use crate::safety::checkpoints::CheckpointStore;
use crate::safety::checkpoints::SnapshotOutcome;
use crate::safety::classify::ShellContext;
use crate::safety::hooks::ALLOWLIST_FILENAME;
use crate::safety::hooks::AcceptHooks;
use crate::safety::hooks::ConsentStore;
use crate::safety::hooks::HookRunner;
use crate::safety::hooks::HookSpec;
use crate::safety::sandbox::Sandbox;
use crate::util::redact::Redactor;

pub use ask::Asker;
pub use gate::ApprovalGate;
pub use smart::SmartApprover;

/// Everything a turn's gate needs, shared by the session's turns.
pub struct SessionGuard {
    pub approvals: Arc<SessionApprovals>,
    pub shell: ShellContext,
    pub asker: Asker,
    /// `approvals.mode: smart`: the reviewer model.
    pub smart: Option<SmartApprover>,
    /// Where `command_allowlist` is saved; `None` keeps "always" for this session only.
    pub home: Option<HermesHome>,
    /// `checkpoints.enabled`: the shadow repositories.
    pub checkpoints: Option<Arc<CheckpointStore>>,
    /// The session's working directory (what checkpoints snapshot).
    pub work_dir: PathBuf,
    /// Who asks, in approval requests: `main`, or a subagent's label.
    pub agent: String,
    /// The configured shell hooks (empty: every call is a no-op).
    pub hooks: HookRunner,
    /// Masks secrets in tool output (`security.redact_secrets`, plus the known `.env` values).
    pub redactor: Redactor,
    /// The kernel sandbox benign commands run in.
    pub sandbox: Arc<Sandbox>,
    /// A cron job's session: nobody can answer, so `approvals.cron_mode` decides.
    pub unattended: Option<crate::config::CronApprovalMode>,
}

impl SessionGuard {
    /// Saves `command_allowlist` to config.yaml (keeping comments); failures become a
    /// warning and the approval stays in force for this session.
    pub async fn save_allowlist(&self, allowlist: Vec<String>) {
        let Some(home) = self.home.clone() else {
            return;
        };
        let value = allowlist.join(", ");
        let saved = tokio::task::spawn_blocking(move || {
            crate::config::edit::config_set(&home, "command_allowlist", &value)
        })
        .await;
        let problem = match saved {
            Ok(Ok(_)) => return,
            Ok(Err(e)) => e.to_string(),
            Err(e) => e.to_string(),
        };
        self.asker.events.send(Event::Notice(Notice {
            level: NoticeLevel::Warning,
            text: format!(
                "could not save the approval to command_allowlist in config.yaml: {problem} — \
                 it applies to this session only"
            ),
        }));
    }

    /// Takes a checkpoint of the working directory. `Some(problem)` when none could be taken
    /// for a reason the user should hear about.
    pub async fn snapshot(&self, label: String) -> Option<String> {
        let store = self.checkpoints.clone()?;
        let work_dir = self.work_dir.clone();
        let taken = tokio::task::spawn_blocking(move || store.snapshot(&work_dir, &label)).await;
        match taken {
            Ok(Ok(SnapshotOutcome::Created(checkpoint))) => {
                tracing::debug!(id = %checkpoint.id, "checkpoint created");
                None
            }
            Ok(Ok(SnapshotOutcome::Unchanged(_))) => None,
            Ok(Ok(SnapshotOutcome::Skipped { reason })) => {
                tracing::info!(%reason, "checkpoint skipped");
                None
            }
            Ok(Err(e)) => Some(e.to_string()),
            Err(e) => Some(e.to_string()),
        }
    }
}

/// The safety settings a session starts with (from config.yaml, the command line and
/// HERMES_HOME).
pub struct SafetySpec {
    pub approvals: crate::safety::approvals::ApprovalSettings,
    pub shell: ShellContext,
    pub smart: Option<SmartApprover>,
    pub home: Option<HermesHome>,
    pub checkpoints: Option<Arc<CheckpointStore>>,
    /// Shell hooks; taken by the session when it starts.
    pub hooks: Option<HookSetup>,
    /// Masks secrets in tool output.
    pub redactor: Redactor,
    /// Who asks in approval requests: `main`, or a subagent's label.
    pub agent: String,
    /// The kernel sandbox (`sandbox:` settings and what the kernel supports).
    pub sandbox: Arc<Sandbox>,
    /// Set for cron sessions: what a command that needs approval gets.
    pub unattended: Option<crate::config::CronApprovalMode>,
}

/// Validated `hooks:` entries, their consent allowlist and whether consent is pre-given.
pub struct HookSetup {
    pub specs: Vec<HookSpec>,
    pub consent: ConsentStore,
    pub accept: AcceptHooks,
}

impl SafetySpec {
    /// Manual approvals with the defaults, no smart approver, nothing saved, no checkpoints:
    /// for tests and embedders.
    pub fn in_memory(home_dir: PathBuf) -> Self {
        let shell = ShellContext {
            hermes_home: home_dir.join(".hermes"),
            home: home_dir,
        };
        Self {
            approvals: crate::safety::approvals::ApprovalSettings::default(),
            sandbox: Arc::new(Sandbox::off(shell.clone())),
            shell,
            smart: None,
            home: None,
            checkpoints: None,
            hooks: None,
            redactor: Redactor::default(),
            agent: "main".to_string(),
            unattended: None,
        }
    }
}

impl SessionGuard {
    /// The session's guard, asking through `events`; takes the hook setup out of `spec`.
    pub fn build(
        spec: &mut SafetySpec,
        events: crate::engine::events::EventSink,
        yolo: crate::protocol::Yolo,
        work_dir: PathBuf,
        session_id: &str,
    ) -> Arc<Self> {
        let asker = Asker {
            events,
            pending: crate::engine::events::PendingRequests::default(),
            timeout: spec.approvals.timeout,
        };
        let hooks = match spec.hooks.take() {
            Some(setup) => HookRunner::new(
                setup.specs,
                setup.consent,
                setup.accept,
                Some(Arc::new(consent::HookConsentAsker {
                    asker: asker.clone(),
                    agent: spec.agent.clone(),
                    cwd: work_dir.display().to_string(),
                })),
                work_dir.clone(),
                session_id.to_string(),
            ),
            None => HookRunner::new(
                Vec::new(),
                // No hooks: nothing to consent to, so the allowlist is not read.
                ConsentStore::empty(&spec.shell.hermes_home.join(ALLOWLIST_FILENAME)),
                AcceptHooks::Ask,
                None,
                work_dir.clone(),
                session_id.to_string(),
            ),
        };
        Arc::new(Self {
            approvals: Arc::new(SessionApprovals::new(spec.approvals.clone(), yolo)),
            shell: ShellContext {
                home: spec.shell.home.clone(),
                hermes_home: spec.shell.hermes_home.clone(),
            },
            asker,
            smart: spec.smart.clone(),
            home: spec.home.clone(),
            checkpoints: spec.checkpoints.clone(),
            work_dir,
            agent: spec.agent.clone(),
            hooks,
            redactor: spec.redactor.clone(),
            sandbox: Arc::clone(&spec.sandbox),
            unattended: spec.unattended,
        })
    }
}
