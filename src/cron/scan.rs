//! Hermes's cron prompt scanner (`tools/cronjob_tools.py`): a job's prompt runs later with
//! nobody watching, so prompts carrying injection directives, secret exfiltration commands
//! or invisible characters are refused when the job is created or updated, and checked again
//! when it runs. The assembled prompt of a job with skills or injected data gets the looser
//! set (skill bodies describe attacks in prose) and has invisible characters stripped rather
//! than refused. The patterns and messages are Hermes's.
//!
//! What it does not do: judge commands (the approval gate does, at run time).

use std::sync::LazyLock;

use regex::Regex;

const SECRET_VAR: &str = r"\$\{?\w*(?:KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL|API)\w*\}?";

const STRICT: [(&str, &str); 8] = [
    (
        r"ignore\s+(?:\w+\s+)*(?:previous|all|above|prior)\s+(?:\w+\s+)*instructions",
        "prompt_injection",
    ),
    (r"do\s+not\s+tell\s+the\s+user", "deception_hide"),
    (r"system\s+prompt\s+override", "sys_prompt_override"),
    (
        r"disregard\s+(your|all|any)\s+(instructions|rules|guidelines)",
        "disregard_rules",
    ),
    (
        r"cat\s+[^\n]*(\.env|credentials|\.netrc|\.pgpass)",
        "read_secrets",
    ),
    (r"authorized_keys", "ssh_backdoor"),
    (r"/etc/sudoers|visudo", "sudoers_mod"),
    (r"rm\s+-rf\s+/", "destructive_root_rm"),
];

/// Hermes's characters used to hide instructions (`threat_patterns.INVISIBLE_CHARS`).
const INVISIBLE: [char; 17] = [
    '\u{200b}', '\u{200c}', '\u{200d}', '\u{2060}', '\u{2062}', '\u{2063}', '\u{2064}', '\u{feff}',
    '\u{202a}', '\u{202b}', '\u{202c}', '\u{202d}', '\u{202e}', '\u{2066}', '\u{2067}', '\u{2068}',
    '\u{2069}',
];

fn compile(pattern: &str) -> Option<Regex> {
    Regex::new(&format!("(?i){pattern}")).ok()
}

static STRICT_SET: LazyLock<Vec<(Regex, &'static str)>> = LazyLock::new(|| {
    STRICT
        .iter()
        .filter_map(|(p, id)| compile(p).map(|r| (r, *id)))
        .collect()
});

static EXFIL_SET: LazyLock<Vec<(Regex, &'static str)>> = LazyLock::new(|| {
    let patterns = [
        (
            format!(r#"curl\s+[^\n]*https?://[^\s"'`]*{SECRET_VAR}"#),
            "exfil_curl_url",
        ),
        (
            format!(r#"wget\s+[^\n]*https?://[^\s"'`]*{SECRET_VAR}"#),
            "exfil_wget_url",
        ),
        (
            format!(
                r"curl\s+[^\n]*(?:--data(?:-raw|-binary|-urlencode)?|-d|--form|-F)\s+[^\n]*{SECRET_VAR}"
            ),
            "exfil_curl_data",
        ),
        (
            format!(r"wget\s+[^\n]*--post-(?:data|file)=[^\n]*{SECRET_VAR}"),
            "exfil_wget_post",
        ),
        (
            format!(
                r#"curl\s+[^\n]*(?:-H|--header)\s+["']Authorization:\s*(?:Bearer|token)\s+{SECRET_VAR}["']"#
            ),
            "exfil_curl_auth_header",
        ),
    ];
    patterns
        .iter()
        .filter_map(|(p, id)| compile(p).map(|r| (r, *id)))
        .collect()
});

static GITHUB_AUTH: LazyLock<Option<Regex>> = LazyLock::new(|| {
    compile(&format!(
        r#"curl\s+[^\n]*(?:-H|--header)\s+["']Authorization:\s*token\s+{SECRET_VAR}["']\s+["']?https://api\.github\.com(?:/|\b)"#
    ))
});

fn blocked(id: &str) -> String {
    format!(
        "Blocked: prompt matches threat pattern '{id}'. Cron prompts must not contain injection \
         or exfiltration payloads."
    )
}

/// The strict check of a user's prompt: `Some(message)` when it must be refused.
pub fn scan_prompt(prompt: &str) -> Option<String> {
    let text = strip_safe_constructs(prompt);
    let chars: Vec<char> = text.chars().collect();
    for (index, c) in chars.iter().enumerate() {
        if INVISIBLE.contains(c) && !(*c == '\u{200d}' && zwj_in_emoji(&chars, index)) {
            return Some(format!(
                "Blocked: prompt contains invisible unicode U+{:04X} (possible injection).",
                u32::from(*c)
            ));
        }
    }
    STRICT_SET
        .iter()
        .chain(EXFIL_SET.iter())
        .find(|(re, _)| re.is_match(&text))
        .map(|(_, id)| blocked(id))
}

/// The looser check of an assembled prompt (skills or injected data): invisible characters
/// are removed (emoji joiners kept); returns the cleaned prompt or the refusal.
pub fn scan_assembled(prompt: &str) -> Result<String, String> {
    let chars: Vec<char> = prompt.chars().collect();
    let cleaned: String = chars
        .iter()
        .enumerate()
        .filter(|(i, c)| !INVISIBLE.contains(c) || (**c == '\u{200d}' && zwj_in_emoji(&chars, *i)))
        .map(|(_, c)| *c)
        .collect();
    let text = strip_safe_constructs(&cleaned);
    match STRICT_SET.iter().take(4).find(|(re, _)| re.is_match(&text)) {
        Some((_, id)) => Err(blocked(id)),
        None => Ok(cleaned),
    }
}

fn strip_safe_constructs(prompt: &str) -> String {
    match GITHUB_AUTH.as_ref().and_then(|re| re.find(prompt)) {
        Some(found) => prompt.replacen(found.as_str(), "curl https://api.github.com/user", 1),
        None => prompt.to_string(),
    }
}

fn is_emoji(c: char) -> bool {
    let cp = u32::from(c);
    [
        (0x1F000, 0x1FFFF),
        (0x2600, 0x27BF),
        (0x2300, 0x23FF),
        (0x1F1E6, 0x1F1FF),
        (0x20E3, 0x20E3),
    ]
    .iter()
    .any(|(lo, hi)| (*lo..=*hi).contains(&cp))
}

fn zwj_in_emoji(chars: &[char], index: usize) -> bool {
    let selector = '\u{fe0f}';
    let left = chars[..index].iter().rev().find(|c| **c != selector);
    let right = chars[index + 1..].iter().find(|c| **c != selector);
    matches!((left, right), (Some(l), Some(r)) if is_emoji(*l) && is_emoji(*r))
}

#[cfg(test)]
#[path = "scan_tests.rs"]
mod tests;
