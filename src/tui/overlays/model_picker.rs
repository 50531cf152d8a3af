//! `/model` with no argument: a picker over the configured providers — the current model,
//! each hosted provider whose API key is set (with its default model), and each model of the
//! local servers found on 127.0.0.1. Choosing sends `Op::SwitchModel`; any other model id is
//! one `/model <name>` or `/model <provider>:<name>` away, as the footer says.
//!
//! Pure state plus rendering; gathering the entries (reading `.env`, probing) is the caller's.

use crossterm::event::KeyCode;
use crossterm::event::KeyEvent;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::text::Span;
use ratatui::widgets::Clear;
use ratatui::widgets::Paragraph;
use ratatui::widgets::Widget;

use super::onboarding::HOSTED;
use super::stack::Overlay;
use super::stack::OverlayAction;
use crate::protocol::ModelSelection;
use crate::protocol::Op;
use crate::protocol::SessionInfo;
use crate::theme::Role;
use crate::theme::Theme;
use crate::tui::probe::LocalServer;

const TITLE: &str = " Switch model ";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PickerEntry {
    pub label: String,
    pub selection: ModelSelection,
    pub current: Current,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Current {
    Yes,
    No,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelPicker {
    entries: Vec<PickerEntry>,
    selected: usize,
    searching: Searching,
    /// A model was chosen (`Op::SwitchModel` sent).
    chosen: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Searching {
    Yes,
    Done,
}

impl ModelPicker {
    /// Entries for the current session and the providers whose key `env` can see.
    pub fn new(current: Option<&SessionInfo>, env: &dyn Fn(&str) -> Option<String>) -> Self {
        let mut entries = Vec::new();
        if let Some(info) = current {
            entries.push(PickerEntry {
                label: format!("{} ({})", info.model, info.provider),
                selection: ModelSelection {
                    model: info.model.clone(),
                    provider: Some(info.provider.clone()),
                    base_url: Some(info.base_url.clone()),
                },
                current: Current::Yes,
            });
        }
        for hosted in HOSTED {
            let has_key = env(hosted.key_env).is_some_and(|k| !k.trim().is_empty());
            let is_current = current.is_some_and(|info| {
                info.provider == hosted.id && info.model == hosted.default_model
            });
            if has_key && !is_current {
                entries.push(PickerEntry {
                    label: format!("{} ({})", hosted.default_model, hosted.label),
                    selection: ModelSelection {
                        model: hosted.default_model.to_string(),
                        provider: Some(hosted.id.to_string()),
                        base_url: None,
                    },
                    current: Current::No,
                });
            }
        }
        Self {
            entries,
            selected: 0,
            searching: Searching::Yes,
            chosen: false,
        }
    }

    /// Add every model of the local servers found (once the probe returns).
    pub fn add_local_servers(&mut self, servers: &[LocalServer]) {
        for server in servers {
            for model in &server.models {
                let duplicate = self.entries.iter().any(|e| {
                    e.selection.model == *model
                        && e.selection.base_url.as_deref() == Some(server.base_url.as_str())
                });
                if !duplicate {
                    self.entries.push(PickerEntry {
                        label: format!("{model} ({} at {})", server.name, server.base_url),
                        selection: ModelSelection {
                            model: model.clone(),
                            provider: Some("custom".to_string()),
                            base_url: Some(server.base_url.clone()),
                        },
                        current: Current::No,
                    });
                }
            }
        }
        self.searching = Searching::Done;
    }

    pub fn entries(&self) -> &[PickerEntry] {
        &self.entries
    }
}

impl Overlay for ModelPicker {
    fn title(&self) -> &str {
        TITLE
    }

    fn handle_key(&mut self, key: KeyEvent) -> OverlayAction {
        match key.code {
            KeyCode::Esc | KeyCode::Char('q') => OverlayAction::Close,
            KeyCode::Up | KeyCode::Char('k') => {
                self.selected = self.selected.saturating_sub(1);
                OverlayAction::None
            }
            KeyCode::Down | KeyCode::Char('j') => {
                if self.selected + 1 < self.entries.len() {
                    self.selected += 1;
                }
                OverlayAction::None
            }
            KeyCode::Enter => match self.entries.get(self.selected) {
                Some(entry) if entry.current == Current::Yes => OverlayAction::Close,
                Some(entry) => {
                    self.chosen = true;
                    OverlayAction::Send(Op::SwitchModel(entry.selection.clone()))
                }
                None => OverlayAction::Close,
            },
            _ => OverlayAction::None,
        }
    }

    fn is_complete(&self) -> bool {
        self.chosen
    }

    fn render(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        let rows = u16::try_from(self.entries.len()).unwrap_or(u16::MAX);
        let modal = super::centered_modal(area, 80, rows + 6);
        Clear.render(modal, buf);
        let block = super::modal_block(TITLE, theme);
        let mut lines = Vec::new();
        if self.entries.is_empty() {
            lines.push(Line::from(Span::styled(
                "No other provider has a key configured.",
                theme.style(Role::Dim),
            )));
        }
        for (i, entry) in self.entries.iter().enumerate() {
            let marker = match entry.current {
                Current::Yes => "● ",
                Current::No => "  ",
            };
            let style = if i == self.selected {
                theme.style(Role::MenuCurrent)
            } else {
                theme.style(Role::Text)
            };
            lines.push(Line::from(Span::styled(
                format!("{marker}{}", entry.label),
                style,
            )));
        }
        if self.searching == Searching::Yes {
            lines.push(Line::from(Span::styled(
                "  searching for local servers…",
                theme.style(Role::Dim),
            )));
        }
        lines.push(Line::default());
        lines.push(Line::from(Span::styled(
            "↑↓ choose · Enter switch · Esc close · any model: /model <provider>:<name>",
            theme.style(Role::Dim),
        )));
        Paragraph::new(lines).block(block).render(modal, buf);
    }
}

#[cfg(test)]
#[path = "model_picker_tests.rs"]
mod tests;
