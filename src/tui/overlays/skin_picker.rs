//! `/skin` with no argument: a list of every skin (built-in and `HERMES_HOME/skins/`), each
//! already loaded, so moving the selection can preview it on the real screen at once.
//!
//! Pure state plus rendering. The picker never touches the disk or the app: a key returns an
//! `AppEvent::Skin` (preview an entry, keep it, restore the skin the app had when it opened;
//! the last two close it) and `skins_flow` does it. Invariants: `selected` is always a valid index while there are
//! entries, and `original` is the theme to restore on Esc, whatever was previewed since.

use std::sync::Arc;

use crossterm::event::KeyCode;
use crossterm::event::KeyEvent;
use crossterm::event::KeyModifiers;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Clear;
use ratatui::widgets::Padding;
use ratatui::widgets::Widget;
use unicode_width::UnicodeWidthStr;

use super::stack::Overlay;
use super::stack::OverlayAction;
use crate::theme::Role;
use crate::theme::Theme;
use crate::tui::app::AppEvent;
use crate::tui::markdown::wrap::truncate;
use crate::tui::skins_flow::SkinEvent;

/// Most rows the list shows before it scrolls.
const MAX_ROWS: usize = 12;
/// The picker's widest; narrower than the screen so the preview shows around it.
const MAX_WIDTH: u16 = 60;
const TITLE: &str = " Skin ";
const HEADING: &str = "↑↓ preview · Enter keep · Esc restore";

/// Where a skin comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SkinOrigin {
    BuiltIn,
    /// `HERMES_HOME/skins/<name>.yaml` (it may override a built-in of the same name).
    User,
}

impl SkinOrigin {
    pub fn label(self) -> &'static str {
        match self {
            Self::BuiltIn => "built-in",
            Self::User => "user",
        }
    }
}

/// One loaded skin.
#[derive(Debug, Clone)]
pub struct SkinEntry {
    /// The name `/skin NAME` and `display.skin` use.
    pub name: String,
    pub description: String,
    pub origin: SkinOrigin,
    pub theme: Arc<Theme>,
    /// What loading it reported (bad keys, a broken file and the fallback used).
    pub notices: Vec<String>,
}

#[derive(Debug, Clone)]
pub struct SkinPicker {
    entries: Vec<SkinEntry>,
    selected: usize,
    original: Arc<Theme>,
    /// Kept or restored.
    closed: bool,
}

impl SkinPicker {
    /// A picker over `entries` with `current` (a skin name) selected when it is listed, the
    /// first entry otherwise; `original` is what Esc restores.
    pub fn new(entries: Vec<SkinEntry>, current: &str, original: Arc<Theme>) -> Self {
        let selected = entries.iter().position(|e| e.name == current).unwrap_or(0);
        Self {
            entries,
            selected,
            original,
            closed: false,
        }
    }

    pub fn entries(&self) -> &[SkinEntry] {
        &self.entries
    }

    pub fn entry(&self, index: usize) -> Option<&SkinEntry> {
        self.entries.get(index)
    }

    pub fn selected(&self) -> usize {
        self.selected
    }

    /// The theme the app had when the picker opened.
    pub fn original(&self) -> &Arc<Theme> {
        &self.original
    }

    /// Selects `index` when it exists and differs from the selection, and previews it.
    fn move_to(&mut self, index: Option<usize>) -> OverlayAction {
        match index.and_then(|i| self.entries.get(i).map(|entry| (i, entry))) {
            Some((i, entry)) if i != self.selected => {
                let theme = Arc::clone(&entry.theme);
                self.selected = i;
                OverlayAction::App(AppEvent::Skin(SkinEvent::Preview(theme)))
            }
            _ => OverlayAction::None,
        }
    }

    /// Closes with the theme the app had when the picker opened.
    fn restore(&mut self) -> OverlayAction {
        self.closed = true;
        let original = Arc::clone(&self.original);
        OverlayAction::App(AppEvent::Skin(SkinEvent::Restore(original)))
    }

    /// Closes keeping the selected entry.
    fn keep(&mut self) -> OverlayAction {
        self.closed = true;
        match self.entries.get(self.selected) {
            Some(entry) => OverlayAction::App(AppEvent::Skin(SkinEvent::Keep(entry.clone()))),
            None => OverlayAction::None,
        }
    }

    /// Rows under the list: a blank row and the selected skin's notice, when any skin has
    /// notices.
    fn notice_rows(&self) -> u16 {
        if self.entries.iter().any(|e| !e.notices.is_empty()) {
            2
        } else {
            0
        }
    }

    /// Rows the modal wants: border, heading, the list and the notice rows.
    fn rows(&self) -> u16 {
        let list = self.entries.len().clamp(1, MAX_ROWS);
        u16::try_from(list).unwrap_or(1) + 3 + self.notice_rows()
    }
}

impl Overlay for SkinPicker {
    fn title(&self) -> &str {
        TITLE
    }

    fn handle_key(&mut self, key: KeyEvent) -> OverlayAction {
        if key.modifiers.contains(KeyModifiers::CONTROL) {
            return match key.code {
                KeyCode::Char('c') => self.restore(),
                KeyCode::Char('p') => self.move_to(self.selected.checked_sub(1)),
                KeyCode::Char('n') => self.move_to(Some(self.selected + 1)),
                _ => OverlayAction::None,
            };
        }
        match key.code {
            KeyCode::Esc | KeyCode::Char('q') => self.restore(),
            KeyCode::Up | KeyCode::Char('k') => self.move_to(self.selected.checked_sub(1)),
            KeyCode::Down | KeyCode::Char('j') => self.move_to(Some(self.selected + 1)),
            KeyCode::Home => self.move_to(Some(0)),
            KeyCode::End => self.move_to(self.entries.len().checked_sub(1)),
            KeyCode::Enter if self.entries.is_empty() => self.restore(),
            KeyCode::Enter => self.keep(),
            _ => OverlayAction::None,
        }
    }

    fn is_complete(&self) -> bool {
        self.closed
    }

    /// Drawn with `theme`, the previewed skin, so the picker itself shows it too. It sits
    /// at the right edge (over the side panes), leaving the chat's messages in view.
    fn render(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        let centred = super::centered_modal(area, MAX_WIDTH, self.rows());
        let modal = Rect {
            x: area.right().saturating_sub(centred.width + 1).max(area.x),
            ..centred
        };
        Clear.render(modal, buf);
        let block = super::modal_block(TITLE, theme).padding(Padding::horizontal(1));
        let inner = block.inner(modal);
        block.render(modal, buf);
        if inner.height == 0 || inner.width == 0 {
            return;
        }
        let list_rows = self.entries.len().clamp(1, MAX_ROWS);
        let below = self.notice_rows();
        let list = super::heading_and_list(inner, HEADING, list_rows, below, buf, theme);
        let width = usize::from(inner.width);
        if self.entries.is_empty() {
            buf.set_stringn(
                list.x,
                list.y,
                "no skins found",
                width,
                theme.style(Role::Dim),
            );
        }
        let name_width = self
            .entries
            .iter()
            .map(|e| e.name.width())
            .max()
            .unwrap_or(0);
        let rows = usize::from(list.height);
        let first = self.selected.saturating_sub(rows.saturating_sub(1));
        for (row, (index, entry)) in self
            .entries
            .iter()
            .enumerate()
            .skip(first)
            .take(rows)
            .enumerate()
        {
            let y = list.y + u16::try_from(row).unwrap_or(0);
            let current = index == self.selected;
            let (name_style, meta_style) = if current {
                let style = theme.style(Role::MenuCurrent);
                buf.set_style(Rect::new(list.x, y, list.width, 1), style);
                (style, style)
            } else {
                (theme.style(Role::Text), theme.style(Role::Dim))
            };
            let marker = if current { "▸ " } else { "  " };
            let warn = if entry.notices.is_empty() { "" } else { " ⚠" };
            let origin = format!("{}{warn}", entry.origin.label());
            let head = format!("{marker}{:<name_width$}  ", entry.name);
            let room = width.saturating_sub(head.width() + origin.width() + 2);
            let description = truncate(&entry.description, room);
            let line = format!("{head}{description}");
            buf.set_stringn(list.x, y, &line, width, name_style);
            let x = list.x + u16::try_from(width.saturating_sub(origin.width())).unwrap_or(0);
            if line.width() + origin.width() < width {
                buf.set_stringn(x, y, &origin, origin.width(), meta_style);
            }
        }
        // The selected skin's first loading notice, on the last row.
        if let Some(notice) = self
            .entries
            .get(self.selected)
            .and_then(|e| e.notices.first())
            && below > 0
            && inner.height >= 2
        {
            let y = inner.bottom() - 1;
            let text = truncate(&format!("⚠ {notice}"), width);
            buf.set_stringn(inner.x, y, text, width, theme.style(Role::Warn));
        }
    }
}

#[cfg(test)]
#[path = "skin_picker_tests.rs"]
mod tests;
