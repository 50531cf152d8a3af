//! Attaching images as a user does, with the real binary in tmux against the scripted
//! provider: copy a screenshot, press Ctrl+V, see the badge, ask, and the model receives the
//! picture (X11 clipboard on Xvfb); paste a `file://` URI or a quoted path; `/image PATH`;
//! Backspace removes a badge; and every failure says what happened — no display, an SSH
//! session, text on the clipboard, a corrupt file.
//!
//! The clipboard test needs `DISPLAY` (scripts/test.sh starts Xvfb); without it, it prints
//! why it skips, except under `CI=true`, where that is a failure.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use std::time::Duration;

use base64::Engine;
use support::Response;
use support::ScriptedServer;
use support::display::x_display;
use support::tmux::Tmux;
use support::tmux_app::TmuxApp;

const WAIT: Duration = Duration::from_secs(15);

fn pattern(width: u32, height: u32) -> image::RgbaImage {
    image::RgbaImage::from_fn(width, height, |x, y| {
        image::Rgba([(x * 5 % 256) as u8, (y * 9 % 256) as u8, 128, 255])
    })
}

/// The decoded images of the last user message of `request`.
fn last_user_images(request: &support::server::RecordedRequest) -> Vec<image::RgbaImage> {
    let user = request
        .messages()
        .iter()
        .rev()
        .find(|m| m["role"] == "user")
        .unwrap();
    user["content"]
        .as_array()
        .map(|parts| {
            parts
                .iter()
                .filter(|p| p["type"] == "image_url")
                .map(|p| {
                    let url = p["image_url"]["url"].as_str().unwrap();
                    let data = url.split_once(',').unwrap().1;
                    let bytes = base64::engine::general_purpose::STANDARD
                        .decode(data)
                        .unwrap();
                    image::load_from_memory(&bytes).unwrap().to_rgba8()
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Without a display server, hermes starts with no DISPLAY or WAYLAND_DISPLAY.
const NO_DISPLAY: &str =
    "env -u DISPLAY -u WAYLAND_DISPLAY -u SSH_CONNECTION -u SSH_CLIENT -u SSH_TTY";

#[test]
fn copy_a_screenshot_press_ctrl_v_ask_and_the_model_sees_it() {
    if !Tmux::available() {
        eprintln!("skipping: tmux is not installed (scripts/test.sh installs it)");
        return;
    }
    let Some(display) = x_display() else {
        return;
    };
    let server =
        ScriptedServer::start_on_own_thread([Response::text(["A test pattern of gradients."])]);
    let app = TmuxApp::new(&server, "");
    let mut clipboard = arboard::Clipboard::new().expect("open the X clipboard");
    clipboard.set_text("just some words").unwrap();
    let tmux = app.start_with("", &[("DISPLAY", display)]);

    // Text on the clipboard: /paste says so and attaches nothing.
    tmux.type_text("/paste");
    tmux.keys(&["Enter"]);
    tmux.wait_for_text("The clipboard holds text, not an image", WAIT);
    assert!(!tmux.screen().contains("Image #1"));

    // The user copies a screenshot and presses Ctrl+V.
    let shot = pattern(80, 50);
    clipboard
        .set_image(arboard::ImageData {
            width: 80,
            height: 50,
            bytes: std::borrow::Cow::Borrowed(shot.as_raw()),
        })
        .unwrap();
    tmux.keys(&["C-v"]);
    tmux.wait_for_text("[📎 Image #1]", WAIT);
    tmux.type_text("what is in this image?");
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for_text("A test pattern of gradients.", WAIT);
    assert!(screen.contains("📎 Image #1 · image_"), "{screen}");
    assert!(screen.contains("80×50"), "{screen}");

    let request = &server.completion_requests()[0];
    let images = last_user_images(request);
    assert_eq!(images.len(), 1, "the model got no image");
    assert_eq!(images[0].as_raw(), shot.as_raw(), "the pixels changed");
    // The badge went with the message.
    let screen = tmux.screen();
    assert!(!screen.contains("Backspace removes"), "{screen}");
    let saved = std::fs::read_dir(app.home().join("images"))
        .unwrap()
        .count();
    assert_eq!(saved, 1);
}

#[test]
fn paste_a_file_uri_or_a_quoted_path_and_use_image_path() {
    if !Tmux::available() {
        eprintln!("skipping: tmux is not installed (scripts/test.sh installs it)");
        return;
    }
    let server = ScriptedServer::start_on_own_thread([Response::text(["Two images."])]);
    let app = TmuxApp::new(&server, "");
    let dir = app.dir.path();
    pattern(10, 10).save(dir.join("shot one.png")).unwrap();
    pattern(12, 6).save(dir.join("shot two.png")).unwrap();
    image::DynamicImage::ImageRgba8(pattern(4, 4))
        .to_rgb8()
        .save(dir.join("three.jpg"))
        .unwrap();
    let tmux = app.start_with(NO_DISPLAY, &[]);

    let uri = format!("file://{}", dir.join("shot one.png").display()).replace(' ', "%20");
    tmux.paste(&uri);
    tmux.wait_for_text("[📎 Image #1]", WAIT);
    tmux.paste(&format!("'{}'", dir.join("shot two.png").display()));
    tmux.wait_for_text("[📎 Image #2]", WAIT);
    tmux.type_text("/image three.jpg");
    tmux.keys(&["Enter"]);
    tmux.wait_for_text("[📎 Image #3]", WAIT);
    // The paths were attached, not typed into the composer.
    assert!(!tmux.screen().contains("file://"), "{}", tmux.screen());
    // Backspace on the empty draft removes the last badge.
    tmux.keys(&["BSpace"]);
    tmux.wait_for_text("removed [📎 Image #3]", WAIT);
    tmux.type_text("compare these");
    tmux.keys(&["Enter"]);
    tmux.wait_for_text("Two images.", WAIT);
    let images = last_user_images(&server.completion_requests()[0]);
    let sizes: Vec<(u32, u32)> = images.iter().map(image::ImageBuffer::dimensions).collect();
    assert_eq!(sizes, vec![(10, 10), (12, 6)]);
}

#[test]
fn every_failure_says_what_happened() {
    if !Tmux::available() {
        eprintln!("skipping: tmux is not installed (scripts/test.sh installs it)");
        return;
    }
    let server = ScriptedServer::start_on_own_thread([]);
    let app = TmuxApp::new(&server, "");
    std::fs::write(
        app.dir.path().join("broken.png"),
        b"\x89PNG\r\n\x1a\nnot a png",
    )
    .unwrap();
    let tmux = app.start_with(NO_DISPLAY, &[]);

    tmux.type_text("/paste");
    tmux.keys(&["Enter"]);
    tmux.wait_for_text("neither DISPLAY nor WAYLAND_DISPLAY is set", WAIT);
    tmux.keys(&["C-v"]);
    tmux.wait_for("a second no-clipboard notice", WAIT, |s| {
        s.matches("No clipboard available").count() >= 2
    });
    tmux.type_text("/image broken.png");
    tmux.keys(&["Enter"]);
    tmux.wait_for_text("Image not attached: broken.png", WAIT);
    tmux.type_text("/image missing.png");
    tmux.keys(&["Enter"]);
    tmux.wait_for_text("No such file:", WAIT);
    assert!(!tmux.screen().contains("[📎 Image"), "{}", tmux.screen());
    drop(tmux);

    // Over SSH without a display: the clipboard is the remote machine's.
    let ssh = app.start_with(
        "env -u DISPLAY -u WAYLAND_DISPLAY",
        &[("SSH_CONNECTION", "10.0.0.2 50000 10.0.0.1 22".to_string())],
    );
    ssh.type_text("/paste");
    ssh.keys(&["Enter"]);
    ssh.wait_for_text("No clipboard in this SSH session", WAIT);
}
