//! The TUI's state and its one `tokio::select!` loop.
//!
//! The loop only routes: terminal input goes to `input`, engine events to `engine_link`,
//! internal `AppEvent`s (results of work done off the UI task) to `on_app_event`, and frame
//! deadlines to `render`. Nothing here blocks: clipboard, history saving, probing and
//! connection tests run on other tasks and report back as `AppEvent`s. There is no fixed
//! tick — an idle app waits for input with no deadline.

use std::sync::Arc;
use std::time::Instant;

use crossterm::event::EventStream;
use futures::StreamExt;
use tokio::sync::mpsc;
use tokio::sync::mpsc::UnboundedReceiver;
use tokio::sync::mpsc::UnboundedSender;

use super::SessionFactory;
use super::StartFailure;
use super::TuiError;
use super::TuiOptions;
use super::approvals_flow::ApprovalsUi;
use super::approvals_flow::Bell;
use super::composer::Composer;
use super::focus::Focus;
use super::frame::FrameScheduler;
use super::history::InputHistory;
use super::layout::SideVisibility;
use super::overlays::model_picker::ModelPicker;
use super::overlays::onboarding::Onboarding;
use super::overlays::stack::OverlayStack;
use super::panes::chat::ChatView;
use super::panes::side::SidePanes;
use super::probe::LocalServer;
use super::queue::QueuedMessages;
use super::status_bar::StatusModel;
use super::terminal::TerminalSession;
use super::transcript::Transcript;
use crate::config::HermesHome;
use crate::protocol::ClarifyRequest;
use crate::protocol::Event;
use crate::protocol::NoticeLevel;
use crate::protocol::Op;
use crate::protocol::SessionInfo;
use crate::protocol::StatusUpdate;
use crate::theme::Theme;

/// Results of work done off the UI task, and what an overlay's answer asks of the app
/// (`OverlayAction::App`, applied at once).
#[derive(Debug)]
pub enum AppEvent {
    LocalServersFound(Vec<LocalServer>),
    ConnectionTested(Result<(), String>),
    ProviderSaved(Result<(), String>),
    /// `/model`: the picker's entries are ready (reading `.env` happens off the UI task).
    ModelPickerReady(ModelPicker),
    ModelPickerServers(Vec<LocalServer>),
    /// A message's `@` references were read: send `text` with `images`, show `typed`.
    ReferencesExpanded {
        typed: String,
        text: String,
        notes: Vec<String>,
        images: Vec<crate::protocol::ImageAttachment>,
    },
    /// A thumbnail for an attached image was made (or could not be).
    ThumbnailReady {
        path: std::path::PathBuf,
        thumbnail: Result<super::thumbnails::Thumbnail, String>,
    },
    /// Paths for `@` completion (always delivered, possibly empty).
    PathCandidates(Vec<String>),
    /// Skins loaded, applied or saved (`skins_flow`).
    Skin(super::skins_flow::SkinEvent),
    Notice(NoticeLevel, String),
    /// Onboarding: test this choice (`probe::test_connection`).
    TestConnection(super::overlays::onboarding::ProviderChoice),
    /// Onboarding was cancelled (Esc on its first step, Ctrl+C): quit hermes.
    Quit,
    /// `/rollback`: the user confirmed restoring checkpoint `id` (number `index` + 1).
    RestoreCheckpoint {
        id: String,
        index: usize,
        created: String,
    },
    /// `/agents history`: the picker chose this saved tree.
    LoadSpawnTree(crate::protocol::SpawnTreeInfo),
    /// `/reload-mcp`: the dialog's answer.
    McpReload(super::mcp_flow::ReloadChoice),
}

/// What Enter does while the agent works (`display.busy_input_mode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BusyMode {
    Interrupt,
    Queue,
    Steer,
}

impl BusyMode {
    pub fn from_config(value: &str) -> Self {
        match value.trim().to_ascii_lowercase().as_str() {
            "queue" => Self::Queue,
            "steer" => Self::Steer,
            _ => Self::Interrupt,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Self::Interrupt => "interrupts",
            Self::Queue => "queues",
            Self::Steer => "steers",
        }
    }
}

/// A short message shown in place of the status bar until it expires.
pub struct Hint {
    pub text: String,
    pub until: Instant,
}

pub struct App {
    /// The skin every widget draws with; shared, so previewing a skin only swaps a pointer.
    pub theme: Arc<Theme>,
    /// Which skin, what it was loaded for, and the `/skin` picker.
    pub skin: super::skins_flow::SkinState,
    pub home: HermesHome,
    pub busy_mode: BusyMode,
    pub transcript: Transcript,
    pub chat: ChatView,
    pub composer: Composer,
    pub queue: QueuedMessages,
    pub status: StatusModel,
    pub side: SidePanes,
    pub side_visibility: SideVisibility,
    pub focus: Focus,
    /// The open modal overlays (onboarding, pickers, prompts), topmost last.
    pub overlays: OverlayStack,
    /// The subagent monitor's overlay (a child's log or details) and the live bar's shape.
    pub monitor: super::agents_flow::MonitorUi,
    /// Focus, bell and typing bookkeeping around the approvals queue (`app.side.approvals`).
    pub approvals: ApprovalsUi,
    pub factory: Box<dyn SessionFactory>,
    pub ops: Option<UnboundedSender<Op>>,
    /// A new session's event stream, picked up by the loop.
    pub new_events: Option<UnboundedReceiver<Event>>,
    pub info: Option<SessionInfo>,
    /// The MCP servers and their state, from the last `Event::McpStatus`.
    pub mcp_servers: Vec<crate::protocol::McpServerStatus>,
    /// A `/tools` switch was saved: the next `/new` restarts the session from config.yaml.
    pub tools_changed: bool,
    /// Whether `/reload-mcp` asks first, and its confirmation dialog.
    pub mcp: super::mcp_flow::McpUi,
    pub last_status: StatusUpdate,
    pub turn_running: bool,
    pub pending_clarify: Option<ClarifyRequest>,
    pub ctrl_c_armed: Option<Instant>,
    pub hint: Option<Hint>,
    pub frames: FrameScheduler,
    /// Frames drawn so far (the first one is logged with the start-up time).
    pub frames_drawn: u64,
    pub app_tx: UnboundedSender<AppEvent>,
    /// `Ctrl+G`: the loop hands the terminal to `$EDITOR` with this draft.
    pub editor_request: Option<String>,
    pub voice: super::voice_link::VoiceUi,
    /// The voice service's events, taken by the run loop.
    pub voice_events: Option<UnboundedReceiver<crate::protocol::VoiceEvent>>,
    /// Attached images and the requests waiting for the attach service.
    pub attach: super::attachments::AttachUi,
    /// The attach service's events, taken by the run loop.
    pub attach_events: Option<UnboundedReceiver<crate::protocol::AttachEvent>>,
    /// Small images drawn next to the badges, on terminals that can show them.
    pub thumbnails: super::thumbnails::Thumbnails,
    pub quit: bool,
    /// Keys that may be the tail of a split mouse report (`input_mouse`).
    pub mouse_tail: super::input_mouse::MouseTailFilter,
}

impl App {
    pub(crate) fn new(options: TuiOptions, app_tx: UnboundedSender<AppEvent>) -> Self {
        let history = InputHistory::load(&options.home.root().join("tui_history"));
        // Only `approvals.bell`, `approvals.mcp_reload_confirm` and the record key are needed
        // here; the session re-reads the rest itself.
        let config = crate::config::load(&options.home).config;
        let bell = Bell::from_config(&config.approvals);
        let (record_key, key_problem) =
            super::voice_keys::RecordKey::from_config(&config.voice.record_key);
        let (voice_ops, voice_events, voice_unavailable) = match options.voice {
            super::VoiceLink::Running(handle) => (Some(handle.ops), Some(handle.events), None),
            super::VoiceLink::Unavailable(why) => (None, None, Some(why)),
        };
        let (attach_requests, attach_events) = match options.attach {
            super::AttachLink::Running(handle) => (Ok(handle.requests), Some(handle.events)),
            super::AttachLink::Unavailable(why) => (Err(why), None),
        };
        let now = Instant::now();
        let mut transcript = Transcript::new();
        for warning in options.warnings.iter().chain(key_problem.iter()) {
            transcript.push_notice(NoticeLevel::Warning, warning);
        }
        Self {
            busy_mode: BusyMode::from_config(&options.display.busy_input_mode),
            skin: super::skins_flow::SkinState::new(&options.theme, &options.display),
            theme: Arc::new(options.theme),
            home: options.home,
            transcript,
            chat: ChatView::new(),
            composer: Composer::new(history),
            queue: QueuedMessages::new(),
            status: StatusModel::new("", now),
            side: SidePanes::default(),
            side_visibility: SideVisibility::Shown,
            focus: Focus::Composer,
            overlays: OverlayStack::default(),
            monitor: super::agents_flow::MonitorUi::default(),
            approvals: ApprovalsUi::new(bell),
            factory: options.factory,
            ops: None,
            new_events: None,
            info: None,
            mcp_servers: Vec::new(),
            tools_changed: false,
            mcp: super::mcp_flow::McpUi::new(&config.approvals),
            last_status: StatusUpdate::default(),
            turn_running: false,
            pending_clarify: None,
            ctrl_c_armed: None,
            hint: None,
            frames: FrameScheduler::default(),
            frames_drawn: 0,
            app_tx,
            editor_request: None,
            voice: super::voice_link::VoiceUi::new(voice_ops, record_key, voice_unavailable),
            voice_events,
            attach: super::attachments::AttachUi::new(attach_requests),
            attach_events,
            thumbnails: super::thumbnails::Thumbnails::from_env(),
            quit: false,
            mouse_tail: Default::default(),
        }
    }

    pub fn request_frame(&mut self) {
        self.frames.request_now(Instant::now());
    }

    pub fn send(&mut self, op: Op) {
        let sent = self.ops.as_ref().is_some_and(|ops| ops.send(op).is_ok());
        if !sent {
            self.transcript.push_notice(
                NoticeLevel::Warning,
                "no model session is running — choose a provider first",
            );
        }
    }

    /// Start (or restart) the engine session; on a missing provider, open onboarding.
    pub fn start_session(&mut self) {
        match self.factory.start() {
            Ok(started) => {
                for notice in &started.notices {
                    self.transcript.push_notice(NoticeLevel::Info, notice);
                }
                self.ops = Some(started.handle.ops);
                self.new_events = Some(started.handle.events);
                self.overlays.remove::<Onboarding>();
                self.status = StatusModel::new("", Instant::now());
            }
            Err(StartFailure::NeedsProvider(_)) => self.open_onboarding(),
            Err(StartFailure::Failed(reason)) => {
                self.transcript.push_notice(
                    NoticeLevel::Warning,
                    &format!("could not start a session: {reason}"),
                );
            }
        }
        self.request_frame();
    }

    fn open_onboarding(&mut self) {
        self.overlays.push(Onboarding::new());
        let tx = self.app_tx.clone();
        tokio::spawn(async move {
            let servers =
                super::probe::probe_local_servers(std::time::Duration::from_millis(300)).await;
            let _ = tx.send(AppEvent::LocalServersFound(servers));
        });
    }

    pub(crate) fn on_app_event(&mut self, event: AppEvent) {
        match event {
            AppEvent::LocalServersFound(servers) => {
                if let Some(onboarding) = self.overlays.find_mut::<Onboarding>() {
                    onboarding.set_local_servers(servers);
                }
            }
            AppEvent::ConnectionTested(result) => super::input::connection_tested(self, result),
            AppEvent::ProviderSaved(Ok(())) => self.start_session(),
            AppEvent::ProviderSaved(Err(reason)) => {
                if let Some(onboarding) = self.overlays.find_mut::<Onboarding>() {
                    onboarding.set_test_result(Err(format!("could not save the choice: {reason}")));
                }
            }
            AppEvent::Notice(level, text) => self.transcript.push_notice(level, &text),
            AppEvent::ModelPickerReady(picker) => {
                self.overlays.push(picker);
                let tx = self.app_tx.clone();
                tokio::spawn(async move {
                    let servers =
                        super::probe::probe_local_servers(super::probe::LOCAL_PROBE_TIMEOUT).await;
                    let _ = tx.send(AppEvent::ModelPickerServers(servers));
                });
            }
            AppEvent::ReferencesExpanded {
                typed,
                text,
                notes,
                images,
            } => {
                for note in &notes {
                    self.transcript.push_notice(NoticeLevel::Warning, note);
                }
                super::input::send_expanded(self, &typed, text, images);
            }
            AppEvent::PathCandidates(paths) => self.composer.set_path_candidates(paths),
            AppEvent::Skin(event) => super::skins_flow::on_event(self, event),
            AppEvent::ThumbnailReady { path, thumbnail } => {
                super::thumbnails::ready(self, path, thumbnail);
            }
            AppEvent::ModelPickerServers(servers) => {
                if let Some(picker) = self.overlays.find_mut::<ModelPicker>() {
                    picker.add_local_servers(&servers);
                }
            }
            AppEvent::TestConnection(choice) => super::input::test_connection(self, choice),
            AppEvent::Quit => self.quit = true,
            AppEvent::RestoreCheckpoint { id, index, created } => {
                super::rollback_link::restore(self, id, index, &created);
            }
            AppEvent::LoadSpawnTree(info) => super::spawn_trees_link::load(self, info),
            AppEvent::McpReload(choice) => super::mcp_flow::answered(self, choice),
        }
        self.request_frame();
    }
}

/// Run the app until the user quits. The terminal is restored on every exit path.
pub async fn run_app(options: TuiOptions) -> Result<(), TuiError> {
    super::terminal::install_panic_hook(options.home.logs_dir());
    // Syntax assets take ~100 ms to load; warm them off the UI task before a code block needs them.
    tokio::task::spawn_blocking(super::markdown::preload);
    let mut session = TerminalSession::enter().map_err(TuiError::Terminal)?;
    // Libraries that print to stderr (ALSA, whisper.cpp) would draw over the screen.
    let stderr_log = options.home.logs_dir().join("stderr.log");
    if let Err(err) = crate::util::stderr::capture_to(&stderr_log) {
        tracing::warn!(error = %err, path = %stderr_log.display(), "stderr stays on the terminal");
    }
    let (app_tx, mut app_rx) = mpsc::unbounded_channel();
    let mut app = App::new(options, app_tx);
    app.start_session();
    let mut engine_events: Option<UnboundedReceiver<Event>> = app.new_events.take();
    let mut voice_events = app.voice_events.take();
    let mut attach_events = app.attach_events.take();
    // The first frame, then the background query, then input: the query reads the tty
    // itself and must be done before crossterm starts reading it.
    let drawn = super::render::draw(&mut session.terminal, &mut app);
    app.quit |= super::terminal::hung_up(drawn).map_err(TuiError::Terminal)?;
    super::background::detect_at_start(&mut app).await;
    let mut term_events = EventStream::new();
    let mut signals = super::signals::Signals::new();
    super::signals::spawn_exit_watchdog(std::time::Duration::from_secs(3));
    loop {
        if app.quit {
            break;
        }
        if let Some(draft) = app.editor_request.take() {
            drop(term_events);
            let edited = super::editor::edit_in_editor(&mut session, draft).await;
            term_events = EventStream::new();
            super::input::editor_finished(&mut app, edited);
        }
        let deadline = app.frames.deadline();
        tokio::select! {
            event = term_events.next() => match event {
                Some(Ok(event)) => super::input::on_terminal_event(&mut app, event),
                Some(Err(err)) => {
                    tracing::warn!(error = %err, "terminal input error");
                }
                None => app.quit = true,
            },
            event = recv_engine(&mut engine_events) => match event {
                Some(event) => super::engine_link::on_engine_event(&mut app, event),
                None => {
                    engine_events = None;
                    super::approvals_flow::session_ended(&mut app);
                    if app.ops.take().is_some() && !app.quit {
                        app.transcript.push_notice(NoticeLevel::Warning, "the engine session ended");
                        app.request_frame();
                    }
                }
            },
            Some(event) = app_rx.recv() => app.on_app_event(event),
            event = recv_voice(&mut voice_events) => match event {
                Some(event) => super::voice_link::on_voice_event(&mut app, event),
                None => voice_events = None,
            },
            event = recv_optional(&mut attach_events) => match event {
                Some(event) => super::attachments::on_attach_event(&mut app, event),
                None => {
                    attach_events = None;
                    super::attachments::service_ended(&mut app);
                }
            },
            () = sleep_until(deadline), if deadline.is_some() => {
                let drawn = super::render::draw(&mut session.terminal, &mut app);
                app.quit |= super::terminal::hung_up(drawn).map_err(TuiError::Terminal)?;
            }
            () = signals.next() => app.quit = true,
        }
        if let Some(events) = app.new_events.take() {
            engine_events = Some(events);
        }
        if app.approvals.take_bell()
            && let Err(err) = super::terminal::ring_bell(&mut session.terminal)
        {
            tracing::debug!(error = %err, "could not ring the bell");
        }
    }
    if let Some(ops) = app.ops.take() {
        let _ = ops.send(Op::Shutdown);
    }
    super::voice_link::shutdown(&app);
    super::input::save_history(&app);
    drop(session);
    // The engine marks the stored session ended as it stops; the runtime is torn down right
    // after this returns, so give it a moment (bounded: under the signal watchdog's 3 s).
    wait_for_engine_stop(&mut engine_events, std::time::Duration::from_secs(2)).await;
    // The skin's farewell, on the restored terminal (ignored if stdout is gone).
    let goodbye = app.theme.branding.goodbye.trim();
    if !goodbye.is_empty() {
        use std::io::Write;
        let _ = writeln!(std::io::stdout(), "{goodbye}");
    }
    Ok(())
}

/// Drain engine events until the engine confirms it stopped, it is gone, or `limit` passes.
async fn wait_for_engine_stop(
    events: &mut Option<UnboundedReceiver<Event>>,
    limit: std::time::Duration,
) {
    let Some(rx) = events.as_mut() else {
        return;
    };
    let _ = tokio::time::timeout(limit, async {
        while let Some(event) = rx.recv().await {
            if matches!(event, Event::ShutdownComplete) {
                break;
            }
        }
    })
    .await;
}

async fn recv_engine(events: &mut Option<UnboundedReceiver<Event>>) -> Option<Event> {
    match events {
        Some(rx) => rx.recv().await,
        None => std::future::pending().await,
    }
}

async fn recv_voice(
    events: &mut Option<UnboundedReceiver<crate::protocol::VoiceEvent>>,
) -> Option<crate::protocol::VoiceEvent> {
    match events {
        Some(rx) => rx.recv().await,
        None => std::future::pending().await,
    }
}

/// The next message on an optional channel; never resolves without one.
async fn recv_optional<T>(events: &mut Option<UnboundedReceiver<T>>) -> Option<T> {
    match events {
        Some(rx) => rx.recv().await,
        None => std::future::pending().await,
    }
}

async fn sleep_until(deadline: Option<Instant>) {
    match deadline {
        Some(at) => tokio::time::sleep_until(at.into()).await,
        None => std::future::pending().await,
    }
}

#[cfg(test)]
#[path = "app_tests.rs"]
mod tests;
