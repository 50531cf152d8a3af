//! `approvals.deny`: the user's globs of shell commands that never run — not in YOLO mode, not
//! with `approvals.mode: off` — as Hermes's user deny rules. Matching is Python `fnmatch`'s:
//! case-insensitive, `*` is any text (slashes too), `?` one character, `[...]` a class, no
//! backslash escapes; a pattern that is not a valid glob matches only its literal text. A
//! command is checked as written and in its normal form (`classify::normalize`), trimmed.
//! Pure; never asks anyone.

use globset::GlobBuilder;
use globset::GlobMatcher;

#[derive(Debug, Clone, Default)]
pub struct DenyRules {
    rules: Vec<(String, GlobMatcher)>,
}

impl DenyRules {
    /// Empty and blank patterns are skipped.
    pub fn new(patterns: &[String]) -> Self {
        let compile = |pattern: &str| {
            GlobBuilder::new(pattern)
                .case_insensitive(true)
                .literal_separator(false)
                .backslash_escape(false)
                .build()
        };
        let rules = patterns
            .iter()
            .map(|p| p.trim())
            .filter(|p| !p.is_empty())
            .filter_map(|pattern| {
                let glob = compile(pattern).or_else(|_| compile(&globset::escape(pattern)));
                glob.ok()
                    .map(|glob| (pattern.to_string(), glob.compile_matcher()))
            })
            .collect();
        Self { rules }
    }

    /// The first pattern `command` (or its normal form) matches.
    pub fn matching(&self, command: &str, normalized: &str) -> Option<&str> {
        let candidates = [command.trim(), normalized.trim()];
        self.rules
            .iter()
            .find(|(_, glob)| candidates.iter().any(|c| glob.is_match(c)))
            .map(|(pattern, _)| pattern.as_str())
    }
}

/// What the model is told (Hermes's wording).
pub fn blocked_reason(pattern: &str) -> String {
    format!(
        "BLOCKED: this command matches the user-defined deny rule '{pattern}' (approvals.deny \
         in config.yaml). It cannot be executed via the agent — not even with --yolo, /yolo, or \
         approvals.mode=off. Do NOT retry or rephrase this command; the user has explicitly \
         forbidden it."
    )
}

#[cfg(test)]
#[path = "deny_rules_tests.rs"]
mod tests;
