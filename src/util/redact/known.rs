//! The process-wide registry of known secret values: the exact strings hermes knows are
//! credentials (the values of secret-named `.env` and config entries, MCP server tokens, keys
//! from the login store, tokens obtained while running). Every redaction path consults it —
//! [`super::redact`], [`super::Redactor`] (when on), [`super::Redactor::redact_json`] — and
//! [`redact_known`] masks only these values, for text where pattern rules would be too eager
//! (the engine's events).
//!
//! This is what catches a key without a vendor prefix that a server echoes back
//! (`Incorrect API key provided: Zq9xK2mP7vR4tL8wN3bH`): no pattern can recognise it, but its
//! value is known.
//!
//! What it does not do: forget values (a process runs one configuration; a value once secret
//! stays masked), or hold short values: anything under [`MIN_REGISTERED_LEN`] characters is
//! ignored, since masking every `admin` or `hermes` would destroy ordinary text.
//! Invariants: registering is idempotent and cheap to read — readers clone an `Arc` under a
//! read lock and match one compiled regex; the values never reach `Debug` or a log.

use std::borrow::Cow;
use std::ops::Range;
use std::sync::Arc;
use std::sync::PoisonError;
use std::sync::RwLock;

use regex::Regex;

use super::assign::masks_quoted;

/// Registered values shorter than this (in characters) are ignored.
pub const MIN_REGISTERED_LEN: usize = 8;

/// Auth schemes a header value may start with (`Authorization: Bearer <token>`); the token
/// after one is registered on its own too, since servers echo the token, not the header.
const AUTH_SCHEMES: &[&str] = &["bearer", "basic", "token", "bot", "apikey", "key"];

/// Header names whose whole value is a credential though no word of theirs says so.
const AUTH_HEADERS: &[&str] = &["authorization", "proxy-authorization"];

/// The registered values and one regex matching any of them.
pub(super) struct KnownSet {
    values: Vec<String>,
    /// `None` when the values are too many for one regex; each is then searched in turn.
    matcher: Option<Regex>,
    /// The longest value's length in bytes: a stream never holds back more than this.
    max_len: usize,
    /// Which bytes begin some value (a tail starting anywhere else cannot begin a secret).
    first_bytes: [bool; 256],
}

impl KnownSet {
    fn new(values: Vec<String>) -> Self {
        // Longest first: at one position the longer value wins.
        let mut sorted: Vec<&String> = values.iter().collect();
        sorted.sort_by_key(|s| std::cmp::Reverse(s.len()));
        let alternatives: Vec<String> = sorted.iter().map(|s| regex::escape(s)).collect();
        let matcher = Regex::new(&alternatives.join("|")).ok();
        let max_len = values.iter().map(String::len).max().unwrap_or(0);
        let mut first_bytes = [false; 256];
        for value in &values {
            if let Some(&b) = value.as_bytes().first() {
                first_bytes[usize::from(b)] = true;
            }
        }
        Self {
            values,
            matcher,
            max_len,
            first_bytes,
        }
    }

    /// The earliest byte offset from which the rest of `text` is a proper prefix of a value
    /// (the start of a secret the next piece of a stream may complete); `None` when no tail
    /// of `text` can start one. Only the last `max_len - 1` bytes can, and only at a byte
    /// that begins some value, so ordinary text costs one byte comparison per position.
    pub(super) fn open_tail(&self, text: &str) -> Option<usize> {
        let bytes = text.as_bytes();
        let from = bytes.len().saturating_sub(self.max_len.saturating_sub(1));
        (from..bytes.len()).find(|&at| {
            if !self.first_bytes[usize::from(bytes[at])] {
                return false;
            }
            let tail = &bytes[at..];
            self.values
                .iter()
                .any(|v| v.len() > tail.len() && v.as_bytes().starts_with(tail))
        })
    }

    pub(super) fn find(&self, text: &str, spans: &mut Vec<Range<usize>>) {
        match &self.matcher {
            Some(re) => spans.extend(re.find_iter(text).map(|m| m.range())),
            None => {
                for value in &self.values {
                    spans.extend(
                        text.match_indices(value.as_str())
                            .map(|(at, s)| at..at + s.len()),
                    );
                }
            }
        }
    }
}

static REGISTRY: RwLock<Option<Arc<KnownSet>>> = RwLock::new(None);

pub(super) fn snapshot() -> Option<Arc<KnownSet>> {
    // The environment's and AWS files' secrets join on first use (once; cheap after).
    super::ambient::load_once();
    REGISTRY
        .read()
        .unwrap_or_else(PoisonError::into_inner)
        .clone()
}

/// A value worth registering: trimmed, at least [`MIN_REGISTERED_LEN`] characters, and not
/// one character repeated (`xxxxxxxx`, `********`).
fn usable(value: &str) -> Option<&str> {
    let value = value.trim();
    let mut chars = value.chars();
    let first = chars.next()?;
    let long = value.chars().count() >= MIN_REGISTERED_LEN;
    (long && !value.chars().all(|c| c == first)).then_some(value)
}

/// Adds exact secret values to the registry; short or blank ones are ignored.
pub fn register_known_secrets<I, S>(values: I)
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    let fresh: Vec<String> = values
        .into_iter()
        .filter_map(|v| usable(v.as_ref()).map(str::to_owned))
        .collect();
    if fresh.is_empty() {
        return;
    }
    let mut registry = REGISTRY.write().unwrap_or_else(PoisonError::into_inner);
    let mut all: Vec<String> = registry
        .as_ref()
        .map(|set| set.values.clone())
        .unwrap_or_default();
    let before = all.len();
    all.extend(fresh);
    all.sort();
    all.dedup();
    if all.len() != before {
        *registry = Some(Arc::new(KnownSet::new(all)));
    }
}

/// Adds one exact secret value (an API key in use, a token just obtained).
pub fn register_known_secret(value: &str) {
    register_known_secrets([value]);
}

/// Registers `value` when `name` marks it as a secret and it is a real value rather than a
/// stand-in (`GITHUB_TOKEN: ghp_…` yes; `key_env: MY_KEY`, `token: ${TOKEN}` no) — the rules
/// of a quoted assignment in `docs/redaction.md`. For an auth header value
/// (`Bearer <token>`), the token is registered as well.
pub fn register_named_secret(name: &str, value: &str) {
    let auth_header = AUTH_HEADERS
        .iter()
        .any(|h| h.eq_ignore_ascii_case(name.trim()));
    // `Bearer ${TOKEN}` names a variable; its value is registered where it is read.
    if auth_header && value.contains('$') {
        return;
    }
    if !auth_header && !masks_quoted(name, value) {
        return;
    }
    let mut values = vec![value];
    if let Some((scheme, token)) = value.trim().split_once(' ')
        && AUTH_SCHEMES.iter().any(|s| s.eq_ignore_ascii_case(scheme))
    {
        values.push(token);
    }
    register_known_secrets(values);
}

/// Registers every string in `value` that sits under a secret-looking object key (see
/// [`register_named_secret`]), at any depth: a config document, a credential store.
pub fn register_secrets_in_json(value: &serde_json::Value) {
    use serde_json::Value;
    match value {
        Value::Array(items) => items.iter().for_each(register_secrets_in_json),
        Value::Object(map) => {
            for (key, v) in map {
                match v {
                    Value::String(s) => register_named_secret(key, s),
                    _ => register_secrets_in_json(v),
                }
            }
        }
        Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_) => {}
    }
}

/// Whether any value is registered (lets callers skip work on the common path).
pub fn has_known_secrets() -> bool {
    snapshot().is_some()
}

/// Pushes the ranges of `text` holding a registered value.
pub(super) fn find(text: &str, spans: &mut Vec<Range<usize>>) {
    if let Some(set) = snapshot() {
        set.find(text, spans);
    }
}

/// `text` with every registered value replaced by `***` and nothing else changed; borrowed
/// when none occurs.
pub fn redact_known(text: &str) -> Cow<'_, str> {
    let Some(set) = snapshot() else {
        return Cow::Borrowed(text);
    };
    let mut spans = Vec::new();
    set.find(text, &mut spans);
    super::apply(text, spans)
}

/// [`redact_known`] on every string of `value`, in place (object keys stay). Returns whether
/// anything changed.
pub fn redact_known_json(value: &mut serde_json::Value) -> bool {
    use serde_json::Value;
    let Some(set) = snapshot() else {
        return false;
    };
    fn walk(value: &mut Value, set: &KnownSet) -> bool {
        match value {
            Value::String(s) => {
                let mut spans = Vec::new();
                set.find(s, &mut spans);
                match super::apply(s, spans) {
                    Cow::Owned(clean) => {
                        *s = clean;
                        true
                    }
                    Cow::Borrowed(_) => false,
                }
            }
            Value::Array(items) => items
                .iter_mut()
                .fold(false, |changed, v| walk(v, set) | changed),
            Value::Object(map) => map
                .values_mut()
                .fold(false, |changed, v| walk(v, set) | changed),
            Value::Null | Value::Bool(_) | Value::Number(_) => false,
        }
    }
    walk(value, &set)
}

#[cfg(test)]
#[path = "known_tests.rs"]
mod tests;
