use crossterm::event::KeyModifiers;
use pretty_assertions::assert_eq;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use super::*;
use crate::protocol::Event;
use crate::protocol::MessageComplete;
use crate::protocol::MessageDelta;
use crate::protocol::MessageStart;
use crate::protocol::ReasoningDelta;
use crate::protocol::ToolProgress;
use crate::protocol::ToolStart;
use crate::protocol::ToolStatus;
use crate::tui::transcript::bench_transcript;

fn draw(view: &mut ChatView, t: &Transcript, w: u16, h: u16) -> Terminal<TestBackend> {
    draw_focus(view, t, w, h, ChatFocus::Unfocused)
}

fn draw_focus(
    view: &mut ChatView,
    t: &Transcript,
    w: u16,
    h: u16,
    focus: ChatFocus,
) -> Terminal<TestBackend> {
    let mut term = Terminal::new(TestBackend::new(w, h)).unwrap();
    term.draw(|f| {
        let area = f.area();
        view.render(t, area, f.buffer_mut(), &Theme::default(), focus);
    })
    .unwrap();
    term
}

use crate::tui::test_support::screen_rows as screen;

fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

fn tool(t: &mut Transcript, id: &str, name: &str, preview: &str, status: ToolStatus, out: &str) {
    for event in crate::tui::test_support::tool_call_events(id, name, preview, status, out, 100) {
        t.apply(&event);
    }
}

/// `n` one-line user messages ("msg 0" ...), each taking two rows with its separator.
fn numbered(n: usize) -> Transcript {
    let mut t = Transcript::new();
    for i in 0..n {
        t.push_user(&format!("msg {i}"));
    }
    t
}

fn first_row(term: &Terminal<TestBackend>) -> String {
    screen(term)[1].clone()
}

#[test]
fn snapshot_empty_state() {
    let mut view = ChatView::new();
    let term = draw_focus(&mut view, &Transcript::new(), 50, 8, ChatFocus::Focused);
    insta::assert_snapshot!("chat_empty", term.backend());
}

#[test]
fn snapshot_stream_mid_line_shows_only_complete_words() {
    let mut t = Transcript::new();
    t.push_user("write a haiku");
    t.apply(&Event::MessageStart(MessageStart { turn_id: 1 }));
    t.apply(&Event::MessageDelta(MessageDelta {
        turn_id: 1,
        text: "## Haiku\n\nAn old silent pond\nA frog jumps into the po".to_string(),
    }));
    let mut view = ChatView::new();
    let term = draw(&mut view, &t, 40, 10);
    let text = screen(&term).join("\n");
    assert!(text.contains("An old silent pond"));
    assert!(text.contains("A frog jumps"), "complete words show");
    assert!(!text.contains("the po"), "the partial word stays hidden");
    insta::assert_snapshot!("chat_stream_mid_line", term.backend());
}

#[test]
fn snapshot_tool_cell_collapsed_and_expanded() {
    let mut t = Transcript::new();
    let out = (1..=6)
        .map(|i| format!("line {i}"))
        .collect::<Vec<_>>()
        .join("\n");
    tool(
        &mut t,
        "c1",
        "terminal",
        "echo \"1\" > /tmp/note_1.txt",
        ToolStatus::Ok,
        &out,
    );
    let mut view = ChatView::new();
    let term = draw_focus(&mut view, &t, 44, 9, ChatFocus::Focused);
    assert!(
        screen(&term)
            .join("\n")
            .contains("… 3 more lines (Enter to expand)")
    );
    insta::assert_snapshot!("chat_tool_collapsed", term.backend());

    assert!(view.handle_key(key(KeyCode::Up)), "up selects the cell");
    assert!(view.handle_key(key(KeyCode::Enter)), "enter toggles it");
    let term = draw_focus(&mut view, &t, 44, 12, ChatFocus::Focused);
    assert!(screen(&term).join("\n").contains("line 6"));
    insta::assert_snapshot!("chat_tool_expanded", term.backend());
}

#[test]
fn verbose_detail_expands_every_cell_and_enter_collapses_one() {
    let mut t = Transcript::new();
    let out = (1..=6)
        .map(|i| format!("line {i}"))
        .collect::<Vec<_>>()
        .join("\n");
    tool(&mut t, "c1", "terminal", "seq 6", ToolStatus::Ok, &out);
    let mut view = ChatView::new();
    assert_eq!(view.cycle_detail(), ToolDetail::Expanded);
    let term = draw_focus(&mut view, &t, 44, 12, ChatFocus::Unfocused);
    assert!(screen(&term).join("\n").contains("line 6"));
    assert!(view.handle_key(key(KeyCode::Up)));
    assert!(view.handle_key(key(KeyCode::Enter)));
    let term = draw_focus(&mut view, &t, 44, 12, ChatFocus::Focused);
    assert!(
        !screen(&term).join("\n").contains("line 6"),
        "toggled back to a preview"
    );
    assert_eq!(view.cycle_detail(), ToolDetail::Collapsed);
}

#[test]
fn snapshot_error_and_denied_tool_cells() {
    let mut t = Transcript::new();
    tool(
        &mut t,
        "a",
        "terminal",
        "cat /nope",
        ToolStatus::Error,
        "cat: /nope: No such file",
    );
    tool(
        &mut t,
        "b",
        "terminal",
        "rm -rf /",
        ToolStatus::Denied,
        "blocked by policy",
    );
    tool(
        &mut t,
        "c",
        "read_file",
        "src/main.rs",
        ToolStatus::Ok,
        "fn main() {}",
    );
    t.apply(&Event::ToolStart(ToolStart {
        call_id: "d".to_string(),
        name: "process".to_string(),
        preview: "cargo build".to_string(),
        arguments: serde_json::Value::Null,
        parent_call_id: None,
    }));
    t.apply(&Event::ToolProgress(ToolProgress {
        call_id: "d".to_string(),
        text: "Compiling hermes".to_string(),
    }));
    let mut view = ChatView::new();
    let term = draw(&mut view, &t, 44, 14);
    let text = screen(&term).join("\n");
    assert!(text.contains("✗ error"));
    assert!(text.contains("⊘ denied"));
    assert!(text.contains("running…"));
    insta::assert_snapshot!("chat_tool_error_denied_running", term.backend());
}

#[test]
fn snapshot_reasoning_collapsed() {
    let mut t = Transcript::new();
    t.push_user("why?");
    t.apply(&Event::ReasoningDelta(ReasoningDelta {
        turn_id: 1,
        text: "First I consider.\nThen I conclude.\nDone.\n".to_string(),
    }));
    t.apply(&Event::MessageStart(MessageStart { turn_id: 1 }));
    t.apply(&Event::MessageComplete(MessageComplete {
        turn_id: 1,
        text: "Because **reasons**.".to_string(),
        reasoning: None,
    }));
    let mut view = ChatView::new();
    let term = draw(&mut view, &t, 40, 9);
    let text = screen(&term).join("\n");
    assert!(text.contains("∴ reasoning (3 lines)"));
    assert!(!text.contains("First I consider"));
    insta::assert_snapshot!("chat_reasoning_collapsed", term.backend());
}

#[test]
fn reasoning_streams_expanded_tail_then_collapses() {
    let mut t = Transcript::new();
    t.apply(&Event::ReasoningDelta(ReasoningDelta {
        turn_id: 1,
        text: "a\nb\nc\nd\ne\nf".to_string(),
    }));
    let mut view = ChatView::new();
    let text = screen(&draw(&mut view, &t, 30, 9)).join("\n");
    assert!(text.contains("∴ reasoning…"));
    assert!(
        text.contains("  e") && !text.contains("  a"),
        "newest complete lines only"
    );
    assert!(!text.contains("  f"), "newline-gated");
}

#[test]
fn snapshot_scrolled_up_with_new_marker() {
    let mut t = numbered(30);
    let mut view = ChatView::new();
    draw(&mut view, &t, 30, 8);
    view.scroll_up(10);
    let before = screen(&draw(&mut view, &t, 30, 8));
    assert!(!view.is_following());
    t.push_user("new one");
    t.push_notice(crate::protocol::NoticeLevel::Info, "another");
    let term = draw(&mut view, &t, 30, 8);
    let after = screen(&term);
    assert_eq!(
        before[1..7],
        after[1..7],
        "new output does not move the view"
    );
    assert_eq!(view.new_below(), 2);
    assert!(after[7].contains("↓ 2 new"));
    insta::assert_snapshot!("chat_scrolled_up_new_marker", term.backend());
}

#[test]
fn follows_the_bottom_and_marker_only_when_scrolled_up() {
    let mut t = numbered(20);
    let mut view = ChatView::new();
    let term = draw(&mut view, &t, 30, 8);
    assert!(view.is_following());
    assert!(screen(&term)[6].contains("msg 19"));
    t.push_user("msg 20");
    let term = draw(&mut view, &t, 30, 8);
    assert!(screen(&term)[6].contains("msg 20"), "follows new output");
    assert_eq!(view.new_below(), 0);
    assert!(!screen(&term)[7].contains("new"));

    view.scroll_up(4);
    draw(&mut view, &t, 30, 8);
    assert_eq!(view.new_below(), 0, "no marker without new output");
    view.scroll_down(100);
    t.push_user("msg 21");
    let term = draw(&mut view, &t, 30, 8);
    assert!(
        view.is_following(),
        "scrolling down to the end follows again"
    );
    assert_eq!(view.new_below(), 0);
    assert!(screen(&term)[6].contains("msg 21"));
}

#[test]
fn scroll_maths_top_bottom_pages_and_clamping() {
    let t = numbered(50);
    let mut view = ChatView::new();
    draw(&mut view, &t, 30, 8);
    view.scroll_to_top();
    let term = draw(&mut view, &t, 30, 8);
    assert!(first_row(&term).contains("msg 0"));
    view.scroll_up(5);
    assert!(
        first_row(&draw(&mut view, &t, 30, 8)).contains("msg 0"),
        "clamped at top"
    );
    view.scroll_down(4);
    assert!(first_row(&draw(&mut view, &t, 30, 8)).contains("msg 2"));
    view.page_down();
    // Page = inner height - 1 = 5 rows; row 4 + 5 = 9 → msg 4's separator... first row is
    // line 9 of the content: "" after msg 4.
    let term = draw(&mut view, &t, 30, 8);
    assert!(screen(&term)[2].contains("msg 5"));
    view.page_up();
    assert!(first_row(&draw(&mut view, &t, 30, 8)).contains("msg 2"));
    view.scroll_to_bottom();
    draw(&mut view, &t, 30, 8);
    assert!(view.is_following());
}

#[test]
fn short_transcript_never_leaves_follow_mode() {
    let t = numbered(2);
    let mut view = ChatView::new();
    view.scroll_up(3);
    view.scroll_to_top();
    draw(&mut view, &t, 30, 10);
    assert!(view.is_following());
}

#[test]
fn resize_keeps_the_anchor_cell() {
    let t = numbered(40);
    let mut view = ChatView::new();
    draw(&mut view, &t, 30, 8);
    view.scroll_to_top();
    view.scroll_down(20);
    let narrow = draw(&mut view, &t, 30, 8);
    assert!(first_row(&narrow).contains("msg 10"));
    let wide = draw(&mut view, &t, 60, 8);
    assert!(first_row(&wide).contains("msg 10"));
}

#[test]
fn selection_moves_and_highlights_and_esc_clears() {
    let t = numbered(5);
    let mut view = ChatView::new();
    draw(&mut view, &t, 30, 12);
    assert!(view.handle_key(key(KeyCode::Up)));
    draw(&mut view, &t, 30, 12);
    let last = t.entries()[4].id();
    assert_eq!(view.selected(), Some(last));
    view.handle_key(key(KeyCode::Up));
    view.handle_key(key(KeyCode::Up));
    let term = draw(&mut view, &t, 30, 12);
    assert_eq!(view.selected(), Some(t.entries()[2].id()));
    let selection = Theme::default().style(Role::Selection).bg;
    let row = screen(&term)
        .iter()
        .position(|r| r.contains("msg 2"))
        .unwrap();
    assert_eq!(
        term.backend().buffer()[(3, row as u16)].bg,
        selection.unwrap()
    );
    assert!(view.handle_key(key(KeyCode::Esc)));
    assert_eq!(view.selected(), None);
    assert!(
        !view.handle_key(key(KeyCode::Enter)),
        "Enter without selection is not ours"
    );
}

#[test]
fn selecting_an_offscreen_cell_scrolls_to_it() {
    let t = numbered(30);
    let mut view = ChatView::new();
    draw(&mut view, &t, 30, 8);
    for _ in 0..10 {
        view.handle_key(key(KeyCode::Up));
    }
    let term = draw(&mut view, &t, 30, 8);
    assert_eq!(view.selected(), Some(t.entries()[20].id()));
    let row = screen(&term).iter().position(|r| r.contains("msg 20"));
    assert!(
        row.is_some(),
        "selected cell is visible: {:?}",
        screen(&term)
    );
}

#[test]
fn mouse_wheel_scrolls_and_click_toggles_tool_cell() {
    let mut t = numbered(3);
    let out = (1..=8)
        .map(|i| format!("o{i}"))
        .collect::<Vec<_>>()
        .join("\n");
    tool(&mut t, "c", "terminal", "seq 8", ToolStatus::Ok, &out);
    let mut view = ChatView::new();
    let term = draw(&mut view, &t, 30, 12);
    let row = screen(&term)
        .iter()
        .position(|r| r.contains("seq 8"))
        .unwrap() as u16;
    let click = MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: 5,
        row,
        modifiers: KeyModifiers::NONE,
    };
    assert!(view.handle_mouse(click));
    let id = t.entries()[3].id();
    assert_eq!(view.selected(), Some(id));
    let term = draw(&mut view, &t, 30, 12);
    assert!(view.is_expanded(id));
    assert!(screen(&term).join("\n").contains("o1"));

    let wheel = MouseEvent {
        kind: MouseEventKind::ScrollUp,
        column: 5,
        row: 3,
        modifiers: KeyModifiers::NONE,
    };
    assert!(view.handle_mouse(wheel));
    draw(&mut view, &t, 30, 12);
    assert!(!view.is_following());
    let outside = MouseEvent {
        column: 200,
        ..wheel
    };
    assert!(!view.handle_mouse(outside));
}

#[test]
fn only_visible_cells_are_laid_out() {
    let t = bench_transcript(10_000);
    let mut view = ChatView::new();
    draw(&mut view, &t, 100, 40);
    let first = view.cells_rendered();
    assert!(first < 40, "laid out {first} cells for one screen");
    draw(&mut view, &t, 100, 40);
    assert_eq!(
        view.cells_rendered(),
        first,
        "a second frame hits the cache"
    );
    draw(&mut view, &t, 80, 40);
    assert!(
        view.cells_rendered() - first < 40,
        "resize re-wraps visible cells only"
    );
    view.scroll_to_top();
    draw(&mut view, &t, 80, 40);
    assert!(view.cells_rendered() < 120);
}

#[test]
fn tool_emoji_and_duration_format() {
    let theme = Theme::default();
    assert_eq!(theme.tool_emoji("terminal"), "💻");
    assert_eq!(theme.tool_emoji("search_files"), "🔎");
    assert_eq!(theme.tool_emoji("mcp_thing"), "🔌");
    assert_eq!(format_duration(100), "0.1s");
    assert_eq!(format_duration(12_340), "12.4s");
    assert_eq!(format_duration(125_000), "2m 05s");
}

/// Frame time with 10,000 cells, following the bottom (run with `--release --ignored`).
#[test]
#[ignore]
fn frame_time_10k() {
    let t = bench_transcript(10_000);
    let mut view = ChatView::new();
    let theme = Theme::default();
    let area = Rect::new(0, 0, 120, 50);
    let mut buf = Buffer::empty(area);
    let load = std::time::Instant::now();
    crate::tui::markdown::preload();
    let load = load.elapsed();
    let cold = std::time::Instant::now();
    view.render(&t, area, &mut buf, &theme, ChatFocus::Focused);
    let cold = cold.elapsed();
    let n = 200;
    let warm = std::time::Instant::now();
    for _ in 0..n {
        buf.reset();
        view.render(&t, area, &mut buf, &theme, ChatFocus::Focused);
    }
    let warm = warm.elapsed() / n;
    let scroll = std::time::Instant::now();
    for _ in 0..n {
        view.page_up();
        buf.reset();
        view.render(&t, area, &mut buf, &theme, ChatFocus::Focused);
    }
    let scroll = scroll.elapsed() / n;
    let resize = std::time::Instant::now();
    let narrow = Rect::new(0, 0, 90, 50);
    view.render(
        &t,
        narrow,
        &mut Buffer::empty(narrow),
        &theme,
        ChatFocus::Focused,
    );
    let resize = resize.elapsed();
    eprintln!(
        "syntect load {load:?}, cold {cold:?}, warm {warm:?}, page-up {scroll:?}, resize {resize:?}"
    );
    assert!(warm < std::time::Duration::from_millis(4));
}
