//! An in-process engine session against the scripted server, for tests that drive the
//! session actor directly: a `SessionSpec` with YOLO on, no store and in-memory safety
//! settings, and helpers to wait for events. Test-only: it panics on a broken setup.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;
use std::time::Duration;

use hermes::config::ModelConfig;
use hermes::config::ProviderConfig;
use hermes::engine::BusyInputMode;
use hermes::engine::ModelEndpoint;
use hermes::engine::SessionSpec;
use hermes::engine::spawn_session;
use hermes::protocol::Event;
use hermes::protocol::Notice;
use hermes::protocol::Op;
use hermes::protocol::SessionHandle;
use hermes::protocol::TurnComplete;
use hermes::protocol::TurnOutcome;
use hermes::protocol::Yolo;
use hermes::providers::registry;
use hermes::tools::ToolLimits;
use hermes::tools::registry::ToolRegistry;

use super::ScriptedServer;

pub const SYSTEM: &str = "You are a test agent.";

pub struct Session {
    pub handle: SessionHandle,
    pub dir: tempfile::TempDir,
}

pub fn session(server: &ScriptedServer, max_iterations: u32, busy: BusyInputMode) -> Session {
    session_with(
        server,
        max_iterations,
        busy,
        hermes::engine::compress::CompressionSettings::default(),
    )
}

pub fn session_with(
    server: &ScriptedServer,
    max_iterations: u32,
    busy: BusyInputMode,
    compression: hermes::engine::compress::CompressionSettings,
) -> Session {
    let dir = tempfile::tempdir().unwrap();
    let mut spec = spec(server, dir.path(), busy);
    spec.max_iterations = max_iterations;
    spec.compression = compression;
    Session {
        handle: spawn_session(spec),
        dir,
    }
}

/// A session spec against `server`, working in `cwd`, with YOLO on and no store.
/// A session in a fresh temp dir, its spec adjusted by `configure` before it starts.
pub fn start(server: &ScriptedServer, configure: impl FnOnce(&mut SessionSpec)) -> Session {
    let dir = tempfile::tempdir().unwrap();
    let mut spec = spec(server, dir.path(), BusyInputMode::Queue);
    configure(&mut spec);
    Session {
        handle: spawn_session(spec),
        dir,
    }
}

pub fn spec(server: &ScriptedServer, cwd: &std::path::Path, busy: BusyInputMode) -> SessionSpec {
    let model = ModelConfig {
        provider: "custom".into(),
        base_url: server.base_url(),
        default: "scripted-model".into(),
        ..ModelConfig::default()
    };
    let mut resolved = registry::resolve(&model, &ProviderConfig::default(), &|_| None).unwrap();
    resolved.retry.base_delay = Duration::from_millis(10);
    let client = hermes::util::http::build_client().unwrap();
    SessionSpec {
        session_id: "test".into(),
        endpoint: ModelEndpoint {
            provider: hermes::providers::build(&resolved, client),
            provider_name: resolved.name.clone(),
            base_url: resolved.base_url.clone(),
            model: resolved.model.clone(),
            context_window: resolved.context_window,
            supports_vision: true,
        },
        tools: Arc::new(ToolRegistry::core()),
        yolo: Yolo::On,
        system_prompt: SYSTEM.into(),
        cwd: cwd.to_path_buf(),
        limits: ToolLimits::default(),
        max_iterations: 10,
        max_tokens: None,
        busy_input: busy,
        switcher: None,
        store: None,
        resumed: None,
        skills: None,
        slash_commands: Vec::new(),
        discovery: None,
        compression: hermes::engine::compress::CompressionSettings::default(),
        tool_env: Arc::new(hermes::tools::ToolEnv::default()),
        env_file: None,
        summariser: None,
        safety: hermes::engine::guard::SafetySpec::in_memory(cwd.to_path_buf()),
        delegation: hermes::engine::delegation::DelegationSpec::default(),
        goals: hermes::engine::spec::GoalSettings::default(),
        vision: Default::default(),
        mcp: None,
        exit_reason: hermes::store::EndReason::CliClose,
    }
}

impl Session {
    pub fn send(&self, op: Op) {
        self.handle.ops.send(op).unwrap();
    }

    /// Next event matching `pred`, failing after 10 s with the events skipped meanwhile.
    pub async fn until(&mut self, mut pred: impl FnMut(&Event) -> bool) -> Event {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        let mut skipped = Vec::new();
        loop {
            let Ok(event) = tokio::time::timeout_at(deadline, self.handle.events.recv()).await
            else {
                panic!(
                    "timed out waiting for an event; skipped meanwhile:\n{}",
                    skipped.join("\n")
                );
            };
            let event = event.expect("event stream ended");
            if pred(&event) {
                return event;
            }
            let mut line = format!("{event:?}");
            line.truncate(300);
            skipped.push(line);
        }
    }

    /// The text of the next warning notice.
    pub async fn next_warning(&mut self) -> String {
        match self
            .until(|e| {
                matches!(
                    e,
                    Event::Notice(Notice {
                        level: hermes::protocol::NoticeLevel::Warning,
                        ..
                    })
                )
            })
            .await
        {
            Event::Notice(Notice { text, .. }) => text,
            _ => unreachable!(),
        }
    }

    pub async fn turn_outcome(&mut self) -> TurnOutcome {
        match self
            .until(|e| matches!(e, Event::TurnComplete { .. }))
            .await
        {
            Event::TurnComplete(TurnComplete { outcome, .. }) => outcome,
            _ => unreachable!(),
        }
    }
}
