//! Secrets the process holds without being told: environment variables under a secret-looking
//! name (`export MY_GATEWAY_TOKEN=…`, `AWS_SECRET_ACCESS_KEY`, `DB_PASSWORD`), whatever hermes
//! knows of them, and the AWS shared credential files a Bedrock user has (`~/.aws/credentials`
//! and `~/.aws/config`: the `[default]` profile and the one `AWS_PROFILE` names). They join the
//! registry of known values the first time it is read ([`load_once`]), so no output path can
//! show them.
//!
//! What it does not do: fail. A missing, unreadable, huge or malformed file adds nothing.
//! Values go through the registry's own rules (8+ characters, not one repeated character) and
//! the naming rules of a quoted assignment (`register_named_secret`: a reference, a path, a
//! URL or a type name is not a secret), and a plain lower-case word (`disabled`, `keychain`)
//! is skipped too: process variables are set by tools, not only by the user.

use std::path::Path;
use std::path::PathBuf;
use std::sync::Once;

/// AWS keys whose values are credentials (the access key id is not secret, and a pattern
/// masks `AKIA…` anyway).
const AWS_SECRET_KEYS: &[&str] = &[
    "aws_secret_access_key",
    "aws_session_token",
    "aws_security_token",
];

/// Credential files bigger than this are not read (a real one is a few kilobytes).
const MAX_FILE_BYTES: u64 = 1 << 20;

static LOADED: Once = Once::new();

/// Registers the ambient secrets, once per process; later calls return at once.
pub(super) fn load_once() {
    LOADED.call_once(|| {
        let vars: Vec<(String, String)> = std::env::vars_os()
            .filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?)))
            .collect();
        let lookup = |name: &str| {
            vars.iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
                .filter(|v| !v.is_empty())
        };
        for (name, value) in environment_secrets(&vars) {
            super::register_named_secret(name, value);
        }
        let files = AwsFiles::from_env(&lookup, dirs::home_dir());
        super::register_known_secrets(files.secrets());
    });
}

/// The `(name, value)` pairs of `vars` worth offering to the registry: a secret-looking name
/// and a value that is not a plain lower-case word.
pub(super) fn environment_secrets(vars: &[(String, String)]) -> Vec<(&str, &str)> {
    vars.iter()
        .filter(|(name, value)| super::is_secret_name(name) && !is_plain_word(value.trim()))
        .map(|(name, value)| (name.as_str(), value.as_str()))
        .collect()
}

fn is_plain_word(value: &str) -> bool {
    value.bytes().all(|b| b.is_ascii_lowercase())
}

/// Where the AWS shared files are and which profiles count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct AwsFiles {
    pub credentials: Option<PathBuf>,
    pub config: Option<PathBuf>,
    /// `default`, then `AWS_PROFILE` (or `AWS_DEFAULT_PROFILE`) when set.
    pub profiles: Vec<String>,
}

impl AwsFiles {
    /// As the AWS tools find them: `AWS_SHARED_CREDENTIALS_FILE` / `AWS_CONFIG_FILE`, else
    /// `~/.aws/credentials` / `~/.aws/config`.
    pub(super) fn from_env(env: &dyn Fn(&str) -> Option<String>, home: Option<PathBuf>) -> Self {
        let in_home = |file: &str| home.as_ref().map(|h| h.join(".aws").join(file));
        let mut profiles = vec!["default".to_owned()];
        if let Some(profile) = env("AWS_PROFILE").or_else(|| env("AWS_DEFAULT_PROFILE")) {
            let profile = profile.trim().to_owned();
            if !profile.is_empty() && !profiles.contains(&profile) {
                profiles.push(profile);
            }
        }
        Self {
            credentials: env("AWS_SHARED_CREDENTIALS_FILE")
                .map(PathBuf::from)
                .or_else(|| in_home("credentials")),
            config: env("AWS_CONFIG_FILE")
                .map(PathBuf::from)
                .or_else(|| in_home("config")),
            profiles,
        }
    }

    /// The secret values of the chosen profiles in both files; empty when neither is readable.
    pub(super) fn secrets(&self) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(text) = self.credentials.as_deref().and_then(read_small) {
            out.extend(profile_secrets(&text, &self.profiles, Dialect::Credentials));
        }
        if let Some(text) = self.config.as_deref().and_then(read_small) {
            out.extend(profile_secrets(&text, &self.profiles, Dialect::Config));
        }
        out
    }
}

fn read_small(path: &Path) -> Option<String> {
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_file() || meta.len() > MAX_FILE_BYTES {
        return None;
    }
    let bytes = std::fs::read(path).ok()?;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// How a file names its sections: `[name]` in `credentials`, `[profile name]` (and
/// `[default]`) in `config`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Dialect {
    Credentials,
    Config,
}

/// The values of [`AWS_SECRET_KEYS`] in the sections of `profiles`, from INI `text`. Lines
/// that are not `key = value` or `[section]` are ignored.
pub(super) fn profile_secrets(text: &str, profiles: &[String], dialect: Dialect) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_profile = false;
    for line in text.lines() {
        let line = line.trim().trim_start_matches('\u{feff}');
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        if let Some(section) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            let section = section.trim();
            let name = match dialect {
                Dialect::Credentials => section,
                Dialect::Config => section
                    .strip_prefix("profile ")
                    .map(str::trim)
                    .unwrap_or(section),
            };
            in_profile = profiles.iter().any(|p| p == name);
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let key = key.trim().to_ascii_lowercase();
        if in_profile && AWS_SECRET_KEYS.contains(&key.as_str()) {
            out.push(value.trim().to_owned());
        }
    }
    out
}

#[cfg(test)]
#[path = "ambient_tests.rs"]
mod tests;
