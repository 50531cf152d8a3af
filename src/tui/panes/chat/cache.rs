//! Wrapped lines per cell, cached by `(cell id, rev, width, expansion)`.
//!
//! Only cells the chat pane actually lays out (visible ones, or ones scrolled over) are ever
//! rendered, so a resize re-wraps lazily as cells come into view instead of re-wrapping the
//! whole transcript. A theme change clears everything. The map is bounded: past
//! `MAX_ENTRIES`, entries not used in the last few frames are dropped.

use std::collections::HashMap;
use std::sync::Arc;

use ratatui::text::Line;

use super::cells::Expansion;
use super::cells::render_cell;
use crate::theme::Theme;
use crate::tui::transcript::CellId;
use crate::tui::transcript::Entry;

const MAX_ENTRIES: usize = 4096;
/// Entries used within this many frames survive a prune.
const KEEP_FRAMES: u64 = 2;

pub type Lines = Arc<Vec<Line<'static>>>;

struct Cached {
    rev: u64,
    width: u16,
    expansion: Expansion,
    used: u64,
    lines: Lines,
}

#[derive(Default)]
pub struct LineCache {
    map: HashMap<CellId, Cached>,
    theme: Option<Theme>,
    frame: u64,
    /// Cells rendered (cache misses) since creation; tests use it to check laziness.
    renders: u64,
}

impl LineCache {
    /// Starts a frame: drops everything on a theme change, prunes when over the bound.
    pub fn begin_frame(&mut self, theme: &Theme) {
        if self.theme.as_ref() != Some(theme) {
            self.map.clear();
            self.theme = Some(theme.clone());
        }
        self.frame += 1;
        if self.map.len() > MAX_ENTRIES {
            let frame = self.frame;
            self.map
                .retain(|_, c| frame.saturating_sub(c.used) <= KEEP_FRAMES);
        }
    }

    pub fn lines(
        &mut self,
        entry: &Entry,
        width: u16,
        expansion: Expansion,
        theme: &Theme,
    ) -> Lines {
        let frame = self.frame;
        if let Some(c) = self.map.get_mut(&entry.id())
            && c.rev == entry.rev()
            && c.width == width
            && c.expansion == expansion
        {
            c.used = frame;
            return Arc::clone(&c.lines);
        }
        self.renders += 1;
        let lines = Arc::new(render_cell(entry.cell(), width, expansion, theme));
        self.map.insert(
            entry.id(),
            Cached {
                rev: entry.rev(),
                width,
                expansion,
                used: frame,
                lines: Arc::clone(&lines),
            },
        );
        lines
    }

    pub fn renders(&self) -> u64 {
        self.renders
    }
}
