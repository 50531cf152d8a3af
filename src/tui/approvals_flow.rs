//! What happens around the Approvals pane: a request arrives (queue it, open the pane, take
//! focus when that cannot swallow typing, ring the bell), the user answers with a key (send
//! `Op::ApprovalReply` exactly once and drop the request), the engine settles one on its own
//! (drop it and say so in the transcript), and focus goes back where it was once the queue is
//! empty.
//!
//! Keys, while the pane has focus and a request is selected: `y` allow once, `s` allow this
//! session, `a` always allow (each only when the request offers it), `n`/Esc deny, `1`–`9` the
//! Nth answer, ←/→ (Tab/Shift+Tab) move the highlighted answer and Enter gives it, ↑/↓ move
//! between queued requests, `v` copies the whole request into the transcript. Ctrl/Alt
//! chords and keys not listed fall through to the app (Ctrl+C still interrupts). F3 moves focus
//! to the pane and back from anywhere.
//!
//! Focus rule: a request takes focus only when no key was pressed in the last
//! [`TYPING_GRACE`] and the composer holds no draft, so a keystroke meant for the composer or
//! the chat never answers a request. Otherwise the side column is shown, the status bar says
//! how many wait, and F3 answers.
//!
//! Bell: rung when a request arrives while the pane is not focused and `approvals.bell` is on,
//! at most once per [`BELL_INTERVAL`]; the loop writes the BEL through the terminal backend
//! (`take_bell`). This module never touches the terminal.
//!
//! Invariant: a request leaves the queue the moment its reply is sent, so it can never be
//! answered twice.

use std::time::Duration;
use std::time::Instant;

use crossterm::event::KeyCode;
use crossterm::event::KeyEvent;
use crossterm::event::KeyModifiers;

use super::app::App;
use super::focus::Focus;
use super::layout::SideVisibility;
use super::panes::approvals::choice_label;
use crate::protocol::ApprovalDecision;
use crate::protocol::ApprovalRequest;
use crate::protocol::DecidedBy;
use crate::protocol::NoticeLevel;
use crate::protocol::Op;

/// The bell rings at most once per this interval, however many requests arrive.
pub const BELL_INTERVAL: Duration = Duration::from_secs(1);
/// A request does not take focus within this long after a key press.
pub const TYPING_GRACE: Duration = Duration::from_secs(1);

/// Whether a new request rings the terminal bell (`approvals.bell`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bell {
    On,
    Off,
}

impl Bell {
    pub fn from_config(config: &crate::config::ApprovalsConfig) -> Self {
        if config.bell { Self::On } else { Self::Off }
    }
}

/// Lets the bell ring at most once per [`BELL_INTERVAL`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BellLimiter {
    last: Option<Instant>,
}

impl BellLimiter {
    /// Whether the bell may ring at `now`; if so, `now` counts as the last ring.
    pub fn allow(&mut self, now: Instant) -> bool {
        let allowed = self
            .last
            .is_none_or(|last| now.saturating_duration_since(last) >= BELL_INTERVAL);
        if allowed {
            self.last = Some(now);
        }
        allowed
    }
}

/// The app's approvals bookkeeping besides the queue itself (`app.side.approvals`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApprovalsUi {
    pub bell: Bell,
    limiter: BellLimiter,
    /// A BEL is due; the loop writes it through the terminal backend.
    bell_due: bool,
    /// Where focus goes back to once the queue is empty (set when a request or F3 took it).
    return_focus: Option<Focus>,
    /// The side-region setting to restore once the queue is empty (set when a request had
    /// to show the hidden column).
    return_side: Option<SideVisibility>,
    /// The last key press, so a request never takes focus from someone typing.
    last_key: Option<Instant>,
}

impl ApprovalsUi {
    pub fn new(bell: Bell) -> Self {
        Self {
            bell,
            limiter: BellLimiter::default(),
            bell_due: false,
            return_focus: None,
            return_side: None,
            last_key: None,
        }
    }

    /// Whether a BEL should be written now; clears the flag.
    pub fn take_bell(&mut self) -> bool {
        std::mem::take(&mut self.bell_due)
    }

    /// A key was pressed at `now`.
    pub fn note_key(&mut self, now: Instant) {
        self.last_key = Some(now);
    }

    /// The draft was sent: what was typed is gone, so a request may take focus at once.
    pub fn draft_sent(&mut self) {
        self.last_key = None;
    }

    fn typed_recently(&self, now: Instant) -> bool {
        self.last_key
            .is_some_and(|at| now.saturating_duration_since(at) < TYPING_GRACE)
    }
}

/// `Event::ApprovalRequest`: queue it, open the pane, maybe take focus and ring.
pub fn on_request(app: &mut App, request: ApprovalRequest, now: Instant) {
    app.side.approvals.push(request, now);
    if app.focus == Focus::Approvals {
        return;
    }
    if app.approvals.bell == Bell::On && app.approvals.limiter.allow(now) {
        app.approvals.bell_due = true;
    }
    if may_take_focus(app, now) {
        app.approvals.return_focus.get_or_insert(app.focus);
        app.focus = Focus::Approvals;
    } else if app.side_visibility == SideVisibility::Hidden {
        app.approvals.return_side = Some(SideVisibility::Hidden);
        app.side_visibility = SideVisibility::Shown;
    }
}

fn may_take_focus(app: &App, now: Instant) -> bool {
    if app.approvals.typed_recently(now) {
        return false;
    }
    match app.focus {
        Focus::Composer => app.composer.is_empty(),
        Focus::Chat | Focus::Agents | Focus::Goals => true,
        Focus::Approvals => false,
    }
}

/// `Event::ApprovalResolved`: drop the request; say so unless the user answered it here.
pub fn on_resolved(app: &mut App, id: &str, decision: ApprovalDecision, decided_by: DecidedBy) {
    let taken = app.side.approvals.take(id);
    let what = taken
        .map(|p| {
            format!(
                ": {}",
                crate::tui::markdown::wrap::truncate(&p.summary(), 80)
            )
        })
        .unwrap_or_default();
    let words = decision_words(decision);
    let notice = match decided_by {
        DecidedBy::User => None,
        DecidedBy::Timeout => Some((
            NoticeLevel::Warning,
            format!("⏱ approval timed out — {words}{what}"),
        )),
        DecidedBy::Cancelled => Some((
            NoticeLevel::Info,
            format!("approval cancelled — {words}{what}"),
        )),
    };
    if let Some((level, text)) = notice {
        app.transcript.push_notice(level, &text);
    }
    if app.side.approvals.is_empty() {
        queue_emptied(app);
    }
}

fn decision_words(decision: ApprovalDecision) -> &'static str {
    match decision {
        ApprovalDecision::Once => "allowed once",
        ApprovalDecision::Session => "allowed for this session",
        ApprovalDecision::Always => "always allowed",
        ApprovalDecision::Deny => "denied",
    }
}

/// The engine session ended: nobody waits for answers any more.
pub fn session_ended(app: &mut App) {
    app.side.approvals.clear();
    queue_emptied(app);
}

/// F3: focus the Approvals pane, or go back to where focus was.
pub fn toggle_focus(app: &mut App) {
    if app.focus == Focus::Approvals {
        app.focus = app.approvals.return_focus.take().unwrap_or_default();
    } else {
        app.approvals.return_focus = Some(app.focus);
        app.focus = Focus::Approvals;
    }
}

/// Whether the pane used a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyOutcome {
    Handled,
    NotMine,
}

/// A key while the Approvals pane may have focus (see the module docs for the keys).
pub fn handle_key(app: &mut App, key: KeyEvent) -> KeyOutcome {
    if app.focus != Focus::Approvals || app.side.approvals.is_empty() {
        return KeyOutcome::NotMine;
    }
    if key
        .modifiers
        .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
    {
        return KeyOutcome::NotMine;
    }
    let pane = &mut app.side.approvals;
    match key.code {
        KeyCode::Up => pane.select_prev(),
        KeyCode::Down => pane.select_next(),
        KeyCode::Left | KeyCode::BackTab => pane.prev_choice(),
        KeyCode::Right | KeyCode::Tab => pane.next_choice(),
        KeyCode::Enter => {
            if let Some(decision) = pane
                .selected()
                .and_then(super::panes::approvals::PendingApproval::highlighted)
            {
                answer(app, decision);
            }
        }
        KeyCode::Esc => answer(app, ApprovalDecision::Deny),
        KeyCode::Char(c) => match c.to_ascii_lowercase() {
            'y' => answer_if_offered(app, ApprovalDecision::Once),
            's' => answer_if_offered(app, ApprovalDecision::Session),
            'a' => answer_if_offered(app, ApprovalDecision::Always),
            'n' => answer(app, ApprovalDecision::Deny),
            'v' => show_in_transcript(app),
            digit @ '1'..='9' => {
                let index = usize::from(digit as u8 - b'1');
                let picked = pane
                    .selected()
                    .and_then(|p| p.request.choices.get(index).copied());
                if let Some(decision) = picked {
                    answer(app, decision);
                }
            }
            _ => return KeyOutcome::NotMine,
        },
        _ => return KeyOutcome::NotMine,
    }
    KeyOutcome::Handled
}

fn answer_if_offered(app: &mut App, decision: ApprovalDecision) {
    let offered = app
        .side
        .approvals
        .selected()
        .is_some_and(|p| p.offers(decision));
    if offered {
        answer(app, decision);
    } else {
        let text = format!(
            "“{}” is not offered for this request",
            choice_label(decision)
        );
        super::input::show_hint(app, &text, Duration::from_secs(2));
    }
}

/// Sends the reply for the selected request and drops it from the queue. Deny is always
/// accepted (a frontend may always refuse), whether listed or not.
fn answer(app: &mut App, decision: ApprovalDecision) {
    let Some(pending) = app.side.approvals.take_selected() else {
        return;
    };
    app.send(Op::ApprovalReply {
        id: pending.request.id,
        decision,
    });
    if app.side.approvals.is_empty() {
        queue_emptied(app);
    }
}

/// `v`: the whole selected request in the transcript (a long command is cut in the pane).
fn show_in_transcript(app: &mut App) {
    let Some(pending) = app.side.approvals.selected() else {
        return;
    };
    let request = &pending.request;
    let title = format!("Approval request from {}", request.agent);
    let body = format!(
        "{}\nwhy: {}\nin: {}",
        request.subject, request.reason, request.cwd
    );
    app.transcript.push_info(&title, &body);
    app.chat.scroll_to_bottom();
}

/// Nothing waits any more: focus and the side column go back to how they were.
fn queue_emptied(app: &mut App) {
    if let Some(focus) = app.approvals.return_focus.take()
        && app.focus == Focus::Approvals
    {
        app.focus = focus;
    }
    if let Some(side) = app.approvals.return_side.take() {
        app.side_visibility = side;
    }
}

#[cfg(test)]
#[path = "approvals_flow_tests.rs"]
mod tests;
