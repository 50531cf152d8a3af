use pretty_assertions::assert_eq;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use super::*;
use crate::tui::test_support::sample_image;

fn plan_of(badges: usize, more: usize, pending: bool, hint: bool) -> RowPlan {
    RowPlan {
        badges,
        more,
        pending,
        hint,
    }
}

/// An attach state with `n` images and `waiting` clipboard reads still unanswered.
fn state(n: usize, waiting: usize) -> AttachUi {
    let (tx, _rx) = tokio::sync::mpsc::unbounded_channel();
    let mut attach = AttachUi::new(Ok(tx));
    attach.restore((1..=n).map(sample_image).collect());
    for _ in 0..waiting {
        attach.test_push_pending(PendingRead::Clipboard);
    }
    attach
}

fn draw(attach: &AttachUi, width: u16) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(width, 1)).unwrap();
    let theme = Theme::default();
    let mut thumbnails = Thumbnails::default();
    terminal
        .draw(|f| render(attach, &mut thumbnails, f.area(), f.buffer_mut(), &theme))
        .unwrap();
    terminal
}

#[test]
fn the_row_takes_no_space_when_nothing_is_attached_or_waiting() {
    assert_eq!(desired_height(&state(0, 0)), 0);
    assert_eq!(desired_height(&state(1, 0)), 1);
    assert_eq!(desired_height(&state(0, 1)), 1);
}

#[test]
fn pending_label_counts_waiting_requests() {
    assert_eq!(pending_label(&state(0, 0)), None);
    assert_eq!(
        pending_label(&state(0, 1)).as_deref(),
        Some("reading clipboard…")
    );
    assert_eq!(
        pending_label(&state(0, 3)).as_deref(),
        Some("reading clipboard… (3 waiting)")
    );
}

#[test]
fn everything_fits_on_a_wide_row() {
    // Two badges (13 columns each: the clip is two wide), two spaces and the 33-column hint.
    assert_eq!(plan(80, 2, 0, None), plan_of(2, 0, false, true));
    assert_eq!(
        plan(80, 1, 0, Some("reading clipboard…")),
        plan_of(1, 0, true, true)
    );
}

#[test]
fn the_hint_goes_first_then_badges_are_cut_with_a_count() {
    // 13 + 1 + 13 = 27 columns of badges: no room for the hint at 40.
    assert_eq!(plan(40, 2, 0, None), plan_of(2, 0, false, false));
    // Seven badges need 97 columns; at 60 three fit with `+4 more`, at 67 four.
    assert_eq!(plan(60, 7, 0, None), plan_of(3, 4, false, false));
    assert_eq!(plan(67, 7, 0, None), plan_of(4, 3, false, false));
}

#[test]
fn a_waiting_request_stays_visible_before_more_badges() {
    let label = "reading clipboard…";
    assert_eq!(plan(60, 7, 0, Some(label)), plan_of(2, 5, true, false));
    // Too narrow for the label: it goes before the last badge would.
    assert_eq!(plan(24, 1, 0, Some(label)), plan_of(1, 0, false, false));
}

#[test]
fn thumbnails_widen_each_badge() {
    assert_eq!(plan(60, 7, 5, None), plan_of(2, 5, false, false));
}

#[test]
fn a_tiny_row_shows_only_the_count() {
    assert_eq!(plan(8, 3, 0, None), plan_of(0, 3, false, false));
    assert_eq!(plan(0, 3, 0, None), plan_of(0, 3, false, false));
}

#[test]
fn snapshot_row_cut_at_sixty_columns() {
    let attach = state(7, 0);
    insta::assert_snapshot!("attach_row_cut_60", draw(&attach, 60).backend());
}

#[test]
fn snapshot_row_waiting_without_images() {
    let attach = state(0, 1);
    insta::assert_snapshot!("attach_row_waiting", draw(&attach, 60).backend());
}

#[test]
fn badges_are_numbered_from_one() {
    assert_eq!(image_badge(1), "[📎 Image #1]");
    assert_eq!(image_badge(12), "[📎 Image #12]");
}
