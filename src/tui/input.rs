//! Terminal input → intent. Keys go to the topmost thing that wants them: the topmost open
//! overlay (`overlays::stack`; it takes every key, and a paste goes to the topmost overlay
//! that takes pastes before the composer), then the Approvals pane when it has focus and a request
//! (`approvals_flow`; so Esc denies there instead of interrupting), the Subagents and Goals
//! panes when focused (`agents_flow`, `goals_flow`), then app-level keys (interrupt, quit,
//! focus), then the chat or the composer. Also the follow-ups of what the composer produces:
//! messages, slash commands, shell commands, queueing and steering. A message takes the
//! attached images with it (sent or queued); a steer or a clarify answer leaves them for the
//! next message (`attachments`).

use std::time::Duration;
use std::time::Instant;

use crossterm::event::Event as TermEvent;
use crossterm::event::KeyCode;
use crossterm::event::KeyEvent;
use crossterm::event::KeyEventKind;
use crossterm::event::KeyModifiers;

use super::app::App;
use super::app::AppEvent;
use super::app::BusyMode;
use super::app::Hint;
use super::approvals_flow::KeyOutcome;
use super::composer::ComposerAction;
use super::composer::Submission;
use super::focus::Focus;
use super::layout::SideVisibility;
use super::overlays::onboarding::Onboarding;
use super::overlays::onboarding::ProviderChoice;
use crate::protocol::ClarifyAnswer;
use crate::protocol::ImageAttachment;
use crate::protocol::NoticeLevel;
use crate::protocol::Op;

/// A second Ctrl+C within this window exits.
const DOUBLE_CTRL_C: Duration = Duration::from_secs(1);

pub fn on_terminal_event(app: &mut App, event: TermEvent) {
    // The tail of a split mouse report is never typing.
    for event in app.mouse_tail.filter(event, Instant::now()) {
        on_filtered_event(app, event);
    }
}

fn on_filtered_event(app: &mut App, event: TermEvent) {
    if app.skin.late_reply.swallow(&event, Instant::now()) {
        return;
    }
    match event {
        // The record key is voice's before anything else, releases included (push-to-talk).
        TermEvent::Key(key) if super::voice_link::on_key(app, &key) => {}
        TermEvent::Key(key) if key.kind != KeyEventKind::Release => on_key(app, key),
        TermEvent::Key(_) => {}
        TermEvent::Paste(text) => {
            if !super::overlays::stack::on_paste(app, &text) {
                super::attachments::on_paste(app, text);
            }
        }
        TermEvent::Mouse(mouse) => {
            if app.chat.handle_mouse(mouse) {
                app.request_frame();
            }
            return;
        }
        TermEvent::Resize(_, _) | TermEvent::FocusGained | TermEvent::FocusLost => {}
    }
    app.request_frame();
}

fn on_key(app: &mut App, key: KeyEvent) {
    if super::overlays::stack::on_key(app, key) {
        return;
    }
    if super::approvals_flow::handle_key(app, key) == KeyOutcome::Handled {
        return;
    }
    if super::agents_flow::handle_key(app, key) == KeyOutcome::Handled {
        return;
    }
    if super::goals_flow::handle_key(app, key) == KeyOutcome::Handled {
        return;
    }
    // Only keys meant for the composer, chat or app count as typing (an approval request
    // never takes focus from someone typing). A plain Enter sends the draft and leaves the
    // composer empty, so the request that the message causes may take focus at once.
    if key.code == KeyCode::F(3) {
        return super::approvals_flow::toggle_focus(app);
    }
    if key.code == KeyCode::Enter && key.modifiers.is_empty() {
        app.approvals.draft_sent();
    } else {
        app.approvals.note_key(Instant::now());
    }
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    match key.code {
        KeyCode::Char('c') if ctrl => return ctrl_c(app),
        KeyCode::Char('t') if ctrl => {
            app.focus = if app.focus == Focus::Agents {
                Focus::Composer
            } else {
                Focus::Agents
            };
            return;
        }
        KeyCode::Char('o') if ctrl => {
            app.focus = next_focus(app.focus);
            return;
        }
        KeyCode::Char('l') if ctrl => return app.chat.scroll_to_bottom(),
        KeyCode::F(2) => {
            app.side_visibility = match app.side_visibility {
                SideVisibility::Shown => SideVisibility::Hidden,
                SideVisibility::Hidden => SideVisibility::Shown,
            };
            return;
        }
        KeyCode::PageUp => return app.chat.page_up(),
        KeyCode::PageDown => return app.chat.page_down(),
        KeyCode::Esc if app.turn_running => return interrupt(app),
        KeyCode::Esc if app.pending_clarify.is_some() => return decline_clarify(app),
        KeyCode::Esc if app.focus != Focus::Composer => {
            app.focus = Focus::Composer;
            return;
        }
        _ => {}
    }
    match app.focus {
        Focus::Chat => {
            app.chat.handle_key(key);
        }
        Focus::Agents | Focus::Goals | Focus::Approvals => {}
        Focus::Composer => composer_key(app, key),
    }
}

fn next_focus(focus: Focus) -> Focus {
    match focus {
        Focus::Composer => Focus::Chat,
        Focus::Chat => Focus::Agents,
        Focus::Agents => Focus::Goals,
        Focus::Goals => Focus::Approvals,
        Focus::Approvals => Focus::Composer,
    }
}

/// Ctrl+C: interrupt a running turn; else clear the draft; else exit on a second press.
fn ctrl_c(app: &mut App) {
    let now = Instant::now();
    if app.turn_running {
        return interrupt(app);
    }
    // One press clears the draft and the attached images together.
    let cleared_images = super::attachments::clear(app);
    if !app.composer.is_empty() {
        app.composer.clear();
        return;
    }
    if cleared_images {
        return;
    }
    if app
        .ctrl_c_armed
        .is_some_and(|at| now.duration_since(at) < DOUBLE_CTRL_C)
    {
        app.quit = true;
        return;
    }
    app.ctrl_c_armed = Some(now);
    show_hint(app, "Press Ctrl+C again to exit", DOUBLE_CTRL_C);
}

pub fn show_hint(app: &mut App, text: &str, duration: Duration) {
    let until = Instant::now() + duration;
    app.hint = Some(Hint {
        text: text.to_string(),
        until,
    });
    // Redraw when it expires so it disappears without input.
    app.frames.request_at(until);
}

fn interrupt(app: &mut App) {
    app.send(Op::Interrupt);
    super::voice_link::stop_speaking(app);
    show_hint(app, "interrupting…", Duration::from_secs(2));
}

fn decline_clarify(app: &mut App) {
    if let Some(request) = app.pending_clarify.take() {
        app.transcript.push_notice(
            NoticeLevel::Info,
            "declined to answer; the agent will decide",
        );
        app.send(Op::ClarifyReply {
            id: request.id,
            answer: ClarifyAnswer::Declined,
        });
    }
}

fn composer_key(app: &mut App, key: KeyEvent) {
    let is_up = key.code == KeyCode::Up && key.modifiers.is_empty();
    if is_up && app.composer.is_empty() && !app.queue.is_empty() {
        if let Some(message) = app.queue.take_last() {
            app.composer.set_text(&message.text);
            app.attach.restore(message.images);
        }
        return;
    }
    if super::attachments::on_composer_key(app, &key) {
        return;
    }
    let action = app.composer.handle_key(key);
    feed_path_candidates(app);
    match action {
        ComposerAction::None | ComposerAction::Changed => {}
        ComposerAction::Submit(submission) => submit(app, submission),
        ComposerAction::OpenEditor => app.editor_request = Some(app.composer.text()),
        ComposerAction::QueueCurrent => {
            let text = app.composer.text();
            app.composer.clear();
            if app.turn_running {
                queue_message(app, text);
            } else {
                submit(app, Submission::Message(text));
            }
        }
        ComposerAction::Interrupt => interrupt(app),
        ComposerAction::Exit => app.quit = true,
    }
}

fn submit(app: &mut App, submission: Submission) {
    match submission {
        Submission::Message(text) => submit_message(app, text),
        Submission::Slash { name, args } => {
            remember(app, format!("/{name} {args}").trim_end());
            super::commands::execute(app, &name, &args);
        }
        Submission::Shell(command) => {
            remember(app, &format!("!{command}"));
            app.transcript.push_user(&format!("!{command}"));
            app.send(Op::RunShell { command });
        }
    }
}

/// A message from the composer, sent with the attached images (it may be only images). Input
/// history keeps the text alone.
pub fn submit_message(app: &mut App, text: String) {
    let blank = text.trim().is_empty();
    if blank && !app.attach.has_images() {
        return;
    }
    if !blank {
        remember(app, &text);
        if super::engine_link::answer_clarify(app, &text) {
            return super::attachments::kept_for_next(app, "an answer to a question");
        }
    }
    if !app.turn_running {
        let images = app.attach.take_images();
        return send_message(app, text, images);
    }
    match app.busy_mode {
        BusyMode::Interrupt => {
            let images = app.attach.take_images();
            send_message(app, text, images);
        }
        BusyMode::Queue => queue_message(app, text),
        BusyMode::Steer if blank => super::attachments::kept_for_next(app, "a steer"),
        BusyMode::Steer => steer(app, text),
    }
}

/// Queues `text` with the attached images, to send when the turn ends.
pub fn queue_message(app: &mut App, text: String) {
    let images = app.attach.take_images();
    app.queue
        .push_message(super::queue::QueuedMessage { text, images });
}

/// Add to input history and save it off the UI task, so a crash loses nothing typed.
fn remember(app: &mut App, entry: &str) {
    app.composer.remember(entry);
    let (path, entries) = app.composer.history().snapshot();
    tokio::task::spawn_blocking(move || {
        if let Err(err) = super::history::save_entries(&path, &entries) {
            tracing::warn!(error = %err, path = %path.display(), "could not save input history");
        }
    });
}

/// Show the message and hand it to the engine (which interrupts a running turn first).
pub fn send_message(app: &mut App, text: String, images: Vec<ImageAttachment>) {
    // A new user message ends the review of finished subagents.
    app.side.agents.drop_finished();
    if super::references::find_references(&text).is_empty() {
        return send_expanded(app, &text, text.clone(), images);
    }
    // `@file`, `@folder/`, `@diff` read the disk and run git: off the UI task.
    let cwd = session_cwd(app);
    let tx = app.app_tx.clone();
    tokio::task::spawn_blocking(move || {
        let expanded = super::references::expand_references(&text, &cwd);
        let _ = tx.send(AppEvent::ReferencesExpanded {
            typed: text,
            text: expanded.text,
            notes: expanded.notes,
            images,
        });
    });
}

/// Show what the user typed; send the model the text with references attached.
pub fn send_expanded(app: &mut App, typed: &str, text: String, images: Vec<ImageAttachment>) {
    let lines = super::attachments::image_lines(&images);
    app.transcript.push_user_with_images(typed, lines);
    app.chat.scroll_to_bottom();
    app.send(Op::UserInput { text, images });
}

/// The working directory of the session (where `@` paths resolve), else the process's.
pub fn session_cwd(app: &App) -> std::path::PathBuf {
    app.info
        .as_ref()
        .map(|info| std::path::PathBuf::from(&info.cwd))
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_default()
}

/// The composer asked for paths to complete after `@`: list them off the UI task.
pub fn feed_path_candidates(app: &mut App) {
    if !app.composer.wants_path_candidates() {
        return;
    }
    app.composer.note_path_candidates_requested();
    let cwd = session_cwd(app);
    let tx = app.app_tx.clone();
    tokio::task::spawn_blocking(move || {
        let paths = super::references::list_paths(&cwd, 5_000);
        let _ = tx.send(AppEvent::PathCandidates(paths));
    });
}

pub fn steer(app: &mut App, text: String) {
    app.transcript
        .push_notice(NoticeLevel::Info, &format!("steer: {text}"));
    app.send(Op::Steer { text });
    super::attachments::kept_for_next(app, "a steer");
}

pub fn editor_finished(app: &mut App, edited: Result<String, String>) {
    match edited {
        Ok(text) => app.composer.set_text(&text),
        Err(reason) => app
            .transcript
            .push_notice(NoticeLevel::Warning, &format!("editor: {reason}")),
    }
    app.request_frame();
}

/// Onboarding asked to test `choice`: off the UI task, reported as `ConnectionTested`.
pub fn test_connection(app: &mut App, choice: ProviderChoice) {
    let tx = app.app_tx.clone();
    tokio::spawn(async move {
        let result = super::probe::test_connection(&choice, Duration::from_secs(10)).await;
        let _ = tx.send(AppEvent::ConnectionTested(result));
    });
}

/// The onboarding connection test finished: on success save the choice (off the UI task),
/// then start the session.
pub fn connection_tested(app: &mut App, result: Result<(), String>) {
    let Some(onboarding) = app.overlays.find_mut::<Onboarding>() else {
        return;
    };
    onboarding.set_test_result(result);
    let Some(choice) = onboarding.result().cloned() else {
        return;
    };
    let home = app.home.clone();
    let tx = app.app_tx.clone();
    tokio::task::spawn_blocking(move || {
        let saved =
            super::overlays::onboarding::save_choice(&home, &choice).map_err(|e| e.to_string());
        let _ = tx.send(AppEvent::ProviderSaved(saved));
    });
}

/// Persist input history (called on exit; small and bounded).
pub fn save_history(app: &App) {
    if let Err(err) = app.composer.save_history() {
        tracing::warn!(error = %err, "could not save input history");
    }
}
