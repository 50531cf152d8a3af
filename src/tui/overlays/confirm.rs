//! A small confirmation dialog: a title, a wrapped explanation and a numbered list of
//! choices. Generic: it knows nothing about what is being confirmed (`mcp_flow` uses it for
//! `/reload-mcp`).
//!
//! Pure state plus rendering: `handle_key` says what the user chose and the owner acts on it.
//! Keys: ↑/↓ (or k/j, Ctrl+P/N) move, Home/End jump, a digit picks that choice at once, Enter
//! picks the selected one, `y` picks the first, Esc, `n`, `q` and Ctrl+C cancel.
//!
//! Invariants: `selected < choices.len()` whenever there are choices; when rows run short the
//! body is cut before the choices, so every choice stays visible as long as the modal fits.

use crossterm::event::KeyCode;
use crossterm::event::KeyEvent;
use crossterm::event::KeyModifiers;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::text::Span;
use ratatui::widgets::Clear;
use ratatui::widgets::Padding;
use ratatui::widgets::Widget;

use crate::theme::Role;
use crate::theme::Theme;
use crate::tui::markdown::wrap;

/// The dialog's widest; narrow enough to sit over the side panes like the skin picker.
const MAX_WIDTH: u16 = 58;
/// Columns taken by the border and the one-column padding on each side.
const FRAME_COLUMNS: u16 = 4;

/// What a key asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConfirmAction {
    None,
    /// The user picked choice `index` (0-based).
    Choose(usize),
    /// Closed without choosing.
    Cancel,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfirmDialog {
    title: String,
    body: String,
    choices: Vec<String>,
    selected: usize,
}

impl ConfirmDialog {
    /// A dialog with the first choice selected.
    pub fn new(title: &str, body: &str, choices: &[&str]) -> Self {
        Self {
            title: title.to_string(),
            body: body.to_string(),
            choices: choices.iter().map(|c| (*c).to_string()).collect(),
            selected: 0,
        }
    }

    pub fn selected(&self) -> usize {
        self.selected
    }

    pub fn choices(&self) -> &[String] {
        &self.choices
    }

    pub fn handle_key(&mut self, key: KeyEvent) -> ConfirmAction {
        if key.modifiers.contains(KeyModifiers::CONTROL) {
            return match key.code {
                KeyCode::Char('c') => ConfirmAction::Cancel,
                KeyCode::Char('p') => self.move_to(self.selected.checked_sub(1)),
                KeyCode::Char('n') => self.move_to(Some(self.selected + 1)),
                _ => ConfirmAction::None,
            };
        }
        match key.code {
            KeyCode::Esc | KeyCode::Char('n' | 'N' | 'q') => ConfirmAction::Cancel,
            KeyCode::Up | KeyCode::Char('k') => self.move_to(self.selected.checked_sub(1)),
            KeyCode::Down | KeyCode::Char('j') => self.move_to(Some(self.selected + 1)),
            KeyCode::Home => self.move_to(Some(0)),
            KeyCode::End => self.move_to(self.choices.len().checked_sub(1)),
            KeyCode::Enter | KeyCode::Char('y' | 'Y') if self.choices.is_empty() => {
                ConfirmAction::Cancel
            }
            KeyCode::Enter => ConfirmAction::Choose(self.selected),
            KeyCode::Char('y' | 'Y') => ConfirmAction::Choose(0),
            KeyCode::Char(c) => {
                let index = c
                    .to_digit(10)
                    .and_then(|d| usize::try_from(d).ok())
                    .and_then(|d| d.checked_sub(1));
                match index {
                    Some(index) if index < self.choices.len() => {
                        self.selected = index;
                        ConfirmAction::Choose(index)
                    }
                    _ => ConfirmAction::None,
                }
            }
            _ => ConfirmAction::None,
        }
    }

    fn move_to(&mut self, index: Option<usize>) -> ConfirmAction {
        if let Some(i) = index.filter(|i| *i < self.choices.len()) {
            self.selected = i;
        }
        ConfirmAction::None
    }

    /// The key legend under the choices.
    fn legend(&self) -> String {
        match self.choices.len() {
            0 => "Esc close".to_string(),
            1 => "Enter choose · Esc cancel".to_string(),
            n => format!("↑↓ or 1–{n} choose · Enter confirm · Esc cancel"),
        }
    }

    /// Drawn at the right edge, over the side panes, so the conversation stays in view.
    pub fn render(&self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        let width = super::centered_modal(area, MAX_WIDTH, 0).width;
        let text_width = usize::from(width.saturating_sub(FRAME_COLUMNS)).max(1);
        let body = self.body_lines(text_width, theme);
        // Border (2), a blank row after the body, the choices, a blank row, the legend.
        let fixed = 2 + 1 + self.choices.len() + 1 + 1;
        let body_rows = body
            .len()
            .min(usize::from(area.height).saturating_sub(fixed));
        let rows = u16::try_from(fixed + body_rows).unwrap_or(u16::MAX);
        let centred = super::centered_modal(area, MAX_WIDTH, rows);
        let modal = Rect {
            x: area.right().saturating_sub(centred.width + 1).max(area.x),
            ..centred
        };
        Clear.render(modal, buf);
        let block =
            super::modal_block(&format!(" {} ", self.title), theme).padding(Padding::horizontal(1));
        let inner = block.inner(modal);
        block.render(modal, buf);
        if inner.height == 0 || inner.width == 0 {
            return;
        }
        #[allow(clippy::needless_collect)] // false positive: the choices are pushed before the loop
        let mut lines: Vec<Line<'static>> = body.into_iter().take(body_rows).collect();
        lines.push(Line::default());
        for (index, choice) in self.choices.iter().enumerate() {
            lines.push(self.choice_line(index, choice, text_width, theme));
        }
        lines.push(Line::default());
        lines.push(Line::from(Span::styled(
            wrap::truncate(&self.legend(), text_width),
            theme.style(Role::Dim),
        )));
        for (row, line) in lines
            .into_iter()
            .enumerate()
            .take(usize::from(inner.height))
        {
            let y = inner.y + u16::try_from(row).unwrap_or(0);
            line.render(Rect::new(inner.x, y, inner.width, 1), buf);
        }
    }

    fn body_lines(&self, width: usize, theme: &Theme) -> Vec<Line<'static>> {
        let style = theme.style(Role::Text);
        self.body
            .lines()
            .flat_map(|paragraph| {
                let text = wrap::sanitize(paragraph).into_owned();
                wrap::wrap_spans(&[Span::styled(text, style)], width)
            })
            .map(Line::from)
            .collect()
    }

    fn choice_line(
        &self,
        index: usize,
        choice: &str,
        width: usize,
        theme: &Theme,
    ) -> Line<'static> {
        let current = index == self.selected;
        let marker = if current { "▸" } else { " " };
        let text = wrap::truncate(&format!("{marker} {}. {choice}", index + 1), width);
        if current {
            let style = theme.style(Role::MenuCurrent);
            let pad = width.saturating_sub(wrap::display_width(&text));
            Line::from(Span::styled(format!("{text}{}", " ".repeat(pad)), style))
        } else {
            Line::from(Span::styled(text, theme.style(Role::Text)))
        }
    }
}

#[cfg(test)]
#[path = "confirm_tests.rs"]
mod tests;
