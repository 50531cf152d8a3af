//! `/rollback`: the working directory's file checkpoints (newest first, numbered from 1), the
//! diff a restore would undo, and the confirmation.
//!
//! Stages: *loading* (waiting for `Event::CheckpointList`) → *list* (↑/↓, Enter shows the diff,
//! Esc closes) → *diff* (scrollable, lines coloured by diff role; Enter/`y` restores, Esc/`n`
//! goes back to the list). `/rollback N` skips the list: when the list arrives it goes straight
//! to checkpoint N's diff (1 = newest; an argument that is not a list number is read as a
//! unique id prefix of at least 4 hex digits, as in `docs/checkpoints.md`).
//!
//! This is a widget and a small state machine only: keys return [`OverlayAction`]s (the diff
//! to ask for, or the confirmed restore as `AppEvent::RestoreCheckpoint`, which closes it) and
//! the list's arrival a [`ListOutcome`]; the app (`rollback_link`) writes notices. A restore
//! is only offered once the diff has arrived, so nothing is restored unseen; a diff for another
//! checkpoint than the one on screen is ignored.
//!
//! Invariants: `selected < checkpoints.len()` whenever the list is not empty; the diff's scroll
//! offset never passes its last page as of the last frame drawn.

mod view;

use crossterm::event::KeyCode;
use crossterm::event::KeyEvent;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;

use super::stack::Overlay;
use super::stack::OverlayAction;
use crate::protocol::CheckpointInfo;
use crate::protocol::Op;
use crate::theme::Theme;
use crate::tui::app::AppEvent;
pub use view::diff_role;

/// What the arrival of the list led to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ListOutcome {
    /// There are none; the app closes the overlay with a notice.
    Empty,
    /// The list is on screen.
    Listed,
    /// `/rollback N`: ask for this checkpoint's diff.
    Jump { id: String },
    /// `/rollback N` named no checkpoint (or several): the list is shown instead.
    NotFound { wanted: String, available: usize },
    /// The overlay was not waiting for a list (a stale answer); nothing changed.
    Ignored,
}

/// Which checkpoint `/rollback ARG` names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pick {
    /// A list number (1 = newest); read as an id prefix when out of range.
    Number(usize),
    /// A unique prefix (4+ hex digits) of a checkpoint id.
    IdPrefix(String),
}

impl Pick {
    /// `None` when `arg` is neither a number from 1 nor 4+ hex digits.
    pub fn parse(arg: &str) -> Option<Self> {
        let arg = arg.trim();
        match arg.parse::<usize>() {
            Ok(n) if n >= 1 => Some(Self::Number(n)),
            _ if arg.len() >= 4 && arg.chars().all(|c| c.is_ascii_hexdigit()) => {
                Some(Self::IdPrefix(arg.to_ascii_lowercase()))
            }
            _ => None,
        }
    }

    /// The index it names in `checkpoints`, if exactly one.
    fn resolve(&self, checkpoints: &[CheckpointInfo]) -> Option<usize> {
        let by_prefix = |prefix: &str| {
            if prefix.len() < 4 {
                return None;
            }
            let mut hits = checkpoints
                .iter()
                .enumerate()
                .filter(|(_, c)| c.id.to_ascii_lowercase().starts_with(prefix));
            match (hits.next(), hits.next()) {
                (Some((index, _)), None) => Some(index),
                _ => None,
            }
        };
        match self {
            Self::Number(n) if (1..=checkpoints.len()).contains(n) => Some(n - 1),
            Self::Number(n) => by_prefix(&n.to_string()),
            Self::IdPrefix(prefix) => by_prefix(prefix),
        }
    }

    fn shown(&self) -> String {
        match self {
            Self::Number(n) => n.to_string(),
            Self::IdPrefix(prefix) => prefix.clone(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Stage {
    /// Waiting for the list; `jump` is what `/rollback ARG` named.
    Loading {
        jump: Option<Pick>,
    },
    List,
    /// Checkpoint `index`'s diff (`None` until it arrives).
    Diff {
        index: usize,
        diff: Option<String>,
        scroll: usize,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RollbackOverlay {
    checkpoints: Vec<CheckpointInfo>,
    selected: usize,
    stage: Stage,
    /// The diff wrapped for a width, cached between frames: `(width, lines)`.
    wrapped: Option<(u16, Vec<Line<'static>>)>,
    /// Diff rows visible in the last frame (for paging and the scroll limit).
    view_rows: usize,
    /// The user confirmed a restore.
    restored: bool,
}

impl RollbackOverlay {
    /// Waiting for the list; `jump` (`/rollback N`, 1 = newest) goes straight to that diff.
    pub fn new(jump: Option<Pick>) -> Self {
        Self {
            checkpoints: Vec::new(),
            selected: 0,
            stage: Stage::Loading { jump },
            wrapped: None,
            view_rows: 0,
            restored: false,
        }
    }

    /// `Event::CheckpointList` arrived.
    pub fn set_list(&mut self, checkpoints: Vec<CheckpointInfo>) -> ListOutcome {
        let Stage::Loading { jump } = &mut self.stage else {
            return ListOutcome::Ignored;
        };
        let jump = jump.take();
        self.checkpoints = checkpoints;
        self.selected = 0;
        self.stage = Stage::List;
        if self.checkpoints.is_empty() {
            return ListOutcome::Empty;
        }
        let Some(pick) = jump else {
            return ListOutcome::Listed;
        };
        match pick.resolve(&self.checkpoints) {
            Some(index) => {
                self.selected = index;
                ListOutcome::Jump {
                    id: self.open_diff(index),
                }
            }
            None => ListOutcome::NotFound {
                wanted: pick.shown(),
                available: self.checkpoints.len(),
            },
        }
    }

    /// `Event::CheckpointDiff` arrived; ignored unless it is the diff being waited for.
    pub fn set_diff(&mut self, id: &str, text: String) {
        let Stage::Diff { index, diff, .. } = &mut self.stage else {
            return;
        };
        let waiting = diff.is_none()
            && self
                .checkpoints
                .get(*index)
                .is_some_and(|checkpoint| checkpoint.id == id);
        if waiting {
            *diff = Some(text);
            self.wrapped = None;
        }
    }

    fn open_diff(&mut self, index: usize) -> String {
        self.stage = Stage::Diff {
            index,
            diff: None,
            scroll: 0,
        };
        self.wrapped = None;
        self.checkpoints
            .get(index)
            .map(|c| c.id.clone())
            .unwrap_or_default()
    }

    fn list_key(&mut self, key: KeyEvent) -> OverlayAction {
        match key.code {
            KeyCode::Esc | KeyCode::Char('q') => OverlayAction::Close,
            KeyCode::Up | KeyCode::Char('k') => {
                self.selected = self.selected.saturating_sub(1);
                OverlayAction::None
            }
            KeyCode::Down | KeyCode::Char('j') => {
                if self.selected + 1 < self.checkpoints.len() {
                    self.selected += 1;
                }
                OverlayAction::None
            }
            KeyCode::Enter if self.selected < self.checkpoints.len() => {
                OverlayAction::Send(Op::CheckpointDiff {
                    id: self.open_diff(self.selected),
                })
            }
            _ => OverlayAction::None,
        }
    }
}

impl Overlay for RollbackOverlay {
    fn title(&self) -> &str {
        view::TITLE
    }

    fn handle_key(&mut self, key: KeyEvent) -> OverlayAction {
        match &mut self.stage {
            Stage::Loading { .. } => match key.code {
                KeyCode::Esc => OverlayAction::Close,
                _ => OverlayAction::None,
            },
            Stage::List => self.list_key(key),
            Stage::Diff {
                index,
                diff,
                scroll,
            } => {
                let last = self
                    .wrapped
                    .as_ref()
                    .map_or(0, |(_, lines)| lines.len().saturating_sub(self.view_rows));
                let page = self.view_rows.max(1);
                match key.code {
                    KeyCode::Up | KeyCode::Char('k') => *scroll = scroll.saturating_sub(1),
                    KeyCode::Down | KeyCode::Char('j') => *scroll = (*scroll + 1).min(last),
                    KeyCode::PageUp => *scroll = scroll.saturating_sub(page),
                    KeyCode::PageDown | KeyCode::Char(' ') => {
                        *scroll = (*scroll + page).min(last);
                    }
                    KeyCode::Home => *scroll = 0,
                    KeyCode::End => *scroll = last,
                    KeyCode::Enter | KeyCode::Char('y') if diff.is_some() => {
                        let index = *index;
                        let Some(checkpoint) = self.checkpoints.get(index) else {
                            return OverlayAction::None;
                        };
                        self.restored = true;
                        return OverlayAction::App(AppEvent::RestoreCheckpoint {
                            id: checkpoint.id.clone(),
                            index,
                            created: checkpoint.created.clone(),
                        });
                    }
                    KeyCode::Esc | KeyCode::Char('n') | KeyCode::Backspace => {
                        self.selected = *index;
                        self.stage = Stage::List;
                    }
                    _ => {}
                }
                OverlayAction::None
            }
        }
    }

    fn is_complete(&self) -> bool {
        self.restored
    }

    fn render(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        self.draw(area, buf, theme);
    }
}

#[cfg(test)]
#[path = "rollback_tests.rs"]
pub(crate) mod tests;
