use super::*;
use crate::theme::Role;
use crate::theme::Theme;
use crate::tui::popup::render_popup;
use pretty_assertions::assert_eq;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use std::path::PathBuf;
use std::time::Duration;
use std::time::Instant;

fn composer() -> Composer {
    Composer::new(InputHistory::new(PathBuf::from("/nonexistent/tui_history")))
}

fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

fn with(code: KeyCode, modifiers: KeyModifiers) -> KeyEvent {
    KeyEvent::new(code, modifiers)
}

fn ctrl(c: char) -> KeyEvent {
    with(KeyCode::Char(c), KeyModifiers::CONTROL)
}

fn type_str(c: &mut Composer, s: &str) {
    for ch in s.chars() {
        assert_eq!(
            c.handle_key(key(KeyCode::Char(ch))),
            ComposerAction::Changed
        );
    }
}

fn press(c: &mut Composer, code: KeyCode) -> ComposerAction {
    c.handle_key(key(code))
}

fn slash(name: &str, args: &str) -> ComposerAction {
    ComposerAction::Submit(Submission::Slash {
        name: name.to_owned(),
        args: args.to_owned(),
    })
}

const FOCUSED: ComposerView = ComposerView {
    focus: ComposerFocus::Focused,
    busy: BusyHint::Idle,
};

/// Draws the popup (if open) directly above the composer, as the app does.
fn draw(c: &mut Composer, width: u16, view: ComposerView) -> Terminal<TestBackend> {
    let theme = Theme::default();
    let popup_rows = c
        .popup()
        .map_or(0, super::super::popup::SlashPopup::desired_height);
    let height = popup_rows + c.desired_height(width);
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal
        .draw(|f| {
            let area = f.area();
            if let Some(popup) = c.popup() {
                render_popup(
                    popup,
                    Rect {
                        height: popup_rows,
                        ..area
                    },
                    f.buffer_mut(),
                    &theme,
                );
            }
            let composer_area = Rect {
                y: area.y + popup_rows,
                height: area.height - popup_rows,
                ..area
            };
            c.render(composer_area, f.buffer_mut(), &theme, view);
        })
        .unwrap();
    terminal
}

#[test]
fn enter_submits_and_clears() {
    let mut c = composer();
    assert!(c.is_empty());
    assert_eq!(press(&mut c, KeyCode::Enter), ComposerAction::None);
    type_str(&mut c, "hello");
    assert_eq!(
        press(&mut c, KeyCode::Enter),
        ComposerAction::Submit(Submission::Message("hello".to_owned()))
    );
    assert!(c.is_empty());
    // Recording is the app's call (it stores canonical forms).
    assert!(c.history().is_empty());
    c.remember("hello");
    assert_eq!(c.history().entries(), ["hello"]);
}

#[test]
fn remember_skips_huge_entries() {
    let mut c = composer();
    c.remember(&"x".repeat(20_000));
    assert!(c.history().is_empty());
}

#[test]
fn shift_enter_alt_enter_and_ctrl_j_insert_newlines() {
    let mut c = composer();
    type_str(&mut c, "a");
    c.handle_key(with(KeyCode::Enter, KeyModifiers::SHIFT));
    type_str(&mut c, "b");
    c.handle_key(with(KeyCode::Enter, KeyModifiers::ALT));
    type_str(&mut c, "c");
    c.handle_key(ctrl('j'));
    type_str(&mut c, "d");
    assert_eq!(c.text(), "a\nb\nc\nd");
    assert_eq!(
        press(&mut c, KeyCode::Enter),
        ComposerAction::Submit(Submission::Message("a\nb\nc\nd".to_owned()))
    );
}

#[test]
fn backslash_enter_continues_the_line() {
    let mut c = composer();
    type_str(&mut c, "one\\");
    assert_eq!(press(&mut c, KeyCode::Enter), ComposerAction::Changed);
    type_str(&mut c, "two");
    assert_eq!(c.text(), "one\ntwo");
}

#[test]
fn slash_shell_and_alias_submissions() {
    let mut c = composer();
    type_str(&mut c, "/model foo");
    assert!(c.popup().is_none());
    assert_eq!(press(&mut c, KeyCode::Enter), slash("model", "foo"));

    type_str(&mut c, "/reset");
    assert_eq!(press(&mut c, KeyCode::Enter), slash("new", ""));

    type_str(&mut c, "/frob it");
    assert_eq!(press(&mut c, KeyCode::Enter), slash("frob", "it"));

    type_str(&mut c, "!ls -la");
    assert_eq!(
        press(&mut c, KeyCode::Enter),
        ComposerAction::Submit(Submission::Shell("ls -la".to_owned()))
    );
}

#[test]
fn submission_from_text() {
    assert_eq!(
        Submission::from_text("\n\n  hi\n  there  \n"),
        Submission::Message("  hi\n  there".to_owned())
    );
    assert_eq!(
        Submission::from_text("/Q later please"),
        Submission::Slash {
            name: "queue".to_owned(),
            args: "later please".to_owned()
        }
    );
    assert_eq!(
        Submission::from_text("/usr/bin/env is a path"),
        Submission::Message("/usr/bin/env is a path".to_owned())
    );
}

#[test]
fn popup_opens_for_partial_names_and_enter_completes() {
    let mut c = composer();
    type_str(&mut c, "/st");
    let names: Vec<&str> = c
        .popup()
        .unwrap()
        .matches()
        .iter()
        .map(|m| m.command.name())
        .collect();
    assert_eq!(
        names,
        ["status", "statusbar", "steer", "stop", "history", "paste"]
    );
    // status takes no arguments: Enter completes and sends.
    assert_eq!(press(&mut c, KeyCode::Enter), slash("status", ""));

    // model takes arguments: Enter completes and waits for them.
    type_str(&mut c, "/mo");
    assert_eq!(press(&mut c, KeyCode::Enter), ComposerAction::Changed);
    assert_eq!(c.text(), "/model ");
    assert!(c.popup().is_none());
}

#[test]
fn enter_on_a_bare_slash_only_completes() {
    let mut c = composer();
    type_str(&mut c, "/");
    assert!(c.popup().is_some());
    assert_eq!(press(&mut c, KeyCode::Enter), ComposerAction::Changed);
    assert_eq!(c.text(), "/agents ", "the first command in name order");
}

#[test]
fn popup_navigation_tab_and_esc() {
    let mut c = composer();
    type_str(&mut c, "/st");
    assert_eq!(press(&mut c, KeyCode::Down), ComposerAction::Changed);
    assert_eq!(press(&mut c, KeyCode::Tab), ComposerAction::Changed);
    assert_eq!(c.text(), "/statusbar ");

    c.clear();
    type_str(&mut c, "/st");
    press(&mut c, KeyCode::Up);
    assert_eq!(
        c.popup()
            .and_then(|p| p.selected())
            .map(|m| m.command.name()),
        Some("paste"),
        "Up wraps to the last match (a subsequence match ranks last)"
    );
    assert_eq!(press(&mut c, KeyCode::Esc), ComposerAction::Changed);
    assert!(c.popup().is_none());
    assert_eq!(press(&mut c, KeyCode::Esc), ComposerAction::None);
    // Closed until the name changes; Enter now sends what was typed.
    type_str(&mut c, "e");
    assert!(c.popup().is_some());
    press(&mut c, KeyCode::Esc);
    assert_eq!(press(&mut c, KeyCode::Enter), slash("ste", ""));
}

#[test]
fn exact_name_with_popup_open_sends() {
    let mut c = composer();
    type_str(&mut c, "/status");
    assert!(c.popup().is_some(), "statusbar still matches");
    assert_eq!(press(&mut c, KeyCode::Enter), slash("status", ""));
}

#[test]
fn tab_queues_a_nonempty_draft() {
    let mut c = composer();
    assert_eq!(press(&mut c, KeyCode::Tab), ComposerAction::None);
    type_str(&mut c, "later");
    assert_eq!(press(&mut c, KeyCode::Tab), ComposerAction::QueueCurrent);
    // The draft stays for the app to take.
    assert_eq!(c.text(), "later");
}

#[test]
fn history_recall_restores_the_draft() {
    let mut c = composer();
    c.history_mut().push("first");
    c.history_mut().push("second\nline");
    type_str(&mut c, "draft");
    assert_eq!(press(&mut c, KeyCode::Up), ComposerAction::Changed);
    assert_eq!(c.text(), "second\nline");
    // Unmodified recall: ↑ keeps walking even though the cursor is on the last line.
    press(&mut c, KeyCode::Up);
    assert_eq!(c.text(), "first");
    assert_eq!(press(&mut c, KeyCode::Up), ComposerAction::None);
    assert_eq!(c.text(), "first");
    press(&mut c, KeyCode::Down);
    assert_eq!(c.text(), "second\nline");
    press(&mut c, KeyCode::Down);
    assert_eq!(c.text(), "draft");
    assert!(!c.history().is_navigating());
    assert_eq!(press(&mut c, KeyCode::Down), ComposerAction::None);
}

#[test]
fn arrows_move_inside_multiline_drafts() {
    let mut c = composer();
    c.history_mut().push("old");
    c.set_text("one\ntwo");
    // Cursor on the last line: ↑ moves up a line, then recalls.
    assert_eq!(press(&mut c, KeyCode::Up), ComposerAction::Changed);
    assert_eq!(c.text(), "one\ntwo");
    press(&mut c, KeyCode::Up);
    assert_eq!(c.text(), "old");
    press(&mut c, KeyCode::Down);
    assert_eq!(c.text(), "one\ntwo");
}

#[test]
fn editing_a_recalled_entry_makes_it_the_draft() {
    let mut c = composer();
    c.history_mut().push("first");
    c.history_mut().push("second");
    press(&mut c, KeyCode::Up);
    type_str(&mut c, "!");
    assert!(!c.history().is_navigating());
    press(&mut c, KeyCode::Up);
    assert_eq!(c.text(), "second");
    press(&mut c, KeyCode::Down);
    assert_eq!(c.text(), "second!");
}

#[test]
fn recalled_slash_command_does_not_trap_arrows_in_the_popup() {
    let mut c = composer();
    c.history_mut().push("hello");
    c.history_mut().push("/status");
    press(&mut c, KeyCode::Up);
    assert_eq!(c.text(), "/status");
    assert!(c.popup().is_none());
    press(&mut c, KeyCode::Up);
    assert_eq!(c.text(), "hello");
}

#[test]
fn control_keys() {
    let mut c = composer();
    assert_eq!(c.handle_key(ctrl('d')), ComposerAction::Exit);
    assert_eq!(c.handle_key(ctrl('c')), ComposerAction::Interrupt);
    assert_eq!(c.handle_key(ctrl('g')), ComposerAction::OpenEditor);
    assert_eq!(c.handle_key(ctrl('b')), ComposerAction::None);
    assert_eq!(press(&mut c, KeyCode::PageUp), ComposerAction::None);

    type_str(&mut c, "hello world");
    c.handle_key(ctrl('w'));
    assert_eq!(c.text(), "hello ");
    c.handle_key(ctrl('a'));
    c.handle_key(ctrl('d'));
    assert_eq!(c.text(), "ello ");
    c.handle_key(ctrl('k'));
    assert_eq!(c.text(), "");
    type_str(&mut c, "abc");
    c.handle_key(ctrl('u'));
    assert_eq!(c.text(), "");
    c.handle_key(ctrl('z'));
    assert_eq!(c.text(), "abc");

    // Ctrl+C clears a draft but keeps it in history.
    assert_eq!(c.handle_key(ctrl('c')), ComposerAction::Changed);
    assert!(c.is_empty());
    press(&mut c, KeyCode::Up);
    assert_eq!(c.text(), "abc");
}

#[test]
fn release_events_are_ignored() {
    let mut c = composer();
    let mut k = key(KeyCode::Char('x'));
    k.kind = KeyEventKind::Release;
    assert_eq!(c.handle_key(k), ComposerAction::None);
    assert!(c.is_empty());
}

#[test]
fn paste_normalises_newlines() {
    let mut c = composer();
    c.handle_paste("a\r\nb\rc".to_owned());
    assert_eq!(c.display_text(), "a\nb\nc");
}

fn big_paste() -> String {
    (0..30)
        .map(|i| format!("line {i:02} {}", "x".repeat(50)))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn large_paste_is_one_atomic_placeholder() {
    let mut c = composer();
    let pasted = big_paste();
    assert!(pasted.chars().count() > 1500);
    type_str(&mut c, "before ");
    c.handle_paste(pasted.clone());
    type_str(&mut c, " after");
    assert_eq!(c.display_text(), "before [Pasted 30 lines] after");
    assert_eq!(c.text(), format!("before {pasted} after"));

    for _ in 0..6 {
        press(&mut c, KeyCode::Backspace);
    }
    assert_eq!(c.display_text(), "before [Pasted 30 lines]");
    press(&mut c, KeyCode::Backspace);
    assert_eq!(c.display_text(), "before ");

    // Undo brings the label back, still expandable.
    c.handle_key(ctrl('z'));
    assert_eq!(c.text(), format!("before {pasted}"));
}

#[test]
fn cursor_never_stops_inside_a_placeholder() {
    let mut c = composer();
    type_str(&mut c, "a");
    c.handle_paste("y".repeat(1500));
    type_str(&mut c, "b");
    assert_eq!(c.display_text(), "a[Pasted 1500 chars]b");
    press(&mut c, KeyCode::Left);
    press(&mut c, KeyCode::Left);
    assert_eq!(c.cursor(), (0, 1), "jumped to the label start");
    type_str(&mut c, "<");
    press(&mut c, KeyCode::Right);
    type_str(&mut c, ">");
    assert_eq!(c.display_text(), "a<[Pasted 1500 chars]>b");
    press(&mut c, KeyCode::Left);
    press(&mut c, KeyCode::Left);
    assert_eq!(c.cursor(), (0, 2), "back at the label start");
    press(&mut c, KeyCode::Delete);
    assert_eq!(c.display_text(), "a<>b");
    assert_eq!(c.text(), "a<>b");
}

#[test]
fn placeholder_expands_in_submission() {
    let mut c = composer();
    let pasted = big_paste();
    c.handle_paste(pasted.clone());
    assert_eq!(
        press(&mut c, KeyCode::Enter),
        ComposerAction::Submit(Submission::Message(pasted))
    );
    assert!(c.is_empty());
    assert_eq!(c.text(), "");
}

#[test]
fn ten_megabyte_paste_is_fast() {
    let pasted = "0123456789abcdef\r\n".repeat(10 * 1024 * 1024 / 18);
    // Best of three, so a loaded machine does not make the test flaky.
    let mut best = Duration::MAX;
    let mut c = composer();
    for _ in 0..3 {
        c = composer();
        let input = pasted.clone();
        let start = Instant::now();
        c.handle_paste(input);
        type_str(&mut c, "!");
        let _ = c.desired_height(80);
        let _ = draw(&mut c, 80, FOCUSED);
        best = best.min(start.elapsed());
    }
    assert!(best < Duration::from_millis(100), "took {best:?}");
    assert!(c.display_text().starts_with("[Pasted 582542 lines]"));
    match press(&mut c, KeyCode::Enter) {
        ComposerAction::Submit(Submission::Message(text)) => {
            assert!(text.len() > 9_000_000);
            assert!(!text.contains('\r'));
            assert!(text.ends_with("0123456789abcdef\n!"));
        }
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn desired_height_grows_and_caps() {
    let mut c = composer();
    assert_eq!(c.desired_height(40), 2);
    c.set_text("a\nb\nc");
    assert_eq!(c.desired_height(40), 4);
    c.set_text(&"word ".repeat(20));
    assert_eq!(c.desired_height(22), 6);
    c.set_text(&"x\n".repeat(50));
    assert_eq!(c.desired_height(40), 11);
}

#[test]
fn snapshot_empty_focused() {
    let mut c = composer();
    let terminal = draw(&mut c, 60, FOCUSED);
    insta::assert_snapshot!("composer_empty_focused", terminal.backend());
}

#[test]
fn snapshot_empty_busy() {
    let mut c = composer();
    let view = ComposerView {
        focus: ComposerFocus::Focused,
        busy: BusyHint::Busy {
            mode_label: "interrupt",
        },
    };
    let terminal = draw(&mut c, 60, view);
    insta::assert_snapshot!("composer_empty_busy", terminal.backend());
}

#[test]
fn snapshot_unfocused_draft() {
    let mut c = composer();
    c.set_text("half-written thought");
    let view = ComposerView {
        focus: ComposerFocus::Unfocused,
        busy: BusyHint::Idle,
    };
    let terminal = draw(&mut c, 40, view);
    insta::assert_snapshot!("composer_unfocused_draft", terminal.backend());
}

#[test]
fn snapshot_multiline_draft() {
    let mut c = composer();
    c.set_text("Refactor the parser:\n- split lexer and parser\n- add tests for every token kind so that regressions are caught early");
    let terminal = draw(&mut c, 50, FOCUSED);
    insta::assert_snapshot!("composer_multiline_draft", terminal.backend());
}

#[test]
fn snapshot_slash_popup_st() {
    let mut c = composer();
    type_str(&mut c, "/st");
    let terminal = draw(&mut c, 70, FOCUSED);
    insta::assert_snapshot!("composer_slash_popup_st", terminal.backend());
}

#[test]
fn snapshot_paste_placeholder() {
    let mut c = composer();
    type_str(&mut c, "Summarise this log: ");
    c.handle_paste(big_paste());
    let terminal = draw(&mut c, 60, FOCUSED);
    insta::assert_snapshot!("composer_paste_placeholder", terminal.backend());
}

#[test]
fn styles_come_from_theme_roles() {
    let theme = Theme::default();
    let mut c = composer();
    type_str(&mut c, "/st");
    let terminal = draw(&mut c, 70, FOCUSED);
    let buf = terminal.backend().buffer();
    // Popup: the selected row is MenuCurrent, others Menu with MenuMeta descriptions.
    let colours = |x: u16, y: u16| (Some(buf[(x, y)].fg), Some(buf[(x, y)].bg));
    let role = |r: Role| (theme.style(r).fg, theme.style(r).bg);
    assert_eq!(colours(2, 0), role(Role::MenuCurrent));
    assert_eq!(colours(20, 0), role(Role::MenuCurrent));
    assert_eq!(colours(2, 1), role(Role::Menu));
    assert_eq!(colours(20, 1), role(Role::MenuMeta));
    // Focused rule (under the popup, the skin's input_rule), prompt, and a reversed cursor
    // after the typed text.
    let rule = c.popup().unwrap().desired_height();
    assert_eq!(rule, 6);
    assert_eq!(buf[(0, rule)].fg, theme.style(Role::InputRule).fg.unwrap());
    assert_eq!(buf[(0, rule + 1)].symbol(), "❯");
    assert_eq!(buf[(0, rule + 1)].fg, theme.style(Role::Prompt).fg.unwrap());
    assert!(buf[(5, rule + 1)].modifier.contains(Modifier::REVERSED));

    let view = ComposerView {
        focus: ComposerFocus::Unfocused,
        busy: BusyHint::Busy {
            mode_label: "queue",
        },
    };
    c.clear();
    let terminal = draw(&mut c, 70, view);
    let buf = terminal.backend().buffer();
    assert_eq!(buf[(0, 0)].fg, theme.style(Role::Border).fg.unwrap());
    assert!(buf[(69 - 3, 0)].modifier.contains(Modifier::DIM));
    assert!(!buf[(2, 1)].modifier.contains(Modifier::REVERSED));
}

#[test]
fn skills_complete_in_the_popup_after_set_dynamic_commands() {
    let mut c = composer();
    type_str(&mut c, "/gi");
    assert!(c.popup().is_none(), "no skills yet");
    c.set_dynamic_commands(vec![
        slash::SkillCommand {
            name: "git-commit".into(),
            description: "Write a commit".into(),
        },
        slash::SkillCommand {
            name: "help".into(),
            description: "Would shadow /help".into(),
        },
    ]);
    let names: Vec<&str> = c
        .dynamic_commands()
        .iter()
        .map(|s| s.name.as_str())
        .collect();
    assert_eq!(names, ["git-commit"]);
    let popup = c.popup().unwrap();
    assert_eq!(
        popup.selected().map(|m| m.command.name()),
        Some("git-commit")
    );
    // A skill may take instructions: Enter completes and waits for them.
    assert_eq!(press(&mut c, KeyCode::Enter), ComposerAction::Changed);
    assert_eq!(c.text(), "/git-commit ");
    // Typed in full, Enter sends it.
    c.clear();
    type_str(&mut c, "/git-commit");
    assert_eq!(press(&mut c, KeyCode::Enter), slash("git-commit", ""));
}
