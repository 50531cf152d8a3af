//! `/sessions` (and `/resume` without a name): find a stored session by typing part of its
//! title, id or first message, then resume it. Each keystroke asks the engine for matches
//! (`Op::ListSessions`); results arrive as `Event::SessionList` and replace the list only if
//! they answer the current query, so a slow answer never overwrites a newer one.

use crossterm::event::KeyCode;
use crossterm::event::KeyEvent;
use crossterm::event::KeyModifiers;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::text::Span;
use ratatui::widgets::Clear;
use ratatui::widgets::Paragraph;
use ratatui::widgets::Widget;

use super::stack::Overlay;
use super::stack::OverlayAction;
use crate::protocol::Op;
use crate::protocol::SessionListItem;
use crate::theme::Role;
use crate::theme::Theme;

const TITLE: &str = " Sessions ";

/// Rows of results shown at most.
pub const MAX_ROWS: usize = 12;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SessionsPicker {
    query: String,
    items: Vec<SessionListItem>,
    selected: usize,
    loaded: Loaded,
    /// Enter chose a session (`Op::ResumeSession` sent).
    resumed: bool,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
enum Loaded {
    #[default]
    Waiting,
    Done,
}

impl SessionsPicker {
    pub fn new(query: &str) -> Self {
        Self {
            query: query.to_string(),
            ..Self::default()
        }
    }

    pub fn query(&self) -> &str {
        &self.query
    }

    /// Results for `query`; ignored when the user has typed on since.
    pub fn set_results(&mut self, query: &str, items: Vec<SessionListItem>) {
        if query != self.query {
            return;
        }
        self.items = items;
        self.selected = self.selected.min(self.items.len().saturating_sub(1));
        self.loaded = Loaded::Done;
    }

    /// The query changed: ask the engine for matches.
    fn searching(&mut self) -> OverlayAction {
        self.selected = 0;
        self.loaded = Loaded::Waiting;
        OverlayAction::Send(Op::ListSessions {
            query: self.query.clone(),
            limit: 50,
        })
    }
}

impl Overlay for SessionsPicker {
    fn title(&self) -> &str {
        TITLE
    }

    fn handle_key(&mut self, key: KeyEvent) -> OverlayAction {
        match key.code {
            KeyCode::Esc => OverlayAction::Close,
            KeyCode::Up => {
                self.selected = self.selected.saturating_sub(1);
                OverlayAction::None
            }
            KeyCode::Down => {
                if self.selected + 1 < self.items.len() {
                    self.selected += 1;
                }
                OverlayAction::None
            }
            KeyCode::Enter => match self.items.get(self.selected) {
                Some(item) => {
                    self.resumed = true;
                    OverlayAction::Send(Op::ResumeSession {
                        target: item.id.clone(),
                    })
                }
                None => OverlayAction::None,
            },
            KeyCode::Backspace => {
                self.query.pop();
                self.searching()
            }
            KeyCode::Char(c) if !key.modifiers.contains(KeyModifiers::CONTROL) => {
                self.query.push(c);
                self.searching()
            }
            _ => OverlayAction::None,
        }
    }

    fn is_complete(&self) -> bool {
        self.resumed
    }

    fn render(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        let rows = u16::try_from(self.items.len().clamp(1, MAX_ROWS)).unwrap_or(1);
        let modal = super::centered_modal(area, 100, rows + 5);
        Clear.render(modal, buf);
        let block = super::modal_block(TITLE, theme);
        let mut lines = vec![Line::from(vec![
            Span::styled("search: ", theme.style(Role::Label)),
            Span::styled(format!("{}▏", self.query), theme.style(Role::Text)),
        ])];
        if self.items.is_empty() {
            let text = match self.loaded {
                Loaded::Waiting => "searching…",
                Loaded::Done => "no sessions match",
            };
            lines.push(Line::from(Span::styled(text, theme.style(Role::Dim))));
        }
        let start = self.selected.saturating_sub(MAX_ROWS - 1);
        for (i, item) in self.items.iter().enumerate().skip(start).take(MAX_ROWS) {
            let label = item
                .title
                .clone()
                .or_else(|| item.first_message.clone())
                .unwrap_or_else(|| "(no messages)".to_string());
            let style = if i == self.selected {
                theme.style(Role::MenuCurrent)
            } else {
                theme.style(Role::Text)
            };
            lines.push(Line::from(vec![
                Span::styled(format!("{}  ", item.started), theme.style(Role::Dim)),
                Span::styled(
                    format!("{:>4} msgs  ", item.message_count),
                    theme.style(Role::Dim),
                ),
                Span::styled(label, style),
            ]));
        }
        lines.push(Line::from(Span::styled(
            "type to search · ↑↓ choose · Enter resume · Esc close",
            theme.style(Role::Dim),
        )));
        Paragraph::new(lines).block(block).render(modal, buf);
    }
}

#[cfg(test)]
#[path = "sessions_picker_tests.rs"]
mod tests;
