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
use crate::protocol::MessageComplete;
use crate::protocol::MessageDelta;
use crate::protocol::MessageStart;
use crate::protocol::Op;
use crate::protocol::SessionHandle;
use crate::protocol::SessionInfo;
use crate::protocol::ToolComplete;
use crate::protocol::ToolStart;
use crate::protocol::TurnComplete;
use crate::protocol::TurnStarted;
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
    let attach = super::AttachLink::Unavailable("attachments are not available in tests".into());
    test_app_with(dir, session, attach)
}

/// Like [`test_app`], with the given attach service.
pub fn test_app_with(
    dir: &tempfile::TempDir,
    session: WithSession,
    attach: super::AttachLink,
) -> (App, UnboundedReceiver<Op>) {
    let (app_tx, _app_rx) = mpsc::unbounded_channel();
    build_app(dir, session, attach, app_tx)
}

/// An app with a session that has announced itself, its op receiver, and the receiving end
/// of its `AppEvent`s (work done off the UI task reports there; see [`next_app_event`]).
pub fn app_with_events() -> (
    tempfile::TempDir,
    App,
    UnboundedReceiver<Op>,
    UnboundedReceiver<super::app::AppEvent>,
) {
    let dir = tempfile::tempdir().unwrap();
    let (app_tx, app_rx) = mpsc::unbounded_channel();
    let attach = super::AttachLink::Unavailable("attachments are not available in tests".into());
    let (mut app, ops) = build_app(&dir, WithSession::Yes, attach, app_tx);
    super::engine_link::on_engine_event(&mut app, session_info());
    (dir, app, ops, app_rx)
}

/// Waits (up to 10 s) for the next `AppEvent` and hands it to the app, as the run loop would.
pub async fn next_app_event(app: &mut App, events: &mut UnboundedReceiver<super::app::AppEvent>) {
    let event = tokio::time::timeout(std::time::Duration::from_secs(10), events.recv())
        .await
        .expect("an app event within 10 s")
        .expect("the app event channel is open");
    app.on_app_event(event);
}

fn build_app(
    dir: &tempfile::TempDir,
    session: WithSession,
    attach: super::AttachLink,
    app_tx: UnboundedSender<super::app::AppEvent>,
) -> (App, UnboundedReceiver<Op>) {
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
        voice: super::VoiceLink::Unavailable("voice is not available in tests".into()),
        attach,
    };
    let mut app = App::new(options, app_tx);
    // Screens must not depend on the terminal the tests run in.
    app.thumbnails = super::thumbnails::Thumbnails::with(None);
    if session == WithSession::Yes {
        app.start_session();
    }
    (app, ops_rx)
}

/// A finished tool call as the engine sends it: `ToolStart`, then `ToolComplete`.
pub fn tool_call_events(
    id: &str,
    name: &str,
    preview: &str,
    status: crate::protocol::ToolStatus,
    output: &str,
    duration_ms: u64,
) -> [Event; 2] {
    [
        Event::ToolStart(ToolStart {
            call_id: id.to_string(),
            name: name.to_string(),
            preview: preview.to_string(),
            arguments: serde_json::Value::Null,
            parent_call_id: None,
        }),
        Event::ToolComplete(ToolComplete {
            call_id: id.to_string(),
            name: name.to_string(),
            status,
            output: output.to_string(),
            duration_ms,
        }),
    ]
}

pub fn session_info() -> Event {
    Event::SessionInfo(SessionInfo {
        sandbox: String::new(),
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

/// A subagent event for child `id` (the payload of `Event::Subagent`).
pub fn subagent(
    id: &str,
    kind: crate::protocol::SubagentEventKind,
) -> crate::protocol::SubagentEvent {
    crate::protocol::SubagentEvent {
        id: id.into(),
        kind,
    }
}

/// A `Spawned` event: `parent` `None` for the main agent's children.
pub fn spawned(
    id: &str,
    parent: Option<&str>,
    depth: u32,
    label: &str,
) -> crate::protocol::SubagentEvent {
    use crate::protocol::SubagentRole;
    subagent(
        id,
        crate::protocol::SubagentEventKind::Spawned {
            parent: parent.map(str::to_string),
            depth,
            index: 0,
            label: label.into(),
            goal: format!("goal of {label}"),
            role: if depth == 1 {
                SubagentRole::Orchestrator
            } else {
                SubagentRole::Leaf
            },
            model: "anthropic/claude-sonnet-4".into(),
        },
    )
}

/// The monitor's standard scene, as of `start + 90 s`: `a1` running a tool (4 tool calls,
/// 12.8k tokens) with a depth-2 child `a1.1` writing; `a2` completed after 12 s; `a3` failed
/// after 3 s. Returns the tree and the `now` to render it at.
pub fn sample_tree() -> (crate::tui::subagents::SubagentTree, std::time::Instant) {
    use std::time::Duration;

    use crate::protocol::SubagentEventKind as K;
    use crate::protocol::SubagentStatus;
    use crate::protocol::SubagentUsage;
    let start = std::time::Instant::now();
    let at = |secs: u64| start + Duration::from_secs(secs);
    let mut tree = crate::tui::subagents::SubagentTree::default();
    let activity = |id: &str, event: Event| {
        subagent(
            id,
            K::Activity {
                event: Box::new(event),
            },
        )
    };
    let events = [
        (0, spawned("a1", None, 1, "task 1: run the test suite")),
        (1, spawned("a2", None, 1, "task 2: summarise the README")),
        (2, spawned("a3", None, 1, "task 3: fetch the changelog")),
        (
            5,
            subagent(
                "a3",
                K::Finished {
                    status: SubagentStatus::Failed,
                    summary: "network unreachable".into(),
                    duration_ms: 3_000,
                },
            ),
        ),
        (
            10,
            activity(
                "a2",
                Event::MessageComplete(MessageComplete {
                    turn_id: 1,
                    text: "The README describes the **build**.".into(),
                    reasoning: None,
                }),
            ),
        ),
        (
            13,
            subagent(
                "a2",
                K::Usage(SubagentUsage {
                    api_calls: 1,
                    tool_calls: 1,
                    input_tokens: 2_000,
                    output_tokens: 300,
                    cost_usd: Some(0.002),
                }),
            ),
        ),
        (
            13,
            subagent(
                "a2",
                K::Finished {
                    status: SubagentStatus::Completed,
                    summary: "The README describes the build.".into(),
                    duration_ms: 12_400,
                },
            ),
        ),
        (
            30,
            spawned("a1.1", Some("a1"), 2, "task 1.1: check flaky tests"),
        ),
        (
            40,
            activity(
                "a1",
                Event::ToolStart(ToolStart {
                    call_id: "c1".into(),
                    name: "terminal".into(),
                    preview: "cargo test --lib".into(),
                    arguments: serde_json::Value::Null,
                    parent_call_id: None,
                }),
            ),
        ),
        (
            41,
            subagent(
                "a1",
                K::Usage(SubagentUsage {
                    api_calls: 3,
                    tool_calls: 4,
                    input_tokens: 12_000,
                    output_tokens: 800,
                    cost_usd: Some(0.0123),
                }),
            ),
        ),
        (
            50,
            activity(
                "a1.1",
                Event::MessageDelta(MessageDelta {
                    turn_id: 1,
                    text: "Looking at the flaky ".into(),
                }),
            ),
        ),
    ];
    for (secs, event) in events {
        tree.apply(&event, at(secs));
    }
    (tree, at(90))
}

/// An app with a session that has announced itself, and its op receiver.
pub fn setup() -> (tempfile::TempDir, App, UnboundedReceiver<Op>) {
    let dir = tempfile::tempdir().unwrap();
    let (mut app, ops) = test_app(&dir, WithSession::Yes);
    super::engine_link::on_engine_event(&mut app, session_info());
    (dir, app, ops)
}

/// A key press without modifiers, through the app's input routing.
pub fn press(app: &mut App, code: crossterm::event::KeyCode) {
    let key = crossterm::event::KeyEvent::new(code, crossterm::event::KeyModifiers::NONE);
    super::input::on_terminal_event(app, crossterm::event::Event::Key(key));
}

/// Every op sent so far.
pub fn ops_sent(ops: &mut UnboundedReceiver<Op>) -> Vec<Op> {
    std::iter::from_fn(|| ops.try_recv().ok()).collect()
}

/// The newest notice in the transcript.
pub fn last_notice(app: &App) -> Option<String> {
    app.transcript
        .entries()
        .iter()
        .rev()
        .find_map(|e| match e.cell() {
            super::transcript::Cell::Notice { text, .. } => Some(text.clone()),
            _ => None,
        })
}

/// The rows of a test terminal's buffer, as text.
pub fn screen_rows(terminal: &ratatui::Terminal<ratatui::backend::TestBackend>) -> Vec<String> {
    let buf = terminal.backend().buffer();
    (0..buf.area.height)
        .map(|y| {
            (0..buf.area.width)
                .map(|x| buf[(x, y)].symbol().to_string())
                .collect::<String>()
        })
        .collect()
}

/// An app with a session and a fake voice service: the voice ops it sends, and the engine
/// ops. (Tests feed voice events to `voice_link::on_voice_event` themselves.)
pub fn voice_app() -> (
    tempfile::TempDir,
    App,
    UnboundedReceiver<crate::protocol::VoiceOp>,
    UnboundedReceiver<Op>,
) {
    let (dir, mut app, ops) = setup();
    let (voice_tx, voice_rx) = mpsc::unbounded_channel();
    let record_key = app.voice.record_key;
    app.voice = super::voice_link::VoiceUi::new(Some(voice_tx), record_key, None);
    (dir, app, voice_rx, ops)
}

/// The test's ends of a fake attach service: the requests the app sends, and a sender for
/// the service's answers (delivered with [`deliver_attach_events`]).
pub struct AttachEnds {
    pub requests: UnboundedReceiver<crate::protocol::AttachRequest>,
    pub events: UnboundedSender<crate::protocol::AttachEvent>,
}

impl AttachEnds {
    /// Every request sent so far.
    pub fn requests_sent(&mut self) -> Vec<crate::protocol::AttachRequest> {
        std::iter::from_fn(|| self.requests.try_recv().ok()).collect()
    }

    /// Answers with `event` (delivered to the app by [`deliver_attach_events`]).
    pub fn answer(&self, event: crate::protocol::AttachEvent) {
        self.events.send(event).unwrap();
    }
}

/// An app with a session that has announced itself and a running (fake) attach service.
pub fn attach_app() -> (tempfile::TempDir, App, AttachEnds, UnboundedReceiver<Op>) {
    let dir = tempfile::tempdir().unwrap();
    let (requests_tx, requests_rx) = mpsc::unbounded_channel();
    let (events_tx, events_rx) = mpsc::unbounded_channel();
    let handle = crate::protocol::AttachHandle {
        requests: requests_tx,
        events: events_rx,
    };
    let link = super::AttachLink::Running(handle);
    let (mut app, ops) = test_app_with(&dir, WithSession::Yes, link);
    super::engine_link::on_engine_event(&mut app, session_info());
    let ends = AttachEnds {
        requests: requests_rx,
        events: events_tx,
    };
    (dir, app, ends, ops)
}

/// Hands the app every attach event waiting on its channel, as the run loop would.
pub fn deliver_attach_events(app: &mut App) {
    while let Some(event) = app.attach_events.as_mut().and_then(|rx| rx.try_recv().ok()) {
        super::attachments::on_attach_event(app, event);
    }
}

/// An image as the attach service reports it: `image_20261130_031512_12<n>.png`, 1280×720,
/// 84 KB.
pub fn sample_image(n: usize) -> crate::protocol::ImageAttachment {
    crate::protocol::ImageAttachment {
        path: std::path::PathBuf::from(format!(
            "/home/u/.hermes/images/image_20261130_031512_12{n}.png"
        )),
        width: 1280,
        height: 720,
        bytes: 86_000,
    }
}

/// A key press with `modifiers`, through the app's input routing.
pub fn press_with(
    app: &mut App,
    code: crossterm::event::KeyCode,
    modifiers: crossterm::event::KeyModifiers,
) {
    let key = crossterm::event::KeyEvent::new(code, modifiers);
    super::input::on_terminal_event(app, crossterm::event::Event::Key(key));
}

/// Types `text` into the app one key at a time.
pub fn type_text(app: &mut App, text: &str) {
    for c in text.chars() {
        press(app, crossterm::event::KeyCode::Char(c));
    }
}

/// The whole app drawn into a `width`×`height` test terminal, at the session's start time (so
/// durations in the status bar are stable).
pub fn draw_app(
    app: &mut App,
    width: u16,
    height: u16,
) -> ratatui::Terminal<ratatui::backend::TestBackend> {
    let mut terminal =
        ratatui::Terminal::new(ratatui::backend::TestBackend::new(width, height)).unwrap();
    let now = app.status.session_started;
    terminal
        .draw(|frame| {
            let area = frame.area();
            super::render::render_app(area, frame.buffer_mut(), app, now);
        })
        .unwrap();
    terminal
}

/// The buffer with its styles: the text rows, then every change of style (position, fg, bg,
/// modifiers) — ratatui's `Buffer` debug form — so a snapshot shows a palette change.
pub fn styled_screen(terminal: &ratatui::Terminal<ratatui::backend::TestBackend>) -> String {
    format!("{:?}", terminal.backend().buffer())
}

/// The user asks to list the files; the agent runs `ls` and answers (a tool cell and a
/// markdown reply), and the turn completes.
pub fn list_files_turn(app: &mut App) {
    super::input::send_message(app, "list the files".into(), Vec::new());
    for event in [
        Event::TurnStarted(TurnStarted { turn_id: 1 }),
        Event::ToolStart(ToolStart {
            call_id: "c1".into(),
            name: "terminal".into(),
            preview: "ls".into(),
            arguments: serde_json::json!({"command": "ls"}),
            parent_call_id: None,
        }),
        Event::ToolComplete(ToolComplete {
            call_id: "c1".into(),
            name: "terminal".into(),
            status: crate::protocol::ToolStatus::Ok,
            output: "Cargo.toml\nsrc\ntests\n\nexit code 0".into(),
            duration_ms: 40,
        }),
        Event::MessageStart(MessageStart { turn_id: 1 }),
        Event::MessageComplete(MessageComplete {
            turn_id: 1,
            text: "There are **three** entries: `Cargo.toml`, `src` and `tests`.".into(),
            reasoning: None,
        }),
        Event::TurnComplete(TurnComplete {
            turn_id: 1,
            outcome: crate::protocol::TurnOutcome::Completed,
        }),
    ] {
        super::engine_link::on_engine_event(app, event);
    }
}
