//! Masks secrets in free text before it reaches the model, a log, an export or a screen.
//!
//! What is caught (details and limits in `docs/redaction.md`):
//! - provider key formats (`sk-…`, `sk-ant-…`, `sk-or-v1-…`, GitHub, GitLab, Slack, Stripe,
//!   Google, AWS ids, Hugging Face, npm, …), JWTs, Telegram and Discord bot tokens
//!   ([`tokens`]);
//! - PEM private key blocks, multi-line, masked to the end of the text when unterminated;
//! - credentials in headers (`Authorization: Bearer …`, `x-api-key: …`) and passwords in URLs
//!   (`https://user:***@host`);
//! - assignments of secret-looking names: `NAME=value`, `export NAME=value`, `name: value`,
//!   `"name": "value"`, `?api_key=…` ([`assign`]); the name is kept, the value masked;
//! - exact values the caller knows are secret (e.g. from `.env`), and every value in the
//!   process-wide registry of known secrets ([`known`]: `.env`, config, MCP, login tokens),
//!   which every function here consults.
//!
//! What it does not do: it is a safety net, not a guarantee. A secret in an unknown format
//! with no telling name around it is not caught, and neither is an unquoted value with spaces
//! after its first word. Ordinary prose and code that only *names* a secret
//! (`let api_key = env::var("API_KEY")`) are left alone.
//!
//! Invariants: the result is borrowed when nothing matched; every detector only proposes byte
//! ranges of the original text, and overlapping ranges are merged, so rules cannot re-match
//! each other's output and the work is one pass per detector plus one copy. A kept prefix
//! (`sk-ant-`, `Bearer `, the name of an assignment) is never part of a range.

mod ambient;
mod assign;
mod known;
mod names;
mod stream;
mod tokens;
mod url;
mod values;

pub use known::MIN_REGISTERED_LEN;
pub use known::has_known_secrets;
pub use known::redact_known;
pub use known::redact_known_json;
pub use known::register_known_secret;
pub use known::register_known_secrets;
pub use known::register_named_secret;
pub use known::register_secrets_in_json;
pub use stream::KnownStream;
pub use url::strip_url_credentials;

use std::borrow::Cow;
use std::fmt;
use std::ops::Range;
use std::sync::Arc;

use regex::Regex;

/// What replaces a secret.
pub const MASK: &str = "***";
/// Known secret values shorter than this are not redacted verbatim: masking every "abc"
/// in the logs would destroy them while protecting nothing.
const MIN_KNOWN_SECRET_LEN: usize = 6;

/// The `security.redact_secrets` switch. Logs ignore it: they are always redacted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RedactSecrets {
    #[default]
    On,
    Off,
}

impl From<bool> for RedactSecrets {
    /// `true` (the config value of `security.redact_secrets`) is [`RedactSecrets::On`].
    fn from(enabled: bool) -> Self {
        if enabled { Self::On } else { Self::Off }
    }
}

/// The switch plus the exact secret values to mask, ready to apply to many texts.
///
/// `Default` is on with no known values. `Debug` prints how many values it knows, never them.
#[derive(Clone, Default)]
pub struct Redactor {
    switch: RedactSecrets,
    known: Arc<[String]>,
    /// All of `known` in one regex (one pass instead of one per value); `None` when there
    /// are none, or too many to compile, in which case each value is searched for in turn.
    matcher: Option<Regex>,
}

impl fmt::Debug for Redactor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Redactor")
            .field("switch", &self.switch)
            .field("known_secrets", &self.known.len())
            .finish()
    }
}

impl Redactor {
    /// `known_secrets` are trimmed; values shorter than 6 characters are dropped.
    pub fn new(switch: RedactSecrets, known_secrets: Vec<String>) -> Self {
        let known = usable_secrets(&known_secrets);
        let matcher = if known.is_empty() {
            None
        } else {
            // Longest first: at one position the longer value wins.
            let mut sorted: Vec<&String> = known.iter().collect();
            sorted.sort_by_key(|s| std::cmp::Reverse(s.len()));
            let alternatives: Vec<String> = sorted.iter().map(|s| regex::escape(s)).collect();
            Regex::new(&alternatives.join("|")).ok()
        };
        Self {
            switch,
            known: known.into(),
            matcher,
        }
    }

    /// A redactor that passes everything through (`security.redact_secrets: false`).
    pub fn off() -> Self {
        Self::new(RedactSecrets::Off, Vec::new())
    }

    pub fn switch(&self) -> RedactSecrets {
        self.switch
    }

    /// `text` with secrets masked, or `text` itself when the switch is off.
    pub fn redact<'a>(&self, text: &'a str) -> Cow<'a, str> {
        match self.switch {
            RedactSecrets::On => redact_usable(text, self.known_values()),
            RedactSecrets::Off => Cow::Borrowed(text),
        }
    }

    /// Masks, in place, every string in `value`; a string under a secret-looking object key
    /// (`{"api_key": "…"}`) is judged as that assignment's value. Keys are never changed.
    pub fn redact_json(&self, value: &mut serde_json::Value) {
        if self.switch == RedactSecrets::On {
            redact_json_value(value, self.known_values());
        }
    }

    fn known_values(&self) -> Known<'_> {
        match &self.matcher {
            Some(re) => Known::Compiled(re),
            None => Known::Plain(&self.known),
        }
    }
}

/// Exact secret values to look for, already filtered by [`usable_secrets`].
#[derive(Clone, Copy)]
enum Known<'a> {
    Plain(&'a [String]),
    Compiled(&'a Regex),
}

/// Returns `text` with secrets replaced by `***`; borrowed when nothing was found.
/// Always redacts (this is what logs use); see [`redact_if`] for the configurable form.
pub fn redact<'a>(text: &'a str, known_secrets: &[String]) -> Cow<'a, str> {
    redact_usable(text, Known::Plain(&usable_secrets(known_secrets)))
}

/// [`redact`] when `switch` is on, `text` unchanged when it is off.
pub fn redact_if<'a>(
    switch: RedactSecrets,
    text: &'a str,
    known_secrets: &[String],
) -> Cow<'a, str> {
    match switch {
        RedactSecrets::On => redact(text, known_secrets),
        RedactSecrets::Off => Cow::Borrowed(text),
    }
}

/// Whether `text` holds a secret recognisable by its shape alone (a provider key format, a
/// JWT, a bot token, a URL password), without looking at names: for checks that refuse a
/// text rather than mask it (`web::guard` refusing a URL, as Hermes's `_PREFIX_RE` check).
pub fn has_shaped_secret(text: &str) -> bool {
    let mut spans = Vec::new();
    tokens::find(text, &mut spans);
    !spans.is_empty()
}

/// Whether `name` (`GATEWAY_TOKEN`, `db_password`, `clientSecret`) marks its value as a
/// secret, by the rules of `docs/redaction.md` ("Which names count as secret").
pub fn is_secret_name(name: &str) -> bool {
    names::strength(name) != names::Strength::None
}

fn usable_secrets(known_secrets: &[String]) -> Vec<String> {
    let mut secrets: Vec<String> = known_secrets
        .iter()
        .map(|s| s.trim())
        .filter(|s| s.len() >= MIN_KNOWN_SECRET_LEN)
        .map(str::to_owned)
        .collect();
    secrets.sort();
    secrets.dedup();
    secrets
}

fn redact_usable<'a>(text: &'a str, known: Known<'_>) -> Cow<'a, str> {
    let mut spans: Vec<Range<usize>> = Vec::new();
    match known {
        Known::Plain(values) => {
            for secret in values {
                spans.extend(
                    text.match_indices(secret.as_str())
                        .map(|(at, s)| at..at + s.len()),
                );
            }
        }
        Known::Compiled(re) => spans.extend(re.find_iter(text).map(|m| m.range())),
    }
    known::find(text, &mut spans);
    tokens::find(text, &mut spans);
    assign::find(text, &mut spans);
    apply(text, spans)
}

/// Replaces the union of `spans` with one [`MASK`] per contiguous run.
fn apply(text: &str, mut spans: Vec<Range<usize>>) -> Cow<'_, str> {
    spans.retain(|s| s.start < s.end && s.end <= text.len());
    if spans.is_empty() {
        return Cow::Borrowed(text);
    }
    spans.sort_by_key(|s| s.start);
    let mut runs: Vec<Range<usize>> = Vec::with_capacity(spans.len());
    for span in spans {
        if let Some(last) = runs.last_mut()
            && span.start <= last.end
        {
            last.end = last.end.max(span.end);
            continue;
        }
        runs.push(span);
    }
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for run in runs {
        // Spans come from regex matches and `match_indices`, so they sit on char boundaries;
        // `get` keeps a mistake from panicking (it would drop text, never leak it).
        out.push_str(text.get(at..run.start).unwrap_or(""));
        out.push_str(MASK);
        at = run.end;
    }
    out.push_str(text.get(at..).unwrap_or(""));
    Cow::Owned(out)
}

fn redact_json_value(value: &mut serde_json::Value, known: Known<'_>) {
    use serde_json::Value;
    match value {
        Value::String(s) => {
            if let Cow::Owned(clean) = redact_usable(s, known) {
                *s = clean;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| redact_json_value(v, known)),
        Value::Object(map) => {
            for (key, v) in map.iter_mut() {
                match v {
                    Value::String(s) if assign::masks_quoted(key, s) => *s = MASK.to_owned(),
                    _ => redact_json_value(v, known),
                }
            }
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod corpus_tests;
