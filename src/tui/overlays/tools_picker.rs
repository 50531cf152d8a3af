//! `/tools`: the toolsets with a toggle each — name, label, how many tools, and whether the
//! running session has them — and when a change applies.
//!
//! Stages: *loading* (waiting for `Event::Toolsets`; Esc closes) → *list* (↑/↓ or `k`/`j`
//! move, Space/Enter switch the selected toolset, Esc/`q` close). A switch sends
//! `Op::Toolsets(Set)` and marks the row as saving until the next list arrives, which
//! replaces the rows (the engine wrote config.yaml and read it back).
//!
//! A widget and a small state machine only: keys return [`OverlayAction`]s; `tools_flow`
//! opens it and feeds it lists. Invariant: `selected < toolsets.len()` whenever the list
//! is not empty.

use crossterm::event::KeyCode;
use crossterm::event::KeyEvent;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use super::stack::Overlay;
use super::stack::OverlayAction;
use crate::protocol::Op;
use crate::protocol::ToolsetEntry;
use crate::protocol::ToolsetList;
use crate::protocol::ToolsetsOp;
use crate::theme::Role;
use crate::theme::Theme;
use crate::tui::markdown::wrap::display_width;
use crate::tui::markdown::wrap::truncate;
use crate::tui::popup::MAX_ROWS;
use crate::tui::popup::draw_menu_rows;

const TITLE: &str = " Toolsets ";
/// When a switch takes effect (the engine's `toolsets_view::APPLIES`, shortened).
pub const APPLIES: &str = "Saved to config.yaml; applies from /new (this session keeps its tools).";
const LEGEND: &str = "↑↓ choose · Space/Enter switch · Esc close";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    Loading,
    List,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolsPicker {
    toolsets: Vec<ToolsetEntry>,
    selected: usize,
    stage: Stage,
    /// The toolset whose switch was sent, until the next list.
    saving: Option<String>,
    /// What the last switch did (`memory disabled`).
    status: String,
}

impl Default for ToolsPicker {
    fn default() -> Self {
        Self::new()
    }
}

impl ToolsPicker {
    /// Waiting for `Event::Toolsets`.
    pub fn new() -> Self {
        Self {
            toolsets: Vec::new(),
            selected: 0,
            stage: Stage::Loading,
            saving: None,
            status: String::new(),
        }
    }

    /// `Event::Toolsets` arrived: the rows as config.yaml now says (selection kept).
    pub fn set_list(&mut self, list: &ToolsetList) {
        self.toolsets.clone_from(&list.toolsets);
        self.selected = self.selected.min(self.toolsets.len().saturating_sub(1));
        self.stage = Stage::List;
        self.saving = None;
        if !list.changed.is_empty() {
            self.status.clone_from(&list.changed);
        }
    }

    /// A switch was refused (the engine said why in a notice): the row is not saving.
    pub fn clear_saving(&mut self) {
        self.saving = None;
    }

    fn toggle(&mut self) -> OverlayAction {
        if self.saving.is_some() {
            return OverlayAction::None;
        }
        let Some(entry) = self.toolsets.get(self.selected) else {
            return OverlayAction::None;
        };
        self.saving = Some(entry.name.clone());
        OverlayAction::Send(Op::Toolsets(ToolsetsOp::Set {
            name: entry.name.clone(),
            enabled: !entry.enabled,
        }))
    }

    fn row_meta(&self, entry: &ToolsetEntry) -> String {
        let count = entry.tools.len();
        let unavailable = entry
            .tools
            .iter()
            .filter(|t| t.unavailable.is_some())
            .count();
        let mut meta = match count {
            0 => String::new(),
            1 => "1 tool".to_string(),
            n => format!("{n} tools"),
        };
        if unavailable > 0 {
            meta.push_str(&format!(" · {unavailable} unavailable"));
        }
        if self.saving.as_deref() == Some(entry.name.as_str()) {
            meta.push_str(" · saving…");
        } else if entry.enabled != entry.in_session {
            let now = if entry.in_session { "on" } else { "off" };
            meta.push_str(&format!(" · {now} in this session"));
        }
        meta
    }

    fn render_list(&self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        let rows = self.toolsets.len().clamp(1, MAX_ROWS);
        // Borders, the heading, the list, the status, the note, the legend.
        let height = u16::try_from(rows + 6).unwrap_or(u16::MAX);
        let inner = frame(area, height, buf, theme);
        if inner.height == 0 {
            return;
        }
        let width = usize::from(inner.width);
        let list = crate::tui::overlays::heading_and_list(
            inner,
            "the toolsets the model is offered (platform_toolsets.cli)",
            rows,
            3,
            buf,
            theme,
        );
        let name_width = self
            .toolsets
            .iter()
            .map(|t| display_width(&t.name))
            .max()
            .unwrap_or(0);
        draw_menu_rows(
            &self.toolsets,
            self.selected,
            list,
            buf,
            theme,
            |entry, y, buf, (main, meta)| {
                let mark = if entry.enabled { "[x]" } else { "[ ]" };
                let pad = " ".repeat(name_width.saturating_sub(display_width(&entry.name)));
                let head = format!(" {mark} {}{pad}  {}", entry.name, plain_label(&entry.label));
                let (x, _) = buf.set_stringn(inner.x, y, truncate(&head, width), width, main);
                let room = width.saturating_sub(display_width(&head));
                let tail = format!("  {}", self.row_meta(entry));
                buf.set_stringn(x, y, truncate(&tail, room), room, meta);
            },
        );
        let bottom = inner.y + inner.height;
        let lines = [
            (bottom.saturating_sub(3), self.status.as_str(), Role::Accent),
            (bottom.saturating_sub(2), APPLIES, Role::Dim),
            (bottom.saturating_sub(1), LEGEND, Role::Dim),
        ];
        for (y, text, role) in lines {
            buf.set_stringn(inner.x, y, truncate(text, width), width, theme.style(role));
        }
    }
}

/// Hermes's label without its leading emoji (`💾 Memory` → `Memory`), as Hermes's GUI
/// shows them: emoji widths differ between terminals.
fn plain_label(label: &str) -> &str {
    match label.split_once(' ') {
        Some((first, rest)) if !first.chars().any(|c| c.is_ascii_alphanumeric()) => {
            rest.trim_start()
        }
        _ => label,
    }
}

impl Overlay for ToolsPicker {
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
                if self.selected + 1 < self.toolsets.len() {
                    self.selected += 1;
                }
                OverlayAction::None
            }
            (Stage::List, KeyCode::Enter | KeyCode::Char(' ')) => self.toggle(),
            (Stage::List, _) => OverlayAction::None,
        }
    }

    fn render(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        match self.stage {
            Stage::Loading => {
                crate::tui::overlays::loading_modal(area, 100, TITLE, "toolsets", buf, theme);
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
#[path = "tools_picker_tests.rs"]
pub(crate) mod tests;
