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

/// A session against `server` in a fresh temp dir, its spec adjusted by `configure` before it
/// starts. Shorthand for `test_session().with_spec(configure).build(server)`.
pub fn start(server: &ScriptedServer, configure: impl FnOnce(&mut SessionSpec)) -> Session {
    test_session().with_spec(configure).build(server)
}

/// A builder for an in-process engine session, like codex's
/// `test_codex().with_config(..).build(&server)`: [`spec`]'s defaults (YOLO on, no store,
/// 10 iterations, busy input queued) in a fresh temp dir unless told otherwise.
pub fn test_session<'a>() -> SessionBuilder<'a> {
    SessionBuilder {
        busy: BusyInputMode::Queue,
        max_iterations: 10,
        dir: None,
        configure: Vec::new(),
    }
}

/// One adjustment of the spec, applied before the session starts.
type Configure<'a> = Box<dyn FnOnce(&mut SessionSpec) + 'a>;

/// See [`test_session`].
pub struct SessionBuilder<'a> {
    busy: BusyInputMode,
    max_iterations: u32,
    dir: Option<tempfile::TempDir>,
    configure: Vec<Configure<'a>>,
}

impl<'a> SessionBuilder<'a> {
    /// What a message sent during a turn does.
    pub fn busy(mut self, busy: BusyInputMode) -> Self {
        self.busy = busy;
        self
    }

    /// The turn's tool-call budget.
    pub fn max_iterations(mut self, max_iterations: u32) -> Self {
        self.max_iterations = max_iterations;
        self
    }

    /// Work in `dir` (prepared by the test; the session keeps it) instead of a fresh one.
    pub fn in_dir(mut self, dir: tempfile::TempDir) -> Self {
        self.dir = Some(dir);
        self
    }

    /// Adjust the spec before the session starts (applied in call order, after the other
    /// settings).
    pub fn with_spec(mut self, configure: impl FnOnce(&mut SessionSpec) + 'a) -> Self {
        self.configure.push(Box::new(configure));
        self
    }

    /// Start the session against `server`.
    pub fn build(self, server: &ScriptedServer) -> Session {
        let dir = self.dir.unwrap_or_else(|| tempfile::tempdir().unwrap());
        let mut spec = spec(server, dir.path(), self.busy);
        spec.max_iterations = self.max_iterations;
        for configure in self.configure {
            configure(&mut spec);
        }
        Session {
            handle: spawn_session(spec),
            dir,
        }
    }
}

/// The model endpoint of [`spec`] for `server` (a judge, summariser or second model).
pub fn endpoint(server: &ScriptedServer) -> ModelEndpoint {
    let dir = std::env::temp_dir();
    spec(server, &dir, BusyInputMode::Queue).endpoint
}

/// A session spec against `server`, working in `cwd`, with YOLO on and no store.
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
        goals: hermes::engine::session_spec::GoalSettings::default(),
        vision: Default::default(),
        mcp: None,
        toolsets: None,
        cron: None,
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
