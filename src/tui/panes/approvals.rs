//! The Approvals pane's state: the queue of approval requests waiting for the user, which one
//! is selected, which answer is highlighted for Enter, and when each one times out.
//!
//! Requests arrive as `Event::ApprovalRequest` and leave when the user answers one (`take_*`)
//! or the engine settles it (`Event::ApprovalResolved`, `take`). They are never dropped or
//! coalesced (ARCHITECTURE §2): the queue keeps every id until one of those happens. The pane
//! also remembers the last few requests the user answered, so a late `ApprovalResolved`
//! (a timeout that raced the answer) can still name what it was about.
//!
//! It does not send replies, move focus or ring the bell (that is `approvals_flow`), and it
//! never reads the clock itself: every time-dependent call takes `now`, so the countdown is
//! computed from the arrival `Instant` on each redraw, with no timer ticking. Drawing lives in
//! `approvals_view`.
//!
//! Invariants: `selected < pending.len()` whenever the queue is not empty; every pending
//! request's `choice` indexes its `choices` (or is 0 when it offers none).

use std::collections::VecDeque;
use std::time::Duration;
use std::time::Instant;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use super::side::PaneFocus;
use crate::protocol::ApprovalDecision;
use crate::protocol::ApprovalKind;
use crate::protocol::ApprovalRequest;
use crate::theme::Theme;

/// How many answered requests are remembered for late `ApprovalResolved` events.
const RECENT_ANSWERED: usize = 8;

/// One request waiting for an answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingApproval {
    pub request: ApprovalRequest,
    /// When it reached the TUI; the countdown runs from here.
    pub arrived: Instant,
    /// Index into `request.choices` of the answer Enter gives.
    pub choice: usize,
}

impl PendingApproval {
    pub fn new(request: ApprovalRequest, arrived: Instant) -> Self {
        Self {
            request,
            arrived,
            choice: 0,
        }
    }

    /// When the engine will deny it unanswered; `None` when it does not time out.
    pub fn deadline(&self) -> Option<Instant> {
        match self.request.timeout_secs {
            0 => None,
            secs => self.arrived.checked_add(Duration::from_secs(secs)),
        }
    }

    /// Time left before the timeout (zero once it has passed); `None` without a timeout.
    pub fn remaining(&self, now: Instant) -> Option<Duration> {
        self.deadline()
            .map(|deadline| deadline.saturating_duration_since(now))
    }

    /// Whole seconds left, rounded up (what the countdown shows).
    pub fn seconds_left(&self, now: Instant) -> Option<u64> {
        self.remaining(now)
            .map(|left| left.as_secs() + u64::from(left.subsec_nanos() > 0))
    }

    /// The answer Enter gives (the highlighted choice).
    pub fn highlighted(&self) -> Option<ApprovalDecision> {
        self.request.choices.get(self.choice).copied()
    }

    pub fn offers(&self, decision: ApprovalDecision) -> bool {
        self.request.choices.contains(&decision)
    }

    /// One line naming what is asked, for the queue list and transcript notices.
    pub fn summary(&self) -> String {
        let first = self.request.subject.lines().next().unwrap_or("");
        let more = if self.request.subject.lines().nth(1).is_some() {
            " …"
        } else {
            ""
        };
        match self.request.kind {
            ApprovalKind::Command => format!("{first}{more}"),
            ApprovalKind::FileWrite => format!("write {first}"),
            ApprovalKind::HookConsent => format!("hook {first}{more}"),
        }
    }
}

/// The queue behind the Approvals pane.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ApprovalsPane {
    pending: Vec<PendingApproval>,
    selected: usize,
    /// Requests the user answered, newest last, until the engine confirms them.
    answered: VecDeque<PendingApproval>,
}

impl ApprovalsPane {
    pub const TITLE: &'static str = "Approvals";

    /// Queues a request that arrived at `now`. A repeated id replaces the queued one (the
    /// engine never re-sends; this only keeps ids unique).
    pub fn push(&mut self, request: ApprovalRequest, now: Instant) {
        let pending = PendingApproval::new(request, now);
        match self
            .pending
            .iter_mut()
            .find(|p| p.request.id == pending.request.id)
        {
            Some(existing) => *existing = pending,
            None => self.pending.push(pending),
        }
    }

    pub fn pending(&self) -> &[PendingApproval] {
        &self.pending
    }

    pub fn pending_count(&self) -> usize {
        self.pending.len()
    }

    pub fn is_empty(&self) -> bool {
        self.pending.is_empty()
    }

    pub fn selected_index(&self) -> usize {
        self.selected
    }

    pub fn selected(&self) -> Option<&PendingApproval> {
        self.pending.get(self.selected)
    }

    /// Selects the next queued request (stops at the last).
    pub fn select_next(&mut self) {
        if self.selected + 1 < self.pending.len() {
            self.selected += 1;
        }
    }

    /// Selects the previous queued request (stops at the first).
    pub fn select_prev(&mut self) {
        self.selected = self.selected.saturating_sub(1);
    }

    /// Moves the selected request's highlighted answer right (wrapping).
    pub fn next_choice(&mut self) {
        if let Some(p) = self.pending.get_mut(self.selected) {
            let len = p.request.choices.len().max(1);
            p.choice = (p.choice + 1) % len;
        }
    }

    /// Moves the selected request's highlighted answer left (wrapping).
    pub fn prev_choice(&mut self) {
        if let Some(p) = self.pending.get_mut(self.selected) {
            let len = p.request.choices.len().max(1);
            p.choice = (p.choice + len - 1) % len;
        }
    }

    /// Removes the selected request (the user answered it) and remembers it as answered.
    pub fn take_selected(&mut self) -> Option<PendingApproval> {
        if self.selected >= self.pending.len() {
            return None;
        }
        let taken = self.pending.remove(self.selected);
        self.clamp();
        if self.answered.len() == RECENT_ANSWERED {
            self.answered.pop_front();
        }
        self.answered.push_back(taken.clone());
        Some(taken)
    }

    /// Removes request `id` (the engine settled it), whether still queued or already answered.
    pub fn take(&mut self, id: &str) -> Option<PendingApproval> {
        if let Some(index) = self.pending.iter().position(|p| p.request.id == id) {
            let taken = self.pending.remove(index);
            if index < self.selected {
                self.selected -= 1;
            }
            self.clamp();
            return Some(taken);
        }
        let index = self.answered.iter().position(|p| p.request.id == id)?;
        self.answered.remove(index)
    }

    /// Forgets every request (the engine session ended: nobody is waiting for answers).
    pub fn clear(&mut self) {
        self.pending.clear();
        self.answered.clear();
        self.selected = 0;
    }

    fn clamp(&mut self) {
        self.selected = self.selected.min(self.pending.len().saturating_sub(1));
    }

    /// When the countdown shown next changes: the earliest next whole-second boundary of a
    /// pending request's time left. `None` with nothing pending (so an idle app never ticks).
    pub fn next_redraw(&self, now: Instant) -> Option<Instant> {
        self.pending
            .iter()
            .filter_map(|p| {
                let left = p.remaining(now)?;
                if left.is_zero() {
                    return None;
                }
                let to_boundary = match left.subsec_nanos() {
                    0 => Duration::from_secs(1),
                    nanos => Duration::from_nanos(u64::from(nanos)),
                };
                now.checked_add(to_boundary)
            })
            .min()
    }

    /// Rows the pane wants at `width` columns (borders included) to show everything.
    pub fn desired_height(&self, width: u16, now: Instant) -> u16 {
        super::approvals_view::desired_height(self, width, now)
    }

    pub fn render(
        &self,
        area: Rect,
        buf: &mut Buffer,
        theme: &Theme,
        focus: PaneFocus,
        now: Instant,
    ) {
        super::approvals_view::render(self, area, buf, theme, focus, now);
    }
}

/// The label Hermes's modal gives each answer.
pub fn choice_label(decision: ApprovalDecision) -> &'static str {
    match decision {
        ApprovalDecision::Once => "Allow once",
        ApprovalDecision::Session => "Allow this session",
        ApprovalDecision::Always => "Always allow",
        ApprovalDecision::Deny => "Deny",
    }
}

/// The key that gives each answer directly.
pub fn choice_key(decision: ApprovalDecision) -> char {
    match decision {
        ApprovalDecision::Once => 'y',
        ApprovalDecision::Session => 's',
        ApprovalDecision::Always => 'a',
        ApprovalDecision::Deny => 'n',
    }
}

#[cfg(test)]
#[path = "approvals_tests.rs"]
mod tests;
