use std::time::Duration;
use std::time::Instant;

use pretty_assertions::assert_eq;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use unicode_width::UnicodeWidthStr;

use super::*;

fn sample(now: Instant, busy: bool) -> StatusModel {
    let start = now - Duration::from_secs(12 * 60 + 30);
    StatusModel {
        busy: busy.then(|| Busy {
            verb: "thinking".into(),
            since: now - Duration::from_millis(12_340),
            pick: 0,
        }),
        model: "claude-sonnet-4".into(),
        context_tokens: 76_800,
        context_window: 128_000,
        session_started: start,
        input_tokens: 12_345,
        output_tokens: 4_100,
        cost_usd: Some(0.0123),
        yolo: YoloBadge::On,
        visible: Visibility::Shown,
        compressions: 2,
        hidden_approvals: 0,
        goal: GoalBadge::Hidden,
        voice: None,
        busy_picks: 1,
        sandbox: String::new(),
        cron: String::new(),
    }
}

#[test]
fn the_sandbox_state_shows_when_there_is_room() {
    let now = Instant::now();
    let theme = Theme::default();
    let mut m = sample(now, false);
    m.sandbox = "workspace-write, network off".into();
    let wide = line_text(&render_status_bar(&m, now, 200, &theme));
    assert!(
        wide.contains("sandbox: workspace-write · net off"),
        "{wide}"
    );
    m.sandbox = "unavailable (no Landlock); approvals only".into();
    let wide = line_text(&render_status_bar(&m, now, 200, &theme));
    assert!(wide.contains("sandbox unavailable"), "{wide}");
    let narrow = line_text(&render_status_bar(&m, now, 40, &theme));
    assert!(!narrow.contains("sandbox"), "{narrow}");
    m.sandbox = "workspace-write, network on".into();
    let backend = TestBackend::new(160, 1);
    let mut terminal = Terminal::new(backend).unwrap();
    terminal
        .draw(|f| StatusBar::new(&m, now, &theme).render(f.area(), f.buffer_mut()))
        .unwrap();
    insta::assert_snapshot!("status_bar_with_sandbox_160", terminal.backend());
}

fn line_text(line: &Line<'_>) -> String {
    line.spans.iter().map(|s| s.content.as_ref()).collect()
}

fn snapshot(model: &StatusModel, now: Instant, width: u16) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(width, 1)).unwrap();
    let theme = Theme::default();
    terminal
        .draw(|f| f.render_widget(StatusBar::new(model, now, &theme), f.area()))
        .unwrap();
    terminal
}

#[test]
fn snapshots_busy_and_idle_at_four_widths() {
    let now = Instant::now();
    for width in [60u16, 80, 120, 200] {
        for (state, busy) in [("busy", true), ("idle", false)] {
            let terminal = snapshot(&sample(now, busy), now, width);
            insta::assert_snapshot!(format!("status_bar_{state}_{width}"), terminal.backend());
        }
    }
}

#[test]
fn never_wider_than_the_width_at_any_size() {
    let now = Instant::now();
    let theme = Theme::default();
    let mut long = sample(now, true);
    long.model = "a-very-long-provider/with-an-even-longer-model-name-20250514".into();
    long.busy = Some(Busy {
        verb: "running a long tool name".into(),
        since: now - Duration::from_secs(4000),
        pick: 7,
    });
    for model in [sample(now, true), sample(now, false), long] {
        for width in 0..=220u16 {
            let line = render_status_bar(&model, now, width, &theme);
            let text = line_text(&line);
            assert!(
                text.width() <= usize::from(width),
                "width {width}: {text:?} is {} wide",
                text.width()
            );
            assert!(!text.contains('\n'));
        }
    }
}

#[test]
fn segments_drop_in_reverse_priority_as_width_shrinks() {
    let now = Instant::now();
    let mut model = sample(now, true);
    model.hidden_approvals = 2;
    model.goal = GoalBadge::Active { used: 3, max: 20 };
    model.voice = Some("● REC");
    model.sandbox = "workspace-write, network on".into();
    model.cron = "⏰ digest 09:00".into();
    let mut previous = visible_segments(&model, now, 280);
    assert_eq!(previous, Segment::PRIORITY.to_vec());
    for width in (0..280u16).rev() {
        let now_showing = visible_segments(&model, now, width);
        // Always a prefix of the priority list, and never growing as the width shrinks.
        assert_eq!(now_showing[..], Segment::PRIORITY[..now_showing.len()]);
        assert!(now_showing.len() <= previous.len(), "width {width}");
        previous = now_showing;
    }
}

#[test]
fn a_goal_shows_after_the_model_while_active_or_paused() {
    let now = Instant::now();
    let mut model = sample(now, false);
    let text = |m: &StatusModel| line_text(&render_status_bar(m, now, 200, &Theme::default()));
    assert!(!visible_segments(&model, now, 220).contains(&Segment::Goal));
    model.goal = GoalBadge::Active { used: 3, max: 20 };
    assert!(
        text(&model).starts_with(" ✓ ready │ claude-sonnet-4 │ ⊙ 3/20 │ ctx"),
        "{:?}",
        text(&model)
    );
    model.goal = GoalBadge::Paused;
    assert!(text(&model).contains("│ ⏸ goal │"), "{:?}", text(&model));
    // A narrow bar keeps the model and drops the goal (then the context numbers follow it).
    let at = |w| visible_segments(&model, now, w);
    assert!(at(40).contains(&Segment::Model) && !at(40).contains(&Segment::Goal));
}

#[test]
fn compressions_show_only_once_there_are_some() {
    let now = Instant::now();
    let mut model = sample(now, false);
    let wide = line_text(&render_status_bar(&model, now, 220, &Theme::default()));
    assert!(wide.contains("cmp 2"), "{wide:?}");
    model.compressions = 0;
    assert!(!visible_segments(&model, now, 220).contains(&Segment::Compressions));
}

#[test]
fn cost_goes_first_and_busy_model_yolo_stay_longest() {
    let now = Instant::now();
    let model = sample(now, true);
    let at = |w| visible_segments(&model, now, w);
    // The busy segment is ` ⠸ (｡•́︿•̀｡) pondering… 12s` (26 columns) in the default skin.
    assert!(at(131).contains(&Segment::Cost));
    assert!(!at(106).contains(&Segment::Cost));
    assert!(at(91).contains(&Segment::Bar));
    assert!(!at(91).contains(&Segment::Duration));
    assert!(!at(71).contains(&Segment::Bar));
    assert_eq!(at(51), vec![Segment::Busy, Segment::Yolo, Segment::Model]);
    // The model is shortened before it is dropped.
    let narrow = line_text(&render_status_bar(&model, now, 45, &Theme::default()));
    assert!(narrow.contains("│ claude-s… "), "{narrow:?}");
    assert!(narrow.ends_with(" YOLO "), "{narrow:?}");
}

#[test]
fn idle_shows_ready_and_never_ticks() {
    let now = Instant::now();
    let model = sample(now, false);
    let text = line_text(&render_status_bar(&model, now, 200, &Theme::default()));
    assert!(text.starts_with(" ✓ ready │ claude-sonnet-4 │ ctx 76.8k/128k │ [██████░░░░] 60%"));
    assert!(text.contains("│ 12m │ cmp 2 │ ↑12.3k ↓4.1k │ $0.0123"));
    assert_eq!(next_animation_deadline(&model, now), None);
}

#[test]
fn busy_ticks_on_spinner_frame_boundaries() {
    let now = Instant::now();
    let model = sample(now, true);
    let since = model.busy.as_ref().unwrap().since;
    // 12_340 ms elapsed: the next frame starts at 12_400 ms.
    assert_eq!(
        next_animation_deadline(&model, now),
        Some(since + Duration::from_millis(12_400))
    );
    let text = line_text(&render_status_bar(&model, now, 200, &Theme::default()));
    // Frame 123 % 10 = 3; the default skin's first thinking face and verb.
    assert!(text.starts_with(" ⠸ (｡•́︿•̀｡) pondering… 12s │"), "{text:?}");
    let mut hidden = model;
    hidden.visible = Visibility::Hidden;
    assert_eq!(next_animation_deadline(&hidden, now), None);
    assert_eq!(
        render_status_bar(&hidden, now, 80, &Theme::default())
            .spans
            .len(),
        0
    );
}

#[test]
fn bar_colour_thresholds() {
    assert_eq!(bar_role(0), Role::StatusBarGood);
    assert_eq!(bar_role(49), Role::StatusBarGood);
    assert_eq!(bar_role(50), Role::StatusBarWarn);
    assert_eq!(bar_role(79), Role::StatusBarWarn);
    assert_eq!(bar_role(80), Role::StatusBarBad);
    assert_eq!(bar_role(94), Role::StatusBarBad);
    assert_eq!(bar_role(95), Role::StatusBarCritical);
    assert_eq!(bar_role(140), Role::StatusBarCritical);
}

#[test]
fn unknown_window_leaves_out_the_bar() {
    let now = Instant::now();
    let mut model = sample(now, false);
    model.context_window = 0;
    model.cost_usd = None;
    let text = line_text(&render_status_bar(&model, now, 200, &Theme::default()));
    assert!(text.contains("│ ctx 76.8k │ 12m │"), "{text:?}");
    assert!(!text.contains('['));
    assert!(!text.contains('$'));
}

#[test]
fn number_formats() {
    assert_eq!(format_tokens(0), "0");
    assert_eq!(format_tokens(999), "999");
    assert_eq!(format_tokens(1_000), "1k");
    assert_eq!(format_tokens(12_345), "12.3k");
    assert_eq!(format_tokens(128_000), "128k");
    assert_eq!(format_tokens(999_449), "999k");
    assert_eq!(format_tokens(999_450), "1M");
    assert_eq!(format_tokens(1_500_000), "1.5M");
    assert_eq!(format_elapsed(Duration::from_secs(12)), "12s");
    assert_eq!(format_elapsed(Duration::from_secs(185)), "3m 05s");
    assert_eq!(format_elapsed(Duration::from_secs(3720)), "1h 02m");
}

#[test]
fn the_next_cron_job_shows_when_there_is_room() {
    let now = Instant::now();
    let mut m = StatusModel::new("echo", now);
    m.cron = "⏰ digest 09:00".into();
    let wide = render_status_bar(&m, now, 140, &Theme::default()).to_string();
    assert!(wide.contains("⏰ digest 09:00"), "{wide}");
    assert!(visible_segments(&m, now, 140).contains(&Segment::Cron));
    m.cron.clear();
    assert!(!visible_segments(&m, now, 140).contains(&Segment::Cron));
}
