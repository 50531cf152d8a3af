//! Test fixtures shared by the TUI's unit tests: an `App` with a fake engine session (its
//! `Op`s land in a channel the test reads) and the `SessionInfo` such a session announces.
//! No engine, no terminal.

use tokio::sync::mpsc;
use tokio::sync::mpsc::UnboundedReceiver;
use tokio::sync::mpsc::UnboundedSender;

use super::SessionFactory;
use super::StartFailure;
use super::StartedSession;
use super::TuiOptions;
use super::app::App;
use crate::config::HermesHome;
use crate::protocol::Event;
use crate::protocol::Op;
use crate::protocol::SessionHandle;
use crate::protocol::SessionInfo;
use crate::protocol::Yolo;
use crate::theme::Theme;

/// Hands out one prepared session, then reports a missing provider.
pub struct FakeFactory {
    pub ops: Option<UnboundedSender<Op>>,
    pub events: Option<UnboundedReceiver<Event>>,
}

impl SessionFactory for FakeFactory {
    fn start(&mut self) -> Result<StartedSession, StartFailure> {
        match (self.ops.take(), self.events.take()) {
            (Some(ops), Some(events)) => Ok(StartedSession {
                handle: SessionHandle { ops, events },
                notices: Vec::new(),
            }),
            _ => Err(StartFailure::NeedsProvider("no provider".into())),
        }
    }
}

/// Whether the fixture starts a session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WithSession {
    Yes,
    No,
}

/// An app rooted at `dir` (its HERMES_HOME) and the receiving end of its `Op`s.
pub fn test_app(dir: &tempfile::TempDir, session: WithSession) -> (App, UnboundedReceiver<Op>) {
    let (ops_tx, ops_rx) = mpsc::unbounded_channel();
    let (_events_tx, events_rx) = mpsc::unbounded_channel();
    let factory = match session {
        WithSession::Yes => FakeFactory {
            ops: Some(ops_tx),
            events: Some(events_rx),
        },
        WithSession::No => FakeFactory {
            ops: None,
            events: None,
        },
    };
    let options = TuiOptions {
        home: HermesHome::from_base(dir.path(), None).unwrap(),
        display: crate::config::DisplayConfig::default(),
        theme: Theme::default(),
        factory: Box::new(factory),
        warnings: Vec::new(),
    };
    let (app_tx, _app_rx) = mpsc::unbounded_channel();
    let mut app = App::new(options, app_tx);
    if session == WithSession::Yes {
        app.start_session();
    }
    (app, ops_rx)
}

pub fn session_info() -> Event {
    Event::SessionInfo(SessionInfo {
        session_id: "s1".into(),
        model: "anthropic/claude-sonnet-4".into(),
        provider: "openrouter".into(),
        base_url: "https://openrouter.ai/api/v1".into(),
        cwd: "/work".into(),
        tools: vec!["terminal".into()],
        context_window: 200_000,
        yolo: Yolo::Off,
        title: None,
        resumed_messages: 0,
        slash_commands: Vec::new(),
    })
}
