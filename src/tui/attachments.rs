//! The TUI's side of image attachments: the images attached to the next message, the
//! requests still waiting for the attach service, and what starts them (`/paste`,
//! `/image PATH`, Ctrl+V / Alt+V, a pasted image path).
//!
//! The attach service owns the clipboard and the disk; this module only sends
//! `AttachRequest`s and applies the `AttachEvent`s that answer them, so a keystroke never
//! waits on either. Without a service every request says why in the transcript instead of
//! doing nothing. It renders nothing: `attachment_row` draws the badges from [`AttachUi`].
//!
//! Invariants: images keep the order they were attached in, and badge `#n` is the `n`th of
//! them; the service answers each request with exactly one event, in order, so `pending`
//! holds one entry per unanswered request, oldest first. A request made before Ctrl+C cleared
//! the attachments is still counted, but its answer is dropped.

use std::collections::VecDeque;
use std::time::Duration;

use crossterm::event::KeyCode;
use crossterm::event::KeyEvent;
use crossterm::event::KeyModifiers;
use tokio::sync::mpsc::UnboundedSender;

use super::app::App;
use crate::protocol::AttachEvent;
use crate::protocol::AttachRequest;
use crate::protocol::ImageAttachment;
use crate::protocol::NoticeLevel;
use crate::tui::attachment_row::image_badge;

/// How long the "attached …", "removed …" and "cleared …" hints stay.
const HINT_TIME: Duration = Duration::from_secs(3);
/// Pastes longer than this are never an image path (so a huge paste is not scanned).
const MAX_PATH_PASTE_BYTES: usize = 8 * 1024;
/// Why requests fail once the service has gone.
const SERVICE_STOPPED: &str = "the attach service has stopped";

/// What a waiting request is doing, for the badge row (`reading clipboard…`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PendingRead {
    Clipboard,
    File,
}

/// Whether the answer to a waiting request is still wanted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fate {
    Wanted,
    /// Ctrl+C cleared the attachments after the request was made.
    Dropped,
}

#[derive(Debug)]
enum Link {
    Running(UnboundedSender<AttachRequest>),
    Unavailable(String),
}

/// Attachment state as the UI knows it.
#[derive(Debug)]
pub struct AttachUi {
    link: Link,
    images: Vec<ImageAttachment>,
    pending: VecDeque<(PendingRead, Fate)>,
}

impl AttachUi {
    /// `requests` is the service's sender, or `Err(why)` when this run has no service.
    pub fn new(requests: Result<UnboundedSender<AttachRequest>, String>) -> Self {
        let link = match requests {
            Ok(sender) => Link::Running(sender),
            Err(why) => Link::Unavailable(why),
        };
        Self {
            link,
            images: Vec::new(),
            pending: VecDeque::new(),
        }
    }

    /// The attached images, in badge order.
    pub fn images(&self) -> &[ImageAttachment] {
        &self.images
    }

    pub fn has_images(&self) -> bool {
        !self.images.is_empty()
    }

    /// What the oldest waiting request is doing, and how many wait; `None` when none does.
    pub fn pending(&self) -> Option<(PendingRead, usize)> {
        self.pending
            .front()
            .map(|(read, _)| (*read, self.pending.len()))
    }

    /// Takes the images for a message being sent or queued; the badges go.
    pub fn take_images(&mut self) -> Vec<ImageAttachment> {
        std::mem::take(&mut self.images)
    }

    /// Puts images back in front of any attached since (a queued message back in the
    /// composer).
    pub fn restore(&mut self, mut images: Vec<ImageAttachment>) {
        images.append(&mut self.images);
        self.images = images;
    }

    /// Sends `request`; `Err(notice)` when there is no service to send it to.
    fn send(&mut self, request: AttachRequest) -> Result<(), String> {
        self.try_send(request)
            .map_err(|why| format!("images cannot be attached: {why}"))
    }

    fn try_send(&mut self, request: AttachRequest) -> Result<(), String> {
        let read = match request {
            AttachRequest::ClipboardImage | AttachRequest::ClipboardAny => PendingRead::Clipboard,
            AttachRequest::File { .. } | AttachRequest::PastedPath { .. } => PendingRead::File,
        };
        let sent = match &self.link {
            Link::Running(sender) => sender.send(request).is_ok(),
            Link::Unavailable(why) => return Err(why.clone()),
        };
        if !sent {
            self.link = Link::Unavailable(SERVICE_STOPPED.to_string());
            return Err(SERVICE_STOPPED.to_string());
        }
        self.pending.push_back((read, Fate::Wanted));
        Ok(())
    }

    /// A request waiting for its answer, as `send` records it (tests without a service loop).
    #[cfg(test)]
    pub(crate) fn test_push_pending(&mut self, read: PendingRead) {
        self.pending.push_back((read, Fate::Wanted));
    }

    /// Drops every image and the answers to waiting requests; how many images went.
    fn clear(&mut self) -> usize {
        for entry in &mut self.pending {
            entry.1 = Fate::Dropped;
        }
        std::mem::take(&mut self.images).len()
    }
}

/// One transcript line for a sent image (without the `📎`):
/// `Image #1 · image_20261130_031512_123.png · 1280×720 · 84 KB`.
pub fn image_line(number: usize, image: &ImageAttachment) -> String {
    let name = image
        .path
        .file_name()
        .unwrap_or(image.path.as_os_str())
        .to_string_lossy();
    format!(
        "Image #{number} · {name} · {}×{} · {}",
        image.width,
        image.height,
        format_size(image.bytes)
    )
}

/// `512 B`, `84 KB`, `3.4 MB`.
pub fn format_size(bytes: u64) -> String {
    const KB: u64 = 1024;
    const MB: u64 = 1024 * 1024;
    if bytes < KB {
        format!("{bytes} B")
    } else if bytes < MB {
        format!("{} KB", (bytes + KB / 2) / KB)
    } else {
        // Tenths of a megabyte, rounded, in integers (no float casts).
        let tenths = (bytes * 10 + MB / 2) / MB;
        format!("{}.{} MB", tenths / 10, tenths % 10)
    }
}

/// The transcript lines for images sent with a message, numbered from 1.
pub fn image_lines(images: &[ImageAttachment]) -> Vec<String> {
    images
        .iter()
        .enumerate()
        .map(|(i, image)| image_line(i + 1, image))
        .collect()
}

/// Asks the service for `request`, or says in the transcript why it cannot.
pub fn request(app: &mut App, request: AttachRequest) {
    if let Err(why) = app.attach.send(request) {
        app.transcript.push_notice(NoticeLevel::Warning, &why);
    }
    app.request_frame();
}

/// `/paste`: attach the clipboard's image.
pub fn paste_command(app: &mut App) {
    request(app, AttachRequest::ClipboardImage);
}

/// `/image PATH`.
pub fn image_command(app: &mut App, args: &str) {
    let path = args.trim();
    if path.is_empty() {
        app.transcript.push_notice(
            NoticeLevel::Info,
            "usage: /image PATH — attach an image file to the next message",
        );
        return;
    }
    request(
        app,
        AttachRequest::File {
            path: path.to_string(),
        },
    );
}

/// The composer's attachment keys: Ctrl+V / Alt+V read the clipboard, Backspace on an empty
/// draft removes the last image. `true` when `key` was one of them.
pub fn on_composer_key(app: &mut App, key: &KeyEvent) -> bool {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    let alt = key.modifiers.contains(KeyModifiers::ALT);
    match key.code {
        KeyCode::Char('v' | 'V') if ctrl || alt => {
            request(app, AttachRequest::ClipboardAny);
            true
        }
        KeyCode::Backspace
            if key.modifiers.is_empty() && app.composer.is_empty() && app.attach.has_images() =>
        {
            remove_last(app);
            true
        }
        // The composer sends or queues only text; with images alone these do it here.
        KeyCode::Enter | KeyCode::Tab if key.modifiers.is_empty() && images_only(app) => {
            app.composer.clear();
            if key.code == KeyCode::Tab && app.turn_running {
                super::input::queue_message(app, String::new());
            } else {
                super::input::submit_message(app, String::new());
            }
            true
        }
        _ => false,
    }
}

/// Images attached and nothing but whitespace typed.
fn images_only(app: &App) -> bool {
    app.attach.has_images()
        && app.composer.popup().is_none()
        && app.composer.text().trim().is_empty()
}

/// A message that cannot carry images (`what`: "a steer") was sent: say that the attached
/// images wait for the next one.
pub fn kept_for_next(app: &mut App, what: &str) {
    let count = app.attach.images.len();
    if count == 0 {
        return;
    }
    let (them, they) = if count == 1 {
        ("the image", "it stays")
    } else {
        ("the images", "they stay")
    };
    let mut text = format!("{what} cannot carry images: {they} attached for your next message");
    if app.turn_running {
        text.push_str(&format!(" (Tab on an empty draft queues {them} now)"));
    }
    app.transcript.push_notice(NoticeLevel::Info, &text);
}

fn remove_last(app: &mut App) {
    let number = app.attach.images.len();
    if app.attach.images.pop().is_some() {
        let text = format!("removed {}", image_badge(number));
        super::input::show_hint(app, &text, HINT_TIME);
    }
}

/// Ctrl+C on an idle composer: drop the images (and the answers still on their way). `false`
/// when there was nothing to clear.
pub fn clear(app: &mut App) -> bool {
    let waiting = app.attach.pending.iter().any(|(_, f)| *f == Fate::Wanted);
    let cleared = app.attach.clear();
    if cleared > 0 {
        let noun = if cleared == 1 { "image" } else { "images" };
        let text = format!("cleared {cleared} attached {noun}");
        super::input::show_hint(app, &text, HINT_TIME);
    }
    cleared > 0 || waiting
}

/// A bracketed paste into the composer: an image path or `file://` URI goes to the service
/// (which attaches it, or hands the text back); anything else is typed in as usual. Without
/// a service the text is typed in, and the transcript says why nothing was attached.
pub fn on_paste(app: &mut App, text: String) {
    // An empty paste is what terminals send when the clipboard holds only an image (they can
    // carry text only): look for the image ourselves.
    if text.is_empty() {
        return request(app, AttachRequest::ClipboardImage);
    }
    if !looks_like_image_path(&text) {
        app.composer.handle_paste(text);
        super::input::feed_path_candidates(app);
        return;
    }
    let request = AttachRequest::PastedPath { text };
    if let Err(why) = app.attach.send(request.clone()) {
        app.transcript.push_notice(NoticeLevel::Warning, &why);
        if let AttachRequest::PastedPath { text } = request {
            app.composer.handle_paste(text);
        }
    }
}

fn looks_like_image_path(text: &str) -> bool {
    if text.len() > MAX_PATH_PASTE_BYTES {
        return false;
    }
    let home = std::env::var_os("HOME").map(std::path::PathBuf::from);
    crate::util::image_path::pasted_image_path(text, home.as_deref()).is_some()
}

/// The service's channel closed: nothing waiting will be answered, and nothing more can be
/// asked.
pub fn service_ended(app: &mut App) {
    app.attach.pending.clear();
    app.attach.link = Link::Unavailable(SERVICE_STOPPED.to_string());
    app.request_frame();
}

/// The service answered the oldest waiting request.
pub fn on_attach_event(app: &mut App, event: AttachEvent) {
    let fate = app
        .attach
        .pending
        .pop_front()
        .map_or(Fate::Wanted, |(_, f)| f);
    match (event, fate) {
        (AttachEvent::Attached { image, origin }, Fate::Wanted) => {
            app.attach.images.push(image);
            let badge = image_badge(app.attach.images.len());
            super::input::show_hint(app, &format!("attached {badge} from {origin}"), HINT_TIME);
            super::thumbnails::attached(app);
        }
        (AttachEvent::InsertText { text }, Fate::Wanted) => {
            app.composer.handle_paste(text);
            super::input::feed_path_candidates(app);
        }
        (AttachEvent::Notice { level, text }, _) => app.transcript.push_notice(level, &text),
        (AttachEvent::Attached { .. } | AttachEvent::InsertText { .. }, Fate::Dropped) => {}
    }
    app.request_frame();
}

#[cfg(test)]
#[path = "attachments_tests.rs"]
mod tests;
