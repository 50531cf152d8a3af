#![allow(clippy::unwrap_used, clippy::expect_used)]

use crossterm::event::KeyEvent;
use pretty_assertions::assert_eq;

use super::*;
use crate::tui::test_support::WithSession;
use crate::tui::test_support::test_app;

fn esc() -> TermEvent {
    TermEvent::Key(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE))
}

/// The keys crossterm makes of `text` after a split-off ESC.
fn keys(text: &str) -> Vec<TermEvent> {
    text.chars()
        .map(|c| {
            let modifiers = if c.is_uppercase() {
                KeyModifiers::SHIFT
            } else {
                KeyModifiers::NONE
            };
            TermEvent::Key(KeyEvent::new(KeyCode::Char(c), modifiers))
        })
        .collect()
}

/// What `events` become, all arriving `gap` apart.
fn through(events: Vec<TermEvent>, gap: Duration) -> Vec<TermEvent> {
    let mut filter = MouseTailFilter::default();
    let mut now = Instant::now();
    let mut out = Vec::new();
    for event in events {
        out.extend(filter.filter(event, now));
        now += gap;
    }
    out
}

#[test]
fn the_tail_of_every_report_encoding_is_dropped() {
    let fast = Duration::from_millis(1);
    for tail in [
        "[M !!",
        "[M#!!",
        "[M`*+",
        "[<0;1;1M",
        "[<0;120;40m",
        "[32;1;1M",
    ] {
        let mut events = vec![esc()];
        events.extend(keys(tail));
        events.extend(keys("ok"));
        let mut expected = vec![esc()];
        expected.extend(keys("ok"));
        assert_eq!(through(events, fast), expected, "{tail}");
    }
}

#[test]
fn typing_is_never_dropped_or_reordered() {
    let fast = Duration::from_millis(1);
    // Not a tail: handed on as soon as that is clear.
    let mut events = vec![esc()];
    events.extend(keys("[x]"));
    assert_eq!(through(events.clone(), fast), events);
    // At typing speed, even a tail's shape is typing.
    let mut events = vec![esc()];
    events.extend(keys("[M !!"));
    assert_eq!(through(events.clone(), Duration::from_millis(120)), events);
    // No Esc before: nothing is held.
    let events = keys("[M !!");
    assert_eq!(through(events.clone(), fast), events);
}

#[test]
fn a_cut_tail_is_dropped_when_the_window_passes() {
    let mut filter = MouseTailFilter::default();
    let now = Instant::now();
    let mut out = filter.filter(esc(), now);
    for key in keys("[M ") {
        out.extend(filter.filter(key, now));
    }
    out.extend(filter.filter(keys("a").remove(0), now + Duration::from_millis(200)));
    let mut expected = vec![esc()];
    expected.extend(keys("a"));
    assert_eq!(out, expected);
}

#[test]
fn a_split_x10_report_leaves_nothing_in_the_composer() {
    let dir = tempfile::tempdir().unwrap();
    let (mut app, _ops) = test_app(&dir, WithSession::Yes);
    for event in keys("hi") {
        crate::tui::input::on_terminal_event(&mut app, event);
    }
    crate::tui::input::on_terminal_event(&mut app, esc());
    for event in keys("[M !!") {
        crate::tui::input::on_terminal_event(&mut app, event);
    }
    // Esc may clear the draft or keep it; the report must add nothing either way.
    let text = app.composer.text();
    assert!(!text.contains('!') && !text.contains('['), "{text:?}");
}
