//! The shell-aware command classifier behind dangerous-command approvals.
//!
//! `classify` reads a command line the way a POSIX shell would: a real lexer (`lex`,
//! `expand`) handles quoting (`'…'`, `"…"`, `$'…'`, backslashes), control operators (`;`
//! `&&` `||` `|` `&`, newlines, subshell parentheses), redirections and here-documents, and
//! expands `~`, `$HOME`, `$HERMES_HOME` and `$IFS`; `parse` finds every simple command and
//! applies brace expansion. `walk` visits each one: `unwrap` strips wrappers (`sudo`, `env`,
//! `nohup`, `setsid`, `time`, `exec`, `xargs`, `npx`, …) and absolute program paths, then the
//! rule modules look at it — `hard` (the hardline tier, blocked even in YOLO, and `rm`) with
//! `machine` (disk and power tools), `rules` and `git` (program-specific dangerous families),
//! `writes` and `targets` (what it writes — after `$(…)` and links made on the line — checked
//! against the sensitive-path lists in `crate::safety::paths`) and `code` (inline interpreter
//! code, SQL). `follow` recurses into what runs as code (`$(…)`, `bash -c`, `eval`,
//! `find -exec`, `echo … | sh`, here-documents, scripts written earlier on the line,
//! `ssh`/`docker exec` via `remote`), `hooks` into commands named by options and variables
//! (`tar --to-command`, `ssh -o ProxyCommand`, `GIT_SSH_COMMAND`, `PAGER`, …), `scripted`
//! into the scripts of sed, ed and make (`sed`, `minilang`); `source` works out what a
//! pipeline prints, and `vars` substitutes variables given a literal value earlier on the
//! line. Nested code is classified by what it runs, never flagged merely for
//! being nested.
//!
//! It does not run anything, read the filesystem or the environment, evaluate variables set
//! elsewhere, expand globs, or read scripts on disk; see `docs/command-classifier.md` for
//! the full list. Invariants: text that the shell passes as data (`echo "rm -rf /"`,
//! `grep -r rm .`) never matches a rule; the verdict depends only on the command text and the
//! `ShellContext`; nesting deeper than `MAX_DEPTH` is reported as dangerous rather than
//! silently passed; no input makes it panic or take more than linear-ish time.

use std::path::PathBuf;

mod code;
mod cx;
mod expand;
mod follow;
mod git;
mod hard;
mod hooks;
pub mod keys;
mod lex;
mod machine;
mod minilang;
mod normal;
mod opts;
mod parse;
mod remote;
mod rules;
mod scripted;
mod sed;
mod source;
mod targets;
mod unwrap;
mod vars;
mod walk;
mod words;
mod writes;

pub use hard::reason_for_key as hardline_reason;

/// Nested scripts (`bash -c`, `eval`, substitutions, …) deeper than this are not inspected;
/// reaching it is itself a dangerous finding.
pub const MAX_DEPTH: usize = 6;

/// Where `~`, `$HOME` and hermes's own files are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShellContext {
    pub home: PathBuf,
    pub hermes_home: PathBuf,
}

impl ShellContext {
    /// The current user's home (`/root` when it cannot be found) and the active
    /// `HERMES_HOME` (falling back to `~/.hermes`), read from the process environment.
    pub fn from_env() -> Self {
        let home = dirs::home_dir().unwrap_or_else(|| PathBuf::from("/root"));
        let hermes_home = crate::config::HermesHome::resolve(None, &|key| std::env::var(key).ok())
            .map(|h| h.root().to_path_buf())
            .unwrap_or_else(|_| home.join(".hermes"));
        Self { home, hermes_home }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Tier {
    Benign,
    Dangerous,
    Hardline,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub tier: Tier,
    /// Stable pattern key (see `keys`), e.g. "recursive_rm", "git_force_push",
    /// "pipe_to_shell"; used for "allow for this session/always" and stored in config.yaml
    /// `command_allowlist`.
    pub key: &'static str,
    /// Human reason, e.g. "recursive delete of ~/project-x".
    pub reason: String,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Classification {
    pub findings: Vec<Finding>,
    /// True when the command (probably) modifies files in the working tree: rm, mv, cp,
    /// touch, mkdir, rmdir, ln, tee, truncate, install, sed/perl -i, dd of=, patch, output
    /// redirection to a path other than /dev/null & friends, mutating git subcommands,
    /// tar x / unzip, curl -o / wget. Unknown programs count as not writing.
    pub writes_files: bool,
}

impl Classification {
    /// The highest tier among the findings (`Benign` when there are none).
    pub fn tier(&self) -> Tier {
        self.findings
            .iter()
            .map(|f| f.tier)
            .max()
            .unwrap_or(Tier::Benign)
    }

    /// The first hardline finding, if any.
    pub fn hardline(&self) -> Option<&Finding> {
        self.findings.iter().find(|f| f.tier == Tier::Hardline)
    }

    /// The dangerous-tier findings (hardline ones are not included).
    pub fn dangerous(&self) -> Vec<&Finding> {
        self.findings
            .iter()
            .filter(|f| f.tier == Tier::Dangerous)
            .collect()
    }
}

/// Classifies a command line. Never fails: text that does not parse is classified as far as
/// it goes (an unterminated quote runs to the end of the text).
pub fn classify(command: &str, ctx: &ShellContext) -> Classification {
    walk::classify(command, ctx)
}

/// Canonical form used to recognise "the same command" again after a denial: tokens
/// re-joined with single spaces, quoting normalised, program absolute paths reduced to the
/// basename (/usr/bin/rm → rm), `~`, `$HOME` and the literal home path unified to `~`,
/// wrappers like sudo kept, comments dropped, newlines written as `;`.
pub fn normalize(command: &str, ctx: &ShellContext) -> String {
    normal::normalize(command, ctx)
}

#[cfg(test)]
#[path = "classify_tests.rs"]
mod tests;
