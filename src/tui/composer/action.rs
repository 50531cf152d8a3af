//! The composer's public vocabulary: what a key did (`ComposerAction`), what was sent
//! (`Submission`, and how text is classified into one), and the per-frame view hints.
//!
//! Plain data, no state. `Submission::from_text` is the one classifier; the app can use it for
//! queued text too, so a queued `/cmd` or `!cmd` is not sent as a plain message.

use crate::tui::slash;

/// What the user sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Submission {
    /// A message for the agent, with pastes expanded.
    Message(String),
    /// `/name args`: `name` is canonical when it is a known command or alias; unknown names
    /// come through as typed (lowercased) so the app can say "unknown command".
    Slash { name: String, args: String },
    /// `!cmd`: a shell command (without the `!`).
    Shell(String),
}

impl Submission {
    /// Classifies sent text: `!…` is a shell command, `/name …` a slash command, anything else
    /// a message (trailing whitespace and leading blank lines dropped).
    pub fn from_text(text: &str) -> Submission {
        let trimmed = text.trim_start();
        if let Some(cmd) = trimmed.strip_prefix('!') {
            return Submission::Shell(cmd.trim().to_owned());
        }
        if let Some((name, args)) = slash::parse(trimmed) {
            let name = slash::find(&name).map_or(name, |c| c.name.to_owned());
            return Submission::Slash { name, args };
        }
        Submission::Message(text.trim_end().trim_start_matches('\n').to_owned())
    }
}

/// What a key did, for the app.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ComposerAction {
    /// The key was not used; the app may handle it.
    None,
    /// The draft, cursor or popup changed: redraw.
    Changed,
    /// Enter: the draft was sent (and the composer cleared).
    Submit(Submission),
    /// Ctrl+G: the app should open `$EDITOR` on `text()` and `set_text` the result.
    OpenEditor,
    /// Tab with a non-empty draft and no popup: queue the draft instead of sending it. The
    /// draft is left in place; the app takes `text()` and `clear()`s.
    QueueCurrent,
    /// Ctrl+C on an empty draft (a non-empty draft is cleared first).
    Interrupt,
    /// Ctrl+D on an empty draft.
    Exit,
}

/// Whether the composer has the keyboard (draws its cursor and a focused rule).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ComposerFocus {
    Focused,
    Unfocused,
}

/// Whether a turn is running, and what Enter does then (`display.busy_input_mode`, e.g.
/// `"interrupt"`, `"queue"`, `"steer"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BusyHint {
    Idle,
    Busy { mode_label: &'static str },
}

/// How to draw the composer this frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ComposerView {
    pub focus: ComposerFocus,
    pub busy: BusyHint,
}
