//! The chat pane: a bordered, virtualised, scrollable view of the transcript.
//!
//! It owns view state only: scroll position, the selected cell, which cells are expanded, and
//! a cache of wrapped lines per cell. Content comes from `Transcript` on every render.
//!
//! Scrolling: the view either *follows* the bottom, or is *anchored* at a cell id and a line
//! within it. Anchors survive new output, resizes (lazy re-wrap) and `/clear`, and make every
//! scroll step cost only the lines it moves over, so no per-width height index of the whole
//! transcript is needed: only visible (or scrolled-over) cells are ever laid out. Scroll and
//! selection requests queue up and are resolved at the next render, which has the width.
//! While anchored, new output does not move the view and a `↓ N new` marker (N = cells added
//! or grown since the user scrolled up) shows on the bottom edge until they return.
//!
//! Keys (when focused): ↑/↓ select cells, Enter expands or collapses the selected tool or
//! reasoning cell, PgUp/PgDn/Home/End scroll, Esc clears the selection. Mouse: wheel scrolls,
//! a click selects a cell and toggles it when it is expandable.

mod cache;
mod cells;
mod layout;
mod script_rows;
mod scroll;

use std::collections::HashSet;

use crossterm::event::KeyCode;
use crossterm::event::KeyEvent;
use crossterm::event::KeyEventKind;
use crossterm::event::MouseButton;
use crossterm::event::MouseEvent;
use crossterm::event::MouseEventKind;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::text::Span;
use ratatui::widgets::Block;
use ratatui::widgets::BorderType;
use ratatui::widgets::Padding;
use ratatui::widgets::Widget;

pub use cells::Expansion;
pub use cells::TOOL_PREVIEW_LINES;
pub use cells::format_duration;

use crate::theme::Role;
use crate::theme::Theme;
use crate::tui::focus::Focus;
use crate::tui::transcript::CellId;
use crate::tui::transcript::Transcript;
use cache::LineCache;
use cells::is_expandable;
use layout::Layout;
use layout::Pos;
use scroll::Request;
use scroll::Scroll;
use scroll::ScrollState;
use scroll::ViewState;

/// Lines moved per mouse-wheel step.
const WHEEL_LINES: usize = 3;
/// Shown under the agent's name when the skin has no welcome text.
const WELCOME_HINT: &str = "type a message, /help for commands";

/// How much of tool output and reasoning cells shows by default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ToolDetail {
    /// A short preview; Enter or a click expands one cell.
    #[default]
    Collapsed,
    /// Everything; Enter or a click collapses one cell.
    Expanded,
}

impl std::fmt::Display for ToolDetail {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Collapsed => "collapsed previews",
            Self::Expanded => "everything expanded",
        })
    }
}

/// Whether the chat pane has the keyboard (its border is highlighted when it does).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChatFocus {
    Focused,
    Unfocused,
}

impl From<Focus> for ChatFocus {
    fn from(focus: Focus) -> Self {
        if focus == Focus::Chat {
            ChatFocus::Focused
        } else {
            ChatFocus::Unfocused
        }
    }
}

/// Where a cell's lines landed on screen in the last frame (for clicks and selection).
#[derive(Debug, Clone, Copy)]
struct Hit {
    top: u16,
    bottom: u16,
    id: CellId,
    expandable: bool,
}

#[derive(Default)]
pub struct ChatView {
    scroll: ScrollState,
    requests: Vec<Request>,
    selected: Option<CellId>,
    expanded: HashSet<CellId>,
    detail: ToolDetail,
    cache: LineCache,
    hits: Vec<Hit>,
    area: Rect,
    inner: Rect,
    new_below: usize,
    /// The border title; `None` is " Chat ".
    title: Option<String>,
}

impl ChatView {
    pub fn new() -> Self {
        Self::default()
    }

    /// Titles the border `title` instead of "Chat" (a subagent's log reuses the chat view).
    pub fn set_title(&mut self, title: &str) {
        self.title = Some(format!(" {title} "));
    }

    pub fn scroll_up(&mut self, n: usize) {
        self.requests.push(Request::Up(n));
    }

    pub fn scroll_down(&mut self, n: usize) {
        self.requests.push(Request::Down(n));
    }

    pub fn page_up(&mut self) {
        self.requests.push(Request::Up(self.page()));
    }

    pub fn page_down(&mut self) {
        self.requests.push(Request::Down(self.page()));
    }

    pub fn scroll_to_top(&mut self) {
        self.requests.push(Request::Top);
    }

    pub fn scroll_to_bottom(&mut self) {
        self.requests.push(Request::Bottom);
    }

    /// True while the view follows new output (as of the last render).
    pub fn is_following(&self) -> bool {
        self.scroll.scroll == Scroll::Follow
    }

    /// The `N` of the "↓ N new" marker in the last frame (0 when not shown).
    pub fn new_below(&self) -> usize {
        self.new_below
    }

    pub fn selected(&self) -> Option<CellId> {
        self.selected
    }

    pub fn clear_selection(&mut self) {
        self.selected = None;
    }

    pub fn is_expanded(&self, id: CellId) -> bool {
        let toggled = self.expanded.contains(&id);
        match self.detail {
            ToolDetail::Collapsed => toggled,
            ToolDetail::Expanded => !toggled,
        }
    }

    /// `/verbose`: switch between collapsed previews and fully expanded tool output and
    /// reasoning for every cell; per-cell toggles start over.
    pub fn cycle_detail(&mut self) -> ToolDetail {
        self.detail = match self.detail {
            ToolDetail::Collapsed => ToolDetail::Expanded,
            ToolDetail::Expanded => ToolDetail::Collapsed,
        };
        self.expanded.clear();
        self.detail
    }

    /// Expands a collapsed (or collapses an expanded) tool or reasoning cell.
    pub fn toggle(&mut self, id: CellId) {
        if !self.expanded.remove(&id) {
            self.expanded.insert(id);
        }
    }

    /// Cells laid out (cache misses) so far: a measure of the virtualisation.
    pub fn cells_rendered(&self) -> u64 {
        self.cache.renders()
    }

    fn page(&self) -> usize {
        usize::from(self.inner.height.saturating_sub(1)).max(1)
    }

    /// Handles a key while the chat is focused; returns whether it was used.
    pub fn handle_key(&mut self, key: KeyEvent) -> bool {
        if key.kind == KeyEventKind::Release {
            return false;
        }
        match key.code {
            KeyCode::Up => self.requests.push(Request::SelectPrev),
            KeyCode::Down => self.requests.push(Request::SelectNext),
            KeyCode::Enter => {
                // A selection move may still be queued, so the toggle queues behind it.
                let selecting = self
                    .requests
                    .iter()
                    .any(|r| matches!(r, Request::SelectPrev | Request::SelectNext));
                if self.selected.is_none() && !selecting {
                    return false;
                }
                self.requests.push(Request::ToggleSelected);
            }
            KeyCode::PageUp => self.page_up(),
            KeyCode::PageDown => self.page_down(),
            KeyCode::Home => self.scroll_to_top(),
            KeyCode::End => self.scroll_to_bottom(),
            KeyCode::Esc if self.selected.is_some() => self.selected = None,
            _ => return false,
        }
        true
    }

    /// Wheel scrolling and clicks inside the pane; returns whether the event was used.
    pub fn handle_mouse(&mut self, event: MouseEvent) -> bool {
        let inside = self.area.contains(ratatui::layout::Position {
            x: event.column,
            y: event.row,
        });
        if !inside {
            return false;
        }
        match event.kind {
            MouseEventKind::ScrollUp => self.scroll_up(WHEEL_LINES),
            MouseEventKind::ScrollDown => self.scroll_down(WHEEL_LINES),
            MouseEventKind::Down(MouseButton::Left) => {
                let hit = self
                    .hits
                    .iter()
                    .find(|h| h.top <= event.row && event.row < h.bottom)
                    .copied();
                let Some(hit) = hit else {
                    return false;
                };
                self.selected = Some(hit.id);
                if hit.expandable {
                    self.requests.push(Request::ToggleSelected);
                }
            }
            _ => return false,
        }
        true
    }

    pub fn render(
        &mut self,
        transcript: &Transcript,
        area: Rect,
        buf: &mut Buffer,
        theme: &Theme,
        focus: ChatFocus,
    ) {
        let border = match focus {
            ChatFocus::Focused => Role::BorderFocused,
            ChatFocus::Unfocused => Role::Border,
        };
        // Same frame as the side panes: rounded border, one column of padding.
        let block = Block::bordered()
            .border_type(BorderType::Rounded)
            .border_style(theme.style(border))
            .padding(Padding::horizontal(1))
            .title(Span::styled(
                self.title.clone().unwrap_or_else(|| " Chat ".to_string()),
                theme.style(Role::Title),
            ));
        let inner = block.inner(area);
        block.render(area, buf);
        let last_visible = self.hits.last().map(|h| h.id);
        self.area = area;
        self.inner = inner;
        self.hits.clear();
        self.new_below = 0;
        self.cache.begin_frame(theme);
        if transcript.is_empty() {
            self.requests.clear();
            self.scroll = ScrollState::default();
            render_welcome(inner, buf, theme);
            return;
        }
        if inner.width == 0 || inner.height == 0 {
            return;
        }
        let height = usize::from(inner.height);
        let requests = std::mem::take(&mut self.requests);
        let mut state = ViewState {
            scroll: self.scroll,
            selected: self.selected,
            last_visible,
        };
        for request in requests {
            if request == Request::ToggleSelected
                && let Some(id) = state.selected
                && !self.expanded.remove(&id)
            {
                self.expanded.insert(id);
            }
            let mut layout = Layout {
                transcript,
                cache: &mut self.cache,
                expanded: &self.expanded,
                detail: self.detail,
                theme,
                width: inner.width,
            };
            state.apply(&mut layout, request, height);
        }
        let mut layout = Layout {
            transcript,
            cache: &mut self.cache,
            expanded: &self.expanded,
            detail: self.detail,
            theme,
            width: inner.width,
        };
        let start = state.normalize(&mut layout, height);
        self.scroll = state.scroll;
        self.selected = state.selected;
        self.draw(transcript, start, inner, buf, theme);
        self.draw_new_marker(transcript, area, buf, theme);
    }

    fn draw(
        &mut self,
        transcript: &Transcript,
        start: Pos,
        inner: Rect,
        buf: &mut Buffer,
        theme: &Theme,
    ) {
        let mut layout = Layout {
            transcript,
            cache: &mut self.cache,
            expanded: &self.expanded,
            detail: self.detail,
            theme,
            width: inner.width,
        };
        let bottom = inner.bottom();
        let mut y = inner.y;
        let mut skip = start.line;
        for index in start.index..layout.len() {
            if y >= bottom {
                break;
            }
            let lines = layout.lines(index);
            let block = layout.block_height(index);
            let top = y;
            for k in skip..block {
                if y >= bottom {
                    break;
                }
                if let Some(line) = lines.get(k) {
                    buf.set_line(inner.x, y, line, inner.width);
                }
                y += 1;
            }
            let shown = lines.len().saturating_sub(skip);
            let content_bottom = top
                .saturating_add(u16::try_from(shown).unwrap_or(u16::MAX))
                .min(y);
            skip = 0;
            let Some(entry) = transcript.get(index) else {
                break;
            };
            if self.selected == Some(entry.id()) && content_bottom > top {
                let rows = Rect::new(inner.x, top, inner.width, content_bottom - top);
                buf.set_style(rows, theme.style(Role::Selection));
            }
            self.hits.push(Hit {
                top,
                bottom: content_bottom,
                id: entry.id(),
                expandable: is_expandable(entry.cell()),
            });
        }
    }

    fn draw_new_marker(
        &mut self,
        transcript: &Transcript,
        area: Rect,
        buf: &mut Buffer,
        theme: &Theme,
    ) {
        let Some(left_at) = self.scroll.left_at else {
            return;
        };
        let n = match left_at.last {
            None => transcript.len(),
            Some((id, rev)) => match transcript.position(id) {
                Ok(i) => {
                    let grown = transcript.get(i).is_some_and(|e| e.rev() != rev);
                    transcript.len() - i - 1 + usize::from(grown)
                }
                Err(i) => transcript.len() - i,
            },
        };
        self.new_below = n;
        if n == 0 || area.height < 2 {
            return;
        }
        let text = format!(" ↓ {n} new ");
        let width = u16::try_from(text.chars().count()).unwrap_or(u16::MAX);
        let x = area.x + area.width.saturating_sub(width) / 2;
        let line = Line::from(Span::styled(text, theme.style(Role::Accent)));
        buf.set_line(x, area.bottom() - 1, &line, width.min(area.width));
    }
}

/// The empty chat: the skin's agent name and its welcome text (wrapped), centred.
fn render_welcome(inner: Rect, buf: &mut Buffer, theme: &Theme) {
    use crate::tui::markdown::wrap;
    if inner.height == 0 || inner.width == 0 {
        return;
    }
    let width = usize::from(inner.width);
    let branding = &theme.branding;
    let welcome = match branding.welcome.trim() {
        "" => WELCOME_HINT,
        text => text,
    };
    let mut rows = vec![Line::from(Span::styled(
        wrap::truncate(branding.agent_name.trim(), width),
        theme.style(Role::Title),
    ))];
    let dim = theme.style(Role::Dim);
    for piece in wrap::wrap_spans(&[Span::styled(welcome.to_string(), dim)], width) {
        rows.push(Line::from(piece));
    }
    let height = u16::try_from(rows.len()).unwrap_or(u16::MAX);
    let y = inner.y + inner.height.saturating_sub(height) / 2;
    for (i, line) in rows.iter().enumerate() {
        let row = y + u16::try_from(i).unwrap_or(0);
        if row >= inner.bottom() {
            break;
        }
        let w = u16::try_from(line.width())
            .unwrap_or(u16::MAX)
            .min(inner.width);
        let x = inner.x + (inner.width - w) / 2;
        buf.set_line(x, row, line, w);
    }
}

#[cfg(test)]
#[path = "chat_tests.rs"]
mod tests;
