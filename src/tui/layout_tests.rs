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

fn approvals_want_only(rows: u16) -> PaneWants {
    PaneWants {
        approvals: rows,
        ..PaneWants::default()
    }
}

fn panes(layout: &AppLayout) -> (Rect, Rect, Rect) {
    match layout.side {
        SideRegion::Panes {
            agents,
            goals,
            approvals,
        } => (agents, goals, approvals),
        SideRegion::Hidden | SideRegion::Summary(_) => panic!("expected panes: {:?}", layout.side),
    }
}

fn check(input: &LayoutInput, wants: PaneWants) {
    let layout = compute_layout_with_wants(input, wants);
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
                    for (composer, popup, queue, wants) in [
                        (3, 0, 0, approvals_want_only(0)),
                        (3, 8, 2, approvals_want_only(14)),
                        (12, 20, 9, approvals_want_only(200)),
                        (0, 0, 0, approvals_want_only(5)),
                        (
                            3,
                            0,
                            0,
                            PaneWants {
                                agents: 6,
                                goals: 14,
                                approvals: 0,
                            },
                        ),
                        (
                            3,
                            4,
                            1,
                            PaneWants {
                                agents: 0,
                                goals: 200,
                                approvals: 200,
                            },
                        ),
                        (
                            3,
                            0,
                            0,
                            PaneWants {
                                agents: 200,
                                goals: 14,
                                approvals: 9,
                            },
                        ),
                    ] {
                        let input = LayoutInput {
                            area: Rect::new(3, 2, width, height),
                            side,
                            focus,
                            composer_height: composer,
                            popup_height: popup,
                            queue_height: queue,
                        };
                        check(&input, wants);
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
    let grown = compute_layout_with_wants(&input(120, 40), approvals_want_only(20));
    assert_eq!(
        grown.side,
        SideRegion::Panes {
            agents: Rect::new(77, 0, 43, 8),
            goals: Rect::new(77, 8, 43, 8),
            approvals: Rect::new(77, 16, 43, 20),
        }
    );
    let capped = compute_layout_with_wants(&input(120, 40), approvals_want_only(200));
    assert_eq!(
        capped.side,
        SideRegion::Panes {
            agents: Rect::new(77, 0, 43, 3),
            goals: Rect::new(77, 3, 43, 3),
            approvals: Rect::new(77, 6, 43, 30),
        }
    );
    // Asking for less than the even share changes nothing.
    let small = compute_layout_with_wants(&input(120, 40), approvals_want_only(4));
    assert_eq!(small.side, even.side);
}

#[test]
fn goals_grows_into_an_idle_subagents_pane() {
    // 120×30 with a 3-row composer: a column of 26 rows, 9, 8 and 9 when nobody asks.
    let even = compute_layout(&input(120, 30));
    let (agents, goals, approvals) = panes(&even);
    assert_eq!((agents.height, goals.height, approvals.height), (9, 8, 9));
    // Subagents needs 6 rows (its empty state), Goals wants 14: Goals gets the 3 spare rows.
    let grown = compute_layout_with_wants(
        &input(120, 30),
        PaneWants {
            agents: 6,
            goals: 14,
            approvals: 0,
        },
    );
    assert_eq!(
        grown.side,
        SideRegion::Panes {
            agents: Rect::new(77, 0, 43, 6),
            goals: Rect::new(77, 6, 43, 11),
            approvals: Rect::new(77, 17, 43, 9),
        }
    );
    // Goals takes no more than it asks for.
    let (agents, goals, _) = panes(&compute_layout_with_wants(
        &input(120, 30),
        PaneWants {
            agents: 4,
            goals: 10,
            approvals: 0,
        },
    ));
    assert_eq!((agents.height, goals.height), (7, 10));
    // A Subagents pane that asks for nothing still keeps MIN_PANE_ROWS.
    let (agents, goals, _) = panes(&compute_layout_with_wants(
        &input(120, 30),
        PaneWants {
            agents: 0,
            goals: 200,
            approvals: 0,
        },
    ));
    assert_eq!((agents.height, goals.height), (MIN_PANE_ROWS, 14));
}

#[test]
fn goals_stays_when_subagents_needs_its_rows() {
    let even = compute_layout(&input(120, 30));
    for agents_want in [9, 12, 40] {
        let busy = compute_layout_with_wants(
            &input(120, 30),
            PaneWants {
                agents: agents_want,
                goals: 14,
                approvals: 0,
            },
        );
        assert_eq!(busy.side, even.side, "agents want {agents_want}");
    }
    // Needing 8 of its 9 rows, it gives up one.
    let (agents, goals, _) = panes(&compute_layout_with_wants(
        &input(120, 30),
        PaneWants {
            agents: 8,
            goals: 14,
            approvals: 0,
        },
    ));
    assert_eq!((agents.height, goals.height), (8, 9));
}

#[test]
fn goals_asking_for_its_share_or_less_changes_nothing() {
    let even = compute_layout(&input(120, 30));
    for goals_want in [0, 5, 8] {
        let layout = compute_layout_with_wants(
            &input(120, 30),
            PaneWants {
                agents: 6,
                goals: goals_want,
                approvals: 0,
            },
        );
        assert_eq!(layout.side, even.side, "goals want {goals_want}");
    }
}

#[test]
fn approvals_grows_first_then_goals_takes_what_subagents_can_spare() {
    // Approvals takes 20 of 36 rows; Subagents and Goals split 16 as 8 and 8.
    let wants = PaneWants {
        agents: 0,
        goals: 0,
        approvals: 20,
    };
    let (agents, goals, approvals) = panes(&compute_layout_with_wants(&input(120, 40), wants));
    assert_eq!((agents.height, goals.height, approvals.height), (8, 8, 20));
    // Goals wants 14, Subagents needs 6: Goals gets 2 more, Approvals keeps its 20.
    let (agents, goals, approvals) = panes(&compute_layout_with_wants(
        &input(120, 40),
        PaneWants {
            agents: 6,
            goals: 14,
            ..wants
        },
    ));
    assert_eq!((agents.height, goals.height, approvals.height), (6, 10, 20));
    // Approvals wanting everything leaves MIN_PANE_ROWS each, and Goals cannot grow.
    let (agents, goals, approvals) = panes(&compute_layout_with_wants(
        &input(120, 40),
        PaneWants {
            agents: 0,
            goals: 14,
            approvals: 200,
        },
    ));
    assert_eq!(
        (agents.height, goals.height, approvals.height),
        (MIN_PANE_ROWS, MIN_PANE_ROWS, 30)
    );
}

#[test]
fn panes_keep_min_rows_or_split_evenly_on_tiny_columns() {
    let all_wants = [0u16, 1, 3, 6, 14, 200];
    for height in 0..=40u16 {
        let column = Rect::new(5, 1, 30, height);
        let SideRegion::Panes {
            agents: even_agents,
            goals: even_goals,
            approvals: even_approvals,
        } = stack_panes(column, PaneWants::default())
        else {
            panic!("expected panes");
        };
        for agents_want in all_wants {
            for goals_want in all_wants {
                for approvals_want in all_wants {
                    let wants = PaneWants {
                        agents: agents_want,
                        goals: goals_want,
                        approvals: approvals_want,
                    };
                    let SideRegion::Panes {
                        agents,
                        goals,
                        approvals,
                    } = stack_panes(column, wants)
                    else {
                        panic!("expected panes");
                    };
                    let heights = [agents.height, goals.height, approvals.height];
                    assert_eq!(heights.iter().sum::<u16>(), height, "{wants:?} in {height}");
                    assert_eq!(agents.y, column.y);
                    assert_eq!(goals.y, agents.y + agents.height);
                    assert_eq!(approvals.y, goals.y + goals.height);
                    if height >= 3 * MIN_PANE_ROWS {
                        assert!(
                            heights.iter().all(|h| *h >= MIN_PANE_ROWS),
                            "{heights:?} for {wants:?} in {height}"
                        );
                    } else {
                        // The documented fallback: too short for anyone to grow.
                        assert_eq!(
                            heights,
                            [even_agents.height, even_goals.height, even_approvals.height],
                            "{wants:?} in {height}"
                        );
                    }
                    // Approvals never loses rows to Goals.
                    let approvals_alone =
                        match stack_panes(column, approvals_want_only(approvals_want)) {
                            SideRegion::Panes { approvals, .. } => approvals.height,
                            SideRegion::Hidden | SideRegion::Summary(_) => panic!("expected panes"),
                        };
                    assert_eq!(approvals.height, approvals_alone, "{wants:?} in {height}");
                }
            }
        }
    }
}
