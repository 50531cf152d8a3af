//! The tail of a mouse report that crossterm read as typing. When a report's ESC arrives at
//! the end of one read and the rest in the next (a write split on its way through ssh or a
//! slow pty), or right after another ESC (`ESC ESC [ M …`: Esc pressed with a report in the
//! same read), crossterm emits the Esc key and then the rest as characters: `[`, `M`, `" !!"`
//! (X10), `[<0;1;1M` (SGR 1006) or `[32;1;1M` (urxvt 1015). [`MouseTailFilter`] holds the
//! keys that follow an Esc within [`WINDOW`] while they spell such a tail, drops them when
//! it is complete, and hands them on unchanged as soon as they cannot be one.
//!
//! Not here: the bytes the start-up query reads itself (`input_bytes`), and the Esc: it has
//! already acted (no human types `[M` within milliseconds of Esc, but the Esc itself cannot
//! be told from a real one). Invariant: keys are never reordered, and a key is dropped only as
//! part of a tail that is complete or that began `[M`, `[<` or `[` and a digit and then
//! stopped for longer than the window.

use std::time::Duration;
use std::time::Instant;

use crossterm::event::Event as TermEvent;
use crossterm::event::KeyCode;
use crossterm::event::KeyEventKind;
use crossterm::event::KeyModifiers;

/// How soon after the Esc (and after each other) the keys of a tail arrive: they come in one
/// burst, far faster than anyone types.
pub const WINDOW: Duration = Duration::from_millis(50);
/// The longest tail: `[<` and three five-digit numbers.
const MAX_TAIL: usize = 24;

/// See the module doc.
#[derive(Debug, Default)]
pub struct MouseTailFilter {
    /// Until when a key may still belong to a tail; `None` when no Esc came just before.
    until: Option<Instant>,
    held: Vec<(char, TermEvent)>,
}

/// How far keys spell a report's tail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    Complete,
    /// A prefix; `strong` once it is more than a lone `[`.
    Partial {
        strong: bool,
    },
    Not,
}

impl MouseTailFilter {
    /// The events to handle now, in order, for `event` arriving at `now`.
    pub fn filter(&mut self, event: TermEvent, now: Instant) -> Vec<TermEvent> {
        let mut out = Vec::new();
        if self.until.is_some_and(|until| now > until) {
            self.expire(&mut out);
        }
        let TermEvent::Key(key) = &event else {
            self.release(&mut out);
            out.push(event);
            return out;
        };
        if key.kind == KeyEventKind::Release {
            out.push(event);
            return out;
        }
        if key.code == KeyCode::Esc && key.modifiers == KeyModifiers::NONE {
            self.release(&mut out);
            self.until = Some(now + WINDOW);
            out.push(event);
            return out;
        }
        let unit = match key.code {
            KeyCode::Char(c) if (key.modifiers - KeyModifiers::SHIFT).is_empty() => Some(c),
            // X10 encodes column or row 95 as byte 0x7f.
            KeyCode::Backspace if key.modifiers.is_empty() => Some('\x7f'),
            _ => None,
        };
        let (Some(c), Some(_)) = (unit, self.until) else {
            self.release(&mut out);
            out.push(event);
            return out;
        };
        self.held.push((c, event));
        let chars: Vec<char> = self.held.iter().map(|(c, _)| *c).collect();
        match shape(&chars) {
            Shape::Complete => {
                tracing::debug!(
                    keys = chars.len(),
                    "dropped the tail of a split mouse report"
                );
                self.held.clear();
                self.until = None;
            }
            Shape::Partial { .. } => self.until = Some(now + WINDOW),
            Shape::Not => self.release(&mut out),
        }
        out
    }

    /// The window passed with a tail unfinished: a cut report is dropped, a lone `[` kept.
    fn expire(&mut self, out: &mut Vec<TermEvent>) {
        let chars: Vec<char> = self.held.iter().map(|(c, _)| *c).collect();
        if let Shape::Partial { strong: true } = shape(&chars) {
            tracing::debug!(
                keys = chars.len(),
                "dropped the start of a cut mouse report"
            );
            self.held.clear();
        }
        self.release(out);
    }

    /// Hands on what is held and ends the window.
    fn release(&mut self, out: &mut Vec<TermEvent>) {
        out.extend(self.held.drain(..).map(|(_, event)| event));
        self.until = None;
    }
}

fn shape(keys: &[char]) -> Shape {
    let partial = Shape::Partial {
        strong: keys.len() > 1,
    };
    if keys.first() != Some(&'[') || keys.len() > MAX_TAIL {
        return Shape::Not;
    }
    let Some(&kind) = keys.get(1) else {
        return partial;
    };
    let numbers = |rest: &[char]| -> Shape {
        match rest.split_last() {
            None => partial,
            Some((last, body)) if body.iter().all(|c| c.is_ascii_digit() || *c == ';') => {
                match last {
                    'M' | 'm' => Shape::Complete,
                    c if c.is_ascii_digit() || *c == ';' => partial,
                    _ => Shape::Not,
                }
            }
            Some(_) => Shape::Not,
        }
    };
    match kind {
        // X10 (and 1005): three coordinate units, whatever they are.
        'M' if keys.len() >= 5 => Shape::Complete,
        'M' => partial,
        // SGR: `<Cb;Cx;Cy` then M (press) or m (release).
        '<' => numbers(&keys[2..]),
        // urxvt: `Cb;Cx;Cy` then M.
        d if d.is_ascii_digit() => match numbers(&keys[1..]) {
            Shape::Complete if keys.last() == Some(&'m') => Shape::Not,
            other => other,
        },
        _ => Shape::Not,
    }
}

#[cfg(test)]
#[path = "input_mouse_tests.rs"]
mod tests;
