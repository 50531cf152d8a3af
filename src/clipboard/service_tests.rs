#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::VecDeque;

use super::*;
use crate::images::test_images::pattern_png;

/// A clipboard that returns the given contents in turn.
struct ScriptedClipboard(VecDeque<Result<ClipboardContent, ClipboardError>>);

impl ClipboardReader for ScriptedClipboard {
    fn read(&mut self) -> Result<ClipboardContent, ClipboardError> {
        self.0.pop_front().unwrap_or(Ok(ClipboardContent::Empty))
    }
}

struct Fixture {
    dir: tempfile::TempDir,
    handle: AttachHandle,
}

fn start(clipboard: Vec<Result<ClipboardContent, ClipboardError>>, env: ClipboardEnv) -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let handle = spawn(AttachSettings {
        images_dir: dir.path().join("images"),
        cwd: dir.path().to_path_buf(),
        home_dir: Some(dir.path().join("home")),
        env,
        reader: Box::new(ScriptedClipboard(clipboard.into())),
    });
    Fixture { dir, handle }
}

impl Fixture {
    fn ask(&mut self, request: AttachRequest) -> AttachEvent {
        self.handle.requests.send(request).unwrap();
        self.handle.events.blocking_recv().unwrap()
    }
}

fn attached(event: AttachEvent) -> (crate::protocol::ImageAttachment, String) {
    match event {
        AttachEvent::Attached { image, origin } => (image, origin),
        other => panic!("expected an attachment, got {other:?}"),
    }
}

fn notice_text(event: AttachEvent) -> String {
    match event {
        AttachEvent::Notice { text, .. } => text,
        other => panic!("expected a notice, got {other:?}"),
    }
}

#[test]
fn clipboard_pixels_become_a_saved_png_with_the_same_pixels() {
    let rgba: Vec<u8> = (0..3 * 2)
        .flat_map(|i| [i * 40, 10, 250 - i, 255])
        .collect();
    let mut f = start(
        vec![Ok(ClipboardContent::Pixels {
            width: 3,
            height: 2,
            rgba: rgba.clone(),
        })],
        ClipboardEnv::default(),
    );
    let (image, origin) = attached(f.ask(AttachRequest::ClipboardImage));
    assert_eq!(origin, "clipboard");
    assert_eq!((image.width, image.height), (3, 2));
    assert!(image.path.starts_with(f.dir.path().join("images")));
    assert_eq!(image.path.extension().unwrap(), "png");
    assert_eq!(image.bytes, std::fs::metadata(&image.path).unwrap().len());
    let back = image::open(&image.path).unwrap().to_rgba8();
    assert_eq!(back.into_raw(), rgba);
}

#[test]
fn encoded_clipboard_images_from_tools_are_decoded() {
    let mut f = start(
        vec![Ok(ClipboardContent::Encoded {
            bytes: pattern_png(5, 4),
            tool: "xclip",
        })],
        ClipboardEnv::default(),
    );
    let (image, _) = attached(f.ask(AttachRequest::ClipboardAny));
    assert_eq!((image.width, image.height), (5, 4));
}

#[test]
fn clipboard_text_goes_to_the_composer_on_ctrl_v_but_is_refused_by_paste() {
    let text = || {
        Ok(ClipboardContent::Text(
            "hello\nworld, this is a long line of text".into(),
        ))
    };
    let mut f = start(vec![text(), text()], ClipboardEnv::default());
    assert_eq!(
        f.ask(AttachRequest::ClipboardAny),
        AttachEvent::InsertText {
            text: "hello\nworld, this is a long line of text".into()
        }
    );
    let why = notice_text(f.ask(AttachRequest::ClipboardImage));
    assert!(why.contains("holds text, not an image"), "{why}");
    assert!(
        why.contains("\"hello world, this is a long line of text\""),
        "{why}"
    );
}

#[test]
fn clipboard_text_naming_an_image_file_attaches_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("Screen Shot.png");
    std::fs::write(&file, pattern_png(2, 2)).unwrap();
    let uri = format!("file://{}", file.display()).replace(' ', "%20");
    let mut f = start(
        vec![Ok(ClipboardContent::Text(uri))],
        ClipboardEnv::default(),
    );
    let (image, origin) = attached(f.ask(AttachRequest::ClipboardImage));
    assert_eq!(origin, "Screen Shot.png");
    assert_eq!((image.width, image.height), (2, 2));
}

#[test]
fn an_empty_clipboard_says_so_and_names_ssh() {
    let ssh = ClipboardEnv {
        x11: true,
        ssh: true,
        ..ClipboardEnv::default()
    };
    let mut f = start(vec![Ok(ClipboardContent::Empty)], ssh);
    let why = notice_text(f.ask(AttachRequest::ClipboardAny));
    assert!(why.starts_with("The clipboard is empty"), "{why}");
    assert!(why.contains("remote machine"), "{why}");
}

#[test]
fn no_clipboard_and_read_failures_are_notices() {
    let mut f = start(
        vec![
            Err(ClipboardError::NoClipboard(
                "No clipboard available: x".into(),
            )),
            Err(ClipboardError::Failed("X server went away".into())),
        ],
        ClipboardEnv::default(),
    );
    assert_eq!(
        notice_text(f.ask(AttachRequest::ClipboardImage)),
        "No clipboard available: x"
    );
    let why = notice_text(f.ask(AttachRequest::ClipboardAny));
    assert!(why.contains("X server went away"), "{why}");
    assert!(why.contains("/image PATH"), "{why}");
}

#[test]
fn image_command_resolves_relative_paths_and_reports_missing_and_corrupt_files() {
    let mut f = start(vec![], ClipboardEnv::default());
    std::fs::write(f.dir.path().join("shot.png"), pattern_png(7, 3)).unwrap();
    std::fs::write(
        f.dir.path().join("broken.png"),
        b"\x89PNG\r\n\x1a\nnot really",
    )
    .unwrap();
    let (image, origin) = attached(f.ask(AttachRequest::File {
        path: "shot.png".into(),
    }));
    assert_eq!(
        (origin.as_str(), image.width, image.height),
        ("shot.png", 7, 3)
    );
    let missing = notice_text(f.ask(AttachRequest::File {
        path: "nope.png".into(),
    }));
    assert!(missing.starts_with("No such file: "), "{missing}");
    assert!(missing.ends_with("nope.png"), "{missing}");
    let corrupt = notice_text(f.ask(AttachRequest::File {
        path: "broken.png".into(),
    }));
    assert!(corrupt.starts_with("Image not attached: "), "{corrupt}");
    assert!(corrupt.contains("broken.png"), "{corrupt}");
    assert_eq!(
        notice_text(f.ask(AttachRequest::File { path: "  ".into() })),
        "Usage: /image PATH"
    );
}

#[test]
fn a_pasted_path_that_names_no_file_comes_back_as_text() {
    let mut f = start(vec![], ClipboardEnv::default());
    let text = "/tmp/hermes-surely-missing-dir/plan.png".to_string();
    assert_eq!(
        f.ask(AttachRequest::PastedPath { text: text.clone() }),
        AttachEvent::InsertText { text }
    );
}

#[test]
fn requests_are_answered_in_order_one_event_each() {
    let mut f = start(
        vec![
            Ok(ClipboardContent::Empty),
            Ok(ClipboardContent::Text("x".into())),
        ],
        ClipboardEnv::default(),
    );
    f.handle.requests.send(AttachRequest::ClipboardAny).unwrap();
    f.handle.requests.send(AttachRequest::ClipboardAny).unwrap();
    f.handle
        .requests
        .send(AttachRequest::File {
            path: String::new(),
        })
        .unwrap();
    let events: Vec<AttachEvent> = (0..3)
        .map(|_| f.handle.events.blocking_recv().unwrap())
        .collect();
    assert!(matches!(events[0], AttachEvent::Notice { .. }));
    assert_eq!(events[1], AttachEvent::InsertText { text: "x".into() });
    assert!(matches!(events[2], AttachEvent::Notice { .. }));
    assert!(f.handle.events.try_recv().is_err());
}
