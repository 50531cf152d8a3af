//! Shell variables assigned earlier on the same command line (`a=rm; $a -rf /`).
//!
//! `Vars` remembers `NAME=value` from standalone assignments and `export`/`declare`/`local`
//! when the value is literal text, forgets a name whose new value is unknown, and substitutes
//! `$NAME` / `${NAME}` in later words. An unquoted substituted word is split into fields as
//! the shell would: on whitespace, and on the characters of an `IFS=…` given earlier
//! (`IFS=_; c=rm_-rf_/; $c`). It does not evaluate `${NAME:-…}` and other operators, arrays,
//! arithmetic, `read`, or assignments made in other shells (functions, sourced files).
//! Invariants: a substitution never touches `$(…)` or text of names it does not know; values
//! longer than `MAX_VALUE` are forgotten, so repeated self-appends cannot blow up.

use super::lex::is_name;
use super::parse::Simple;
use super::unwrap::is_assignment;
use super::words::Word;

/// Longer values are forgotten (`a=$a$a` repeated must not grow without bound).
const MAX_VALUE: usize = 4096;

#[derive(Debug, Default, Clone)]
pub(super) struct Vars {
    known: Vec<(String, String)>,
    /// Field separators added by an `IFS=…` assignment (`IFS=_; c=rm_-rf_/; $c`).
    ifs: String,
}

impl Vars {
    /// Records `NAME=value` (or forgets NAME when the value is not literal).
    pub(super) fn assign(&mut self, word: &Word) {
        let Some((name, value)) = word.text.split_once('=') else {
            return;
        };
        let name = name.strip_suffix('+').unwrap_or(name);
        if !is_name(name) {
            return;
        }
        if name == "IFS" && !word.dynamic {
            // Splitting on the old whitespace too only ever finds more words, never fewer.
            self.ifs = value.chars().filter(|c| !c.is_whitespace()).collect();
        }
        self.known.retain(|(n, _)| n != name);
        if !word.dynamic && value.len() <= MAX_VALUE {
            self.known.push((name.to_string(), value.to_string()));
        }
    }

    /// `cmd` with known variables substituted, or `None` when nothing changed.
    pub(super) fn substitute(&self, cmd: &Simple) -> Option<Simple> {
        if self.known.is_empty() {
            return None;
        }
        let mut changed = false;
        let mut words = Vec::with_capacity(cmd.words.len());
        for w in &cmd.words {
            match self.substitute_text(w) {
                // Quoted words and assignment values are not split into fields.
                Some(text) if w.quoted || is_assignment(&w.text) => {
                    changed = true;
                    words.push(word(&text));
                }
                Some(text) => {
                    changed = true;
                    words.extend(
                        text.split(|c: char| c.is_whitespace() || self.ifs.contains(c))
                            .filter(|t| !t.is_empty())
                            .map(word),
                    );
                }
                None => words.push(w.clone()),
            }
        }
        let mut redirects = cmd.redirects.clone();
        for r in &mut redirects {
            if let Some(text) = self.substitute_text(&r.target) {
                changed = true;
                r.target = word(&text);
            }
        }
        changed.then_some(Simple { words, redirects })
    }

    fn substitute_text(&self, w: &Word) -> Option<String> {
        if !w.dynamic || !w.text.contains('$') {
            return None;
        }
        let text = &w.text;
        let mut out = String::with_capacity(text.len());
        let mut changed = false;
        let mut rest = text.as_str();
        while let Some(at) = rest.find('$') {
            out.push_str(&rest[..at]);
            let after = &rest[at + 1..];
            let (name, used) = match after.strip_prefix('{') {
                Some(inner) => match inner.find('}') {
                    Some(end) => (&inner[..end], end + 2),
                    None => ("", 0),
                },
                None => {
                    let end = after
                        .find(|c: char| !(c == '_' || c.is_ascii_alphanumeric()))
                        .unwrap_or(after.len());
                    (&after[..end], end)
                }
            };
            match self.known.iter().find(|(n, _)| n == name) {
                Some((_, value)) if is_name(name) => {
                    out.push_str(value);
                    changed = true;
                    rest = &after[used..];
                }
                _ => {
                    out.push('$');
                    rest = after;
                }
            }
        }
        out.push_str(rest);
        (changed && out.len() <= 4 * MAX_VALUE).then_some(out)
    }
}

fn word(text: &str) -> Word {
    Word {
        dynamic: text.contains('$'),
        ..Word::plain(text)
    }
}

#[cfg(test)]
#[path = "vars_tests.rs"]
mod tests;
