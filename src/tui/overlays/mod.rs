//! Modal views drawn over the main screen.

pub mod model_picker;
pub mod onboarding;
pub mod rollback;
pub mod secret_prompt;
pub mod sessions_picker;
pub mod spawn_trees;
pub mod subagent;

use ratatui::layout::Rect;

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
