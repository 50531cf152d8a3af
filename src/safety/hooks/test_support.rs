//! Helpers shared by the hook tests: real executable scripts in a tempdir, specs from YAML.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use super::config::{HookSpec, parse_hooks};

/// Writes `#!/bin/sh` + `body` to `dir/name` and makes it executable; returns its path.
pub fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// The `hooks:` value for a YAML snippet.
pub fn yaml(text: &str) -> serde_norway::Value {
    serde_norway::from_str(text).unwrap()
}

/// Specs from a YAML `hooks:` body that must parse without warnings.
pub fn specs(text: &str) -> Vec<HookSpec> {
    let (specs, warnings) = parse_hooks(&yaml(text));
    assert!(warnings.is_empty(), "unexpected warnings: {warnings:?}");
    specs
}

/// A single-hook spec list: `event` runs `command` with `timeout` seconds.
pub fn one(event: &str, command: &Path, timeout: u64) -> Vec<HookSpec> {
    specs(&format!(
        "{event}:\n  - command: \"{}\"\n    timeout: {timeout}\n",
        command.display()
    ))
}
