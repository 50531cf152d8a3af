//! `/agents history`: the picker of saved spawn trees (newest first: when the batch finished,
//! how many subagents it had, its top-level goals).
//!
//! Stages: *loading* (waiting for `Event::SpawnTrees`; Esc closes) → *list* (↑/↓ or `k`/`j`
//! move, Enter asks for the selected tree, Esc/`q` close).
//!
//! A widget and a small state machine only: it returns [`SpawnTreesAction`]s and
//! [`TreesOutcome`]s, and the app (`spawn_trees_link`) sends the `Op`s, writes notices and
//! opens the monitor's read-only history mode.
//!
//! Invariant: `selected < trees.len()` whenever the list is not empty.

use crossterm::event::KeyCode;
use crossterm::event::KeyEvent;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::text::Span;
use ratatui::widgets::Paragraph;
use ratatui::widgets::Widget;

use crate::protocol::SpawnTreeInfo;
use crate::theme::Role;
use crate::theme::Theme;
use crate::tui::markdown::wrap::display_width;
use crate::tui::markdown::wrap::sanitize;
use crate::tui::markdown::wrap::truncate;
use crate::tui::popup::MAX_ROWS;
use crate::tui::popup::draw_menu_rows;

/// What the app should do after a key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SpawnTreesAction {
    None,
    Close,
    /// Ask the engine for this saved tree.
    Load(SpawnTreeInfo),
}

/// What the arrival of the list led to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TreesOutcome {
    /// None saved; the app closes the picker with a notice.
    Empty,
    /// The list is on screen.
    Listed,
    /// The picker was not waiting for a list (a stale answer); nothing changed.
    Ignored,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    Loading,
    List,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpawnTreesPicker {
    trees: Vec<SpawnTreeInfo>,
    selected: usize,
    stage: Stage,
}

impl Default for SpawnTreesPicker {
    fn default() -> Self {
        Self::new()
    }
}

impl SpawnTreesPicker {
    /// Waiting for `Event::SpawnTrees`.
    pub fn new() -> Self {
        Self {
            trees: Vec::new(),
            selected: 0,
            stage: Stage::Loading,
        }
    }

    /// `Event::SpawnTrees` arrived.
    pub fn set_list(&mut self, trees: Vec<SpawnTreeInfo>) -> TreesOutcome {
        if self.stage != Stage::Loading {
            return TreesOutcome::Ignored;
        }
        self.trees = trees;
        self.selected = 0;
        self.stage = Stage::List;
        if self.trees.is_empty() {
            TreesOutcome::Empty
        } else {
            TreesOutcome::Listed
        }
    }

    pub fn handle_key(&mut self, key: KeyEvent) -> SpawnTreesAction {
        match (self.stage, key.code) {
            (_, KeyCode::Esc) | (Stage::List, KeyCode::Char('q')) => SpawnTreesAction::Close,
            (Stage::Loading, _) => SpawnTreesAction::None,
            (Stage::List, KeyCode::Up | KeyCode::Char('k')) => {
                self.selected = self.selected.saturating_sub(1);
                SpawnTreesAction::None
            }
            (Stage::List, KeyCode::Down | KeyCode::Char('j')) => {
                if self.selected + 1 < self.trees.len() {
                    self.selected += 1;
                }
                SpawnTreesAction::None
            }
            (Stage::List, KeyCode::Enter) => self
                .trees
                .get(self.selected)
                .map_or(SpawnTreesAction::None, |tree| {
                    SpawnTreesAction::Load(tree.clone())
                }),
            (Stage::List, _) => SpawnTreesAction::None,
        }
    }

    pub fn render(&self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        match self.stage {
            Stage::Loading => {
                let inner = frame(area, 4, buf, theme);
                Paragraph::new(vec![
                    Line::styled("loading saved spawn trees…", theme.style(Role::Dim)),
                    Line::styled("Esc close", theme.style(Role::Dim)),
                ])
                .render(inner, buf);
            }
            Stage::List => self.render_list(area, buf, theme),
        }
    }

    fn render_list(&self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        let rows = self.trees.len().clamp(1, MAX_ROWS);
        // Borders, the heading, the list, the legend.
        let height = u16::try_from(rows + 4).unwrap_or(u16::MAX);
        let inner = frame(area, height, buf, theme);
        if inner.height == 0 {
            return;
        }
        let width = usize::from(inner.width);
        let list = crate::tui::overlays::heading_and_list(
            inner,
            "newest first; opens read-only in the subagent monitor",
            rows,
            1,
            buf,
            theme,
        );
        draw_menu_rows(
            &self.trees,
            self.selected,
            list,
            buf,
            theme,
            |tree, y, buf, (main, meta)| {
                let agents = match tree.subagents {
                    1 => "1 agent".to_string(),
                    n => format!("{n} agents"),
                };
                let head = format!(" {}  {agents:>9}  ", tree.finished);
                let (x, _) = buf.set_stringn(inner.x, y, &head, width, meta);
                let room = width.saturating_sub(display_width(&head));
                buf.set_stringn(x, y, truncate(&sanitize(&tree.goals), room), room, main);
            },
        );
        let legend = Line::from(Span::styled(
            truncate("↑↓ choose · Enter open · Esc close", width),
            theme.style(Role::Dim),
        ));
        let footer = Rect {
            y: inner.y + inner.height.saturating_sub(1),
            height: 1,
            ..inner
        };
        legend.render(footer, buf);
    }
}

/// The bordered modal, centred in `area`; returns its inner rect.
fn frame(area: Rect, rows: u16, buf: &mut Buffer, theme: &Theme) -> Rect {
    crate::tui::overlays::framed_modal(area, 100, rows, " Saved spawn trees ", buf, theme)
}

#[cfg(test)]
#[path = "spawn_trees_tests.rs"]
pub(crate) mod tests;
