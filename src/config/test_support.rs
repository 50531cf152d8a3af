//! Test helpers shared by the config unit tests: a temporary Hermes home holding a given
//! `config.yaml`, and reading that file back. Test-only; never touches the real home.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::home::HermesHome;

/// A fresh home under a temp dir (kept alive by the returned guard), with `config.yaml`
/// holding `text`, or no `config.yaml` at all for `None`.
pub(super) fn home_with(text: Option<&str>) -> (tempfile::TempDir, HermesHome) {
    let dir = tempfile::tempdir().unwrap();
    let home = HermesHome::from_base(dir.path().join("h"), None).unwrap();
    home.ensure_dirs().unwrap();
    if let Some(text) = text {
        std::fs::write(home.config_path(), text).unwrap();
    }
    (dir, home)
}

/// The text of `home`'s `config.yaml`.
pub(super) fn read(home: &HermesHome) -> String {
    std::fs::read_to_string(home.config_path()).unwrap()
}

/// The permission bits of `home`'s `config.yaml` (it holds secrets: 0600 expected).
#[cfg(unix)]
pub(super) fn config_permissions(home: &HermesHome) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(home.config_path())
        .unwrap()
        .permissions()
        .mode()
        & 0o777
}
