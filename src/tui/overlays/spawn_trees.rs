//! `/agents history`: the picker of saved spawn trees (newest first: when the batch finished,
//! how many subagents it had, its top-level goals).
//!
//! Stages: *loading* (waiting for `Event::SpawnTrees`; Esc closes) → *list* (↑/↓ or `k`/`j`
//! move, Enter asks for the selected tree, Esc/`q` close).
//!
//! A widget and a small state machine only: keys return [`OverlayAction`]s (Enter closes it
//! with `AppEvent::LoadSpawnTree`), the list's arrival a [`TreesOutcome`]; the app
//! (`spawn_trees_link`) sends the `Op`s, writes notices and opens the monitor's read-only
//! history mode.
//!
//! Invariant: `selected < trees.len()` whenever the list is not empty.

use crossterm::event::KeyCode;
use crossterm::event::KeyEvent;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::text::Span;
use ratatui::widgets::Widget;

use super::stack::Overlay;
use super::stack::OverlayAction;
use crate::protocol::SpawnTreeInfo;
use crate::theme::Role;
use crate::theme::Theme;
use crate::tui::app::AppEvent;
use crate::tui::markdown::wrap::display_width;
use crate::tui::markdown::wrap::sanitize;
use crate::tui::markdown::wrap::truncate;
use crate::tui::popup::MAX_ROWS;
use crate::tui::popup::draw_menu_rows;

const TITLE: &str = " Saved spawn trees ";

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
    /// Enter asked for a tree.
    chosen: bool,
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
            chosen: false,
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

impl Overlay for SpawnTreesPicker {
    fn title(&self) -> &str {
        TITLE
    }

    fn handle_key(&mut self, key: KeyEvent) -> OverlayAction {
        match (self.stage, key.code) {
            (_, KeyCode::Esc) | (Stage::List, KeyCode::Char('q')) => OverlayAction::Close,
            (Stage::Loading, _) => OverlayAction::None,
            (Stage::List, KeyCode::Up | KeyCode::Char('k')) => {
                self.selected = self.selected.saturating_sub(1);
                OverlayAction::None
            }
            (Stage::List, KeyCode::Down | KeyCode::Char('j')) => {
                if self.selected + 1 < self.trees.len() {
                    self.selected += 1;
                }
                OverlayAction::None
            }
            (Stage::List, KeyCode::Enter) => match self.trees.get(self.selected) {
                Some(tree) => {
                    let info = tree.clone();
                    self.chosen = true;
                    OverlayAction::App(AppEvent::LoadSpawnTree(info))
                }
                None => OverlayAction::None,
            },
            (Stage::List, _) => OverlayAction::None,
        }
    }

    fn is_complete(&self) -> bool {
        self.chosen
    }

    fn render(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        match self.stage {
            Stage::Loading => {
                crate::tui::overlays::loading_modal(
                    area,
                    100,
                    TITLE,
                    "saved spawn trees",
                    buf,
                    theme,
                );
            }
            Stage::List => self.render_list(area, buf, theme),
        }
    }
}

/// The bordered modal, centred in `area`; returns its inner rect.
fn frame(area: Rect, rows: u16, buf: &mut Buffer, theme: &Theme) -> Rect {
    crate::tui::overlays::framed_modal(area, 100, rows, TITLE, buf, theme)
}

#[cfg(test)]
#[path = "spawn_trees_tests.rs"]
pub(crate) mod tests;
