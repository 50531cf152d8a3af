#![allow(clippy::unwrap_used, clippy::expect_used)]

use pretty_assertions::assert_eq;

use super::*;
use crossterm::event::KeyEvent;

const WHITE_ST: &[u8] = b"\x1b]11;rgb:ffff/ffff/ffff\x1b\\";
const DA1: &[u8] = b"\x1b[?64;1;2;6;22c";

fn key(c: char, modifiers: KeyModifiers) -> TermEvent {
    TermEvent::Key(KeyEvent::new(KeyCode::Char(c), modifiers))
}

#[test]
fn asks_only_in_auto_mode_when_colorfgbg_does_not_decide_and_colours_are_on() {
    let auto = ThemeMode::Auto;
    let tc = ColorDepth::TrueColor;
    assert!(should_query(auto, None, tc));
    assert!(should_query(auto, Some("default;default"), tc));
    assert!(
        !should_query(auto, Some("0;15"), tc),
        "COLORFGBG says light"
    );
    assert!(!should_query(auto, Some("15;0"), tc), "COLORFGBG says dark");
    assert!(!should_query(ThemeMode::Light, None, tc));
    assert!(!should_query(ThemeMode::Dark, None, tc));
    assert!(!should_query(auto, None, ColorDepth::None), "NO_COLOR");
}

#[test]
fn finds_the_reply_and_the_da1_answer() {
    let mut bytes = WHITE_ST.to_vec();
    bytes.extend_from_slice(DA1);
    assert_eq!(
        scan(&bytes),
        Scan {
            rgb: Some((255, 255, 255)),
            da1: true,
            stray: Vec::new(),
        }
    );
}

#[test]
fn a_bel_terminated_reply_counts_too() {
    let scan = scan(b"\x1b]11;rgb:1e1e/1e1e/2e2e\x07\x1b[?1;2c");
    assert_eq!(scan.rgb, Some((30, 30, 46)));
    assert!(scan.da1);
}

#[test]
fn a_terminal_without_osc11_answers_only_da1() {
    assert_eq!(
        scan(DA1),
        Scan {
            rgb: None,
            da1: true,
            stray: Vec::new(),
        }
    );
}

#[test]
fn typed_bytes_around_the_replies_are_kept_in_order() {
    let mut bytes = b"hi".to_vec();
    bytes.extend_from_slice(WHITE_ST);
    bytes.extend_from_slice(b"\x1b[A!");
    bytes.extend_from_slice(DA1);
    let scan = scan(&bytes);
    assert_eq!(scan.rgb, Some((255, 255, 255)));
    assert!(scan.da1);
    assert_eq!(scan.stray, b"hi\x1b[A!".to_vec());
}

#[test]
fn an_unfinished_reply_is_neither_an_answer_nor_typed() {
    let scan = scan(b"x\x1b]11;rgb:ffff/ff");
    assert_eq!(
        scan,
        Scan {
            rgb: None,
            da1: false,
            stray: b"x".to_vec(),
        }
    );
}

#[test]
fn typed_ahead_keys_are_kept_and_escape_sequences_dropped() {
    let (keys, dropped) = stray_keys("aB é\x1b[A\r\x1bxz\t\x7f\x03".as_bytes());
    let typed: Vec<(KeyCode, KeyModifiers)> = keys.iter().map(|k| (k.code, k.modifiers)).collect();
    assert_eq!(
        typed,
        [
            (KeyCode::Char('a'), KeyModifiers::NONE),
            (KeyCode::Char('B'), KeyModifiers::SHIFT),
            (KeyCode::Char(' '), KeyModifiers::NONE),
            (KeyCode::Char('é'), KeyModifiers::NONE),
            (KeyCode::Enter, KeyModifiers::NONE),
            (KeyCode::Char('z'), KeyModifiers::NONE),
            (KeyCode::Tab, KeyModifiers::NONE),
            (KeyCode::Backspace, KeyModifiers::NONE),
            (KeyCode::Char('c'), KeyModifiers::CONTROL),
        ]
    );
    // The arrow (one sequence) and Alt+x.
    assert_eq!(dropped, 2);
}

/// The keys crossterm makes of `ESC ] 11 ; rgb:ffff/ffff/ffff BEL`.
fn late_reply_keys() -> Vec<TermEvent> {
    let mut keys = vec![key(']', KeyModifiers::ALT)];
    keys.extend(
        "11;rgb:ffff/ffff/ffff"
            .chars()
            .map(|c| key(c, KeyModifiers::NONE)),
    );
    keys.push(key('g', KeyModifiers::CONTROL));
    keys
}

#[test]
fn an_armed_filter_swallows_one_late_reply_and_nothing_else() {
    let now = Instant::now();
    let mut filter = LateReplyFilter::default();
    filter.arm(now);
    assert!(!filter.swallow(&key('a', KeyModifiers::NONE), now));
    for event in late_reply_keys() {
        assert!(filter.swallow(&event, now), "{event:?}");
    }
    // Done after one reply: the next keys are the user's.
    assert!(!filter.swallow(&key(']', KeyModifiers::ALT), now));
    assert!(!filter.swallow(&key('1', KeyModifiers::NONE), now));
}

#[test]
fn an_st_terminated_late_reply_ends_at_alt_backslash() {
    let now = Instant::now();
    let mut filter = LateReplyFilter::default();
    filter.arm(now);
    assert!(filter.swallow(&key(']', KeyModifiers::ALT), now));
    assert!(filter.swallow(&key('1', KeyModifiers::NONE), now));
    assert!(filter.swallow(&key('\\', KeyModifiers::ALT), now));
    assert!(!filter.swallow(&key('x', KeyModifiers::NONE), now));
}

#[test]
fn the_filter_does_nothing_unarmed_or_after_its_window() {
    let now = Instant::now();
    let mut unarmed = LateReplyFilter::default();
    assert!(!unarmed.swallow(&key(']', KeyModifiers::ALT), now));
    let mut filter = LateReplyFilter::default();
    filter.arm(now);
    let later = now + LATE_REPLY_WINDOW + Duration::from_millis(1);
    assert!(!filter.swallow(&key(']', KeyModifiers::ALT), later));
}

/// A pipe: (read end, write end), closed when dropped.
#[cfg(unix)]
fn pipe() -> (std::os::fd::OwnedFd, std::fs::File) {
    use std::os::fd::FromRawFd;
    let mut fds = [0; 2];
    // SAFETY: `fds` has room for the two descriptors `pipe` writes.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    // SAFETY: both descriptors were just created and are owned here alone.
    unsafe {
        (
            std::os::fd::OwnedFd::from_raw_fd(fds[0]),
            std::fs::File::from_raw_fd(fds[1]),
        )
    }
}

#[cfg(unix)]
#[test]
fn query_writes_both_questions_and_stops_at_the_da1_answer() {
    use std::io::Write;
    use std::os::fd::AsRawFd;
    let (input, mut terminal) = pipe();
    terminal.write_all(b"x").unwrap();
    terminal.write_all(WHITE_ST).unwrap();
    terminal.write_all(DA1).unwrap();
    let mut asked = Vec::new();
    let started = Instant::now();
    let probe = query(input.as_raw_fd(), &mut asked, Duration::from_secs(5)).unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "no wait once answered"
    );
    assert_eq!(asked, b"\x1b]11;?\x1b\\\x1b[c".to_vec());
    assert_eq!(
        probe,
        Probe {
            rgb: Some((255, 255, 255)),
            answered: Answered::Complete,
            stray: b"x".to_vec(),
        }
    );
}

#[cfg(unix)]
#[test]
fn a_silent_terminal_costs_the_timeout_and_no_more() {
    use std::os::fd::AsRawFd;
    let (input, _terminal) = pipe();
    let started = Instant::now();
    let probe = query(
        input.as_raw_fd(),
        &mut Vec::new(),
        Duration::from_millis(100),
    )
    .unwrap();
    let waited = started.elapsed();
    assert!(waited >= Duration::from_millis(100), "{waited:?}");
    assert!(waited < Duration::from_millis(600), "{waited:?}");
    assert_eq!(probe.answered, Answered::TimedOut);
    assert_eq!(probe.rgb, None);
}

#[cfg(unix)]
#[test]
fn a_mouse_report_in_the_reply_window_types_nothing() {
    use std::io::Write;
    use std::os::fd::AsRawFd;
    let (input, mut terminal) = pipe();
    // A stale X10 click at 1,1, a report cut between two reads, then the answers.
    terminal.write_all(b"x\x1b[M !!\x1b[M ").unwrap();
    let writer = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(20));
        terminal.write_all(b"!!").unwrap();
        terminal.write_all(DA1).unwrap();
        terminal
    });
    let probe = query(input.as_raw_fd(), &mut Vec::new(), Duration::from_secs(5)).unwrap();
    drop(writer.join().unwrap());
    let (keys, _) = stray_keys(&probe.stray);
    let typed: Vec<KeyCode> = keys.iter().map(|k| k.code).collect();
    assert_eq!(typed, [KeyCode::Char('x')]);
}

#[cfg(unix)]
#[test]
fn a_report_cut_at_the_timeout_is_read_to_its_end() {
    use std::io::Write;
    use std::os::fd::AsRawFd;
    let (input, mut terminal) = pipe();
    terminal.write_all(b"x\x1b[M").unwrap();
    let writer = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(45));
        terminal.write_all(b" !!").unwrap();
        terminal
    });
    let probe = query(
        input.as_raw_fd(),
        &mut Vec::new(),
        Duration::from_millis(30),
    )
    .unwrap();
    let _terminal = writer.join().unwrap();
    assert_eq!(probe.answered, Answered::TimedOut);
    // The rest of the report was read here, so crossterm never sees `" !!"` as typing.
    assert_eq!(probe.stray, b"x\x1b[M !!".to_vec());
    assert_eq!(stray_keys(&probe.stray).0.len(), 1);
}
