//! The record key (`voice.record_key`): a chord written as in Hermes — `ctrl+b`, `alt+v`,
//! `f8`, `ctrl+space`, `shift+f5` — parsed once into a matcher for crossterm key events.
//!
//! Matching ignores the event kind (press, repeat, release): the caller decides what a
//! release means. Letters match case-insensitively, since terminals report Ctrl+B and Ctrl+b
//! alike. A chord that does not parse is reported with the text and the default is used.

use crossterm::event::KeyCode;
use crossterm::event::KeyEvent;
use crossterm::event::KeyModifiers;

/// Hermes's default record key.
pub const DEFAULT_RECORD_KEY: &str = "ctrl+b";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordKey {
    code: KeyCode,
    modifiers: KeyModifiers,
}

impl RecordKey {
    /// Parse `text` (`ctrl+b`, `f8`, …).
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut modifiers = KeyModifiers::NONE;
        let mut code = None;
        let parts: Vec<String> = text
            .split('+')
            .map(|p| p.trim().to_ascii_lowercase())
            .collect();
        let bad = || {
            format!(
                "voice.record_key {text:?} is not a key chord (write e.g. ctrl+b, alt+v, f8, ctrl+space)"
            )
        };
        for (i, part) in parts.iter().enumerate() {
            let last = i + 1 == parts.len();
            match part.as_str() {
                "ctrl" | "control" if !last => modifiers |= KeyModifiers::CONTROL,
                "alt" | "meta" | "option" if !last => modifiers |= KeyModifiers::ALT,
                "shift" if !last => modifiers |= KeyModifiers::SHIFT,
                key if last => code = Some(key_code(key).ok_or_else(bad)?),
                _ => return Err(bad()),
            }
        }
        let code = code.ok_or_else(bad)?;
        Ok(Self { code, modifiers })
    }

    /// The configured chord, or the default with the reason it was not used.
    pub fn from_config(text: &str) -> (Self, Option<String>) {
        match Self::parse(text) {
            Ok(key) => (key, None),
            Err(problem) => (
                Self {
                    code: KeyCode::Char('b'),
                    modifiers: KeyModifiers::CONTROL,
                },
                Some(format!("{problem}; using {DEFAULT_RECORD_KEY}")),
            ),
        }
    }

    pub fn matches(&self, key: &KeyEvent) -> bool {
        let code = match key.code {
            KeyCode::Char(c) => KeyCode::Char(c.to_ascii_lowercase()),
            other => other,
        };
        // Terminals differ on whether Shift arrives with an upper-case letter; compare the
        // modifiers we care about only.
        let relevant = KeyModifiers::CONTROL | KeyModifiers::ALT | KeyModifiers::SHIFT;
        let shift_from_case = matches!(key.code, KeyCode::Char(c) if c.is_ascii_uppercase());
        let mut modifiers = key.modifiers & relevant;
        if shift_from_case && !self.modifiers.contains(KeyModifiers::SHIFT) {
            modifiers.remove(KeyModifiers::SHIFT);
        }
        code == self.code && modifiers == self.modifiers
    }

    /// How the key is written for people (`Ctrl+B`, `F8`).
    pub fn label(&self) -> String {
        let mut parts = Vec::new();
        if self.modifiers.contains(KeyModifiers::CONTROL) {
            parts.push("Ctrl".to_string());
        }
        if self.modifiers.contains(KeyModifiers::ALT) {
            parts.push("Alt".to_string());
        }
        if self.modifiers.contains(KeyModifiers::SHIFT) {
            parts.push("Shift".to_string());
        }
        parts.push(match self.code {
            KeyCode::Char(' ') => "Space".to_string(),
            KeyCode::Char(c) => c.to_ascii_uppercase().to_string(),
            KeyCode::F(n) => format!("F{n}"),
            KeyCode::Enter => "Enter".to_string(),
            KeyCode::Tab => "Tab".to_string(),
            KeyCode::Insert => "Insert".to_string(),
            other => format!("{other:?}"),
        });
        parts.join("+")
    }

    /// Whether this chord is tmux's default prefix (Ctrl+B), which tmux swallows.
    pub fn clashes_with_tmux(&self) -> bool {
        self.code == KeyCode::Char('b') && self.modifiers == KeyModifiers::CONTROL
    }
}

fn key_code(name: &str) -> Option<KeyCode> {
    let mut chars = name.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_graphic() => return Some(KeyCode::Char(c)),
        _ => {}
    }
    if let Some(n) = name.strip_prefix('f').and_then(|n| n.parse::<u8>().ok()) {
        return (1..=24).contains(&n).then_some(KeyCode::F(n));
    }
    match name {
        "space" => Some(KeyCode::Char(' ')),
        "enter" | "return" => Some(KeyCode::Enter),
        "tab" => Some(KeyCode::Tab),
        "insert" | "ins" => Some(KeyCode::Insert),
        "pause" => Some(KeyCode::Pause),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(code: KeyCode, modifiers: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, modifiers)
    }

    #[test]
    fn chords_parse_and_match() {
        let ctrl_b = RecordKey::parse("ctrl+b").unwrap();
        assert!(ctrl_b.matches(&event(KeyCode::Char('b'), KeyModifiers::CONTROL)));
        assert!(ctrl_b.matches(&event(KeyCode::Char('B'), KeyModifiers::CONTROL)));
        assert!(!ctrl_b.matches(&event(KeyCode::Char('b'), KeyModifiers::NONE)));
        assert!(!ctrl_b.matches(&event(KeyCode::Char('b'), KeyModifiers::ALT)));
        assert_eq!(ctrl_b.label(), "Ctrl+B");
        assert!(ctrl_b.clashes_with_tmux());

        let f8 = RecordKey::parse(" F8 ").unwrap();
        assert!(f8.matches(&event(KeyCode::F(8), KeyModifiers::NONE)));
        assert!(!f8.clashes_with_tmux());
        let space = RecordKey::parse("Ctrl+Space").unwrap();
        assert!(space.matches(&event(KeyCode::Char(' '), KeyModifiers::CONTROL)));
        assert_eq!(space.label(), "Ctrl+Space");
        let alt_v = RecordKey::parse("alt+v").unwrap();
        assert!(alt_v.matches(&event(KeyCode::Char('v'), KeyModifiers::ALT)));
        let shifted = RecordKey::parse("shift+f5").unwrap();
        assert!(shifted.matches(&event(KeyCode::F(5), KeyModifiers::SHIFT)));
        assert!(!shifted.matches(&event(KeyCode::F(5), KeyModifiers::NONE)));
    }

    #[test]
    fn bad_chords_are_reported_and_the_default_used() {
        for text in ["", "ctrl+", "ctrl", "hyper+b", "f99", "ctrl+bb", "b+ctrl"] {
            assert!(RecordKey::parse(text).is_err(), "{text:?}");
        }
        let (key, problem) = RecordKey::from_config("ctrl+nope");
        assert_eq!(key, RecordKey::parse(DEFAULT_RECORD_KEY).unwrap());
        assert!(problem.unwrap().contains("\"ctrl+nope\""));
    }
}
