//! Modal views drawn over the main screen, and the one stack they live on (`stack`: who gets
//! keys and pastes, in which order they are drawn).

pub mod confirm;
pub mod cron_jobs;
pub mod model_picker;
pub mod onboarding;
pub mod rollback;
pub mod secret_prompt;
pub mod sessions_picker;
pub mod skin_picker;
pub mod spawn_trees;
pub mod stack;
pub mod subagent;
pub mod tools_picker;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Span;
use ratatui::widgets::Block;
use ratatui::widgets::BorderType;
use ratatui::widgets::Clear;
use ratatui::widgets::Padding;
use ratatui::widgets::Widget;

use crate::theme::Role;
use crate::theme::Theme;

/// Every modal's frame: rounded, focused border and its title.
pub fn modal_block(title: &str, theme: &Theme) -> Block<'static> {
    Block::bordered()
        .border_type(BorderType::Rounded)
        .border_style(theme.style(Role::BorderFocused))
        .title(Span::styled(title.to_string(), theme.style(Role::Title)))
}

/// Clears a centred modal of `rows` (see [`centered_modal`]), draws its frame with one column
/// of padding, and returns the inside.
/// A list overlay waiting for its data: "loading WHAT…" and how to close, in the modal.
pub fn loading_modal(
    area: Rect,
    max_width: u16,
    title: &str,
    what: &str,
    buf: &mut Buffer,
    theme: &Theme,
) {
    let inner = framed_modal(area, max_width, 4, title, buf, theme);
    ratatui::widgets::Paragraph::new(vec![
        ratatui::text::Line::styled(format!("loading {what}…"), theme.style(Role::Dim)),
        ratatui::text::Line::styled("Esc close", theme.style(Role::Dim)),
    ])
    .render(inner, buf);
}

pub fn framed_modal(
    area: Rect,
    max_width: u16,
    rows: u16,
    title: &str,
    buf: &mut Buffer,
    theme: &Theme,
) -> Rect {
    let modal = centered_modal(area, max_width, rows);
    Clear.render(modal, buf);
    let block = modal_block(title, theme).padding(Padding::horizontal(1));
    let inner = block.inner(modal);
    block.render(modal, buf);
    inner
}

/// Draws a dim `heading` on the first row of `inner` and returns the rect for a list of
/// `rows` below it, leaving `reserved_below` rows of `inner` free (legend, details).
pub fn heading_and_list(
    inner: Rect,
    heading: &str,
    rows: usize,
    reserved_below: u16,
    buf: &mut Buffer,
    theme: &Theme,
) -> Rect {
    let width = usize::from(inner.width);
    buf.set_stringn(
        inner.x,
        inner.y,
        crate::tui::markdown::wrap::truncate(heading, width),
        width,
        theme.style(Role::Dim),
    );
    Rect {
        y: inner.y + 1,
        height: u16::try_from(rows)
            .unwrap_or(0)
            .min(inner.height.saturating_sub(1 + reserved_below)),
        ..inner
    }
}

/// A modal's rect: at most `max_width` wide (leaving a 2-column margin) and `rows` tall,
/// centred in `area`, never larger than it.
pub fn centered_modal(area: Rect, max_width: u16, rows: u16) -> Rect {
    let width = area
        .width
        .saturating_sub(4)
        .clamp(20, max_width)
        .min(area.width);
    let height = rows.min(area.height);
    Rect {
        x: area.x + area.width.saturating_sub(width) / 2,
        y: area.y + area.height.saturating_sub(height) / 2,
        width,
        height,
    }
}
