//! Typed errors and warnings for the configuration layer.
//!
//! A `ConfigError` stops the operation that raised it (a bad profile name, a rejected
//! `config set`); a `ConfigWarning` is reported while hermes keeps running on defaults.
//! Warnings always name the file, and the line and column when they are known.

use std::fmt;
use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("invalid profile name {name:?}: {reason}")]
    InvalidProfile { name: String, reason: &'static str },
    #[error("cannot find a home directory; set HERMES_HOME")]
    NoHomeDir,
    #[error(
        "HERMES_HOME {} cannot be a directory: {} is a file; point HERMES_HOME at a directory",
        home.display(),
        file.display()
    )]
    HomeNotADirectory { home: PathBuf, file: PathBuf },
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{0}")]
    Malformed(ConfigWarning),
    #[error("{message}")]
    InvalidValue { key: String, message: String },
    #[error("invalid key {key:?}: {reason}")]
    InvalidKey { key: String, reason: &'static str },
    #[error("{key} is a section, not a value; set one of its keys (e.g. {example})")]
    IsSection { key: String, example: String },
    #[error("{key} is not set in {path}")]
    KeyNotSet { key: String, path: PathBuf },
    #[error("{path}: cannot write YAML: {source}")]
    Serialize {
        path: PathBuf,
        #[source]
        source: serde_norway::Error,
    },
    #[error(
        "mcp_servers.{name} already exists in {path} — remove it first with `hermes mcp remove {name}`"
    )]
    McpServerExists { name: String, path: PathBuf },
    #[error("no MCP server named {name:?} in {path} (configured: {configured})")]
    McpServerNotFound {
        name: String,
        path: PathBuf,
        /// The configured names, comma-separated, or "none".
        configured: String,
    },
    #[error("unknown toolset '{name}' (valid: {valid})")]
    UnknownToolset { name: String, valid: String },
    #[error("invalid MCP server name {name:?}: {reason}")]
    InvalidMcpServerName { name: String, reason: String },
}

impl ConfigError {
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Self::Io {
            path: path.into(),
            source,
        }
    }
}

/// A problem hermes worked around (by using defaults for part or all of a file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigWarning {
    pub path: PathBuf,
    /// 1-based line, when known.
    pub line: Option<usize>,
    /// 1-based column, when known.
    pub column: Option<usize>,
    pub message: String,
}

impl ConfigWarning {
    pub fn new(path: impl Into<PathBuf>, message: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            line: None,
            column: None,
            message: message.into(),
        }
    }

    pub fn at(mut self, line: usize, column: usize) -> Self {
        self.line = Some(line);
        self.column = Some(column);
        self
    }
}

impl fmt::Display for ConfigWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path.display())?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(column) = self.column {
                write!(f, ":{column}")?;
            }
        }
        write!(f, ": {}", self.message)
    }
}
