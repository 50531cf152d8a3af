//! Raw terminal input bytes read outside crossterm (the start-up background query reads fd 0
//! itself) turned into the key presses a user typed, with every escape sequence dropped whole
//! — above all mouse reports, whose tails are printable (`ESC [ M` then `Cb Cx Cy`, `" !!"`
//! for a click at 1,1), so a report cut at the wrong byte would type text into the composer.
//!
//! Sequences recognised: CSI (`ESC [` parameters, intermediates, final byte — which covers
//! SGR 1006 `ESC [ < 0;1;1 M` and urxvt 1015 `ESC [ 32;1;1 M` reports), the X10 report (`ESC
//! [ M` and three coordinate units: one raw byte each, coordinates above 95 as bytes ≥ 0x80
//! that are not UTF-8, or a two-byte UTF-8 character each in mode 1005), SS3 (`ESC O x`) and
//! Alt+key. Works on bytes, never on a lossy decoding (which would merge invalid bytes and
//! miscount a report). Invariant: a sequence cut off at the end of the bytes is dropped as a
//! whole, and [`ends_mid_sequence`] says so, so the reader can wait for the rest.

use crossterm::event::KeyCode;
use crossterm::event::KeyEvent;
use crossterm::event::KeyModifiers;

const ESC: u8 = 0x1b;

/// Typed bytes as key presses: printable characters, Enter, Tab, Backspace and Ctrl+letter
/// are kept (so a command typed ahead still runs); escape sequences (arrows, Alt chords,
/// mouse reports) and other control bytes are dropped (counted). Invalid UTF-8 counts as
/// dropped.
pub fn stray_keys(bytes: &[u8]) -> (Vec<KeyEvent>, usize) {
    let mut keys = Vec::new();
    let mut dropped = 0;
    let mut at = 0;
    while at < bytes.len() {
        let rest = &bytes[at..];
        if rest[0] == ESC {
            dropped += 1;
            at += escape_len(rest).unwrap_or(rest.len());
            continue;
        }
        let Some((c, len)) = first_char(rest) else {
            dropped += 1;
            at += 1;
            continue;
        };
        at += len;
        if let Some(key) = control_key(c) {
            keys.push(key);
        } else if c.is_control() {
            dropped += 1;
        } else {
            let modifiers = if c.is_uppercase() {
                KeyModifiers::SHIFT
            } else {
                KeyModifiers::NONE
            };
            keys.push(KeyEvent::new(KeyCode::Char(c), modifiers));
        }
    }
    (keys, dropped)
}

/// Whether `bytes` end inside an escape sequence (more of it is still to come).
pub fn ends_mid_sequence(bytes: &[u8]) -> bool {
    let mut at = 0;
    while at < bytes.len() {
        let rest = &bytes[at..];
        if rest[0] != ESC {
            at += first_char(rest).map_or(1, |(_, len)| len);
            continue;
        }
        match escape_len(rest) {
            Some(len) => at += len,
            None => return true,
        }
    }
    false
}

/// The length of the escape sequence `bytes` starts with (`bytes[0]` is ESC); `None` when it
/// is cut off by the end of `bytes`. A lone ESC at the end counts as cut: it is the Esc key
/// or the start of a sequence, and which one only the next byte tells.
fn escape_len(bytes: &[u8]) -> Option<usize> {
    match *bytes.get(1)? {
        b'[' if bytes.get(2) == Some(&b'M') => x10_len(bytes),
        b'[' => {
            // Parameters and intermediates (0x20–0x3F), then the final byte (0x40–0x7E). A byte
            // outside both ends a malformed sequence without being part of it.
            let body = bytes[2..].iter().position(|b| !(0x20..=0x3f).contains(b))?;
            let end = 2 + body;
            Some(if (0x40..=0x7e).contains(&bytes[end]) {
                end + 1
            } else {
                end
            })
        }
        b'O' => (bytes.len() >= 3).then_some(3),
        ESC => Some(1),
        _ => first_char(&bytes[1..]).map(|(_, len)| 1 + len).or(Some(2)),
    }
}

/// `ESC [ M` and three coordinate units (see the module doc).
fn x10_len(bytes: &[u8]) -> Option<usize> {
    let mut at = 3;
    for _ in 0..3 {
        let unit = *bytes.get(at)?;
        let two_byte_utf8 = (0xc2..=0xdf).contains(&unit)
            && bytes.get(at + 1).is_some_and(|b| (0x80..=0xbf).contains(b));
        at += if two_byte_utf8 { 2 } else { 1 };
    }
    Some(at)
}

/// The UTF-8 character `bytes` start with and its length; `None` for an invalid or cut one.
fn first_char(bytes: &[u8]) -> Option<(char, usize)> {
    let len = match bytes[0] {
        0x00..=0x7f => 1,
        0xc2..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf4 => 4,
        _ => return None,
    };
    let text = std::str::from_utf8(bytes.get(..len)?).ok()?;
    text.chars().next().map(|c| (c, len))
}

/// The key a terminal sends as one control byte: Enter, Tab, Backspace, Ctrl+letter.
fn control_key(c: char) -> Option<KeyEvent> {
    let key = match c {
        '\r' | '\n' => KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE),
        '\t' => KeyEvent::new(KeyCode::Tab, KeyModifiers::NONE),
        '\x7f' | '\x08' => KeyEvent::new(KeyCode::Backspace, KeyModifiers::NONE),
        '\x01'..='\x1a' => {
            let letter = char::from(b'a' + (c as u8) - 1);
            KeyEvent::new(KeyCode::Char(letter), KeyModifiers::CONTROL)
        }
        _ => return None,
    };
    Some(key)
}

#[cfg(test)]
#[path = "input_bytes_tests.rs"]
mod tests;
