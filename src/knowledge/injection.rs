//! Prompt-injection scanner shared by persistent memory and project context files.
//!
//! Text that ends up in the system prompt (memory entries, `AGENTS.md` and friends) or in a
//! tool result (subdirectory context files) is checked for threat patterns before use: the
//! categories of spec-002d §A.7 (instruction override, deception, system-prompt override,
//! hidden HTML comments and divs, credential exfiltration, secret-file reads) plus role
//! hijacks, and invisible or bidirectional Unicode (zero-width characters, bidi embeddings,
//! overrides and isolates, tag characters).
//!
//! Two scopes: [`ScanScope::Context`] for files the user did not write for us (context files),
//! [`ScanScope::Strict`] which adds aggressive checks (SSH paths, secrets, URLs to send data to)
//! for memory writes, where a refusal is cheap to resolve. Patterns anchor on attack phrasing,
//! not on bossy English ("you must", "never") which ordinary `AGENTS.md` files are full of.
//!
//! What it does not do: it never rewrites text (callers decide to refuse or block), and it is
//! a guard against common patterns, not a replacement for human review. Invariants: matching
//! is case-insensitive, linear-time (the `regex` crate), bounded to the first
//! [`MAX_SCAN_CHARS`] characters; full-width ASCII look-alikes are folded before matching.

use std::sync::LazyLock;

use regex::Regex;

/// Only this many leading characters are scanned (bounds the worst-case cost).
pub const MAX_SCAN_CHARS: usize = 65_536;

/// Which pattern set to apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScanScope {
    /// Context files and tool-result hints: injection, deception, exfiltration, role hijack.
    Context,
    /// Memory writes: everything in `Context` plus SSH/secret/URL-exfiltration checks.
    Strict,
}

/// What was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FindingKind {
    /// A threat pattern, by id (`prompt_injection`, `exfil_curl`, …).
    Pattern(&'static str),
    /// An invisible or bidirectional-control character.
    InvisibleChar(char),
}

impl FindingKind {
    /// The category tag used in `[BLOCKED: …]` lines: the pattern id, or
    /// `invisible_unicode_U+200B` for a character.
    pub fn id(&self) -> String {
        match self {
            FindingKind::Pattern(id) => (*id).to_string(),
            FindingKind::InvisibleChar(c) => format!("invisible_unicode_U+{:04X}", u32::from(*c)),
        }
    }
}

/// One threat found in a text, with a short excerpt of where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub kind: FindingKind,
    /// The matched text (at most 80 characters), or for an invisible character the text
    /// around it with the character shown as `<U+XXXX>`.
    pub excerpt: String,
}

impl Finding {
    /// A one-sentence reason for refusing content that will be injected into the prompt.
    pub fn refusal(&self) -> String {
        match &self.kind {
            FindingKind::InvisibleChar(c) => format!(
                "Blocked: content contains invisible unicode character U+{:04X} (possible injection).",
                u32::from(*c)
            ),
            FindingKind::Pattern(id) => format!(
                "Blocked: content matches threat pattern '{id}' ({:?}). Content is injected into the \
                 system prompt and must not contain injection or exfiltration payloads.",
                self.excerpt
            ),
        }
    }
}

/// The first threat in `text` under the context scope, or `None` when it looks clean.
pub fn scan(text: &str) -> Option<Finding> {
    scan_with(text, ScanScope::Context)
}

/// The first threat in `text` under `scope` (invisible characters first, then patterns).
pub fn scan_with(text: &str, scope: ScanScope) -> Option<Finding> {
    scan_all(text, scope).into_iter().next()
}

/// Every distinct threat in `text` under `scope`: invisible characters (one finding per
/// distinct character) first, then each matching pattern once, in table order.
pub fn scan_all(text: &str, scope: ScanScope) -> Vec<Finding> {
    let bounded = bounded(text);
    let mut findings = invisible_findings(bounded);
    let folded = fold_fullwidth(bounded);
    for pattern in PATTERNS.iter() {
        if scope == ScanScope::Context && pattern.scope == ScanScope::Strict {
            continue;
        }
        if let Some(m) = pattern.regex.find(&folded) {
            findings.push(Finding {
                kind: FindingKind::Pattern(pattern.id),
                excerpt: clip(m.as_str(), 80),
            });
        }
    }
    findings
}

/// True for characters used to hide instructions: zero-width space/non-joiner/joiner, word
/// joiner, invisible operators, BOM, bidi embeddings/overrides (U+202A–U+202E), bidi isolates
/// (U+2066–U+2069) and tag characters (U+E0000–U+E007F).
pub fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{200B}'..='\u{200D}'
            | '\u{2060}'..='\u{2064}'
            | '\u{FEFF}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2066}'..='\u{2069}'
            | '\u{E0000}'..='\u{E007F}'
    )
}

fn bounded(text: &str) -> &str {
    match text.char_indices().nth(MAX_SCAN_CHARS) {
        Some((at, _)) => &text[..at],
        None => text,
    }
}

fn invisible_findings(text: &str) -> Vec<Finding> {
    let chars: Vec<char> = text.chars().collect();
    let mut seen: Vec<char> = Vec::new();
    let mut out = Vec::new();
    for (i, &c) in chars.iter().enumerate() {
        if !is_invisible(c) || seen.contains(&c) {
            continue;
        }
        // A zero-width joiner between two pictographs builds an emoji (👨‍👩‍👧): not hidden text.
        if c == '\u{200D}'
            && i > 0
            && i + 1 < chars.len()
            && joins_emoji(chars[i - 1], chars[i + 1])
        {
            continue;
        }
        seen.push(c);
        let from = i.saturating_sub(20);
        let to = (i + 21).min(chars.len());
        let excerpt: String = chars[from..to]
            .iter()
            .map(|&ch| {
                if is_invisible(ch) {
                    format!("<U+{:04X}>", u32::from(ch))
                } else {
                    ch.to_string()
                }
            })
            .collect();
        out.push(Finding {
            kind: FindingKind::InvisibleChar(c),
            excerpt,
        });
    }
    out
}

fn joins_emoji(before: char, after: char) -> bool {
    let pictograph =
        |c: char| matches!(c, '\u{1F000}'..='\u{1FAFF}' | '\u{2600}'..='\u{27BF}' | '\u{FE0F}');
    pictograph(before) && pictograph(after)
}

/// Full-width ASCII (`ｉｇｎｏｒｅ`) folded to ASCII, so look-alikes cannot dodge the patterns.
fn fold_fullwidth(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(u32::from(c) - 0xFEE0).unwrap_or(c),
            '\u{3000}' => ' ',
            other => other,
        })
        .collect()
}

fn clip(text: &str, max_chars: usize) -> String {
    let mut out: String = text.chars().take(max_chars).collect();
    if text.chars().count() > max_chars {
        out.push('…');
    }
    out
}

struct Pattern {
    id: &'static str,
    scope: ScanScope,
    regex: Regex,
}

/// Bounded filler between key words (a few words, no punctuation or newlines).
const FILLER: &str = r"(?:\w+\s+)";
/// A shell variable whose name ends in a secret-ish word (`$API_KEY`, `${GITHUB_TOKEN}`);
/// the name itself is matched case-sensitively so `$monkey` is not a key.
const SECRET_VAR: &str =
    r"\$\{?(?-i:[A-Z0-9_]*(?:KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL)S?)\b";

static PATTERNS: LazyLock<Vec<Pattern>> = LazyLock::new(|| {
    pattern_sources()
        .into_iter()
        .filter_map(|(id, scope, source)| {
            // The table is static and a test compiles every entry; a pattern that failed to
            // compile would be skipped rather than take the process down.
            Regex::new(&format!("(?i){source}"))
                .ok()
                .map(|regex| Pattern { id, scope, regex })
        })
        .collect()
});

/// The pattern table: id, scope, regex source (compiled case-insensitively).
fn pattern_sources() -> Vec<(&'static str, ScanScope, String)> {
    let f = FILLER;
    vec![
        // Instruction override (spec-002d §A.7).
        (
            "prompt_injection",
            ScanScope::Context,
            format!(
                r"\bignore\s+{f}{{0,3}}(?:all|any|previous|prior|above|earlier|preceding)\s+{f}{{0,2}}(?:instructions|directions|directives|prompts)\b"
            ),
        ),
        (
            "disregard_rules",
            ScanScope::Context,
            format!(
                r"\bdisregard\s+{f}{{0,3}}(?:your|all|any|previous|prior|above)\s+{f}{{0,2}}(?:instructions|rules|guidelines|directives)\b"
            ),
        ),
        (
            "forget_instructions",
            ScanScope::Context,
            format!(
                r"\bforget\s+{f}{{0,2}}(?:your|all|previous|prior)\s+{f}{{0,2}}(?:instructions|rules|guidelines)\b"
            ),
        ),
        (
            "bypass_restrictions",
            ScanScope::Context,
            format!(
                r"\bact\s+as\s+(?:if|though)\s+{f}{{0,4}}you\s+{f}{{0,2}}(?:have\s+no|don'?t\s+have)\s+{f}{{0,3}}(?:restrictions|limits|rules)\b"
            ),
        ),
        // System prompt override / exfiltration.
        (
            "sys_prompt_override",
            ScanScope::Context,
            r"\bsystem\s+prompt\s+override\b".to_string(),
        ),
        (
            "leak_system_prompt",
            ScanScope::Context,
            format!(
                r"\b(?:output|reveal|print|show|repeat|dump|leak|disclose)\s+{f}{{0,3}}your\s+{f}{{0,2}}(?:system|initial|hidden|original)\s+(?:prompt|instructions)\b"
            ),
        ),
        // Deception.
        (
            "deception_hide",
            ScanScope::Context,
            format!(r"\b(?:do\s+not|don'?t)\s+{f}{{0,3}}tell\s+{f}{{0,3}}the\s+user\b"),
        ),
        // Role hijack.
        (
            "role_hijack",
            ScanScope::Context,
            format!(r"\byou\s+are\s+{f}{{0,2}}now\s+(?:a|an|the|my)\s+"),
        ),
        (
            "role_pretend",
            ScanScope::Context,
            r"\bpretend\s+(?:that\s+)?you\s+are\s+".to_string(),
        ),
        (
            "remove_filters",
            ScanScope::Context,
            format!(
                r"\b(?:respond|answer|reply)\s+without\s+{f}{{0,3}}(?:restrictions|limitations|filters|safety)\b"
            ),
        ),
        (
            "fake_update",
            ScanScope::Context,
            format!(
                r"\byou\s+have\s+been\s+{f}{{0,3}}(?:updated|upgraded|patched|reprogrammed)\s+to\b"
            ),
        ),
        (
            "identity_override",
            ScanScope::Context,
            r"\bname\s+yourself\s+\w+".to_string(),
        ),
        (
            "translate_execute",
            ScanScope::Context,
            r"\btranslate\s+[^\n]{0,512}\s+into\s+\w+(?:[\s-]+\w+){0,2}\s+and\s+(?:execute|run|eval)\b"
                .to_string(),
        ),
        // Hidden instructions in markup. `prettier-ignore` style tool comments are not hidden
        // instructions: the keyword must not be glued to a preceding word or dash.
        (
            "html_comment_injection",
            ScanScope::Context,
            r"<!--(?:[^>]{0,512}?[^A-Za-z\->])?(?:ignore|override|system|secret|hidden)(?:[^A-Za-z\->][^>]{0,512}?)?-->"
                .to_string(),
        ),
        (
            "hidden_div",
            ScanScope::Context,
            r#"<\s*(?:div|span|p)\s+[^>]{0,256}?style\s*=\s*["'][^>]{0,2048}?(?:display\s*:\s*none|visibility\s*:\s*hidden)"#
                .to_string(),
        ),
        // Credential exfiltration and secret-file reads.
        (
            "exfil_curl",
            ScanScope::Context,
            format!(r"\bcurl\s+[^\n]{{0,2048}}{SECRET_VAR}"),
        ),
        (
            "exfil_wget",
            ScanScope::Context,
            format!(r"\bwget\s+[^\n]{{0,2048}}{SECRET_VAR}"),
        ),
        (
            "read_secrets",
            ScanScope::Context,
            r"\bcat\s+[^\n]{0,2048}(?:\.env\b|\bcredentials\b|\.netrc\b|\.pgpass\b|\.npmrc\b|\.pypirc\b)"
                .to_string(),
        ),
        (
            "read_ssh_key",
            ScanScope::Context,
            r"\b(?:cat|less|more|head|tail|base64|xxd|scp|cp)\s+[^\n]{0,256}\.ssh/id_\w+".to_string(),
        ),
        // Strict scope: memory writes.
        (
            "ssh_backdoor",
            ScanScope::Strict,
            r"authorized_keys".to_string(),
        ),
        (
            "ssh_access",
            ScanScope::Strict,
            r"(?:\$HOME|~)/\.ssh\b".to_string(),
        ),
        (
            "hermes_env",
            ScanScope::Strict,
            r"(?:\$HOME|~)/\.hermes/\.env\b".to_string(),
        ),
        (
            "hermes_config_mod",
            ScanScope::Strict,
            r"\b(?:update|modify|edit|write|change|append|add\s+to)\s+[^\n]{0,512}\.hermes/(?:config\.yaml|SOUL\.md)"
                .to_string(),
        ),
        (
            "send_to_url",
            ScanScope::Strict,
            r"\b(?:send|post|upload|transmit)\s+[^\n]{0,512}\s+(?:to|at)\s+https?://".to_string(),
        ),
        (
            "context_exfil",
            ScanScope::Strict,
            format!(
                r"\b(?:include|output|print|share)\s+{f}{{0,8}}(?:conversation|chat\s+history|previous\s+messages|full\s+context|entire\s+context)\b"
            ),
        ),
        (
            "env_var_unset_agent",
            ScanScope::Strict,
            r"\bunset\s+\w*(?-i:CLAUDE|CODEX|HERMES|AGENT|OPENAI|ANTHROPIC)\w*".to_string(),
        ),
        (
            "hardcoded_secret",
            ScanScope::Strict,
            r#"(?:api[_-]?key|token|secret|password)\s*[=:]\s*["']?[A-Za-z0-9+/=_\-]{20,}"#
                .to_string(),
        ),
    ]
}

#[cfg(test)]
#[path = "injection_tests.rs"]
mod tests;
