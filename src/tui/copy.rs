//! Copying text to the user's clipboard: OSC 52 always (works over SSH and in tmux with
//! `set-clipboard on`), plus the system clipboard through arboard when the session is local.
//! The arboard call may block on the display server, so it runs on a blocking thread.

use std::io::Write;

use base64::Engine;

/// Largest payload sent by OSC 52; many terminals drop longer sequences.
const OSC52_MAX_BYTES: usize = 100_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CopyReach {
    /// Only the terminal escape was sent (remote session, or no system clipboard).
    TerminalOnly,
    /// Also placed on the system clipboard.
    SystemClipboard,
}

/// Copy `text`; returns where it went.
pub async fn copy_text(text: String) -> CopyReach {
    write_osc52(&text);
    let remote = std::env::var_os("SSH_CONNECTION").is_some();
    if remote {
        return CopyReach::TerminalOnly;
    }
    let copied = tokio::task::spawn_blocking(move || {
        arboard::Clipboard::new().and_then(|mut clipboard| clipboard.set_text(text))
    })
    .await;
    match copied {
        Ok(Ok(())) => CopyReach::SystemClipboard,
        _ => CopyReach::TerminalOnly,
    }
}

fn write_osc52(text: &str) {
    let bytes = text.as_bytes();
    let bytes = &bytes[..bytes.len().min(OSC52_MAX_BYTES)];
    let encoded = base64::engine::general_purpose::STANDARD.encode(bytes);
    let mut stdout = std::io::stdout();
    let _ = write!(stdout, "\x1b]52;c;{encoded}\x07");
    let _ = stdout.flush();
}
