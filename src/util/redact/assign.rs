//! Secrets found by the name next to them: `.env` lines, YAML/TOML/INI keys, JSON fields,
//! query parameters and credential headers. The name stays; the value is masked.
//!
//! A candidate is a secret-looking name (see `names`) followed by `=`, `:`, `:=` or `=>` and
//! a value, quoted (`"…"`, `'…'`, or `\"…\"` inside a JSON string) or bare. The value is
//! masked unless it is a stand-in or code (see `values`) and when it is long enough for the
//! name: password-class names mask 4+ characters, strong names 8+ (or 6+ mixing letters
//! and digits), weak names 8+ mixing letters and digits, without spaces.
//!
//! Not handled: an unquoted value is masked only up to its first space, and a secret passed
//! as a separate command-line word (`--password hunter2`) has no `=` or `:` to anchor on.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use super::names::Strength;
use super::names::strength;
use super::tokens::is_reference;
use super::values::has_digit;
use super::values::is_stand_in;
use super::values::looks_like_code;

/// `name` then `sep`; the value after it is read by [`value_at`]. The name contains a
/// secret-word substring; whether it really is one is decided by [`strength`]. Matching
/// without capture groups keeps this on the regex engine's DFA (captures cost ~15x).
static ASSIGNMENT: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?i-u:[a-z0-9_.\-]*(?:key|token|secret|pass|pw|credential|auth|private|sig|bearer)[a-z0-9_.\-]*)",
        r#"(?:\\?["'])?[ \t]*(?:=>|:=|[:=])"#,
    ))
    .ok()
});

/// A credential header; an auth scheme word (`Bearer`, `Basic`, `token`, …) stays visible.
static HEADER: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?i)(?-u:\b)(?:(?:proxy-)?authorization|x-api-key|x-goog-api-key|api-key|x-api-token|",
        r"x-auth-token|x-access-token|private-token|x-amz-security-token|ocp-apim-subscription-key)",
        r#"(?:\\?["'])?[ \t]*[:=][ \t]*(?:\\?["'])?"#,
        r"(?:(?:bearer|basic|token|bot|digest|apikey|key|sso-key|negotiate|ntlm)[ \t]+)?",
        r#"(?P<cred>[^\s"'\\,;}]+)"#,
    ))
    .ok()
});

/// How a value was written: quoted values are literal strings, bare ones may be code.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Quoting {
    Quoted,
    Bare,
}

pub(super) fn find(text: &str, spans: &mut Vec<Range<usize>>) {
    if let Some(re) = ASSIGNMENT.as_ref() {
        for m in re.find_iter(text) {
            let matched = m.as_str();
            let name_len = matched
                .bytes()
                .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
                .count();
            let name = matched.get(..name_len).unwrap_or("");
            if after_scheme(text, m.start()) {
                continue;
            }
            let Some((value, quoting)) = value_at(text, m.end()) else {
                continue;
            };
            if masks(name, text.get(value.clone()).unwrap_or(""), quoting) {
                spans.push(value);
            }
        }
    }
    if let Some(re) = HEADER.as_ref() {
        for caps in re.captures_iter(text) {
            if caps.get(0).is_some_and(|m| after_scheme(text, m.start())) {
                continue;
            }
            if let Some(cred) = caps.name("cred") {
                let v = cred.as_str();
                if !is_reference(v) && looks_opaque(v) {
                    spans.push(cred.range());
                }
            }
        }
    }
}

/// The value starting at `at` (after optional blanks): `\"…\"` (inside a JSON string),
/// `"…"` (with escapes), `'…'`, all on one line, or bare up to a blank or a delimiter.
fn value_at(text: &str, at: usize) -> Option<(Range<usize>, Quoting)> {
    let rest = text.get(at..)?;
    let trimmed = rest.trim_start_matches([' ', '\t']);
    let start = at + rest.len() - trimmed.len();
    let quoted = |open: usize, end: Option<usize>| {
        end.map(|end| (start + open..start + open + end, Quoting::Quoted))
    };
    if let Some(inner) = trimmed.strip_prefix("\\\"") {
        let end = inner.find(['"', '\\', '\n']);
        let closed = end.filter(|&e| inner.get(e..).is_some_and(|t| t.starts_with("\\\"")));
        return quoted(2, closed);
    }
    if let Some(inner) = trimmed.strip_prefix('"') {
        let mut escaped = false;
        for (i, b) in inner.bytes().enumerate() {
            match b {
                b'\n' => return None,
                b'"' if !escaped => return quoted(1, Some(i)),
                _ => escaped = b == b'\\' && !escaped,
            }
        }
        return None;
    }
    if let Some(inner) = trimmed.strip_prefix('\'') {
        let end = inner.find(['\'', '\n']);
        return quoted(
            1,
            end.filter(|&e| inner.get(e..).is_some_and(|t| t.starts_with('\''))),
        );
    }
    let len = trimmed
        .find(|c: char| {
            c.is_whitespace() || matches!(c, '"' | '\'' | '`' | ',' | ';' | '&' | ')' | '}' | ']')
        })
        .unwrap_or(trimmed.len());
    (len > 0).then_some((start..start + len, Quoting::Bare))
}

/// `https://x-access-token:…@host`: the user name of a URL, whose password is the URL
/// detector's business; read as an assignment it would swallow the host.
fn after_scheme(text: &str, at: usize) -> bool {
    text.get(..at).is_some_and(|before| before.ends_with("://"))
}

/// Whether a JSON string `value` under object key `name` is a secret.
pub(super) fn masks_quoted(name: &str, value: &str) -> bool {
    masks(name, value, Quoting::Quoted)
}

fn masks(name: &str, value: &str, quoting: Quoting) -> bool {
    let strength = strength(name);
    // Cheapest test first: most candidates fail on length or shape.
    let len = value.chars().count();
    let mixed = has_digit(value) && value.bytes().any(|b| b.is_ascii_alphabetic());
    let long_enough = match strength {
        Strength::None => false,
        Strength::Weak => len >= 8 && mixed && !value.contains(char::is_whitespace),
        Strength::Strong => len >= 8 || (len >= 6 && mixed),
        Strength::Password => len >= 4,
    };
    long_enough
        && !is_stand_in(value, strength)
        && !(quoting == Quoting::Bare && looks_like_code(value, name))
}

/// Shaped like a credential rather than a word: 8+ characters mixing at least two of
/// lower case, upper case, digits and symbols.
fn looks_opaque(value: &str) -> bool {
    let classes = [
        value.bytes().any(|b| b.is_ascii_lowercase()),
        value.bytes().any(|b| b.is_ascii_uppercase()),
        has_digit(value),
        value.bytes().any(|b| !b.is_ascii_alphanumeric()),
    ];
    value.chars().count() >= 8 && classes.iter().filter(|c| **c).count() >= 2
}

#[cfg(test)]
#[path = "assign_tests.rs"]
mod tests;
