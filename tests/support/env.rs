//! A clean environment for the processes the tests start (`hermes`, Python Hermes, tmux
//! panes): no provider credential, endpoint or hermes setting of the machine that runs the
//! tests reaches them, so `provider: auto` and the key lookups see only what a test sets.
//!
//! What is removed: every `config::env::KNOWN_SECRET_VARS` name and the AWS credential chain's
//! variables, whether set or not, plus every variable set here whose name starts with
//! `HERMES_` or `AWS_` or ends with `_API_KEY`, `_BASE_URL` or `_TOKEN`, and `BROWSER`. It
//! never changes this process's environment (the tests are threads of one process): it only
//! edits the child's `Command`. A test sets what it needs with `.env(..)` *after*
//! `clean_env()` (the last setting of a variable wins).

use std::ffi::OsString;

use hermes::config::env::KNOWN_SECRET_VARS;

/// The AWS SDK's credential and region variables (Bedrock's `auto` detection reads them).
const AWS_VARS: &[&str] = &[
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN",
    "AWS_PROFILE",
    "AWS_DEFAULT_PROFILE",
    "AWS_REGION",
    "AWS_DEFAULT_REGION",
    "AWS_CONFIG_FILE",
    "AWS_SHARED_CREDENTIALS_FILE",
    "AWS_WEB_IDENTITY_TOKEN_FILE",
    "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
    "AWS_BEARER_TOKEN_BEDROCK",
];

/// Other variables a child must not see: `hermes login` opens `$BROWSER`.
const OTHER_VARS: &[&str] = &["BROWSER"];

fn ambient(name: &str) -> bool {
    name.starts_with("HERMES_")
        || name.starts_with("AWS_")
        || name.ends_with("_API_KEY")
        || name.ends_with("_BASE_URL")
        || name.ends_with("_TOKEN")
}

/// Every variable a child's environment must not have, each name once.
pub fn ambient_vars() -> Vec<OsString> {
    let mut names: Vec<OsString> = KNOWN_SECRET_VARS
        .iter()
        .chain(AWS_VARS)
        .chain(OTHER_VARS)
        .map(OsString::from)
        .collect();
    for (name, _) in std::env::vars_os() {
        if name.to_str().is_some_and(ambient) && !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

/// `clean_env()` on both kinds of `Command` the tests use.
pub trait CleanEnv {
    /// Remove every [`ambient_vars`] name from the child's environment.
    fn clean_env(&mut self) -> &mut Self;
}

impl CleanEnv for std::process::Command {
    fn clean_env(&mut self) -> &mut Self {
        for name in ambient_vars() {
            self.env_remove(name);
        }
        self
    }
}

impl CleanEnv for tokio::process::Command {
    fn clean_env(&mut self) -> &mut Self {
        for name in ambient_vars() {
            self.env_remove(name);
        }
        self
    }
}

/// The names of [`ambient_vars`] not in `keep`, for a shell's `unset` (tmux panes, whose
/// environment comes from the tmux server, not from this process).
pub fn ambient_var_names_except(keep: &[&str]) -> Vec<String> {
    ambient_vars()
        .into_iter()
        .filter_map(|name| name.into_string().ok())
        .filter(|name| !keep.contains(&name.as_str()))
        .collect()
}
