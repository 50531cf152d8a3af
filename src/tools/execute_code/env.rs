//! The environment an `execute_code` script gets: Hermes's scrubbing rules. A variable passes
//! when it is passed through on purpose (a loaded skill declared it, or
//! `terminal.env_passthrough` lists it); else it is dropped when its name contains a secret
//! word (`KEY`, `TOKEN`, `SECRET`, `PASSWORD`, `CREDENTIAL`, `PASSWD`, `AUTH`, `DSN`,
//! `WEBHOOK`, `CREDS`, `BEARER`, `APIKEY`); else it passes when it is a system variable
//! (`PATH`, `HOME`, `LANG`, `LC_*`, `XDG_*`, `VIRTUAL_ENV`, `CONDA*`, …) or one of the four
//! `HERMES_*` location variables. Everything else (other `HERMES_*` settings included) is
//! dropped.
//!
//! It does not read the process environment itself: the caller passes the variables in, so
//! the rules are testable and the session's `.env` values are judged like the rest.

/// Name fragments that mark a secret (Hermes's `_SECRET_SUBSTRINGS`).
pub const SECRET_WORDS: [&str; 12] = [
    "KEY",
    "TOKEN",
    "SECRET",
    "PASSWORD",
    "CREDENTIAL",
    "PASSWD",
    "AUTH",
    "DSN",
    "WEBHOOK",
    "CREDS",
    "BEARER",
    "APIKEY",
];

/// Name prefixes of the system variables a script may see (Hermes's `_SAFE_ENV_PREFIXES`).
const SAFE_PREFIXES: [&str; 15] = [
    "PATH",
    "HOME",
    "USER",
    "LANG",
    "LC_",
    "TERM",
    "TMPDIR",
    "TMP",
    "TEMP",
    "SHELL",
    "LOGNAME",
    "XDG_",
    "PYTHONPATH",
    "VIRTUAL_ENV",
    "CONDA",
];

/// The `HERMES_*` variables a script may see: where hermes's files are, nothing else.
const HERMES_LOCATION: [&str; 4] = [
    "HERMES_HOME",
    "HERMES_PROFILE",
    "HERMES_CONFIG",
    "HERMES_ENV",
];

/// Whether `name` looks like it holds a secret.
pub fn looks_secret(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    SECRET_WORDS.iter().any(|word| upper.contains(word))
}

/// The variables of `source` a script keeps, in `source` order (a later duplicate wins).
pub fn scrub(source: &[(String, String)], passthrough: &[String]) -> Vec<(String, String)> {
    let mut kept: Vec<(String, String)> = Vec::new();
    for (name, value) in source {
        let keep = passthrough.iter().any(|p| p == name)
            || (!looks_secret(name)
                && (SAFE_PREFIXES.iter().any(|p| name.starts_with(p))
                    || HERMES_LOCATION.contains(&name.as_str())));
        if keep {
            kept.retain(|(k, _)| k != name);
            kept.push((name.clone(), value.clone()));
        }
    }
    kept
}

/// `name=value` set or replaced in `env`.
pub fn set(env: &mut Vec<(String, String)>, name: &str, value: &str) {
    env.retain(|(k, _)| k != name);
    env.push((name.to_string(), value.to_string()));
}

#[cfg(test)]
#[path = "env_tests.rs"]
mod tests;
