//! `sandbox:` in `config.yaml` — hermes's own section (Python Hermes has none and ignores
//! it): how the agent's commands are confined. Plain data; `safety::sandbox` interprets it
//! and the engine reports an unknown mode.

use serde::Deserialize;
use serde::Serialize;

/// `sandbox:` — `mode` (`workspace-write`, `read-only`, `off`), `network`, `writable_roots`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct SandboxConfig {
    /// `workspace-write` (default), `read-only` or `off`.
    pub mode: String,
    /// Whether confined commands may open network connections.
    pub network: bool,
    /// Extra directories confined commands may write (`~` allowed).
    pub writable_roots: Vec<String>,
}

impl Default for SandboxConfig {
    fn default() -> Self {
        Self {
            mode: "workspace-write".to_string(),
            network: true,
            writable_roots: Vec::new(),
        }
    }
}
