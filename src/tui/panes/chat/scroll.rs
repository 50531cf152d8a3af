//! The chat pane's scroll and selection state machine.
//!
//! The view either follows the bottom or is anchored at `(cell id, line)`. Requests (scroll by
//! lines, top/bottom, select previous/next, toggle) are queued by input handlers and resolved
//! here at render time against a `Layout`, which lays out only the cells walked over.
//! Invariant: after `normalize`, an anchored view never shows the end of the transcript (it
//! would be following instead), so "anchored" always means "something is hidden below".

use super::layout::Layout;
use super::layout::Pos;
use crate::tui::transcript::CellId;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scroll {
    Follow,
    Anchor { id: CellId, line: usize },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Request {
    Up(usize),
    Down(usize),
    Top,
    Bottom,
    SelectPrev,
    SelectNext,
    /// Expand or collapse the selected cell, then bring it into view.
    ToggleSelected,
}

/// What the user left behind when they scrolled up: the last cell and its revision.
#[derive(Debug, Clone, Copy)]
pub struct LeftAt {
    pub last: Option<(CellId, u64)>,
}

#[derive(Debug, Clone, Copy)]
pub struct ScrollState {
    pub scroll: Scroll,
    pub left_at: Option<LeftAt>,
}

impl Default for ScrollState {
    fn default() -> Self {
        Self {
            scroll: Scroll::Follow,
            left_at: None,
        }
    }
}

/// Scroll and selection state while requests are resolved against a layout.
pub struct ViewState {
    pub scroll: ScrollState,
    pub selected: Option<CellId>,
    pub last_visible: Option<CellId>,
}

impl ViewState {
    /// The first visible position, resolving the anchor (a vanished cell falls forward).
    fn start(&mut self, layout: &mut Layout<'_>, height: usize) -> Pos {
        match self.scroll.scroll {
            Scroll::Follow => layout.bottom_start(height),
            Scroll::Anchor { id, line } => match layout.transcript.position(id) {
                Ok(index) => {
                    let max = layout.block_height(index) - 1;
                    Pos {
                        index,
                        line: line.min(max),
                    }
                }
                Err(index) if index < layout.len() => Pos { index, line: 0 },
                Err(_) => layout.bottom_start(height),
            },
        }
    }

    fn anchor_at(&mut self, layout: &mut Layout<'_>, pos: Pos) {
        let Some(entry) = layout.transcript.get(pos.index) else {
            return;
        };
        if self.scroll.scroll == Scroll::Follow {
            let last = layout
                .transcript
                .entries()
                .last()
                .map(|e| (e.id(), e.rev()));
            self.scroll.left_at = Some(LeftAt { last });
        }
        self.scroll.scroll = Scroll::Anchor {
            id: entry.id(),
            line: pos.line,
        };
    }

    fn follow(&mut self) {
        self.scroll = ScrollState::default();
    }

    pub fn apply(&mut self, layout: &mut Layout<'_>, request: Request, height: usize) {
        match request {
            Request::Up(n) => {
                let start = self.start(layout, height);
                let pos = layout.move_up(start, n);
                self.anchor_at(layout, pos);
            }
            Request::Down(n) => {
                let start = self.start(layout, height);
                let pos = layout.move_down(start, n);
                self.anchor_at(layout, pos);
            }
            Request::Top => self.anchor_at(layout, Pos { index: 0, line: 0 }),
            Request::Bottom => self.follow(),
            Request::SelectPrev | Request::SelectNext => {
                let last = layout.len().saturating_sub(1);
                let index = match self.selected.map(|id| layout.transcript.position(id)) {
                    None => self
                        .last_visible
                        .and_then(|id| layout.transcript.position(id).ok())
                        .unwrap_or(last),
                    Some(Ok(i)) if request == Request::SelectPrev => i.saturating_sub(1),
                    Some(Ok(i)) => (i + 1).min(last),
                    Some(Err(i)) => i.min(last),
                };
                self.selected = layout
                    .transcript
                    .get(index)
                    .map(crate::tui::transcript::Entry::id);
                self.reveal(layout, index, height);
            }
            Request::ToggleSelected => {
                if let Some(Ok(index)) = self.selected.map(|id| layout.transcript.position(id)) {
                    self.reveal(layout, index, height);
                }
            }
        }
        // Leave the bottom only when something is actually hidden below.
        self.normalize(layout, height);
    }

    /// Scrolls the least needed so cell `index` is visible (its top, when it is taller than
    /// the view).
    fn reveal(&mut self, layout: &mut Layout<'_>, index: usize, height: usize) {
        let start = self.start(layout, height);
        if index < start.index || (index == start.index && start.line > 0) {
            self.anchor_at(layout, Pos { index, line: 0 });
            return;
        }
        if layout.rows_to_end_of(start, index, height).is_some() {
            return;
        }
        let own = layout.lines(index).len().max(1);
        let pos = if own >= height {
            Pos { index, line: 0 }
        } else {
            layout.move_up(
                Pos {
                    index,
                    line: own - 1,
                },
                height - 1,
            )
        };
        self.anchor_at(layout, pos);
    }

    /// Switches to following when the anchored view already shows the end; returns the
    /// first visible position.
    pub fn normalize(&mut self, layout: &mut Layout<'_>, height: usize) -> Pos {
        let start = self.start(layout, height);
        if matches!(self.scroll.scroll, Scroll::Anchor { .. })
            && layout.shows_end_from(start, height)
        {
            self.follow();
            return layout.bottom_start(height);
        }
        start
    }
}
