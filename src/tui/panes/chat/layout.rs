//! Line positions over the transcript for one width, computed lazily from the line cache.
//!
//! A position is `(cell index, line within the cell's block)`, where a block is the cell's
//! lines plus one blank separator line (except after the last cell). Every operation touches
//! only the cells it walks over (bounded by the lines moved or the view height), never the
//! whole transcript, so scrolling is amortised O(lines moved) and top/bottom are O(view).

use std::collections::HashSet;

use super::ToolDetail;
use super::cache::LineCache;
use super::cache::Lines;
use super::cells::Expansion;
use super::cells::is_expandable;
use crate::theme::Theme;
use crate::tui::transcript::CellId;
use crate::tui::transcript::Transcript;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pos {
    pub index: usize,
    pub line: usize,
}

pub struct Layout<'a> {
    pub transcript: &'a Transcript,
    pub cache: &'a mut LineCache,
    /// Cells the user toggled away from `detail`.
    pub expanded: &'a HashSet<CellId>,
    pub detail: ToolDetail,
    pub theme: &'a Theme,
    pub width: u16,
}

impl Layout<'_> {
    pub fn len(&self) -> usize {
        self.transcript.len()
    }

    pub fn lines(&mut self, index: usize) -> Lines {
        let Some(entry) = self.transcript.get(index) else {
            return Lines::default();
        };
        let toggled = self.expanded.contains(&entry.id());
        let expanded = match self.detail {
            ToolDetail::Collapsed => toggled,
            ToolDetail::Expanded => !toggled,
        };
        let expansion = if is_expandable(entry.cell()) && expanded {
            Expansion::Expanded
        } else {
            Expansion::Collapsed
        };
        self.cache.lines(entry, self.width, expansion, self.theme)
    }

    /// The cell's lines plus its separator.
    pub fn block_height(&mut self, index: usize) -> usize {
        let separator = usize::from(index + 1 < self.len());
        self.lines(index).len().max(1) + separator
    }

    /// The first visible position when the view shows the end of the transcript.
    pub fn bottom_start(&mut self, height: usize) -> Pos {
        let mut filled = 0;
        for index in (0..self.len()).rev() {
            let h = self.block_height(index);
            if filled + h >= height {
                return Pos {
                    index,
                    line: filled + h - height,
                };
            }
            filled += h;
        }
        Pos { index: 0, line: 0 }
    }

    pub fn move_up(&mut self, mut pos: Pos, mut n: usize) -> Pos {
        while n > 0 {
            if pos.line >= n {
                pos.line -= n;
                break;
            }
            n -= pos.line + 1;
            if pos.index == 0 {
                pos.line = 0;
                break;
            }
            pos.index -= 1;
            pos.line = self.block_height(pos.index) - 1;
        }
        pos
    }

    pub fn move_down(&mut self, mut pos: Pos, mut n: usize) -> Pos {
        while n > 0 {
            let h = self.block_height(pos.index);
            let left = h - 1 - pos.line.min(h - 1);
            if left >= n {
                pos.line += n;
                break;
            }
            n -= left + 1;
            if pos.index + 1 >= self.len() {
                pos.line = h - 1;
                break;
            }
            pos.index += 1;
            pos.line = 0;
        }
        pos
    }

    /// Whether everything from `pos` to the end fits in `height` rows (the view would show
    /// the end of the transcript).
    pub fn shows_end_from(&mut self, pos: Pos, height: usize) -> bool {
        let mut rows = 0;
        for index in pos.index..self.len() {
            rows += self.block_height(index);
            if index == pos.index {
                rows -= pos.line.min(rows);
            }
            if rows > height {
                return false;
            }
        }
        true
    }

    /// Rows from `start` down to the end of cell `index`'s lines; `None` once past `limit`.
    pub fn rows_to_end_of(&mut self, start: Pos, index: usize, limit: usize) -> Option<usize> {
        let mut rows = 0;
        for i in start.index..index {
            rows += self.block_height(i);
            if i == start.index {
                rows -= start.line.min(rows);
            }
            if rows > limit {
                return None;
            }
        }
        let own = self.lines(index).len().max(1);
        rows += own.saturating_sub(if index == start.index { start.line } else { 0 });
        (rows <= limit).then_some(rows)
    }
}
