//! The attach service: answers a frontend's `AttachRequest`s (`/paste`, Ctrl+V, `/image PATH`,
//! a pasted path) on its own thread, so the clipboard (which may wait seconds on another
//! program) and image decoding never touch the UI task.
//!
//! Every image is decoded, checked against the caps and saved as a timestamped PNG under
//! `HERMES_HOME/images/` before it is reported attached. Invariants: exactly one
//! `AttachEvent` per request, in request order; a failure is a notice that says what happened
//! and what to do — never silence.

use std::path::Path;
use std::path::PathBuf;
use std::time::SystemTime;

use tokio::sync::mpsc;

use super::source::ClipboardContent;
use super::source::ClipboardEnv;
use super::source::ClipboardError;
use super::source::ClipboardReader;
use crate::images::image_file;
use crate::protocol::AttachEvent;
use crate::protocol::AttachHandle;
use crate::protocol::AttachRequest;
use crate::protocol::NoticeLevel;

/// What the service needs.
pub struct AttachSettings {
    /// `HERMES_HOME/images`.
    pub images_dir: PathBuf,
    /// Where relative `/image` paths resolve.
    pub cwd: PathBuf,
    /// For `~/` paths.
    pub home_dir: Option<PathBuf>,
    pub env: ClipboardEnv,
    pub reader: Box<dyn ClipboardReader>,
}

/// Starts the service thread. It ends when the handle's request sender is dropped.
pub fn spawn(settings: AttachSettings) -> AttachHandle {
    let (request_tx, mut request_rx) = mpsc::unbounded_channel::<AttachRequest>();
    let (event_tx, event_rx) = mpsc::unbounded_channel();
    let spawned = std::thread::Builder::new()
        .name("hermes-attach".into())
        .spawn(move || {
            let mut service = Service { settings };
            while let Some(request) = request_rx.blocking_recv() {
                let event = service.answer(request);
                if event_tx.send(event).is_err() {
                    break;
                }
            }
        });
    if let Err(err) = spawned {
        tracing::error!(error = %err, "could not start the attach service thread");
    }
    AttachHandle {
        requests: request_tx,
        events: event_rx,
    }
}

struct Service {
    settings: AttachSettings,
}

fn notice(level: NoticeLevel, text: impl Into<String>) -> AttachEvent {
    AttachEvent::Notice {
        level,
        text: text.into(),
    }
}

impl Service {
    fn answer(&mut self, request: AttachRequest) -> AttachEvent {
        match request {
            AttachRequest::ClipboardImage => self.attach_clipboard(ClipboardUse::ImageOnly),
            AttachRequest::ClipboardAny => self.attach_clipboard(ClipboardUse::ImageOrText),
            AttachRequest::File { path } => self.attach_typed_path(&path),
            AttachRequest::PastedPath { text } => self.attach_pasted_path(text),
        }
    }

    fn attach_clipboard(&mut self, usage: ClipboardUse) -> AttachEvent {
        let remote = self.settings.env.remote_note();
        let content = match self.settings.reader.read() {
            Ok(content) => content,
            Err(ClipboardError::NoClipboard(why)) => return notice(NoticeLevel::Warning, why),
            Err(err @ ClipboardError::Failed(_)) => {
                return notice(
                    NoticeLevel::Warning,
                    format!("{err}. Attach a file with /image PATH instead."),
                );
            }
        };
        match content {
            ClipboardContent::Pixels {
                width,
                height,
                rgba,
            } => self.save(
                image_file::from_rgba(width, height, &rgba),
                "clipboard".into(),
            ),
            ClipboardContent::Encoded { bytes, tool } => self.save(
                image_file::decode_bytes(&bytes, &format!("the clipboard image (from {tool})")),
                "clipboard".into(),
            ),
            ClipboardContent::Text(text) => {
                if let Some(path) = self.image_path_in(&text)
                    && path.is_file()
                {
                    return self.attach_file(&path);
                }
                match usage {
                    ClipboardUse::ImageOrText => AttachEvent::InsertText { text },
                    ClipboardUse::ImageOnly => notice(
                        NoticeLevel::Warning,
                        format!(
                            "The clipboard holds text, not an image ({}){remote}. Copy an \
                             image (a screenshot) and run /paste again, or attach a file with \
                             /image PATH.",
                            preview(&text)
                        ),
                    ),
                }
            }
            ClipboardContent::Empty => notice(
                NoticeLevel::Warning,
                format!(
                    "The clipboard is empty{remote}: nothing to attach. Copy an image first, \
                     or attach a file with /image PATH."
                ),
            ),
        }
    }

    fn attach_typed_path(&mut self, typed: &str) -> AttachEvent {
        let typed = typed.trim();
        if typed.is_empty() {
            return notice(NoticeLevel::Warning, "Usage: /image PATH");
        }
        // `/image` takes the same forms as a paste (quotes, file:// URIs, `\ `), plus plain
        // relative paths.
        let path = self
            .image_path_in(typed)
            .unwrap_or_else(|| PathBuf::from(typed));
        let path = if path.is_absolute() {
            path
        } else {
            self.settings.cwd.join(path)
        };
        if !path.exists() {
            return notice(
                NoticeLevel::Warning,
                format!("No such file: {}", path.display()),
            );
        }
        self.attach_file(&path)
    }

    fn attach_pasted_path(&mut self, text: String) -> AttachEvent {
        match self.image_path_in(&text) {
            Some(path) if path.is_file() => self.attach_file(&path),
            // A path-like text that names no image file is just text.
            _ => AttachEvent::InsertText { text },
        }
    }

    fn attach_file(&mut self, path: &Path) -> AttachEvent {
        let origin = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| path.display().to_string());
        self.save(image_file::decode_file(path), origin)
    }

    fn save(
        &mut self,
        decoded: Result<image::DynamicImage, image_file::ImageError>,
        origin: String,
    ) -> AttachEvent {
        let saved = decoded.and_then(|image| {
            image_file::save_png(&self.settings.images_dir, &image, SystemTime::now())
        });
        match saved {
            Ok(image) => AttachEvent::Attached { image, origin },
            Err(err) => notice(NoticeLevel::Warning, format!("Image not attached: {err}")),
        }
    }

    fn image_path_in(&self, text: &str) -> Option<PathBuf> {
        let path =
            crate::util::image_path::pasted_image_path(text, self.settings.home_dir.as_deref())?;
        Some(if path.is_absolute() {
            path
        } else {
            self.settings.cwd.join(path)
        })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ClipboardUse {
    /// `/paste`: text is not wanted.
    ImageOnly,
    /// Ctrl+V: text goes to the composer.
    ImageOrText,
}

/// The first characters of clipboard text, on one line, for a notice.
fn preview(text: &str) -> String {
    let line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut shown: String = line.chars().take(40).collect();
    if line.chars().count() > 40 {
        shown.push('…');
    }
    format!("\"{shown}\"")
}

#[cfg(test)]
#[path = "service_tests.rs"]
mod tests;
