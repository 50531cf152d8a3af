//! Drawing one frame: lay out the screen, let each component draw into its rect, then the
//! overlay stack on top (bottom to top, `overlays::stack`). `render_app` is pure over the app state (plus `now`), so tests draw it
//! into a `TestBackend`. Each real frame is wrapped in synchronized output so the terminal
//! never shows a half-drawn screen.

use std::time::Instant;

use crossterm::execute;
use crossterm::terminal::BeginSynchronizedUpdate;
use crossterm::terminal::EndSynchronizedUpdate;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::text::Span;
use ratatui::widgets::Widget;

use super::app::App;
use super::composer::BusyHint;
use super::composer::ComposerFocus;
use super::composer::ComposerView;
use super::focus::Focus;
use super::layout::LayoutInput;
use super::layout::SideRegion;
use super::layout::compute_layout;
use super::layout::compute_layout_with_wants;
use super::status_bar::Visibility;
use super::status_bar::next_animation_deadline;
use super::status_bar::render_status_bar;
use super::terminal::Tui;
use crate::theme::Role;

pub fn draw(terminal: &mut Tui, app: &mut App) -> std::io::Result<()> {
    let now = Instant::now();
    if app.hint.as_ref().is_some_and(|hint| hint.until <= now) {
        app.hint = None;
    }
    execute!(std::io::stdout(), BeginSynchronizedUpdate)?;
    let drawn = terminal.draw(|frame| {
        let area = frame.area();
        render_app(area, frame.buffer_mut(), app, now);
    });
    execute!(std::io::stdout(), EndSynchronizedUpdate)?;
    drawn?;
    if app.frames_drawn == 0
        && let Some(elapsed) = crate::util::startup::since_start()
    {
        tracing::info!(ms = elapsed.as_secs_f64() * 1000.0, "first frame drawn");
    }
    app.frames_drawn += 1;
    app.frames.frame_drawn(now);
    if let Some(at) = next_animation_deadline(&app.status, now) {
        app.frames.request_at(at);
    }
    // Subagent elapsed times: one redraw per second while a child runs, none otherwise.
    if let Some(at) = super::agents_flow::next_redraw(&app.side.agents.tree, now) {
        app.frames.request_at(at);
    }
    // The approvals countdown: one redraw per second while a request waits, none otherwise.
    if let Some(at) = app.side.approvals.next_redraw(now) {
        app.frames.request_at(at);
    }
    Ok(())
}

pub fn render_app(area: Rect, buf: &mut Buffer, app: &mut App, now: Instant) {
    // A shared pointer: previewing skins must not cost a deep copy per frame.
    let theme = std::sync::Arc::clone(&app.theme);
    app.composer
        .set_skin(&theme.branding.prompt_symbol, &theme.branding.agent_name);
    let popup_height = app
        .composer
        .popup()
        .map_or(0, super::popup::SlashPopup::desired_height)
        .max(
            app.composer
                .path_popup()
                .map_or(0, super::path_popup::PathPopup::desired_height),
        );
    // The live bar shares the queue's rows (it sits just above the composer), capped at a
    // quarter of the screen.
    let live_bar_height = super::panes::live_bar::desired_height(
        &app.side.agents.tree,
        app.monitor.live_bar,
        area.height / 4,
    );
    app.composer
        .set_header_rows(super::attachment_row::desired_height(&app.attach));
    let input = LayoutInput {
        area,
        side: app.side_visibility,
        focus: app.focus,
        composer_height: app.composer.desired_height(area.width),
        popup_height,
        queue_height: app.queue.desired_height() + live_bar_height,
    };
    let mut layout = compute_layout(&input);
    // A waiting request grows the Approvals pane, a goal the Goals pane: ask how tall each
    // pane wants to be at the width the first pass gave the column, then lay out again.
    if let SideRegion::Panes { approvals, .. } = layout.side {
        let wants = app.side.wants(approvals.width, now);
        layout = compute_layout_with_wants(&input, wants);
    }
    app.status.hidden_approvals = match layout.side {
        SideRegion::Panes { approvals, .. } if approvals.height > 0 => 0,
        SideRegion::Hidden | SideRegion::Summary(_) | SideRegion::Panes { .. } => {
            app.side.approvals.pending_count()
        }
    };
    if layout.chat.area() > 0 {
        app.chat
            .render(&app.transcript, layout.chat, buf, &theme, app.focus.into());
    }
    match layout.side {
        SideRegion::Hidden => {}
        SideRegion::Summary(rect) => {
            let line = app.side.summary_line(rect.width, &theme);
            line.render(rect, buf);
        }
        region @ SideRegion::Panes { .. } => {
            app.side.render_at(&region, app.focus, buf, &theme, now);
        }
    }
    if let Some(popup) = app.composer.popup() {
        super::popup::render_popup(popup, layout.popup, buf, &theme);
    }
    if let Some(popup) = app.composer.path_popup() {
        super::path_popup::render_path_popup(popup, layout.popup, buf, &theme);
    }
    let (queue_rect, live_rect) = split_live_bar(layout.queue, live_bar_height);
    if queue_rect.area() > 0 {
        app.queue.render(queue_rect, buf, &theme);
    }
    if live_rect.area() > 0 {
        super::panes::live_bar::render_live_bar(
            &app.side.agents.tree,
            app.monitor.live_bar,
            live_rect,
            buf,
            &theme,
            now,
        );
    }
    if app.focus == Focus::Agents {
        // The monitor grows over everything above the queue and the live bar.
        let upper = Rect {
            height: layout.queue.y.saturating_sub(area.y),
            ..area
        };
        let (pane, at) = match &app.monitor.history {
            Some(saved) => (&saved.pane, saved.at),
            None => (&app.side.agents, now),
        };
        match &mut app.monitor.overlay {
            Some(overlay) => overlay.render(&pane.tree, upper, buf, &theme, at),
            None => super::panes::agents_view::render_monitor(pane, upper, buf, &theme, at),
        }
    }
    let busy = if app.turn_running {
        BusyHint::Busy {
            mode_label: app.busy_mode.label(),
        }
    } else {
        BusyHint::Idle
    };
    let onboarding = app
        .overlays
        .contains::<super::overlays::onboarding::Onboarding>();
    let focus = if app.focus == Focus::Composer && !onboarding {
        ComposerFocus::Focused
    } else {
        ComposerFocus::Unfocused
    };
    app.composer
        .set_prompt_override(super::voice_link::prompt_override(&app.voice));
    app.status.voice = super::voice_link::status_label(&app.voice);
    app.composer
        .render(layout.composer, buf, &theme, ComposerView { focus, busy });
    let header = app.composer.header_rect(layout.composer);
    if header.height > 0 {
        super::attachment_row::render(&app.attach, &mut app.thumbnails, header, buf, &theme);
    }
    match &app.hint {
        Some(hint) => {
            Line::from(Span::styled(
                format!(" {}", hint.text),
                theme.style(Role::StatusBarStrong),
            ))
            .style(theme.style(Role::StatusBar))
            .render(layout.status, buf);
        }
        None if app.status.visible == Visibility::Shown => {
            render_status_bar(&app.status, now, layout.status.width, &theme)
                .render(layout.status, buf);
        }
        None => {}
    }
    // Last, over everything: the open overlays, bottom to top.
    app.overlays.render(area, buf, &theme);
}

/// Splits the rows above the composer into the queue (top) and the live bar (the last
/// `live_bar` rows, or fewer when the layout gave less).
fn split_live_bar(rect: Rect, live_bar: u16) -> (Rect, Rect) {
    let live_h = live_bar.min(rect.height);
    let queue = Rect {
        height: rect.height - live_h,
        ..rect
    };
    let live = Rect {
        y: rect.y + queue.height,
        height: live_h,
        ..rect
    };
    (queue, live)
}
