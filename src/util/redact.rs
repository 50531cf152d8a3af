//! Masks secrets in free text before it reaches a log, a transcript or a screen.
//!
//! Covers provider key formats (`sk-…`, `sk-ant-…`, `sk-or-…`, GitHub, Google, Hugging
//! Face, Slack, AWS ids), credentials in headers (`Authorization: …`, `x-api-key: …`,
//! `Bearer …`), `*_API_KEY=`/`*_TOKEN:`-style assignments, and exact values the caller
//! knows are secret (e.g. from `.env`). It is a safety net, not a guarantee: a secret in an
//! unknown format, shorter than 8 characters, is not caught. Redaction never touches ordinary
//! prose; it returns the input borrowed when nothing matched.

use std::borrow::Cow;
use std::sync::LazyLock;

use regex::{Captures, Regex};

/// What replaces a secret.
pub const MASK: &str = "***";
/// Known secret values shorter than this are not redacted verbatim: masking every "abc"
/// in the logs would destroy them while protecting nothing.
const MIN_KNOWN_SECRET_LEN: usize = 6;

struct Rule {
    re: Regex,
    replace: fn(&Captures) -> String,
}

fn rule(pattern: &str, replace: fn(&Captures) -> String) -> Option<Rule> {
    // The patterns are constants covered by tests; a bad one drops only itself.
    Regex::new(pattern).ok().map(|re| Rule { re, replace })
}

fn group<'a>(caps: &'a Captures, i: usize) -> &'a str {
    caps.get(i).map_or("", |m| m.as_str())
}

static RULES: LazyLock<Vec<Rule>> = LazyLock::new(|| {
    [
        // Header or JSON field carrying a credential; keeps the auth scheme word.
        rule(
            r#"(?i)\b(authorization|proxy-authorization|x-api-key|api-key|x-goog-api-key)(["']?\s*[:=]\s*["']?)((?:bearer|basic|token)\s+)?([^\s"',;}]+)"#,
            |c| format!("{}{}{}{MASK}", group(c, 1), group(c, 2), group(c, 3)),
        ),
        // A bearer token has a digit; "the bearer responsibility" is prose.
        rule(r"(?i)\b(bearer)(\s+)([A-Za-z0-9\-._~+/]{8,}=*)", |c| {
            if group(c, 3).bytes().any(|b| b.is_ascii_digit()) {
                format!("{}{}{MASK}", group(c, 1), group(c, 2))
            } else {
                group(c, 0).to_owned()
            }
        }),
        // `OPENAI_API_KEY=…`, `"api_key": "…"`, `access_token: …`; values under 8 chars
        // are left alone so counts like `token: 5` survive.
        rule(
            r#"(?i)\b([A-Za-z0-9_]*(?:api_key|apikey|access_token|auth_token|secret_key|client_secret|password|_token|_secret))(["']?\s*[:=]\s*["']?)([^\s"',;}]{8,})"#,
            |c| format!("{}{}{MASK}", group(c, 1), group(c, 2)),
        ),
        // Provider key formats: keep the vendor prefix, drop the rest. Eight characters is
        // enough: servers echo truncated keys (`sk-proj-abc…1234`) in error messages.
        rule(
            r"\b(sk-ant-|sk-or-|sk-proj-|sk-)[A-Za-z0-9_*\-]{8,}",
            |c| format!("{}{MASK}", group(c, 1)),
        ),
        rule(
            r"\b(ghp_|gho_|ghu_|ghs_|ghr_|github_pat_)[A-Za-z0-9_]{20,}",
            |c| format!("{}{MASK}", group(c, 1)),
        ),
        rule(r"\b(AIza)[0-9A-Za-z_\-]{30,}", |c| {
            format!("{}{MASK}", group(c, 1))
        }),
        rule(r"\b(hf_)[A-Za-z0-9]{20,}", |c| {
            format!("{}{MASK}", group(c, 1))
        }),
        rule(r"\b(xox[abposr]-)[A-Za-z0-9\-]{10,}", |c| {
            format!("{}{MASK}", group(c, 1))
        }),
        rule(r"\b(AKIA)[0-9A-Z]{16}\b", |c| {
            format!("{}{MASK}", group(c, 1))
        }),
    ]
    .into_iter()
    .flatten()
    .collect()
});

/// Returns `text` with secrets replaced by `***`; borrowed when nothing was found.
pub fn redact<'a>(text: &'a str, known_secrets: &[String]) -> Cow<'a, str> {
    let mut out = Cow::Borrowed(text);
    // Exact values first: they may not look like any known format.
    let mut secrets: Vec<&str> = known_secrets
        .iter()
        .map(|s| s.trim())
        .filter(|s| s.len() >= MIN_KNOWN_SECRET_LEN)
        .collect();
    // Longest first, so a secret that contains another is masked whole.
    secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
    for secret in secrets {
        if out.contains(secret) {
            out = Cow::Owned(out.replace(secret, MASK));
        }
    }
    for rule in RULES.iter() {
        let replaced = match rule.re.replace_all(&out, |c: &Captures| (rule.replace)(c)) {
            Cow::Owned(s) => Some(s),
            Cow::Borrowed(_) => None,
        };
        // A rule may decline a match by returning it unchanged.
        if let Some(s) = replaced.filter(|s| s.as_str() != out.as_ref()) {
            out = Cow::Owned(s);
        }
    }
    out
}

#[cfg(test)]
#[path = "redact_tests.rs"]
mod tests;
