//! Whether a value next to a secret-looking name is a real secret or a stand-in for one:
//! a variable reference (`$VAR`, `${VAR}`, `<key>`), a placeholder (`your-key`, `xxxx`), a
//! type or keyword (`string`, `true`, `None`), a path, a URL, an environment variable name,
//! or — when unquoted — code (`env::var(…)`, `self.token`, `api_key=api_key`).
//! Not here: deciding from the name (see `names`) or the length rules (see `assign`).

use super::names::Strength;
use super::names::words;
use super::tokens::is_reference;

/// Values that stand for a secret instead of being one.
pub(super) const STAND_IN_WORDS: &[&str] = &[
    "any",
    "array",
    "bool",
    "boolean",
    "byte",
    "bytes",
    "char",
    "date",
    "datetime",
    "dict",
    "double",
    "empty",
    "false",
    "float",
    "hidden",
    "int",
    "integer",
    "json",
    "key",
    "list",
    "map",
    "masked",
    "nil",
    "no",
    "none",
    "null",
    "number",
    "object",
    "off",
    "on",
    "option",
    "optional",
    "password",
    "redacted",
    "required",
    "secret",
    "set",
    "str",
    "string",
    "text",
    "token",
    "true",
    "undefined",
    "unknown",
    "uuid",
    "void",
    "yes",
];

pub(super) fn is_stand_in(value: &str, strength: Strength) -> bool {
    let lower = value.trim().to_ascii_lowercase();
    let mut chars = lower.chars();
    let Some(first) = chars.next() else {
        return true;
    };
    let shell_reference = lower.starts_with('$')
        && chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || matches!(c, '_' | '{' | '('));
    let path = ["/", "~/", "./", "../"]
        .iter()
        .any(|p| lower.starts_with(p));
    (is_reference(&lower) && first != '$')
        || shell_reference
        || lower.chars().all(|c| c == first)
        || STAND_IN_WORDS.contains(&lower.as_str())
        || lower.starts_with("your")
        || [
            "xxxx",
            "...",
            "…",
            "example",
            "placeholder",
            "redacted",
            "://",
        ]
        .iter()
        .any(|s| lower.contains(s))
        || (path && strength != Strength::Password)
        || is_env_var_name(value)
}

/// `OPENAI_API_KEY` as a value names a variable (`api_key: OPENAI_API_KEY`).
fn is_env_var_name(value: &str) -> bool {
    value.contains('_')
        && value.bytes().next().is_some_and(|b| b.is_ascii_uppercase())
        && value.bytes().all(|b| b.is_ascii_uppercase() || b == b'_')
}

/// An unquoted value that is an expression in some language rather than a literal.
pub(super) fn looks_like_code(value: &str, name: &str) -> bool {
    if value.contains(['(', '[', '<', '{']) || value.contains("::") || value.starts_with(['&', '*'])
    {
        return true;
    }
    let ident = |s: &str| {
        s.bytes()
            .next()
            .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_' || b == b'$')
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'$')
    };
    // `self.token`, `process.env.API_KEY`, `settings.SECRET_KEY`.
    if value.contains('.') && value.split('.').all(ident) && !has_digit(value) {
        return true;
    }
    if !ident(value) || has_digit(value) {
        return false;
    }
    let squash = |s: &str| -> String {
        s.chars()
            .filter(char::is_ascii_alphanumeric)
            .map(|c| c.to_ascii_lowercase())
            .collect()
    };
    let bytes = value.as_bytes();
    let camel = bytes
        .windows(2)
        .any(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase());
    let pascal = bytes.first().is_some_and(u8::is_ascii_uppercase)
        && bytes.iter().skip(1).all(u8::is_ascii_lowercase)
        && bytes.len() > 1;
    // `api_key=api_key`, `token=token`, `password: String`, `secret=secretValue`.
    value.contains('_')
        || camel
        || pascal
        || squash(name) == squash(value)
        || words(name).iter().any(|w| w.eq_ignore_ascii_case(value))
}

pub(super) fn has_digit(s: &str) -> bool {
    s.bytes().any(|b| b.is_ascii_digit())
}
