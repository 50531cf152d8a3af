//! Drawing the `/rollback` overlay: the loading note, the checkpoint list (number, date, label,
//! how many files changed, then the selected one's changed files) and the diff view (the
//! checkpoint's label, the unified diff coloured by line kind and wrapped to the width, the
//! legend with the visible range).
//!
//! Pure apart from two caches on the overlay: the diff wrapped for the last width, and the
//! rows the diff had in the last frame (which bound scrolling). Keys and state changes live in
//! the parent module.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::text::Span;
use ratatui::widgets::Paragraph;
use ratatui::widgets::Widget;

use super::RollbackOverlay;
use super::Stage;
use crate::protocol::CheckpointInfo;
use crate::theme::Role;
use crate::theme::Theme;
use crate::tui::markdown::wrap::hard_wrap;
use crate::tui::markdown::wrap::sanitize;
use crate::tui::markdown::wrap::truncate;
use crate::tui::markdown::wrap::wrap_spans;
use crate::tui::popup::MAX_ROWS;
use crate::tui::popup::draw_menu_rows;

/// The frame's title while the list loads (also the overlay's `Overlay::title`).
pub(super) const TITLE: &str = " Rollback ";

impl RollbackOverlay {
    /// The overlay's frame (`Overlay::render`).
    pub(super) fn draw(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        match self.stage.clone() {
            Stage::Loading { .. } => {
                let modal = frame(area, 4, TITLE, buf, theme);
                Paragraph::new(vec![
                    Line::styled("loading checkpoints…", theme.style(Role::Dim)),
                    Line::styled("Esc close", theme.style(Role::Dim)),
                ])
                .render(modal, buf);
            }
            Stage::List => self.render_list(area, buf, theme),
            Stage::Diff {
                index,
                diff,
                scroll,
            } => self.render_diff(area, buf, theme, index, diff.as_deref(), scroll),
        }
    }

    fn render_list(&self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        let rows = self.checkpoints.len().clamp(1, MAX_ROWS);
        // Borders, the heading, the list, two rows of changed files, the legend.
        let height = u16::try_from(rows + 6).unwrap_or(u16::MAX);
        let inner = frame(area, height, " Rollback — file checkpoints ", buf, theme);
        if inner.height == 0 {
            return;
        }
        let width = usize::from(inner.width);
        let list = crate::tui::overlays::heading_and_list(
            inner,
            "newest first; restoring one puts its files back as they were",
            rows,
            0,
            buf,
            theme,
        );
        let numbered: Vec<(usize, &CheckpointInfo)> = self.checkpoints.iter().enumerate().collect();
        draw_menu_rows(
            &numbered,
            self.selected,
            list,
            buf,
            theme,
            |&(i, checkpoint), y, buf, (main, meta)| {
                let index = i + 1;
                let files = match checkpoint.changed_files.len() {
                    1 => "1 file".to_string(),
                    n => format!("{n} files"),
                };
                let head = format!(" {index:>2}  {}  ", checkpoint.created);
                let (x, _) = buf.set_stringn(inner.x, y, &head, width, meta);
                let used = usize::from(x - inner.x);
                let tail = format!("  {files} ");
                let room = width.saturating_sub(used + tail.chars().count());
                let label = truncate(&sanitize(&checkpoint.label), room);
                let (x, _) = buf.set_stringn(x, y, &label, room, main);
                let used = usize::from(x - inner.x);
                let gap = width.saturating_sub(used + tail.chars().count());
                buf.set_stringn(x + u16::try_from(gap).unwrap_or(0), y, &tail, width, meta);
            },
        );
        let mut lines: Vec<Line<'static>> = Vec::new();
        if let Some(checkpoint) = self.checkpoints.get(self.selected) {
            let files = if checkpoint.changed_files.is_empty() {
                "no files changed".to_string()
            } else {
                checkpoint.changed_files.join(", ")
            };
            let spans = [
                Span::styled("changed: ", theme.style(Role::Label)),
                Span::styled(sanitize(&files).into_owned(), theme.style(Role::Text)),
            ];
            let mut wrapped = wrap_spans(&spans, width);
            if wrapped.len() > 2 {
                wrapped.truncate(2);
                if let Some(last) = wrapped.last_mut() {
                    last.push(Span::styled("…", theme.style(Role::Dim)));
                }
            }
            lines.extend(wrapped.into_iter().map(Line::from));
        }
        while lines.len() < 2 {
            lines.push(Line::default());
        }
        lines.push(Line::styled(
            truncate("↑↓ choose · Enter show diff · Esc close", width),
            theme.style(Role::Dim),
        ));
        let below = Rect {
            y: list.y + list.height,
            height: inner.height.saturating_sub(list.height + 1),
            ..inner
        };
        Paragraph::new(lines).render(below, buf);
    }

    fn render_diff(
        &mut self,
        area: Rect,
        buf: &mut Buffer,
        theme: &Theme,
        index: usize,
        diff: Option<&str>,
        scroll: usize,
    ) {
        let Some(checkpoint) = self.checkpoints.get(index).cloned() else {
            return;
        };
        let title = format!(" Checkpoint {} · {} ", index + 1, checkpoint.created);
        let inner = frame(area, area.height.saturating_sub(2), &title, buf, theme);
        if inner.height < 3 {
            return;
        }
        let width = usize::from(inner.width);
        let label = format!("{} — restoring undoes these changes:", checkpoint.label);
        buf.set_stringn(
            inner.x,
            inner.y,
            truncate(&sanitize(&label), width),
            width,
            theme.style(Role::Label),
        );
        let body = Rect {
            y: inner.y + 1,
            height: inner.height - 2,
            ..inner
        };
        let footer_y = inner.y + inner.height - 1;
        let Some(diff) = diff else {
            Line::styled("loading diff…", theme.style(Role::Dim)).render(body, buf);
            let legend = truncate("Esc back", width);
            buf.set_stringn(inner.x, footer_y, legend, width, theme.style(Role::Dim));
            return;
        };
        if self.wrapped.as_ref().is_none_or(|(w, _)| *w != inner.width) {
            self.wrapped = Some((inner.width, diff_lines(diff, width, theme)));
        }
        let lines = self.wrapped.as_ref().map_or(&[][..], |(_, l)| l.as_slice());
        self.view_rows = usize::from(body.height);
        let last = lines.len().saturating_sub(self.view_rows);
        let top = scroll.min(last);
        if let Stage::Diff { scroll, .. } = &mut self.stage {
            *scroll = top;
        }
        let shown: Vec<Line<'static>> = lines
            .iter()
            .skip(top)
            .take(self.view_rows)
            .cloned()
            .collect();
        let total = lines.len();
        Paragraph::new(shown).render(body, buf);
        let position = if total > self.view_rows {
            format!(
                "  {}–{} of {total}",
                top + 1,
                (top + self.view_rows).min(total)
            )
        } else {
            String::new()
        };
        let legend = format!("Enter/y restore · Esc back · ↑↓ PgUp PgDn scroll{position}");
        buf.set_stringn(
            inner.x,
            footer_y,
            truncate(&legend, width),
            width,
            theme.style(Role::Dim),
        );
    }
}

/// Clears a centred modal of `rows` rows with a titled border; returns its inner rect.
fn frame(area: Rect, rows: u16, title: &str, buf: &mut Buffer, theme: &Theme) -> Rect {
    crate::tui::overlays::framed_modal(area, 110, rows, title, buf, theme)
}

/// The role of one unified-diff line.
pub fn diff_role(line: &str) -> Role {
    const META: [&str; 7] = [
        "diff ",
        "index ",
        "new file",
        "deleted file",
        "rename ",
        "similarity ",
        "Binary files",
    ];
    if line.starts_with("+++") || line.starts_with("---") {
        Role::Label
    } else if META.iter().any(|m| line.starts_with(m)) {
        Role::Heading
    } else if line.starts_with("@@") {
        Role::Accent
    } else if line.starts_with('+') {
        Role::Ok
    } else if line.starts_with('-') {
        Role::Error
    } else if line.starts_with('\\') {
        Role::Dim
    } else {
        Role::Text
    }
}

/// The diff as coloured lines wrapped to `width` (long lines continue on the next row).
fn diff_lines(diff: &str, width: usize, theme: &Theme) -> Vec<Line<'static>> {
    if diff.trim().is_empty() {
        return vec![Line::styled(
            "no differences — the files already match this checkpoint",
            theme.style(Role::Dim),
        )];
    }
    let mut out = Vec::new();
    for line in diff.lines() {
        let style = theme.style(diff_role(line));
        let spans = [Span::styled(sanitize(line).into_owned(), style)];
        out.extend(hard_wrap(&spans, width).into_iter().map(Line::from));
    }
    out
}
