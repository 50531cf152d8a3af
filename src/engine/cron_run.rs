//! The engine's [`JobRunner`]: one cron job's agent run as a fresh session — the job's
//! profile home (its `config.yaml`, `.env`, skills, memories), its `workdir` (context files
//! from there; none without one), its toolsets, no chat history, and nobody at the keyboard:
//! approvals follow `approvals.cron_mode`, secret and clarify requests are declined, and the
//! run stops after `HERMES_CRON_TIMEOUT` without progress or when hermes shuts down.
//!
//! What it does not do: anything about scheduling, output files or delivery (`cron`).
//! Invariants: a run always ends with an [`AgentOutcome`] — a session that cannot start, a
//! provider error or a timeout is an `error`, never a silent success.

use std::path::Path;
use std::path::PathBuf;
use std::time::Duration;

use async_trait::async_trait;

use super::bootstrap::ModelOverrides;
use super::bootstrap::SessionPurpose;
use super::bootstrap::StartOptions;
use super::bootstrap::start_session;
use crate::config::EnvLookup;
use crate::config::HermesHome;
use crate::cron::AgentOutcome;
use crate::cron::AgentRun;
use crate::cron::JobRunner;
use crate::cron::prompt::LoadedSkill;
use crate::cron::prompt::with_skills;
use crate::cron::scan::scan_assembled;
use crate::cron::scan::scan_prompt;
use crate::protocol::ApprovalDecision;
use crate::protocol::ClarifyAnswer;
use crate::protocol::Event;
use crate::protocol::Op;
use crate::protocol::SessionHandle;
use crate::protocol::TurnComplete;
use crate::protocol::TurnOutcome;
use crate::safety::YoloMode;
use crate::safety::hooks::AcceptHooks;

/// Runs cron jobs' agent turns in fresh engine sessions.
#[derive(Debug, Clone)]
pub struct EngineJobRunner {
    /// How long a run may go without any event before it is stopped.
    pub inactivity: Duration,
}

#[async_trait]
impl JobRunner for EngineJobRunner {
    async fn run_agent(&self, run: AgentRun) -> AgentOutcome {
        match self.prepare_and_run(run).await {
            Ok(outcome) => outcome,
            Err(error) => AgentOutcome {
                error: Some(error),
                exit_reason: "error".into(),
                ..AgentOutcome::default()
            },
        }
    }
}

impl EngineJobRunner {
    async fn prepare_and_run(&self, run: AgentRun) -> Result<AgentOutcome, String> {
        let home = profile_home(&run.home, run.profile.as_deref())?;
        let (env, _) = EnvLookup::load(&home).map_err(|e| e.to_string())?;
        let loaded = crate::config::load(&home);
        let config = loaded.config;
        let prompt = assemble(&run, &home, &config, &env)?;
        let launch_dir = match &run.workdir {
            Some(dir) => dir.clone(),
            None => std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/")),
        };
        let toolsets = (!run.toolsets.is_empty()).then(|| run.toolsets.clone());
        let model = ModelOverrides {
            model: run.job.text("model").map(str::to_string),
            provider: run.job.text("provider").map(str::to_string),
            base_url: run.job.text("base_url").map(str::to_string),
        };
        let mut config = config;
        // The job's workdir is where its tools run and its context files come from.
        if let Some(dir) = &run.workdir {
            config.terminal.cwd = dir.display().to_string();
        }
        let started = start_session(StartOptions {
            home: &home,
            accept_hooks: AcceptHooks::Ask,
            config: &config,
            env: &env,
            overrides: model,
            yolo: YoloMode::Off,
            launch_dir,
            resume: None,
            exit_reason: crate::store::EndReason::AgentClose,
            toolsets,
            purpose: SessionPurpose::Cron(config.approvals.cron_mode),
            session_id: Some(run.session_id.clone()),
        })
        .map_err(|e| format!("the job's session could not start: {e}"))?;
        Ok(self.drive(started.handle, prompt, &run).await)
    }

    async fn drive(
        &self,
        mut handle: SessionHandle,
        prompt: String,
        run: &AgentRun,
    ) -> AgentOutcome {
        let mut outcome = AgentOutcome::default();
        if handle
            .ops
            .send(Op::UserInput {
                text: prompt,
                images: Vec::new(),
            })
            .is_err()
        {
            outcome.error = Some("the engine stopped before the job started".into());
            return outcome;
        }
        let mut last_text = String::new();
        let mut last_error: Option<String> = None;
        loop {
            let event = tokio::select! {
                event = handle.events.recv() => event,
                _ = run.cancel.cancelled() => {
                    outcome.error = Some("the job was cancelled (hermes is shutting down)".into());
                    outcome.exit_reason = "interrupted".into();
                    break;
                }
                _ = tokio::time::sleep(self.inactivity) => {
                    outcome.error = Some(format!(
                        "the job made no progress for {} s (HERMES_CRON_TIMEOUT) and was stopped",
                        self.inactivity.as_secs()
                    ));
                    outcome.exit_reason = "timeout".into();
                    break;
                }
            };
            let Some(event) = event else {
                outcome.error = Some("the engine stopped unexpectedly".into());
                outcome.exit_reason = "error".into();
                break;
            };
            match event {
                Event::MessageComplete(message) => last_text = message.text,
                Event::StatusUpdate(status) => {
                    outcome.input_tokens = status.input_tokens;
                    outcome.output_tokens = status.output_tokens;
                }
                Event::Error(error) => last_error = Some(error.text),
                Event::ApprovalRequest(request) => {
                    // Commands are decided by approvals.cron_mode before any request; what
                    // still asks (hook consent) gets no from an empty room.
                    let _ = handle.ops.send(Op::ApprovalReply {
                        id: request.id,
                        decision: ApprovalDecision::Deny,
                    });
                }
                Event::SecretRequest(request) => {
                    let _ = handle.ops.send(Op::SecretReply {
                        id: request.id,
                        value: None,
                    });
                }
                Event::ClarifyRequest(request) => {
                    let _ = handle.ops.send(Op::ClarifyReply {
                        id: request.id,
                        answer: ClarifyAnswer::Declined,
                    });
                }
                Event::TurnComplete(TurnComplete { outcome: end, .. }) => {
                    match end {
                        TurnOutcome::Completed => {
                            outcome.final_response = last_text.clone();
                            outcome.exit_reason = "completed".into();
                        }
                        TurnOutcome::IterationLimit { limit } => {
                            outcome.final_response = last_text.clone();
                            outcome.exit_reason = "max_iterations".into();
                            if last_text.trim().is_empty() {
                                outcome.error = Some(format!(
                                    "the job used all {limit} iterations (agent.max_iterations) \
                                     without an answer"
                                ));
                            }
                        }
                        TurnOutcome::Interrupted { .. } => {
                            outcome.exit_reason = "interrupted".into();
                            outcome.error = Some("the job's turn was interrupted".into());
                        }
                        TurnOutcome::Failed { kind } => {
                            outcome.exit_reason = "error".into();
                            outcome.error = Some(
                                last_error
                                    .clone()
                                    .unwrap_or_else(|| format!("the turn failed ({kind:?})")),
                            );
                        }
                    }
                    break;
                }
                _ => {}
            }
        }
        shut_down(&mut handle).await;
        outcome
    }
}

async fn shut_down(handle: &mut SessionHandle) {
    let _ = handle.ops.send(Op::Shutdown);
    let drain = async {
        while let Some(event) = handle.events.recv().await {
            if matches!(event, Event::ShutdownComplete) {
                break;
            }
        }
    };
    let _ = tokio::time::timeout(Duration::from_secs(10), drain).await;
}

/// The profile's home: `run.home` is `<base>` or `<base>/profiles/<name>`.
fn profile_home(root: &Path, profile: Option<&str>) -> Result<HermesHome, String> {
    let base = match profile {
        Some(_) => root
            .parent()
            .and_then(Path::parent)
            .map(Path::to_path_buf)
            .ok_or_else(|| format!("profile home {} has no base", root.display()))?,
        None => root.to_path_buf(),
    };
    HermesHome::from_base(base, profile).map_err(|e| e.to_string())
}

/// The final prompt: skills loaded from the profile's catalog, then the scanner's check.
fn assemble(
    run: &AgentRun,
    home: &HermesHome,
    config: &crate::config::Config,
    env: &EnvLookup,
) -> Result<String, String> {
    if run.skills.is_empty() && !run.has_injected_data {
        if let Some(blocked) = scan_prompt(&run.prompt) {
            return Err(blocked);
        }
        return Ok(run.prompt.clone());
    }
    if run.skills.is_empty() {
        return scan_assembled(&run.prompt);
    }
    let mut notices = Vec::new();
    let catalog = super::spec_parts::skill_loader(home, &config.skills, env, &mut notices).load();
    let skills: Vec<LoadedSkill> = run
        .skills
        .iter()
        .map(|name| {
            let loaded = catalog
                .get(name.trim_start_matches('/'))
                .map(|skill| skill.raw.clone())
                .ok_or_else(|| format!("skill '{name}' not found"));
            (name.clone(), loaded)
        })
        .collect();
    scan_assembled(&with_skills(&run.prompt, &skills))
}
