//! The slash-command completion popup: the matches for the `/partial` being typed, with one
//! highlighted, drawn above the composer (name and args hint, then the description; skills
//! also carry a `skill` tag at the right edge).
//!
//! The composer owns a `SlashPopup` and decides when it is open (see `composer`), passing the
//! skills the engine announced; the app only asks for it and calls `render_popup` with an area
//! above the composer sized by `desired_height`. Matching and ranking live in
//! `slash::complete_with`.
//!
//! Invariants: a popup always has at least one match and `selected < matches.len()`; at most
//! `MAX_ROWS` rows are drawn and the selected row is always one of them.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use unicode_width::UnicodeWidthStr;

use crate::theme::Role;
use crate::theme::Theme;
use crate::tui::queue::fit;
use crate::tui::slash;
use crate::tui::slash::Match;
use crate::tui::slash::MatchKind;
use crate::tui::slash::SkillCommand;

/// The most rows the popup shows; it scrolls to keep the selection visible.
pub const MAX_ROWS: usize = 8;
/// The tag drawn at the right edge of a skill's row.
pub const SKILL_TAG: &str = "skill";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SlashPopup {
    query: String,
    matches: Vec<Match>,
    selected: usize,
}

impl SlashPopup {
    /// A popup for `query` (the text after `/`) over the built-ins and `skills`, or `None`
    /// when nothing matches.
    pub fn new(query: &str, skills: &[SkillCommand]) -> Option<Self> {
        let matches = slash::complete_with(query, skills);
        if matches.is_empty() {
            return None;
        }
        Some(Self {
            query: query.to_owned(),
            matches,
            selected: 0,
        })
    }

    /// Re-matches for a new query, keeping the highlighted command when it still matches.
    /// Returns `false` (and leaves the popup unchanged) when nothing matches any more.
    pub fn update(&mut self, query: &str, skills: &[SkillCommand]) -> bool {
        if query == self.query {
            return true;
        }
        let matches = slash::complete_with(query, skills);
        if matches.is_empty() {
            return false;
        }
        let current = self.selected().map(|m| m.command.name());
        self.selected = current
            .and_then(|name| matches.iter().position(|m| m.command.name() == name))
            .unwrap_or(0);
        self.matches = matches;
        self.query = query.to_owned();
        true
    }

    pub fn query(&self) -> &str {
        &self.query
    }

    pub fn matches(&self) -> &[Match] {
        &self.matches
    }

    pub fn selected_index(&self) -> usize {
        self.selected
    }

    pub fn selected(&self) -> Option<&Match> {
        self.matches.get(self.selected)
    }

    /// Whether the query already is a command's name or alias (built-in or skill), so Enter
    /// should send what was typed rather than complete.
    pub fn names_a_command(&self) -> bool {
        self.matches.iter().any(|m| m.kind == MatchKind::Exact)
    }

    /// Moves the highlight down, wrapping to the top.
    pub fn select_next(&mut self) {
        self.selected = (self.selected + 1) % self.matches.len().max(1);
    }

    /// Moves the highlight up, wrapping to the bottom.
    pub fn select_prev(&mut self) {
        let len = self.matches.len().max(1);
        self.selected = (self.selected + len - 1) % len;
    }

    /// Rows wanted: one per match, at most `MAX_ROWS`.
    pub fn desired_height(&self) -> u16 {
        u16::try_from(self.matches.len().min(MAX_ROWS)).unwrap_or(0)
    }
}

/// Draws the popup into `area` (normally `desired_height` rows directly above the composer).
pub fn render_popup(popup: &SlashPopup, area: Rect, buf: &mut Buffer, theme: &Theme) {
    let rows = usize::from(area.height).min(MAX_ROWS);
    if rows == 0 || area.width == 0 {
        return;
    }
    let width = usize::from(area.width);
    // Column from all matches, not just the visible ones, so it does not jump while scrolling.
    let name_col = popup
        .matches
        .iter()
        .map(|m| m.command.usage().width())
        .max()
        .unwrap_or(0)
        .min(width / 2);
    draw_menu_rows(
        &popup.matches,
        popup.selected,
        area,
        buf,
        theme,
        |m, y, buf, (name_style, desc_style)| {
            let name = fit(&m.command.usage(), name_col);
            let name = format!(" {name:<name_col$}  ");
            let (x, _) = buf.set_stringn(area.x, y, &name, width, name_style);
            let used = usize::from(x - area.x);
            let tag_width = if m.command.is_skill() {
                draw_skill_tag(area, y, used, buf, desc_style)
            } else {
                0
            };
            let room = width.saturating_sub(used + tag_width);
            if room > 0 {
                let desc = fit(m.command.description(), room);
                buf.set_stringn(x, y, &desc, room, desc_style);
            }
        },
    );
}

/// The one loop behind the completion popups: the rows that fit in `area` (at most
/// `MAX_ROWS`), scrolled so `selected` is visible, each row filled with the menu style and
/// handed to `draw` with its `(name, detail)` styles (both `MenuCurrent` on the selected row).
pub fn draw_menu_rows<T>(
    items: &[T],
    selected: usize,
    area: Rect,
    buf: &mut Buffer,
    theme: &Theme,
    mut draw: impl FnMut(&T, u16, &mut Buffer, (Style, Style)),
) {
    let rows = usize::from(area.height).min(MAX_ROWS);
    if rows == 0 || area.width == 0 {
        return;
    }
    let current = theme.style(Role::MenuCurrent);
    let first = selected.saturating_sub(rows - 1);
    for (row, (index, item)) in items.iter().enumerate().skip(first).take(rows).enumerate() {
        let y = area.y + u16::try_from(row).unwrap_or(0);
        let styles = if index == selected {
            (current, current)
        } else {
            (theme.style(Role::Menu), theme.style(Role::MenuMeta))
        };
        buf.set_style(Rect::new(area.x, y, area.width, 1), styles.0);
        draw(item, y, buf, styles);
    }
}

/// Draws `SKILL_TAG` right-aligned on row `y` when it fits after `used` columns; returns the
/// columns it took (0 when it did not fit).
fn draw_skill_tag(area: Rect, y: u16, used: usize, buf: &mut Buffer, style: Style) -> usize {
    let tag = format!("  {SKILL_TAG} ");
    let tag_width = tag.width();
    let width = usize::from(area.width);
    if used + tag_width > width {
        return 0;
    }
    let x = area.x + u16::try_from(width - tag_width).unwrap_or(0);
    buf.set_stringn(x, y, &tag, tag_width, style);
    tag_width
}

#[cfg(test)]
#[path = "popup_tests.rs"]
mod tests;
