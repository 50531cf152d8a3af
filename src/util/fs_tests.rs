use super::*;

#[cfg(unix)]
fn mode_of(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[test]
fn writes_and_replaces_without_leftovers() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sub").join("f.txt");
    atomic_write(&path, b"one", FileMode::KeepOr(0o644)).unwrap();
    atomic_write(&path, b"two", FileMode::KeepOr(0o644)).unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "two");
    let entries: Vec<_> = std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(entries.len(), 1, "temp file left behind: {entries:?}");
}

#[cfg(unix)]
#[test]
fn modes_are_applied() {
    let dir = tempfile::tempdir().unwrap();
    let secret = dir.path().join("s");
    std::fs::write(&secret, "x").unwrap();
    set_mode(&secret, 0o644).unwrap();
    atomic_write(&secret, b"y", FileMode::Exactly(0o600)).unwrap();
    assert_eq!(mode_of(&secret), 0o600);

    let kept = dir.path().join("k");
    std::fs::write(&kept, "x").unwrap();
    set_mode(&kept, 0o640).unwrap();
    atomic_write(&kept, b"y", FileMode::KeepOr(0o600)).unwrap();
    assert_eq!(mode_of(&kept), 0o640);
}

#[cfg(unix)]
#[test]
fn symlink_target_is_replaced_not_the_link() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real.yaml");
    let link = dir.path().join("link.yaml");
    std::fs::write(&real, "a").unwrap();
    std::os::unix::fs::symlink(&real, &link).unwrap();
    atomic_write(&link, b"b", FileMode::KeepOr(0o600)).unwrap();
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(std::fs::read_to_string(&real).unwrap(), "b");
}
