#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;

fn env(vars: &[(&str, &str)], proc_version: &str) -> ClipboardEnv {
    let vars: Vec<(String, String)> = vars
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    ClipboardEnv::detect(
        |key| vars.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone()),
        proc_version,
    )
}

#[test]
fn a_console_without_display_says_so() {
    let e = env(&[], "Linux version 6.1");
    let reason = e.missing_reason().unwrap();
    assert!(
        reason.contains("neither DISPLAY nor WAYLAND_DISPLAY"),
        "{reason}"
    );
    assert!(reason.contains("/image PATH"), "{reason}");
}

#[test]
fn an_empty_display_variable_counts_as_unset() {
    let e = env(&[("DISPLAY", " ")], "");
    assert!(!e.x11);
    assert!(e.missing_reason().is_some());
}

#[test]
fn ssh_without_display_names_the_remote_clipboard() {
    let e = env(&[("SSH_CONNECTION", "10.0.0.2 5555 10.0.0.1 22")], "");
    assert!(e.ssh);
    let reason = e.missing_reason().unwrap();
    assert!(reason.contains("SSH session"), "{reason}");
    assert!(reason.contains("ssh -X"), "{reason}");
}

#[test]
fn ssh_with_x_forwarding_tries_and_notes_whose_clipboard_it_is() {
    let e = env(
        &[("SSH_TTY", "/dev/pts/1"), ("DISPLAY", "localhost:10.0")],
        "",
    );
    assert_eq!(e.missing_reason(), None);
    assert!(e.remote_note().contains("remote machine"));
    assert_eq!(env(&[("DISPLAY", ":0")], "").remote_note(), "");
}

#[test]
fn wayland_and_wsl_are_clipboards() {
    assert_eq!(
        env(&[("WAYLAND_DISPLAY", "wayland-0")], "").missing_reason(),
        None
    );
    let wsl = env(&[], "Linux version 5.15.153.1-microsoft-standard-WSL2");
    assert!(wsl.wsl);
    assert_eq!(wsl.missing_reason(), None);
}

#[test]
fn picks_png_first_then_other_images_never_svg() {
    assert_eq!(
        pick_image_type("TARGETS\ntext/plain\nimage/bmp\nimage/png\n").as_deref(),
        Some("image/png")
    );
    assert_eq!(
        pick_image_type("image/bmp\nUTF8_STRING").as_deref(),
        Some("image/bmp")
    );
    assert_eq!(
        pick_image_type("image/x-portable-pixmap").as_deref(),
        Some("image/x-portable-pixmap")
    );
    assert_eq!(pick_image_type("image/svg+xml\ntext/plain"), None);
    assert_eq!(pick_image_type(""), None);
}

#[test]
fn base64_stdout_is_decoded_across_line_breaks() {
    assert_eq!(decode_base64_stdout(b"aGVs\r\nbG8=\r\n").unwrap(), b"hello");
    assert_eq!(decode_base64_stdout(b"  \n"), None);
    assert_eq!(decode_base64_stdout(b"not base64!"), None);
}

#[test]
fn a_missing_or_failing_tool_is_none() {
    assert_eq!(run_tool("hermes-no-such-tool-xyz", &[]), None);
    assert_eq!(run_tool("false", &[]), None);
    assert_eq!(run_tool("printf", &["abc"]).unwrap(), b"abc");
}
