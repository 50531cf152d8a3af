//! The attachment row: one line between the composer's rule and its input showing the attached
//! images as badges (`[📎 Image #1] [📎 Image #2]`), what a waiting request is doing
//! (`reading clipboard…`) and, on the right, how to remove them.
//!
//! Plain rendering from [`AttachUi`]; where the row goes is the composer's business
//! (`Composer::set_header_rows`). With thumbnails on, a small image sits before each badge.
//!
//! Invariants: the row wants no space when nothing is attached or waiting; badges keep their
//! numbers when cut, and a cut row ends with `+N more` for the ones not shown; what is drawn
//! never passes the row's width.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use unicode_width::UnicodeWidthStr;

use super::attachments::AttachUi;
use super::attachments::PendingRead;
use super::thumbnails::Thumbnails;
use crate::theme::Role;
use crate::theme::Theme;

/// The right-hand hint while images are attached.
pub const REMOVE_HINT: &str = "Backspace removes · Ctrl+C clears";

/// Rows the attachment row wants: one while images are attached or a request waits.
pub fn desired_height(attach: &AttachUi) -> u16 {
    u16::from(attach.has_images() || attach.pending().is_some())
}

/// `reading clipboard…`, with the count when several requests wait.
pub fn pending_label(attach: &AttachUi) -> Option<String> {
    let (read, count) = attach.pending()?;
    let what = match read {
        PendingRead::Clipboard => "reading clipboard…",
        PendingRead::File => "reading image…",
    };
    Some(match count {
        1 => what.to_string(),
        n => format!("{what} ({n} waiting)"),
    })
}

/// What fits in a row: the first `badges` badges, then `+more more` when some are left out,
/// then the pending label and the hint when they fit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RowPlan {
    pub badges: usize,
    pub more: usize,
    pub pending: bool,
    pub hint: bool,
}

/// Plans a row `width` columns wide for `images` badges, each with `thumb_cols` columns of
/// thumbnail (0 for none) before it. Badges come first (as many as fit), then the pending
/// label, then the hint, which only shows when everything else does, two columns apart.
pub fn plan(width: usize, images: usize, thumb_cols: usize, pending: Option<&str>) -> RowPlan {
    let badge_width = |n: usize| thumb_cols + image_badge(n).width();
    // Items are joined by one space.
    let left = |shown: usize, with_pending: bool| {
        let mut widths: Vec<usize> = (1..=shown).map(badge_width).collect();
        if shown < images {
            widths.push(more_label(images - shown).width());
        }
        if with_pending && let Some(label) = pending {
            widths.push(label.width());
        }
        widths.iter().sum::<usize>() + widths.len().saturating_sub(1)
    };
    let best = |with_pending: bool| (0..=images).rev().find(|&k| left(k, with_pending) <= width);
    let (badges, pending_shown) = match best(pending.is_some()) {
        Some(k) => (k, pending.is_some()),
        None => (best(false).unwrap_or(0), false),
    };
    let hint = images > 0
        && badges == images
        && left(badges, pending_shown) + 2 + REMOVE_HINT.width() <= width;
    RowPlan {
        badges,
        more: images - badges,
        pending: pending_shown,
        hint,
    }
}

/// The badge shown for the `n`th attached image (1-based): `[📎 Image #1]`.
pub fn image_badge(n: usize) -> String {
    format!("[📎 Image #{n}]")
}

fn more_label(count: usize) -> String {
    format!("+{count} more")
}

/// Draws the row into `area` (its first line).
pub fn render(
    attach: &AttachUi,
    thumbnails: &mut Thumbnails,
    area: Rect,
    buf: &mut Buffer,
    theme: &Theme,
) {
    if area.height == 0 || area.width == 0 {
        return;
    }
    let images = attach.images();
    let thumb_cols = thumbnails.columns();
    let pending = pending_label(attach);
    let width = usize::from(area.width);
    let plan = plan(width, images.len(), thumb_cols, pending.as_deref());
    let right = area.x.saturating_add(area.width);
    let y = area.y;
    let mut x = area.x;
    let put = |buf: &mut Buffer, x: &mut u16, text: &str, role: Role| {
        let room = usize::from(right.saturating_sub(*x));
        let (end, _) = buf.set_stringn(*x, y, text, room, theme.style(role));
        *x = end.saturating_add(1).min(right);
    };
    for (i, image) in images.iter().enumerate().take(plan.badges) {
        if thumb_cols > 0 {
            let cell = Rect::new(x, y, u16::try_from(thumb_cols - 1).unwrap_or(0), 1);
            thumbnails.render(&image.path, cell, buf);
            x = x.saturating_add(u16::try_from(thumb_cols).unwrap_or(0));
        }
        put(buf, &mut x, &image_badge(i + 1), Role::Accent);
    }
    if plan.more > 0 {
        put(buf, &mut x, &more_label(plan.more), Role::Dim);
    }
    if plan.pending
        && let Some(label) = &pending
    {
        put(buf, &mut x, label, Role::Dim);
    }
    if plan.hint {
        let hint_width = u16::try_from(REMOVE_HINT.width()).unwrap_or(u16::MAX);
        let mut at = right.saturating_sub(hint_width);
        put(buf, &mut at, REMOVE_HINT, Role::Dim);
    }
}

#[cfg(test)]
#[path = "attachment_row_tests.rs"]
mod tests;
