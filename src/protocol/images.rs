//! The image part of the protocol: what a frontend asks the attach service for (`/paste`,
//! Ctrl+V, `/image PATH`, a pasted path) and what it hears back, and the attachment itself as
//! it travels with `Op::UserInput`. Plain data, like the rest of `protocol`.
//!
//! The attach service owns the clipboard and the disk; a frontend only sends requests, so a
//! keystroke never waits on either. Invariants: every `AttachRequest` is answered by exactly
//! one `AttachEvent` (so a frontend can show "reading the clipboard…" until it arrives); an
//! `ImageAttachment` always names a PNG that was written completely under
//! `HERMES_HOME/images/`.

use std::path::PathBuf;

use serde::Deserialize;
use serde::Serialize;

use super::NoticeLevel;

/// An attached image, saved as a PNG in `HERMES_HOME/images/`. Messages, transcripts and the
/// session store keep this reference, never the pixels.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImageAttachment {
    pub path: PathBuf,
    pub width: u32,
    pub height: u32,
    /// Size of the saved PNG in bytes.
    pub bytes: u64,
}

/// Frontend → attach service.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "request", rename_all = "snake_case")]
pub enum AttachRequest {
    /// `/paste`: attach the clipboard's image (or the image file its text names). Text that is
    /// not an image is reported, not inserted.
    ClipboardImage,
    /// Ctrl+V / Alt+V: the clipboard's image if it has one, else its text for the composer
    /// (an image path in that text is attached instead).
    ClipboardAny,
    /// `/image PATH`.
    File { path: String },
    /// A bracketed paste that looks like an image path or a `file://` URI: attached when it
    /// names a readable image, else handed back for the composer unchanged.
    PastedPath { text: String },
}

/// Attach service → frontend. Exactly one per request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum AttachEvent {
    /// The image is saved and ready to send; `origin` says where it came from for the user
    /// ("clipboard", "screenshot.png").
    Attached {
        image: ImageAttachment,
        origin: String,
    },
    /// Text for the composer: clipboard text, or a pasted path that was no image after all.
    InsertText { text: String },
    /// Nothing was attached; the text says why and what to do instead.
    Notice { level: NoticeLevel, text: String },
}

/// A frontend's end of the attach service.
#[derive(Debug)]
pub struct AttachHandle {
    pub requests: tokio::sync::mpsc::UnboundedSender<AttachRequest>,
    pub events: tokio::sync::mpsc::UnboundedReceiver<AttachEvent>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attach_messages_round_trip_through_json() {
        let event = AttachEvent::Attached {
            image: ImageAttachment {
                path: PathBuf::from("/h/images/a.png"),
                width: 3,
                height: 2,
                bytes: 99,
            },
            origin: "clipboard".into(),
        };
        let json = serde_json::to_string(&event).unwrap();
        assert_eq!(serde_json::from_str::<AttachEvent>(&json).unwrap(), event);
        let request = AttachRequest::PastedPath {
            text: "file:///tmp/x.png".into(),
        };
        let json = serde_json::to_string(&request).unwrap();
        assert_eq!(
            serde_json::from_str::<AttachRequest>(&json).unwrap(),
            request
        );
    }
}
