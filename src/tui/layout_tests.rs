use pretty_assertions::assert_eq;
use ratatui::layout::Rect;

use super::*;

fn input(width: u16, height: u16) -> LayoutInput {
    LayoutInput {
        area: Rect::new(0, 0, width, height),
        side: SideVisibility::Shown,
        focus: Focus::Composer,
        composer_height: 3,
        popup_height: 0,
        queue_height: 0,
    }
}

fn overlaps(a: Rect, b: Rect) -> bool {
    !a.is_empty()
        && !b.is_empty()
        && a.x < b.x + b.width
        && b.x < a.x + a.width
        && a.y < b.y + b.height
        && b.y < a.y + a.height
}

fn inside(r: Rect, area: Rect) -> bool {
    r.is_empty()
        || (r.x >= area.x
            && r.y >= area.y
            && r.x + r.width <= area.x + area.width
            && r.y + r.height <= area.y + area.height)
}

fn check(input: &LayoutInput, approvals_height: u16) {
    let layout = compute_layout_with_approvals(input, approvals_height);
    let rects = layout.rects();
    for (i, a) in rects.iter().enumerate() {
        assert!(inside(*a, input.area), "{a:?} outside for {input:?}");
        for b in &rects[i + 1..] {
            assert!(!overlaps(*a, *b), "{a:?} overlaps {b:?} for {input:?}");
        }
    }
    // The column of full-width rows adds up to the whole height.
    let side_summary = match layout.side {
        SideRegion::Summary(r) => r.height,
        _ => 0,
    };
    let upper = match layout.side {
        SideRegion::Panes {
            agents,
            goals,
            approvals,
        } if layout.chat.height == 0 || layout.chat.width < input.area.width => {
            agents.height + goals.height + approvals.height
        }
        _ => layout.chat.height,
    };
    assert_eq!(
        upper
            + layout.queue.height
            + layout.popup.height
            + layout.composer.height
            + side_summary
            + layout.status.height,
        input.area.height,
        "{input:?}"
    );
    if input.area.height > 0 {
        assert_eq!(layout.status.height, 1);
        assert_eq!(layout.status.y, input.area.y + input.area.height - 1);
    }
}

#[test]
fn never_overlaps_or_leaves_the_area_at_any_size() {
    let focuses = [
        Focus::Composer,
        Focus::Chat,
        Focus::Agents,
        Focus::Goals,
        Focus::Approvals,
    ];
    for width in (0..=240u16).step_by(7).chain([20, 99, 100, 101, 155, 156]) {
        for height in (0..=70u16).step_by(3).chain([1, 2, 5]) {
            for focus in focuses {
                for side in [SideVisibility::Shown, SideVisibility::Hidden] {
                    for (composer, popup, queue, approvals) in
                        [(3, 0, 0, 0), (3, 8, 2, 14), (12, 20, 9, 200), (0, 0, 0, 5)]
                    {
                        let input = LayoutInput {
                            area: Rect::new(3, 2, width, height),
                            side,
                            focus,
                            composer_height: composer,
                            popup_height: popup,
                            queue_height: queue,
                        };
                        check(&input, approvals);
                    }
                }
            }
        }
    }
}

#[test]
fn wide_terminal_has_a_side_column_of_three_panes() {
    let layout = compute_layout(&input(120, 40));
    assert_eq!(layout.status, Rect::new(0, 39, 120, 1));
    assert_eq!(layout.composer, Rect::new(0, 36, 120, 3));
    assert_eq!(layout.chat, Rect::new(0, 0, 77, 36));
    assert_eq!(
        layout.side,
        SideRegion::Panes {
            agents: Rect::new(77, 0, 43, 12),
            goals: Rect::new(77, 12, 43, 12),
            approvals: Rect::new(77, 24, 43, 12),
        }
    );
}

#[test]
fn side_column_is_capped() {
    let layout = compute_layout(&input(240, 30));
    let SideRegion::Panes { agents, .. } = layout.side else {
        panic!("expected panes: {:?}", layout.side);
    };
    assert_eq!(agents.width, SIDE_MAX_WIDTH);
    assert_eq!(layout.chat.width, 240 - SIDE_MAX_WIDTH);
}

#[test]
fn narrow_terminal_gets_a_summary_line_above_the_status_bar() {
    let layout = compute_layout(&input(80, 24));
    assert_eq!(layout.side, SideRegion::Summary(Rect::new(0, 22, 80, 1)));
    assert_eq!(layout.status, Rect::new(0, 23, 80, 1));
    assert_eq!(layout.composer, Rect::new(0, 19, 80, 3));
    assert_eq!(layout.chat, Rect::new(0, 0, 80, 19));
}

#[test]
fn focused_side_pane_takes_the_chat_place_when_narrow() {
    let layout = compute_layout(&LayoutInput {
        focus: Focus::Goals,
        ..input(80, 24)
    });
    assert_eq!(layout.chat.height, 0);
    assert_eq!(
        layout.side,
        SideRegion::Panes {
            agents: Rect::new(0, 0, 80, 7),
            goals: Rect::new(0, 7, 80, 6),
            approvals: Rect::new(0, 13, 80, 7),
        }
    );
    assert_eq!(layout.composer, Rect::new(0, 20, 80, 3));
}

#[test]
fn hidden_side_region_gives_chat_the_full_width_unless_a_side_pane_is_focused() {
    let hidden = LayoutInput {
        side: SideVisibility::Hidden,
        ..input(120, 30)
    };
    let layout = compute_layout(&hidden);
    assert_eq!(layout.side, SideRegion::Hidden);
    assert_eq!(layout.chat.width, 120);
    let focused = compute_layout(&LayoutInput {
        focus: Focus::Approvals,
        ..hidden
    });
    assert!(matches!(focused.side, SideRegion::Panes { .. }));
    let narrow_hidden = compute_layout(&LayoutInput {
        area: Rect::new(0, 0, 60, 20),
        ..hidden
    });
    assert_eq!(narrow_hidden.side, SideRegion::Hidden);
}

#[test]
fn popup_sits_above_the_composer_and_queue_above_the_popup() {
    let layout = compute_layout(&LayoutInput {
        popup_height: 6,
        queue_height: 2,
        ..input(120, 40)
    });
    assert_eq!(layout.popup, Rect::new(0, 30, 120, 6));
    assert_eq!(layout.queue, Rect::new(0, 28, 120, 2));
    assert_eq!(layout.chat.height, 28);
}

#[test]
fn popup_and_queue_leave_the_chat_some_rows() {
    let layout = compute_layout(&LayoutInput {
        popup_height: 30,
        queue_height: 10,
        ..input(120, 20)
    });
    assert_eq!(layout.chat.height, MIN_CHAT_ROWS);
    assert_eq!(layout.queue.height, 0);
    assert_eq!(layout.popup.height, 20 - 1 - 3 - MIN_CHAT_ROWS);
}

#[test]
fn tiny_terminal_keeps_status_and_composer() {
    let layout = compute_layout(&input(20, 5));
    assert_eq!(layout.status, Rect::new(0, 4, 20, 1));
    assert_eq!(layout.side, SideRegion::Summary(Rect::new(0, 3, 20, 1)));
    assert_eq!(layout.composer, Rect::new(0, 0, 20, 3));
    assert_eq!(layout.chat.height, 0);
    let one_row = compute_layout(&input(20, 1));
    assert_eq!(one_row.status, Rect::new(0, 0, 20, 1));
    assert_eq!(one_row.composer.height, 0);
}

#[test]
fn approvals_pane_grows_to_what_it_asks_for_leaving_the_others_three_rows() {
    let even = compute_layout(&input(120, 40));
    let SideRegion::Panes { approvals, .. } = even.side else {
        panic!("expected panes: {:?}", even.side);
    };
    assert_eq!(approvals.height, 12);
    let grown = compute_layout_with_approvals(&input(120, 40), 20);
    assert_eq!(
        grown.side,
        SideRegion::Panes {
            agents: Rect::new(77, 0, 43, 8),
            goals: Rect::new(77, 8, 43, 8),
            approvals: Rect::new(77, 16, 43, 20),
        }
    );
    let capped = compute_layout_with_approvals(&input(120, 40), 200);
    assert_eq!(
        capped.side,
        SideRegion::Panes {
            agents: Rect::new(77, 0, 43, 3),
            goals: Rect::new(77, 3, 43, 3),
            approvals: Rect::new(77, 6, 43, 30),
        }
    );
    // Asking for less than the even share changes nothing.
    let small = compute_layout_with_approvals(&input(120, 40), 4);
    assert_eq!(small.side, even.side);
}
