use super::*;

#[test]
fn resolves_paths() {
    let cwd = Path::new("/work/project");
    assert_eq!(
        resolve_path(cwd, "src/a.rs"),
        PathBuf::from("/work/project/src/a.rs")
    );
    assert_eq!(resolve_path(cwd, "/etc/hosts"), PathBuf::from("/etc/hosts"));
    let home = dirs::home_dir().unwrap();
    assert_eq!(resolve_path(cwd, "~/x"), home.join("x"));
    assert_eq!(resolve_path(cwd, "~"), home);
    assert_eq!(resolve_path(cwd, "~x"), PathBuf::from("/work/project/~x"));
}
