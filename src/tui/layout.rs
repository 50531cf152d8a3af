//! Where everything goes on the main screen, as a pure function of the terminal size, the
//! side-region setting, focus and the heights the bottom widgets and the side panes ask for.
//!
//! Top to bottom: the chat (with the side column on its right when wide), the queue, the
//! completion popup, the composer, the side summary line (narrow terminals only) and the
//! status bar. Queue, popup, composer and status span the full width.
//!
//! Side region: at [`NARROW_WIDTH`] columns or more it is a column of ~36 % of the width
//! (capped at [`SIDE_MAX_WIDTH`]) stacking the Subagents, Goals and Approvals panes. Narrower
//! than that it collapses to a one-line summary above the status bar; when a side pane is
//! focused in a narrow terminal, the three panes **take the chat area's place** (the chat
//! rect becomes empty) so the focused border stays visible — overlaying only part of the chat
//! would leave the panes too short to read on small terminals. A focused side pane is shown
//! even when the side region is hidden, because focus must always be visible (`focus.rs`).
//! The three panes share the column evenly unless they ask for rows ([`PaneWants`],
//! [`compute_layout_with_wants`]), in this order of priority:
//! 1. An Approvals pane with requests waiting grows to the rows it asks for, the other two
//!    keeping at least [`MIN_PANE_ROWS`] each and splitting the rest, Subagents first.
//! 2. A Goals pane showing a goal then grows towards the rows it asks for, taking them only
//!    from the Subagents pane, and only while that pane keeps the rows it asks for itself
//!    (and at least [`MIN_PANE_ROWS`]): an idle Subagents pane gives up its blank rows, a busy
//!    one gives up nothing. Goals never takes rows from Approvals.
//!
//! A pane asking for 0 rows (or no more than its share) changes nothing, so with nothing
//! asked the split is the even one, spare rows going to Subagents, then Approvals. Below
//! `3 × MIN_PANE_ROWS` rows the column is always split evenly (panes may then be shorter than
//! [`MIN_PANE_ROWS`]); nothing grows.
//!
//! Rows are handed out bottom-up: status, composer, summary, then the popup and the queue,
//! each leaving the chat at least [`MIN_CHAT_ROWS`] when the terminal has them; the chat gets
//! the rest. Invariants (tested over many sizes, down to tiny terminals): every non-empty
//! rect lies inside `area`, no two non-empty rects overlap, and the rows add up to the area.
//! This module draws nothing.

use ratatui::layout::Rect;

use super::focus::Focus;

/// Below this width the side region collapses to a summary line.
pub const NARROW_WIDTH: u16 = 100;
/// The side column never gets wider than this.
pub const SIDE_MAX_WIDTH: u16 = 56;
/// Share of the width the side column takes in a wide terminal.
const SIDE_PERCENT: u16 = 36;
/// The popup and queue stop growing once the chat would have fewer rows than this.
pub const MIN_CHAT_ROWS: u16 = 3;
/// A growing side pane leaves the panes it takes rows from at least this many rows (borders
/// and one line).
pub const MIN_PANE_ROWS: u16 = 3;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SideVisibility {
    #[default]
    Shown,
    Hidden,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LayoutInput {
    pub area: Rect,
    pub side: SideVisibility,
    pub focus: Focus,
    /// Rows the composer wants (its content height plus borders).
    pub composer_height: u16,
    /// Rows the completion popup wants; 0 when closed.
    pub popup_height: u16,
    /// Rows the queued-messages list wants; 0 when empty.
    pub queue_height: u16,
}

/// Rows each side pane asks for at the column's width, borders included; 0 asks for
/// nothing. See the module docs for who gets what.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PaneWants {
    /// What the Subagents pane needs to show all it has: the floor a growing Goals pane
    /// leaves it (it never grows the pane itself).
    pub agents: u16,
    /// What the Goals pane needs to show its goal; 0 while there is none.
    pub goals: u16,
    /// What the Approvals pane needs to show the waiting request; 0 while none waits.
    pub approvals: u16,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SideRegion {
    Hidden,
    /// The three panes, stacked top to bottom.
    Panes {
        agents: Rect,
        goals: Rect,
        approvals: Rect,
    },
    /// A one-line summary (narrow terminals).
    Summary(Rect),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AppLayout {
    /// The transcript; empty while an expanded side pane takes its place.
    pub chat: Rect,
    pub side: SideRegion,
    /// Empty (zero height) when the popup is closed.
    pub popup: Rect,
    /// Empty (zero height) when nothing is queued.
    pub queue: Rect,
    pub composer: Rect,
    pub status: Rect,
}

impl AppLayout {
    /// Every rect of the layout, for drawing borders or checking invariants.
    pub fn rects(&self) -> Vec<Rect> {
        let mut rects = vec![
            self.chat,
            self.popup,
            self.queue,
            self.composer,
            self.status,
        ];
        match self.side {
            SideRegion::Hidden => {}
            SideRegion::Panes {
                agents,
                goals,
                approvals,
            } => rects.extend([agents, goals, approvals]),
            SideRegion::Summary(rect) => rects.push(rect),
        }
        rects
    }
}

/// How the side region shows for a given width and focus.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SideMode {
    Hidden,
    Column,
    Summary,
    Expanded,
}

fn side_mode(input: &LayoutInput) -> SideMode {
    let focused = input.focus.is_side();
    let wanted = input.side == SideVisibility::Shown || focused;
    match (wanted, input.area.width < NARROW_WIDTH, focused) {
        (false, _, _) => SideMode::Hidden,
        (true, false, _) => SideMode::Column,
        (true, true, true) => SideMode::Expanded,
        (true, true, false) => SideMode::Summary,
    }
}

/// Computes the main screen's layout with the side panes sharing the column evenly. Pure:
/// same input, same output.
pub fn compute_layout(input: &LayoutInput) -> AppLayout {
    compute_layout_with_wants(input, PaneWants::default())
}

/// Like [`compute_layout`], but the side panes ask for rows (`wants`, borders included):
/// Approvals grows first, to what it asks for, leaving the other two at least
/// [`MIN_PANE_ROWS`] each and never getting less than its even share; then Goals grows
/// towards what it asks for by taking rows from Subagents only while Subagents keeps
/// `wants.agents` rows (and [`MIN_PANE_ROWS`]). Asking for nothing gives the even split.
pub fn compute_layout_with_wants(input: &LayoutInput, wants: PaneWants) -> AppLayout {
    let area = input.area;
    let mode = side_mode(input);
    let mut rows = area.height;
    let status_h = take(&mut rows, 1, 0);
    let composer_h = take(&mut rows, input.composer_height, 0);
    let summary_h = take(&mut rows, u16::from(mode == SideMode::Summary), 0);
    let reserve = MIN_CHAT_ROWS.min(rows);
    let popup_h = take(&mut rows, input.popup_height, reserve);
    let queue_h = take(&mut rows, input.queue_height, reserve);
    let upper_h = rows;

    // Stack the rows top to bottom.
    let mut y = area.y;
    let mut next = |height: u16| {
        let rect = Rect::new(area.x, y, area.width, height);
        y = y.saturating_add(height);
        rect
    };
    let upper = next(upper_h);
    let queue = next(queue_h);
    let popup = next(popup_h);
    let composer = next(composer_h);
    let summary = next(summary_h);
    let status = next(status_h);

    let (chat, side) = match mode {
        SideMode::Hidden => (upper, SideRegion::Hidden),
        SideMode::Summary => (upper, SideRegion::Summary(summary)),
        SideMode::Expanded => (Rect { height: 0, ..upper }, stack_panes(upper, wants)),
        SideMode::Column => {
            // u32: the product overflows u16 on very wide terminals.
            let share = u32::from(area.width) * u32::from(SIDE_PERCENT) / 100;
            let side_w = u16::try_from(share)
                .unwrap_or(SIDE_MAX_WIDTH)
                .min(SIDE_MAX_WIDTH);
            let chat_w = area.width - side_w;
            let chat = Rect {
                width: chat_w,
                ..upper
            };
            let column = Rect {
                x: upper.x + chat_w,
                width: side_w,
                ..upper
            };
            (chat, stack_panes(column, wants))
        }
    };
    AppLayout {
        chat,
        side,
        popup,
        queue,
        composer,
        status,
    }
}

/// Takes up to `want` of the remaining `rows`, leaving at least `keep` when there are.
fn take(rows: &mut u16, want: u16, keep: u16) -> u16 {
    let got = want.min(rows.saturating_sub(keep));
    *rows -= got;
    got
}

/// Splits `column` into three stacked panes; spare rows go to Subagents, then Approvals.
/// An Approvals pane that wants more than its share takes rows from the other two, down to
/// [`MIN_PANE_ROWS`] each; they split what is left, Subagents first. Then a Goals pane that
/// wants more than it got takes rows from Subagents, down to the larger of `wants.agents`
/// and [`MIN_PANE_ROWS`]. Below `3 × MIN_PANE_ROWS` rows nobody can grow: the split is even.
fn stack_panes(column: Rect, wants: PaneWants) -> SideRegion {
    let base = column.height / 3;
    let extra = column.height % 3;
    let even_agents_h = base + u16::from(extra > 0);
    let even_approvals_h = base + u16::from(extra > 1);
    let most = column.height.saturating_sub(2 * MIN_PANE_ROWS);
    let approvals_h = wants.approvals.min(most).max(even_approvals_h);
    let (mut agents_h, mut goals_h) = if approvals_h == even_approvals_h {
        (even_agents_h, base)
    } else {
        let rest = column.height - approvals_h;
        (rest - rest / 2, rest / 2)
    };
    // Goals grows into the rows an idle Subagents pane does not need.
    let spare = agents_h.saturating_sub(wants.agents.max(MIN_PANE_ROWS));
    let grow = wants.goals.saturating_sub(goals_h).min(spare);
    agents_h -= grow;
    goals_h += grow;
    let agents = Rect {
        height: agents_h,
        ..column
    };
    let goals = Rect {
        y: column.y + agents_h,
        height: goals_h,
        ..column
    };
    let approvals = Rect {
        y: column.y + agents_h + goals_h,
        height: approvals_h,
        ..column
    };
    SideRegion::Panes {
        agents,
        goals,
        approvals,
    }
}

#[cfg(test)]
#[path = "layout_tests.rs"]
mod tests;
