//! Secrets recognisable by their shape alone: provider key formats, JWTs, bot tokens,
//! `Bearer …` credentials, passwords in URLs and PEM private key blocks.
//!
//! Each detector pushes the byte ranges to mask; a vendor prefix (`sk-ant-`, `ghp_`,
//! `hooks.slack.com/services/`) stays visible so a reader can tell which key it was. Not
//! here: anything that needs a name next to the value (see `assign`).
//!
//! Speed: every provider format starts with a literal, so they share one regex whose
//! literal prefilter skips ordinary text at memchr speed; the few shape-only formats
//! (Discord, Telegram) have their own regexes. Word boundaries are ASCII (`(?-u:\b)`), which
//! keeps the regex engine on its fast DFA even when the text is not ASCII.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

/// What a provider format requires of its body beyond the character class.
#[derive(Clone, Copy)]
enum Check {
    None,
    /// At least one ASCII digit: `fc-barcelona-fans` is prose, `fc-4f…` is a key.
    Digit,
}

/// One provider format: `prefix` (regex, kept visible) then `body` (regex, masked).
struct Format {
    prefix: &'static str,
    body: &'static str,
    check: Check,
}

const fn f(prefix: &'static str, body: &'static str) -> Format {
    Format {
        prefix,
        body,
        check: Check::None,
    }
}

const fn digit(prefix: &'static str, body: &'static str) -> Format {
    Format {
        prefix,
        body,
        check: Check::Digit,
    }
}

/// Earlier entries win at the same position, so specific prefixes come before `sk-`.
/// Eight characters after a known prefix is enough: servers echo truncated keys
/// (`sk-proj-abc…1234`, `sk-ant-****…`) in error messages.
const FORMATS: &[Format] = &[
    // Anthropic, OpenRouter, OpenAI project/service/admin keys, then any other `sk-` key
    // (DeepSeek, Moonshot, test fixtures like `sk-live-abcdefgh`): a word starting `sk-`
    // with 8 more letters is not English.
    f("sk-ant-", r"[A-Za-z0-9_*\-]{8,}"),
    f("sk-or-(?:v1-)?", r"[A-Za-z0-9_*\-]{8,}"),
    f("sk-(?:proj|svcacct|admin)-", r"[A-Za-z0-9_*\-]{8,}"),
    f("sk-", r"[A-Za-z0-9_*\-]{8,}"),
    // Stripe (secret, restricted, publishable; live and test) and its webhook secrets.
    f("(?:sk|rk|pk)_(?:live|test)_", r"[A-Za-z0-9]{10,}"),
    f("whsec_", r"[A-Za-z0-9]{16,}"),
    // GitHub classic and fine-grained tokens.
    f("gh[pousr]_", r"[A-Za-z0-9]{20,}"),
    f("github_pat_", r"[A-Za-z0-9_]{20,}"),
    // GitLab token families.
    f(
        "gl(?:pat|dt|rt|rtr|ptt|cbt|soat|oas|ft|imt|agent|ffct|wt)-",
        r"[A-Za-z0-9_\-]{16,}",
    ),
    // Slack tokens and incoming-webhook URLs; Discord webhook URLs.
    f("xox[abposre]-", r"[A-Za-z0-9\-]{10,}"),
    f("xapp-", r"[A-Za-z0-9\-]{10,}"),
    f(r"hooks\.slack\.com/services/", r"[A-Za-z0-9_/]{16,}"),
    f(
        r"discord(?:app)?\.com/api/webhooks/",
        r"[0-9]+/[A-Za-z0-9_\-]{16,}",
    ),
    // Google API keys, OAuth access tokens and client secrets.
    f("AIza", r"[0-9A-Za-z_\-]{30,}"),
    f(r"ya29\.", r"[0-9A-Za-z_\-]{20,}"),
    f("GOCSPX-", r"[A-Za-z0-9_\-]{20,}"),
    // AWS access key ids (long-term, temporary, …): exactly 16 more characters.
    f("(?:AKIA|ASIA|ABIA|ACCA)", r"[0-9A-Z]{16}(?-u:\b)"),
    // Model and tool providers.
    f("hf_", r"[A-Za-z0-9]{20,}"),
    f("npm_", r"[A-Za-z0-9]{30,}"),
    f("pypi-", r"[A-Za-z0-9_\-]{16,}"),
    f("xai-", r"[A-Za-z0-9]{30,}"),
    f("gsk_", r"[A-Za-z0-9]{20,}"),
    f("r8_", r"[A-Za-z0-9]{20,}"),
    f("pplx-", r"[A-Za-z0-9]{20,}"),
    f("tvly-", r"[A-Za-z0-9\-]{16,}"),
    digit("fc-", r"[A-Za-z0-9]{20,}"),
    f("fw_", r"[A-Za-z0-9]{20,}"),
    f("lin_api_", r"[A-Za-z0-9]{20,}"),
    f("ntn_", r"[A-Za-z0-9]{20,}"),
    f(r"SG\.", r"[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{16,}"),
    f("do[opr]_v1_", r"[a-f0-9]{20,}"),
    f("shp(?:at|ca|pa|ss)_", r"[a-fA-F0-9]{20,}"),
    f(r"hvs\.", r"[A-Za-z0-9_\-]{20,}"),
    f(r"dp\.(?:pt|st|sa|ct)\.", r"[A-Za-z0-9]{20,}"),
    f("AGE-SECRET-KEY-1", r"[0-9A-Z]{20,}"),
    // A JWT: header and payload are base64 JSON (`eyJ` is `{"`); masked whole.
    f(
        "",
        r"eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]*",
    ),
];

/// All [`FORMATS`] as one regex: group `i + 1` is format `i`'s kept prefix.
static PROVIDERS: LazyLock<Option<Regex>> = LazyLock::new(|| {
    let alternatives: Vec<String> = FORMATS
        .iter()
        .map(|f| format!("({}){}", f.prefix, f.body))
        .collect();
    Regex::new(&format!(r"(?-u:\b)(?:{})", alternatives.join("|"))).ok()
});

/// Discord bot token: base64 user id, timestamp, HMAC. Masked whole.
static DISCORD: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(
        r"(?-u:\b)[MNO][A-Za-z0-9_\-]{23,27}\.[A-Za-z0-9_\-]{6}\.[A-Za-z0-9_\-]{27,40}(?-u:\b)",
    )
    .ok()
});

/// Telegram bot token `123456789:AA…` (35 characters after the colon); the bot id is kept.
static TELEGRAM: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"(?-u:\b)(?:bot)?[0-9]{8,10}:([A-Za-z0-9_\-]{35,})").ok());

/// `Bearer <token>` anywhere; the token must contain a digit ("the bearer responsibility").
static BEARER: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"(?i)(?-u:\b)bearer[ \t]+([A-Za-z0-9\-._~+/]{8,}=*)").ok());

/// `scheme://user:password@host`: the password is masked.
static URL_PASSWORD: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(r"(?i)(?-u:\b)[a-z][a-z0-9+.\-]*://[^\s:/?#@]*:([^\s/?#@]+)@").ok()
});

static PEM_BEGIN: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----").ok());

static PEM_END: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----").ok());

/// Pushes the ranges of `text` to mask. The patterns are constants covered by tests; one
/// that failed to compile drops only itself.
pub(super) fn find(text: &str, spans: &mut Vec<Range<usize>>) {
    providers(text, spans);
    if let Some(re) = DISCORD.as_ref() {
        spans.extend(
            re.find_iter(text)
                .filter(|m| has_digit(m.as_str()))
                .map(|m| m.range()),
        );
    }
    if let Some(re) = TELEGRAM.as_ref() {
        for caps in re.captures_iter(text) {
            if let Some(token) = caps.get(1).filter(|t| t.len() == 35) {
                spans.push(token.range());
            }
        }
    }
    if let Some(re) = BEARER.as_ref() {
        for caps in re.captures_iter(text) {
            if let Some(token) = caps.get(1).filter(|t| has_digit(t.as_str())) {
                spans.push(token.range());
            }
        }
    }
    if let Some(re) = URL_PASSWORD.as_ref() {
        for caps in re.captures_iter(text) {
            if let Some(password) = caps.get(1).filter(|p| !is_reference(p.as_str())) {
                spans.push(password.range());
            }
        }
    }
    pem_blocks(text, spans);
}

fn providers(text: &str, spans: &mut Vec<Range<usize>>) {
    let Some(re) = PROVIDERS.as_ref() else {
        return;
    };
    for caps in re.captures_iter(text) {
        let Some(whole) = caps.get(0) else {
            continue;
        };
        let matched = FORMATS
            .iter()
            .enumerate()
            .find_map(|(i, format)| caps.get(i + 1).map(|prefix| (format, prefix.end())));
        let Some((format, body_start)) = matched else {
            continue;
        };
        let body = text.get(body_start..whole.end()).unwrap_or("");
        let ok = match format.check {
            Check::None => true,
            Check::Digit => has_digit(body),
        };
        if ok {
            spans.push(body_start..whole.end());
        }
    }
}

/// The body of each private key block, between its BEGIN and END lines (which stay), or
/// to the end of the text when the END line is missing (a truncated paste still leaks).
fn pem_blocks(text: &str, spans: &mut Vec<Range<usize>>) {
    let (Some(begin), Some(end)) = (PEM_BEGIN.as_ref(), PEM_END.as_ref()) else {
        return;
    };
    let mut from = 0;
    while let Some(header) = text.get(from..).and_then(|rest| begin.find(rest)) {
        let body_start = from + header.end();
        let rest = text.get(body_start..).unwrap_or("");
        let (body_end, next) = match end.find(rest) {
            Some(footer) => (body_start + footer.start(), body_start + footer.end()),
            None => (text.len(), text.len()),
        };
        let body = text.get(body_start..body_end).unwrap_or("");
        let lead = body.len() - trim_line_breaks_start(body).len();
        let trail = body.len() - trim_line_breaks_end(body).len();
        if body_start + lead < body_end - trail {
            spans.push(body_start + lead..body_end - trail);
        }
        from = next;
    }
}

/// Trims whitespace and escaped line breaks (`\n` as two characters, as in a PEM key inside
/// a JSON string) so the mask sits between the BEGIN and END lines.
fn trim_line_breaks_start(mut s: &str) -> &str {
    loop {
        let t = s.trim_start();
        let t = t
            .strip_prefix("\\n")
            .or_else(|| t.strip_prefix("\\r"))
            .unwrap_or(t);
        if t.len() == s.len() {
            return s;
        }
        s = t;
    }
}

fn trim_line_breaks_end(mut s: &str) -> &str {
    loop {
        let t = s.trim_end();
        let t = t
            .strip_suffix("\\n")
            .or_else(|| t.strip_suffix("\\r"))
            .unwrap_or(t);
        if t.len() == s.len() {
            return s;
        }
        s = t;
    }
}

fn has_digit(s: &str) -> bool {
    s.bytes().any(|b| b.is_ascii_digit())
}

/// `$TOKEN`, `${TOKEN}`, `{{ secret }}`, `<password>`, `%s`, `***`: a stand-in, not a secret.
pub(super) fn is_reference(value: &str) -> bool {
    value.starts_with(['$', '{', '<', '%', '*'])
}
