//! A masked input for a secret a skill needs (`Event::SecretRequest`). What is typed is shown
//! as bullets only, never echoed or logged; Enter sends it, Esc skips it (both reply with
//! `Op::SecretReply` and close the prompt). A paste goes into the field.

use crossterm::event::KeyCode;
use crossterm::event::KeyEvent;
use crossterm::event::KeyModifiers;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::text::Span;
use ratatui::widgets::Clear;
use ratatui::widgets::Paragraph;
use ratatui::widgets::Widget;
use ratatui::widgets::Wrap;

use super::stack::Overlay;
use super::stack::OverlayAction;
use super::stack::Paste;
use crate::protocol::Op;
use crate::protocol::SecretRequest;
use crate::theme::Role;
use crate::theme::Theme;

pub struct SecretPrompt {
    request: SecretRequest,
    value: String,
    /// Replied (sent or skipped).
    replied: bool,
}

impl SecretPrompt {
    pub fn new(request: SecretRequest) -> Self {
        Self {
            request,
            value: String::new(),
            replied: false,
        }
    }

    fn reply(&mut self, value: Option<String>) -> OverlayAction {
        self.replied = true;
        OverlayAction::Send(Op::SecretReply {
            id: self.request.id.clone(),
            value,
        })
    }
}

impl Overlay for SecretPrompt {
    fn title(&self) -> &str {
        &self.request.name
    }

    fn handle_key(&mut self, key: KeyEvent) -> OverlayAction {
        match key.code {
            KeyCode::Enter => {
                let value = std::mem::take(&mut self.value);
                self.reply(Some(value))
            }
            KeyCode::Esc => self.reply(None),
            KeyCode::Backspace => {
                self.value.pop();
                OverlayAction::None
            }
            KeyCode::Char(c) if !key.modifiers.contains(KeyModifiers::CONTROL) => {
                self.value.push(c);
                OverlayAction::None
            }
            _ => OverlayAction::None,
        }
    }

    /// A paste goes into the field (keys are usually pasted).
    fn handle_paste(&mut self, text: &str) -> Paste {
        self.value.push_str(text.trim());
        Paste::Consumed
    }

    fn is_complete(&self) -> bool {
        self.replied
    }

    fn render(&mut self, area: Rect, buf: &mut Buffer, theme: &Theme) {
        let modal = super::centered_modal(area, 76, 8);
        Clear.render(modal, buf);
        let block = super::modal_block(&format!(" {} ", self.request.name), theme);
        let bullets = "•".repeat(self.value.chars().count());
        let lines = vec![
            Line::from(Span::styled(
                self.request.reason.clone(),
                theme.style(Role::Dim),
            )),
            Line::default(),
            Line::from(vec![
                Span::styled(
                    format!("{}: ", self.request.prompt),
                    theme.style(Role::Label),
                ),
                Span::styled(format!("{bullets}▏"), theme.style(Role::Text)),
            ]),
            Line::default(),
            Line::from(Span::styled(
                "Enter save · Esc skip (the skill may not work)",
                theme.style(Role::Dim),
            )),
        ];
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(block)
            .render(modal, buf);
    }
}

#[cfg(test)]
mod tests {
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    use super::*;

    fn request() -> SecretRequest {
        SecretRequest {
            id: "secret_1".into(),
            name: "GITHUB_TOKEN".into(),
            prompt: "GitHub token".into(),
            reason: "the /gh-pr skill needs GITHUB_TOKEN".into(),
        }
    }

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    #[test]
    fn typing_is_masked_and_enter_sends_the_value() {
        let mut prompt = SecretPrompt::new(request());
        for c in "ghp_secret".chars() {
            assert!(matches!(
                prompt.handle_key(key(KeyCode::Char(c))),
                OverlayAction::None
            ));
        }
        prompt.handle_key(key(KeyCode::Backspace));
        let mut terminal = Terminal::new(TestBackend::new(80, 10)).unwrap();
        terminal
            .draw(|f| prompt.render(f.area(), f.buffer_mut(), &Theme::default()))
            .unwrap();
        let screen = format!("{}", terminal.backend());
        assert!(!screen.contains("ghp_secre"), "the value is never drawn");
        assert!(screen.contains("•••••••••"), "{screen}");
        insta::assert_snapshot!("secret_prompt", terminal.backend());
        assert!(!prompt.is_complete());
        assert!(matches!(
            prompt.handle_key(key(KeyCode::Enter)),
            OverlayAction::Send(Op::SecretReply { id, value: Some(v) })
                if id == "secret_1" && v == "ghp_secre"
        ));
        assert!(prompt.is_complete());
    }

    #[test]
    fn esc_skips() {
        let mut prompt = SecretPrompt::new(request());
        assert!(matches!(
            prompt.handle_key(key(KeyCode::Esc)),
            OverlayAction::Send(Op::SecretReply { id, value: None }) if id == "secret_1"
        ));
        assert!(prompt.is_complete());
    }
}
