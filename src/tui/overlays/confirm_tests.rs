#![allow(clippy::unwrap_used, clippy::expect_used)]

use crossterm::event::KeyCode;
use crossterm::event::KeyEvent;
use crossterm::event::KeyModifiers;
use pretty_assertions::assert_eq;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use super::*;

const BODY: &str = "Reloading MCP servers rebuilds the tool list and invalidates the provider's \
                    prompt cache — the next message re-sends the full input.";

fn dialog() -> ConfirmDialog {
    ConfirmDialog::new(
        "Reload MCP servers?",
        BODY,
        &["Reload now", "Reload and don't ask again", "Cancel"],
    )
}

fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

fn draw(dialog: &ConfirmDialog, width: u16, height: u16) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal
        .draw(|f| dialog.render(f.area(), f.buffer_mut(), &Theme::default()))
        .unwrap();
    terminal
}

#[test]
fn arrows_move_within_the_choices_and_enter_picks_the_selected_one() {
    let mut d = dialog();
    assert_eq!(d.selected(), 0);
    assert_eq!(d.handle_key(key(KeyCode::Up)), ConfirmAction::None);
    assert_eq!(d.selected(), 0, "stops at the top");
    d.handle_key(key(KeyCode::Down));
    d.handle_key(key(KeyCode::Char('j')));
    d.handle_key(key(KeyCode::Down));
    assert_eq!(d.selected(), 2, "stops at the bottom");
    d.handle_key(key(KeyCode::Char('k')));
    assert_eq!(d.selected(), 1);
    d.handle_key(KeyEvent::new(KeyCode::Char('p'), KeyModifiers::CONTROL));
    assert_eq!(d.selected(), 0);
    d.handle_key(key(KeyCode::End));
    assert_eq!(d.selected(), 2);
    d.handle_key(key(KeyCode::Home));
    d.handle_key(KeyEvent::new(KeyCode::Char('n'), KeyModifiers::CONTROL));
    assert_eq!(d.handle_key(key(KeyCode::Enter)), ConfirmAction::Choose(1));
}

#[test]
fn a_digit_picks_its_choice_at_once_and_others_are_ignored() {
    let mut d = dialog();
    assert_eq!(
        d.handle_key(key(KeyCode::Char('2'))),
        ConfirmAction::Choose(1)
    );
    assert_eq!(d.selected(), 1);
    assert_eq!(
        d.handle_key(key(KeyCode::Char('3'))),
        ConfirmAction::Choose(2)
    );
    assert_eq!(d.handle_key(key(KeyCode::Char('0'))), ConfirmAction::None);
    assert_eq!(d.handle_key(key(KeyCode::Char('4'))), ConfirmAction::None);
    assert_eq!(d.handle_key(key(KeyCode::Char('x'))), ConfirmAction::None);
    assert_eq!(d.selected(), 2);
}

#[test]
fn y_picks_the_first_choice_wherever_the_selection_is() {
    let mut d = dialog();
    d.handle_key(key(KeyCode::End));
    assert_eq!(
        d.handle_key(key(KeyCode::Char('y'))),
        ConfirmAction::Choose(0)
    );
}

#[test]
fn esc_n_q_and_ctrl_c_cancel() {
    for key in [
        key(KeyCode::Esc),
        key(KeyCode::Char('n')),
        key(KeyCode::Char('q')),
        KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL),
    ] {
        assert_eq!(dialog().handle_key(key), ConfirmAction::Cancel, "{key:?}");
    }
}

#[test]
fn without_choices_enter_only_closes() {
    let mut d = ConfirmDialog::new("Nothing", "no choices here", &[]);
    assert_eq!(d.handle_key(key(KeyCode::Down)), ConfirmAction::None);
    assert_eq!(d.handle_key(key(KeyCode::Char('1'))), ConfirmAction::None);
    assert_eq!(d.handle_key(key(KeyCode::Enter)), ConfirmAction::Cancel);
    assert_eq!(d.handle_key(key(KeyCode::Char('y'))), ConfirmAction::Cancel);
}

#[test]
fn renders_wrapped_body_numbered_choices_and_the_legend() {
    let mut d = dialog();
    d.handle_key(key(KeyCode::Down));
    let terminal = draw(&d, 80, 16);
    insta::assert_snapshot!("confirm_reload_mcp", terminal.backend());
    let rows = crate::tui::test_support::screen_rows(&terminal);
    let text = rows.join("\n");
    assert!(text.contains("▸ 2. Reload and don't ask again"), "{text}");
    assert!(text.contains("  1. Reload now"), "{text}");
    assert!(text.contains("1–3 choose"), "{text}");
    // Every row of the body is inside the frame: nothing is cut at this size.
    assert!(text.contains("re-sends the full input."), "{text}");
}

#[test]
fn a_short_screen_cuts_the_body_before_the_choices() {
    let terminal = draw(&dialog(), 60, 8);
    let text = crate::tui::test_support::screen_rows(&terminal).join("\n");
    for choice in [
        "1. Reload now",
        "2. Reload and don't ask again",
        "3. Cancel",
    ] {
        assert!(text.contains(choice), "{choice} missing:\n{text}");
    }
    assert!(!text.contains("re-sends the full input."), "{text}");
}
