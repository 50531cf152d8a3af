//! Detecting the terminal's background at start: one OSC 11 query, after the first frame is
//! drawn and before crossterm's `EventStream` starts reading the tty.
//!
//! It runs only when `display.theme_mode` is `auto`, `COLORFGBG` does not decide, colours are
//! on, and stdin and stdout are a TTY. The query is OSC 11 followed by DA1 (`ESC [ c`), which
//! every terminal answers, and answers in order: once the DA1 reply is in, any OSC 11 reply
//! is too, so a terminal that ignores OSC 11 costs one round trip, not the timeout. The
//! reply is read straight from fd 0 with `poll`, never longer than [`TIMEOUT`], in
//! `spawn_blocking` (the UI task awaits it; engine tasks keep running).
//!
//! Bytes read that are not a reply are keys the user typed in that window: printable
//! characters, Enter, Tab, Backspace and Ctrl+letter are handed to the app as key presses, in
//! order; escape sequences (arrows, Alt chords) are dropped, and the drop is logged. When the timeout passes without the DA1
//! reply, a slow terminal may still answer later, and crossterm would read the reply as keys
//! (`Alt+]`, `11;rgb:…`, then Ctrl+G or `Alt+\`); [`LateReplyFilter`] swallows exactly that
//! shape for a few seconds.
//!
//! Not here: parsing the reply and classifying colours (`theme::background`), reloading the
//! skin (`skins_flow`).

use std::time::Duration;
use std::time::Instant;

use crossterm::event::Event as TermEvent;
use crossterm::event::KeyCode;
use crossterm::event::KeyModifiers;

use super::app::App;
pub use super::input_bytes::stray_keys;
use crate::theme::ColorDepth;
use crate::theme::ThemeMode;
use crate::theme::background::OSC11_QUERY;

/// The longest start-up waits for the terminal's answer.
pub const TIMEOUT: Duration = Duration::from_millis(100);
/// Primary device attributes: answered by every terminal, after the OSC 11 reply.
const DA1_QUERY: &str = "\x1b[c";
/// How long after a timed-out query a late reply is still filtered out of the input.
const LATE_REPLY_WINDOW: Duration = Duration::from_secs(3);
/// Keys a late reply can take at most (`Alt+]`, `11;rgba:ffff/ffff/ffff/ffff`, terminator).
const LATE_REPLY_MAX_KEYS: u8 = 40;
/// How much longer the query reads when what it read ends inside an escape sequence (a mouse
/// report cut between two reads): the rest must not reach crossterm as typed text.
const CUT_GRACE: Duration = Duration::from_millis(50);

/// What one query found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Probe {
    /// The background colour, when the terminal reported one.
    pub rgb: Option<(u8, u8, u8)>,
    pub answered: Answered,
    /// Bytes that were no reply (typed keys), in arrival order.
    pub stray: Vec<u8>,
}

/// Whether the terminal finished answering within the timeout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answered {
    /// The DA1 reply came: nothing more will arrive.
    Complete,
    /// The timeout passed first: an OSC 11 reply may still arrive.
    TimedOut,
}

/// Whether start-up should ask the terminal at all.
pub fn should_query(mode: ThemeMode, colorfgbg: Option<&str>, depth: ColorDepth) -> bool {
    let decided_by_env = colorfgbg.and_then(crate::theme::background::from_colorfgbg);
    mode == ThemeMode::Auto && decided_by_env.is_none() && depth != ColorDepth::None
}

/// Run once by the run loop between the first frame and the first read of input.
pub async fn detect_at_start(app: &mut App) {
    use std::io::IsTerminal;
    let colorfgbg = std::env::var("COLORFGBG").ok();
    if !should_query(app.skin.mode, colorfgbg.as_deref(), app.theme.depth)
        || !std::io::stdin().is_terminal()
        || !std::io::stdout().is_terminal()
    {
        return;
    }
    let started = Instant::now();
    let probe = match tokio::task::spawn_blocking(|| query_tty(TIMEOUT)).await {
        Ok(Ok(probe)) => probe,
        Ok(Err(err)) => {
            tracing::debug!(error = %err, "background query failed");
            return;
        }
        Err(err) => {
            tracing::debug!(error = %err, "background query task failed");
            return;
        }
    };
    let background = probe
        .rgb
        .map(|(r, g, b)| crate::theme::background::from_rgb(r, g, b));
    tracing::info!(
        ?background,
        rgb = ?probe.rgb,
        answered = ?probe.answered,
        ms = started.elapsed().as_secs_f64() * 1000.0,
        "terminal background"
    );
    if probe.answered == Answered::TimedOut {
        app.skin.late_reply.arm(Instant::now());
    }
    let (keys, dropped) = stray_keys(&probe.stray);
    if dropped > 0 {
        tracing::debug!(
            dropped,
            "keys typed during the background query were dropped"
        );
    }
    for key in keys {
        super::input::on_terminal_event(app, TermEvent::Key(key));
    }
    if let Some(rgb) = probe.rgb {
        super::skins_flow::background_detected(app, rgb);
    }
}

/// Writes the queries to stdout and reads the answers from fd 0 until the DA1 reply arrives
/// or `timeout` passes. Blocking: call it off the async runtime.
#[cfg(unix)]
pub fn query_tty(timeout: Duration) -> std::io::Result<Probe> {
    query(libc::STDIN_FILENO, &mut std::io::stdout(), timeout)
}

/// [`query_tty`] over any pair: the queries go to `output`, the answers are read from
/// `input` (a tty, or a pipe in tests).
#[cfg(unix)]
pub fn query(
    input: std::os::fd::RawFd,
    output: &mut impl std::io::Write,
    timeout: Duration,
) -> std::io::Result<Probe> {
    output.write_all(OSC11_QUERY.as_bytes())?;
    output.write_all(DA1_QUERY.as_bytes())?;
    output.flush()?;
    let deadline = Instant::now() + timeout;
    let mut grace_until: Option<Instant> = None;
    let mut bytes = Vec::new();
    let mut chunk = [0u8; 256];
    loop {
        let scan = scan(&bytes);
        let now = Instant::now();
        let mut wait_until = deadline;
        if scan.da1 || now >= deadline {
            let until = *grace_until.get_or_insert(now + CUT_GRACE);
            if !super::input_bytes::ends_mid_sequence(&scan.stray) || now >= until {
                let answered = if scan.da1 {
                    Answered::Complete
                } else {
                    Answered::TimedOut
                };
                return Ok(scan.into_probe(answered));
            }
            wait_until = until;
        }
        let left = wait_until.saturating_duration_since(now);
        let ms = libc::c_int::try_from(left.as_millis().max(1)).unwrap_or(libc::c_int::MAX);
        let mut fds = libc::pollfd {
            fd: input,
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one valid pollfd, count 1.
        let ready = unsafe { libc::poll(&mut fds, 1, ms) };
        if ready < 0 {
            let err = std::io::Error::last_os_error();
            if err.kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return Err(err);
        }
        if ready == 0 {
            continue;
        }
        // SAFETY: reads at most `chunk.len()` bytes into `chunk`.
        let n = unsafe { libc::read(input, chunk.as_mut_ptr().cast(), chunk.len()) };
        match usize::try_from(n) {
            Ok(0) => return Ok(scan.into_probe(Answered::TimedOut)),
            Ok(n) => bytes.extend_from_slice(&chunk[..n]),
            Err(_) => {
                let err = std::io::Error::last_os_error();
                if err.kind() != std::io::ErrorKind::Interrupted {
                    return Err(err);
                }
            }
        }
    }
}

#[cfg(not(unix))]
pub fn query_tty(_timeout: Duration) -> std::io::Result<Probe> {
    Err(std::io::Error::other(
        "background detection needs a unix tty",
    ))
}

/// The replies found in what was read so far.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Scan {
    pub rgb: Option<(u8, u8, u8)>,
    /// Whether the DA1 reply (`ESC [ ? … c`) is complete.
    pub da1: bool,
    /// Everything outside the replies; an unfinished reply at the end is not included.
    pub stray: Vec<u8>,
}

impl Scan {
    fn into_probe(self, answered: Answered) -> Probe {
        Probe {
            rgb: self.rgb,
            answered,
            stray: self.stray,
        }
    }
}

/// Splits `bytes` into the OSC 11 reply, the DA1 reply and everything else.
pub fn scan(bytes: &[u8]) -> Scan {
    let mut out = Scan::default();
    let mut i = 0;
    while i < bytes.len() {
        let rest = &bytes[i..];
        if rest.starts_with(b"\x1b]11;") {
            let Some(len) = osc_len(rest) else {
                break;
            };
            out.rgb = crate::theme::background::parse_osc11_reply(&rest[..len]);
            i += len;
        } else if rest.starts_with(b"\x1b[?") {
            let Some(end) = rest[3..]
                .iter()
                .position(|b| !(b.is_ascii_digit() || *b == b';'))
            else {
                break;
            };
            if rest[3 + end] == b'c' {
                out.da1 = true;
                i += 3 + end + 1;
            } else {
                out.stray.push(rest[0]);
                i += 1;
            }
        } else {
            out.stray.push(rest[0]);
            i += 1;
        }
    }
    out
}

/// Length of an OSC sequence ended by BEL, `ESC \` or 8-bit ST, if it is complete.
fn osc_len(bytes: &[u8]) -> Option<usize> {
    for (i, b) in bytes.iter().enumerate().skip(2) {
        match b {
            0x07 | 0x9c => return Some(i + 1),
            0x1b => return (bytes.get(i + 1) == Some(&b'\\')).then_some(i + 2),
            _ => {}
        }
    }
    None
}

/// Drops the keys crossterm makes of an OSC 11 reply that arrives after the query timed out:
/// `Alt+]`, then anything up to Ctrl+G (BEL) or `Alt+\` (ST). Armed only after a timeout, and
/// only for [`LATE_REPLY_WINDOW`].
#[derive(Debug, Clone, Default)]
pub struct LateReplyFilter {
    until: Option<Instant>,
    /// Keys swallowed so far inside a reply; `None` outside one.
    inside: Option<u8>,
}

impl LateReplyFilter {
    pub fn arm(&mut self, now: Instant) {
        self.until = Some(now + LATE_REPLY_WINDOW);
    }

    /// True when `event` is part of a late reply (and must be ignored).
    pub fn swallow(&mut self, event: &TermEvent, now: Instant) -> bool {
        let Some(until) = self.until else {
            return false;
        };
        let TermEvent::Key(key) = event else {
            return false;
        };
        match self.inside {
            None if now > until => {
                self.until = None;
                false
            }
            None => {
                let starts = key.code == KeyCode::Char(']') && key.modifiers == KeyModifiers::ALT;
                if starts {
                    self.inside = Some(1);
                }
                starts
            }
            Some(count) => {
                let ends = (key.code == KeyCode::Char('g')
                    && key.modifiers == KeyModifiers::CONTROL)
                    || (key.code == KeyCode::Char('\\') && key.modifiers == KeyModifiers::ALT)
                    || count >= LATE_REPLY_MAX_KEYS;
                if ends {
                    // One reply only: the filter is done.
                    self.inside = None;
                    self.until = None;
                } else {
                    self.inside = Some(count + 1);
                }
                true
            }
        }
    }
}

#[cfg(test)]
#[path = "background_tests.rs"]
mod tests;
