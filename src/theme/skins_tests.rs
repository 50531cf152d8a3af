#![allow(clippy::unwrap_used, clippy::expect_used)]

use super::*;

#[test]
fn builtins_load_without_notices() {
    let dir = std::path::Path::new("/nonexistent-skins-dir");
    for (name, _) in builtin::BUILTIN {
        let (theme, notices) = load(dir, name, &LoadOptions::default());
        assert!(notices.is_empty(), "{name}: {notices:?}");
        assert_eq!(theme.name, name);
    }
}
