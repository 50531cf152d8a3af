//! Whether a name (`OPENAI_API_KEY`, `clientSecret`, `--db-password`) marks its value as a
//! secret, and how sure that makes us ([`Strength`]).
//!
//! A name is split into words at `_ - .` and camelCase humps; only whole words count, so
//! `KEYBOARD`, `MONKEY`, `tokenizer` and `author` are not secret-looking. `key`, `token` and
//! `auth` are strong when another word qualifies them (`API_KEY`, `GITHUB_TOKEN`,
//! `basic_auth`) unless that word makes them ordinary (`sort_key`, `max_token`); alone they
//! are weak. A name whose last word describes the secret rather than holding it
//! (`PASSWORD_MIN_LENGTH`, `token_type`, `api_key_env`, `SSH_AUTH_SOCK`) is not secret-looking.
//! Not here: judging the value (see `values`).

/// How sure a name makes us that its value is a secret. Ordered: the strongest word wins.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Strength {
    None,
    /// Bare `key`, `token`, `auth`, …: the value must also look random.
    Weak,
    /// `api_key`, `GITHUB_TOKEN`, `client_secret`, …
    Strong,
    /// `password`, `passwd`, `DB_PASS`, …: even a short value is someone's password.
    Password,
}

/// Last words that describe a secret rather than hold it: `PASSWORD_MIN_LENGTH`.
pub(super) const DESCRIBING: &[&str] = &[
    "age",
    "alg",
    "algorithm",
    "at",
    "budget",
    "button",
    "callback",
    "characters",
    "chars",
    "cmd",
    "command",
    "count",
    "counts",
    "created",
    "desc",
    "description",
    "dir",
    "directory",
    "disabled",
    "enable",
    "enabled",
    "endpoint",
    "env",
    "error",
    "errors",
    "exp",
    "expiration",
    "expire",
    "expires",
    "expiry",
    "field",
    "fields",
    "file",
    "files",
    "fingerprint",
    "format",
    "header",
    "headers",
    "helper",
    "hint",
    "id",
    "ids",
    "idx",
    "index",
    "input",
    "kind",
    "label",
    "len",
    "length",
    "lifetime",
    "limit",
    "limits",
    "location",
    "max",
    "message",
    "method",
    "min",
    "mode",
    "msg",
    "name",
    "names",
    "path",
    "paths",
    "pattern",
    "placeholder",
    "policy",
    "prefix",
    "prompt",
    "provider",
    "providers",
    "pub",
    "public",
    "regex",
    "request",
    "required",
    "reset",
    "response",
    "rotation",
    "rule",
    "rules",
    "scheme",
    "size",
    "sock",
    "socket",
    "source",
    "status",
    "strategy",
    "strength",
    "suffix",
    "template",
    "timeout",
    "ttl",
    "type",
    "types",
    "updated",
    "uri",
    "url",
    "urls",
    "usage",
    "validation",
    "validator",
    "var",
    "variable",
    "vars",
    "version",
    "visible",
];

/// Words before `key`/`token` that make it a non-secret: `sort_key`, `max_token`.
pub(super) const NEUTRAL_QUALIFIERS: &[&str] = &[
    "attr",
    "bos",
    "bucket",
    "cache",
    "cached",
    "cancel",
    "cancellation",
    "child",
    "cls",
    "column",
    "completion",
    "composite",
    "continuation",
    "cursor",
    "dedup",
    "dict",
    "end",
    "eos",
    "field",
    "file",
    "filter",
    "first",
    "foreign",
    "group",
    "hash",
    "hot",
    "hotkey",
    "i18n",
    "idempotency",
    "index",
    "input",
    "item",
    "join",
    "keyboard",
    "label",
    "last",
    "list",
    "local",
    "lock",
    "lookup",
    "map",
    "mask",
    "max",
    "menu",
    "message",
    "min",
    "natural",
    "nav",
    "next",
    "node",
    "num",
    "object",
    "order",
    "output",
    "pad",
    "page",
    "pagination",
    "parent",
    "partition",
    "prev",
    "previous",
    "primary",
    "prompt",
    "pub",
    "public",
    "query",
    "react",
    "reasoning",
    "redis",
    "registry",
    "route",
    "routing",
    "row",
    "s3",
    "search",
    "sep",
    "shard",
    "sharding",
    "short",
    "shortcut",
    "sort",
    "special",
    "start",
    "stop",
    "storage",
    "surrogate",
    "sync",
    "tab",
    "total",
    "translation",
    "unique",
    "unk",
];

pub(super) const PASSWORD_WORDS: &[&str] = &[
    "pass",
    "passcode",
    "passphrase",
    "passwd",
    "password",
    "passwords",
    "pw",
    "pwd",
];

pub(super) const STRONG_WORDS: &[&str] = &[
    "accesskey",
    "accesstoken",
    "apikey",
    "authkey",
    "authtoken",
    "bearer",
    "clientsecret",
    "credential",
    "credentials",
    "masterkey",
    "privatekey",
    "refreshtoken",
    "secret",
    "secretkey",
    "secrets",
    "sessiontoken",
    "signingkey",
];

pub(super) const WEAK_WORDS: &[&str] = &["private", "sig", "signature"];

pub(super) fn strength(name: &str) -> Strength {
    // The shell's working directory, not a password.
    if name.eq_ignore_ascii_case("pwd") || name.eq_ignore_ascii_case("oldpwd") {
        return Strength::None;
    }
    let words = words(name);
    match words.last() {
        Some(last) if !is_one_of(last, DESCRIBING) => {}
        _ => return Strength::None,
    }
    let mut best = Strength::None;
    for (i, w) in words.iter().copied().enumerate() {
        let here = if is_one_of(w, PASSWORD_WORDS) {
            Strength::Password
        } else if is_one_of(w, STRONG_WORDS) {
            Strength::Strong
        } else if is_one_of(w, &["auth", "key", "token"]) {
            match i.checked_sub(1).and_then(|p| words.get(p)) {
                None => Strength::Weak,
                Some(prev)
                    if !w.eq_ignore_ascii_case("auth") && is_one_of(prev, NEUTRAL_QUALIFIERS) =>
                {
                    Strength::None
                }
                Some(_) => Strength::Strong,
            }
        } else if is_one_of(w, WEAK_WORDS) {
            Strength::Weak
        } else {
            Strength::None
        };
        best = best.max(here);
    }
    best
}

/// Whether `word`, lower-cased, is in `list` (sorted, lower case; a test checks). The
/// comparison is inlined: this runs for every candidate name, and a `memcmp` call per probe
/// cost more than the search itself.
fn is_one_of(word: &str, list: &[&str]) -> bool {
    let word = word.as_bytes();
    list.binary_search_by(|item| {
        let item = item.as_bytes();
        for (a, b) in item.iter().zip(word) {
            let b = b.to_ascii_lowercase();
            if *a != b {
                return a.cmp(&b);
            }
        }
        item.len().cmp(&word.len())
    })
    .is_ok()
}

/// The words of an identifier, split at non-alphanumerics and camelCase humps
/// (`APIKey` → `API`, `Key`; `clientSecret` → `client`, `Secret`). Compare them with
/// `eq_ignore_ascii_case`.
pub(super) fn words(name: &str) -> Vec<&str> {
    let mut words = Vec::new();
    let mut start: Option<usize> = None;
    let mut prev: Option<char> = None;
    let mut chars = name.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if !c.is_ascii_alphanumeric() {
            if let Some(s) = start.take() {
                words.push(name.get(s..i).unwrap_or(""));
            }
            prev = None;
            continue;
        }
        let next_lower = chars.peek().is_some_and(|(_, n)| n.is_ascii_lowercase());
        let hump = c.is_ascii_uppercase()
            && prev.is_some_and(|p| {
                p.is_ascii_lowercase()
                    || p.is_ascii_digit()
                    || (p.is_ascii_uppercase() && next_lower)
            });
        if hump {
            if let Some(s) = start.replace(i) {
                words.push(name.get(s..i).unwrap_or(""));
            }
        } else if start.is_none() {
            start = Some(i);
        }
        prev = Some(c);
    }
    if let Some(s) = start {
        words.push(name.get(s..).unwrap_or(""));
    }
    words
}

#[cfg(test)]
#[path = "names_tests.rs"]
mod tests;
