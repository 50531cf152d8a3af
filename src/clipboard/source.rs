//! Reading the system clipboard: arboard first, then the command-line tools Hermes uses
//! (`wl-paste` on Wayland, `xclip` on X11, `powershell.exe` on WSL) when arboard finds no image
//! — some apps offer only `image/bmp` or `image/jpeg`, which arboard does not ask for.
//!
//! Also says, before trying, why there may be no clipboard at all: no display server
//! (`DISPLAY`/`WAYLAND_DISPLAY` unset) or an SSH session (the clipboard is the remote host's).
//! Not here: what to do with the content (`service`) or decoding (`image_file`). Invariants:
//! every call returns within a few seconds (arboard waits at most 4 s, each tool 5 s); a
//! missing tool is skipped, never an error of its own.

use std::io::Read;
use std::process::Command;
use std::process::Stdio;
use std::time::Duration;
use std::time::Instant;

/// What the clipboard held.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClipboardContent {
    /// RGBA8 pixels, row-major (arboard's layout).
    Pixels {
        width: usize,
        height: usize,
        rgba: Vec<u8>,
    },
    /// Encoded image bytes (PNG, JPEG, BMP, …) from a command-line tool.
    Encoded {
        bytes: Vec<u8>,
        tool: &'static str,
    },
    Text(String),
    Empty,
}

/// Why the clipboard could not be read. The text is for the user.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClipboardError {
    #[error("{0}")]
    NoClipboard(String),
    #[error("could not read the clipboard: {0}")]
    Failed(String),
}

/// Where the clipboard lives, from the environment.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClipboardEnv {
    pub wayland: bool,
    pub x11: bool,
    /// An SSH session: the clipboard read is the remote machine's.
    pub ssh: bool,
    /// WSL: the Windows clipboard is reached through `powershell.exe`.
    pub wsl: bool,
}

impl ClipboardEnv {
    /// From `lookup` (the process environment in production) and `/proc/version` for WSL.
    pub fn detect(lookup: impl Fn(&str) -> Option<String>, proc_version: &str) -> Self {
        let set = |key: &str| lookup(key).is_some_and(|v| !v.trim().is_empty());
        Self {
            wayland: set("WAYLAND_DISPLAY"),
            x11: set("DISPLAY"),
            ssh: set("SSH_CONNECTION") || set("SSH_CLIENT") || set("SSH_TTY"),
            wsl: proc_version.to_ascii_lowercase().contains("microsoft"),
        }
    }

    pub fn from_process() -> Self {
        let proc_version = std::fs::read_to_string("/proc/version").unwrap_or_default();
        Self::detect(|k| std::env::var(k).ok(), &proc_version)
    }

    /// Why there is no clipboard to read, if that is known before trying.
    pub fn missing_reason(&self) -> Option<String> {
        if !cfg!(target_os = "linux") || self.wayland || self.x11 || self.wsl {
            return None;
        }
        if self.ssh {
            return Some(
                "No clipboard in this SSH session: hermes runs on the remote machine, which has \
                 no display (DISPLAY and WAYLAND_DISPLAY are unset), so your local clipboard \
                 cannot be reached. Copy the image over (scp) and attach it with /image PATH, \
                 or connect with `ssh -X` to share an X11 clipboard."
                    .to_string(),
            );
        }
        Some(
            "No clipboard available: neither DISPLAY nor WAYLAND_DISPLAY is set (a console or \
             a headless session). Attach a file with /image PATH, or paste its path."
                .to_string(),
        )
    }

    /// Appended to "the clipboard is empty"-style notices in an SSH session.
    pub fn remote_note(&self) -> &'static str {
        if self.ssh {
            " (this is an SSH session: the clipboard read is the remote machine's, not yours)"
        } else {
            ""
        }
    }
}

/// Something that can read a clipboard. The service owns one and calls it off the UI task.
pub trait ClipboardReader: Send {
    /// The clipboard's image if it has one, else its text, else `Empty`.
    fn read(&mut self) -> Result<ClipboardContent, ClipboardError>;
}

/// The real clipboard. Opens arboard on first use and keeps it (on X11 that is a connection
/// and a thread).
pub struct SystemClipboard {
    env: ClipboardEnv,
    arboard: Option<arboard::Clipboard>,
}

impl SystemClipboard {
    pub fn new(env: ClipboardEnv) -> Self {
        Self { env, arboard: None }
    }

    fn arboard(&mut self) -> Result<&mut arboard::Clipboard, arboard::Error> {
        let board = match self.arboard.take() {
            Some(board) => board,
            None => arboard::Clipboard::new()?,
        };
        Ok(self.arboard.insert(board))
    }

    fn read_image_with_tools(&self) -> Option<ClipboardContent> {
        let tools: Vec<(&'static str, Vec<&str>)> = if self.env.wsl {
            vec![("powershell.exe", POWERSHELL_ARGS.to_vec())]
        } else {
            Vec::new()
        };
        for (tool, args) in tools {
            if let Some(out) = run_tool(tool, &args)
                && let Some(bytes) = decode_base64_stdout(&out)
            {
                return Some(ClipboardContent::Encoded { bytes, tool });
            }
        }
        let (tool, list_args, fetch): (&'static str, Vec<&str>, FetchArgs) = if self.env.wayland {
            ("wl-paste", vec!["--list-types"], |t| {
                vec!["--no-newline".into(), "--type".into(), t.into()]
            })
        } else if self.env.x11 {
            (
                "xclip",
                vec!["-selection", "clipboard", "-t", "TARGETS", "-o"],
                |t| {
                    ["-selection", "clipboard", "-t", t, "-o"]
                        .map(String::from)
                        .to_vec()
                },
            )
        } else {
            return None;
        };
        let types = String::from_utf8_lossy(&run_tool(tool, &list_args)?).into_owned();
        let chosen = pick_image_type(&types)?;
        let args = fetch(&chosen);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let bytes = run_tool(tool, &args)?;
        (!bytes.is_empty()).then_some(ClipboardContent::Encoded { bytes, tool })
    }
}

impl ClipboardReader for SystemClipboard {
    fn read(&mut self) -> Result<ClipboardContent, ClipboardError> {
        if let Some(reason) = self.env.missing_reason() {
            return Err(ClipboardError::NoClipboard(reason));
        }
        let open_error = match self.arboard() {
            Ok(board) => match board.get_image() {
                Ok(image) => {
                    return Ok(ClipboardContent::Pixels {
                        width: image.width,
                        height: image.height,
                        rgba: image.bytes.into_owned(),
                    });
                }
                Err(err) => {
                    tracing::debug!(error = %err, "arboard found no image");
                    None
                }
            },
            Err(err) => Some(err),
        };
        if let Some(content) = self.read_image_with_tools() {
            return Ok(content);
        }
        if let Some(err) = open_error {
            return Err(ClipboardError::Failed(err.to_string()));
        }
        match self.arboard() {
            Ok(board) => match board.get_text() {
                Ok(text) if !text.is_empty() => Ok(ClipboardContent::Text(text)),
                Ok(_) | Err(arboard::Error::ContentNotAvailable) => Ok(ClipboardContent::Empty),
                Err(err) => Err(ClipboardError::Failed(err.to_string())),
            },
            Err(err) => Err(ClipboardError::Failed(err.to_string())),
        }
    }
}

/// The arguments that fetch one clipboard type with a tool.
type FetchArgs = fn(&str) -> Vec<String>;

const POWERSHELL_ARGS: [&str; 3] = [
    "-NoProfile",
    "-Command",
    "Add-Type -AssemblyName System.Windows.Forms; Add-Type -AssemblyName System.Drawing; \
     $i = [System.Windows.Forms.Clipboard]::GetImage(); if ($i) { $m = New-Object \
     System.IO.MemoryStream; $i.Save($m, [System.Drawing.Imaging.ImageFormat]::Png); \
     [Convert]::ToBase64String($m.ToArray()) }",
];

/// The best image type a clipboard offers, from a newline-separated type list (PNG first,
/// then other formats the decoder reads).
pub fn pick_image_type(types: &str) -> Option<String> {
    const PREFERRED: [&str; 6] = [
        "image/png",
        "image/jpeg",
        "image/jpg",
        "image/webp",
        "image/gif",
        "image/bmp",
    ];
    let offered: Vec<String> = types
        .lines()
        .map(|l| l.trim().to_ascii_lowercase())
        .collect();
    PREFERRED
        .iter()
        .find(|p| offered.iter().any(|o| o == *p))
        .map(ToString::to_string)
        .or_else(|| {
            offered
                .iter()
                .find(|o| o.starts_with("image/") && !o.contains("svg"))
                .cloned()
        })
}

fn decode_base64_stdout(out: &[u8]) -> Option<Vec<u8>> {
    use base64::Engine;
    let text: String = String::from_utf8_lossy(out)
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    if text.is_empty() {
        return None;
    }
    base64::engine::general_purpose::STANDARD.decode(text).ok()
}

/// Runs `tool args`, returning its stdout if it exits 0 within the time limit. A missing tool
/// or any failure is `None`.
fn run_tool(tool: &str, args: &[&str]) -> Option<Vec<u8>> {
    const LIMIT: Duration = Duration::from_secs(5);
    let mut child = Command::new(tool)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let mut stdout = child.stdout.take()?;
    // Read on a thread so a large image can't fill the pipe while we wait.
    let reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        stdout.read_to_end(&mut buf).map(|_| buf)
    });
    let started = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                let out = reader.join().ok()?.ok()?;
                return status.success().then_some(out);
            }
            Ok(None) if started.elapsed() < LIMIT => {
                std::thread::sleep(Duration::from_millis(10));
            }
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                tracing::warn!(tool, "clipboard tool timed out");
                return None;
            }
        }
    }
}

#[cfg(test)]
#[path = "source_tests.rs"]
mod tests;
