//! Resolves `HERMES_HOME` (and `-p PROFILE`) and names every path in its layout.
//!
//! Resolution reads the environment only through the lookup it is given, so tests never
//! touch the real home. It does not create anything; `ensure_dirs` does, on request.
//! Invariant: a `HermesHome` root is absolute, and a profile name is a single safe path
//! component (letters, digits, `-`, `_`), so `profiles/NAME` never escapes the base home.

use std::path::{Path, PathBuf};

use super::error::ConfigError;

/// Environment variable that moves the whole home (as in Hermes).
pub const HERMES_HOME_ENV: &str = "HERMES_HOME";
const PROFILE_NAME_MAX: usize = 64;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HermesHome {
    root: PathBuf,
    base: PathBuf,
    profile: Option<String>,
}

impl HermesHome {
    /// `HERMES_HOME` from `env` (a leading `~/` expands to the user's home), else
    /// `~/.hermes`; with a profile, `<that>/profiles/<profile>`.
    pub fn resolve(
        profile: Option<&str>,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Self, ConfigError> {
        let base = match env(HERMES_HOME_ENV).filter(|v| !v.trim().is_empty()) {
            Some(value) => expand_tilde(value.trim())?,
            None => dirs::home_dir()
                .ok_or(ConfigError::NoHomeDir)?
                .join(".hermes"),
        };
        Self::from_base(base, profile)
    }

    /// A home rooted at `base` (tests, and callers that already know the path).
    pub fn from_base(base: impl Into<PathBuf>, profile: Option<&str>) -> Result<Self, ConfigError> {
        let base = absolute(base.into())?;
        let (root, profile) = match profile {
            Some(name) => {
                validate_profile_name(name)?;
                (base.join("profiles").join(name), Some(name.to_owned()))
            }
            None => (base.clone(), None),
        };
        Ok(Self {
            root,
            base,
            profile,
        })
    }

    /// The active home: the profile directory when a profile is selected.
    pub fn root(&self) -> &Path {
        &self.root
    }
    /// The home that holds `profiles/` (equals `root` without a profile).
    pub fn base(&self) -> &Path {
        &self.base
    }
    pub fn profile(&self) -> Option<&str> {
        self.profile.as_deref()
    }

    pub fn config_path(&self) -> PathBuf {
        self.root.join("config.yaml")
    }
    pub fn env_path(&self) -> PathBuf {
        self.root.join(".env")
    }
    pub fn soul_path(&self) -> PathBuf {
        self.root.join("SOUL.md")
    }
    pub fn auth_path(&self) -> PathBuf {
        self.root.join("auth.json")
    }
    pub fn state_db_path(&self) -> PathBuf {
        self.root.join("state.db")
    }
    pub fn logs_dir(&self) -> PathBuf {
        self.root.join("logs")
    }
    pub fn memories_dir(&self) -> PathBuf {
        self.root.join("memories")
    }
    pub fn skills_dir(&self) -> PathBuf {
        self.root.join("skills")
    }
    pub fn skins_dir(&self) -> PathBuf {
        self.root.join("skins")
    }
    pub fn hooks_dir(&self) -> PathBuf {
        self.root.join("hooks")
    }
    pub fn images_dir(&self) -> PathBuf {
        self.root.join("images")
    }
    pub fn audio_cache_dir(&self) -> PathBuf {
        self.root.join("audio_cache")
    }
    pub fn checkpoints_dir(&self) -> PathBuf {
        self.root.join("checkpoints")
    }
    pub fn sessions_dir(&self) -> PathBuf {
        self.root.join("sessions")
    }
    pub fn cache_dir(&self) -> PathBuf {
        self.root.join("cache")
    }
    pub fn plugins_dir(&self) -> PathBuf {
        self.root.join("plugins")
    }
    pub fn pastes_dir(&self) -> PathBuf {
        self.root.join("pastes")
    }
    /// Where profiles live; always under the base home, never nested in a profile.
    pub fn profiles_dir(&self) -> PathBuf {
        self.base.join("profiles")
    }

    /// Creates the home (mode 0700 when this call creates it) and, where it can, `logs/`.
    /// Existing directories keep their permissions: the user may have chosen them. Only a
    /// home that cannot exist is an error (a file in its place, a parent that cannot be
    /// created); a read-only home is not — hermes runs without a log file and without
    /// history there, and the logger reports the missing `logs/` itself.
    pub fn ensure_dirs(&self) -> Result<(), ConfigError> {
        if let Some(file) = self.root.ancestors().find(|p| p.exists() && !p.is_dir()) {
            return Err(ConfigError::HomeNotADirectory {
                home: self.root.clone(),
                file: file.to_path_buf(),
            });
        }
        create_private_dir_all(&self.root)?;
        if let Err(err) = create_private_dir_all(&self.logs_dir()) {
            tracing::debug!(error = %err, "logs/ not created");
        }
        Ok(())
    }
}

/// Profile names are one path component: ASCII letters, digits, `-` and `_`.
pub fn validate_profile_name(name: &str) -> Result<(), ConfigError> {
    let reason = if name.is_empty() {
        Some("it is empty")
    } else if name.contains("..") || name.contains('/') || name.contains('\\') {
        Some("it must not contain '..' or path separators")
    } else if name.len() > PROFILE_NAME_MAX {
        Some("it is longer than 64 characters")
    } else if name.starts_with('-') {
        Some("it must not start with '-'")
    } else if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        Some("use only letters, digits, '-' and '_'")
    } else {
        None
    };
    match reason {
        Some(reason) => Err(ConfigError::InvalidProfile {
            name: name.to_owned(),
            reason,
        }),
        None => Ok(()),
    }
}

fn expand_tilde(value: &str) -> Result<PathBuf, ConfigError> {
    if value == "~" {
        return dirs::home_dir().ok_or(ConfigError::NoHomeDir);
    }
    match value.strip_prefix("~/") {
        Some(rest) => Ok(dirs::home_dir().ok_or(ConfigError::NoHomeDir)?.join(rest)),
        None => Ok(PathBuf::from(value)),
    }
}

fn absolute(path: PathBuf) -> Result<PathBuf, ConfigError> {
    if path.is_absolute() {
        return Ok(path);
    }
    std::path::absolute(&path).map_err(|e| ConfigError::io(path, e))
}

fn create_private_dir_all(dir: &Path) -> Result<(), ConfigError> {
    if dir.is_dir() {
        return Ok(());
    }
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::DirBuilderExt;
        builder.mode(0o700);
    }
    builder
        .create(dir)
        .map_err(|e| ConfigError::io(dir.to_path_buf(), e))
}

#[cfg(test)]
#[path = "home_tests.rs"]
mod tests;
