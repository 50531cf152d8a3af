//! Skills (spec-002a §3): procedural knowledge the agent loads on demand.
//!
//! A skill is a directory holding `SKILL.md` (YAML frontmatter + markdown body) and optional
//! supporting files, under `HERMES_HOME/skills/[<category>/]<name>/` or a configured external
//! directory. This module parses and discovers skills (`skill`, `catalog`), builds the
//! progressive-disclosure index for the system prompt and the user messages injected by
//! `/skill-name` and bundle slash commands (`invoke`, `bundles`), performs the agent's
//! `skill_manage` file operations (`manage`), seeds the bundled skills (`bundled`, in Hermes's
//! manifest format: `manifest`), and offers
//! the `hermes skills` CLI operations as string-returning functions (`cli`).
//!
//! It does not talk to the network (URL installs are refused), does not prompt the user (the
//! TUI asks for missing environment variables using `missing_env`), and never changes the
//! system prompt after a session starts: slash invocations become user messages.
//!
//! Invariants: a malformed `SKILL.md` is skipped with a warning naming the file and line,
//! never a panic; writes stay inside a known skills root (local or external); a user-edited
//! bundled skill is never overwritten by a sync.

pub mod bundled;
pub mod bundles;
pub mod catalog;
pub mod cli;
pub mod frontmatter;
pub mod guard;
pub mod invoke;
pub mod manage;
pub mod manage_guard;
pub mod manifest;
mod scan;
pub mod skill;

#[cfg(test)]
pub(crate) mod test_support;

use std::path::PathBuf;

pub use bundled::ResetMode;
pub use bundled::SyncReport;
pub use bundled::reset_bundled;
pub use bundled::sync_bundled;
pub use bundles::Bundle;
pub use catalog::SkillCatalog;
pub use catalog::SkillLoader;
pub use catalog::SkillWarning;
pub use invoke::missing_env;
pub use invoke::skill_invocation;
pub use invoke::slash_names;
pub use skill::Availability;
pub use skill::Platform;
pub use skill::RequiredEnv;
pub use skill::Skill;

/// Why a skills operation failed. Tool calls show the message to the model; the CLI prints it.
#[derive(Debug, thiserror::Error)]
pub enum SkillError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("Skill '{0}' not found. Use skills_list() to see available skills.")]
    NotFound(String),
    /// `NotFound` worded for a person at the command line.
    #[error("no skill named '{0}' (`hermes skills list` shows the installed ones)")]
    NotInstalled(String),
    /// The skill's directory exists but its `SKILL.md` could not be read or parsed.
    #[error("skill '{name}' could not be loaded: {problem}")]
    Unloadable { name: String, problem: String },
    #[error("A skill named '{name}' already exists at {path}.")]
    AlreadyExists { name: String, path: PathBuf },
    #[error(
        "Invalid {what} '{value}'. Use lowercase letters, numbers, hyphens, dots, and underscores; \
         start with a letter or digit; at most 64 characters."
    )]
    InvalidName { what: &'static str, value: String },
    #[error("invalid SKILL.md (line {line}): {message}")]
    Frontmatter { line: usize, message: String },
    #[error("{0}")]
    InvalidPath(String),
    #[error("{0}")]
    Patch(String),
    #[error("{0}")]
    TooLarge(String),
    #[error(
        "Installing from a URL ({0}) is not supported in this build: hermes never fetches skills \
         over the network. Download the skill yourself and run `hermes skills install PATH`."
    )]
    NetworkInstallUnsupported(String),
    #[error("{0}")]
    Install(String),
    #[error("'{0}' is not a bundled skill")]
    NotBundled(String),
    #[error(
        "'{0}' is one of Python Hermes's bundled skills; hermes does not ship its files, so \
         restore it with Python Hermes (`hermes skills reset {0} --restore` there)"
    )]
    BundledByPython(String),
}

impl SkillError {
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Self::Io {
            path: path.into(),
            source,
        }
    }
}
