use super::*;

fn env_with(home: &Path) -> impl Fn(&str) -> Option<String> + '_ {
    move |key| (key == HERMES_HOME_ENV).then(|| home.display().to_string())
}

#[test]
fn hermes_home_env_wins() {
    let dir = tempfile::tempdir().unwrap();
    let home = HermesHome::resolve(None, &env_with(dir.path())).unwrap();
    assert_eq!(home.root(), dir.path());
    assert_eq!(home.config_path(), dir.path().join("config.yaml"));
    assert_eq!(home.env_path(), dir.path().join(".env"));
    assert_eq!(home.state_db_path(), dir.path().join("state.db"));
    assert_eq!(home.logs_dir(), dir.path().join("logs"));
    assert_eq!(home.profile(), None);
}

#[test]
fn default_is_dot_hermes_under_home() {
    let home = HermesHome::resolve(None, &|_| None).unwrap();
    assert!(home.root().ends_with(".hermes"));
    assert!(home.root().is_absolute());
}

#[test]
fn empty_hermes_home_falls_back_to_default() {
    let home = HermesHome::resolve(None, &|_| Some("  ".into())).unwrap();
    assert!(home.root().ends_with(".hermes"));
}

#[test]
fn profile_nests_under_profiles() {
    let dir = tempfile::tempdir().unwrap();
    let home = HermesHome::resolve(Some("work_2-b"), &env_with(dir.path())).unwrap();
    assert_eq!(home.root(), dir.path().join("profiles").join("work_2-b"));
    assert_eq!(home.base(), dir.path());
    assert_eq!(home.profile(), Some("work_2-b"));
    assert_eq!(home.profiles_dir(), dir.path().join("profiles"));
}

#[test]
fn bad_profile_names_are_rejected() {
    for bad in ["", "..", "../x", "a/b", "a\\b", "a b", "-x", "é", "a.b"] {
        let err = HermesHome::from_base("/tmp/h", Some(bad)).unwrap_err();
        assert!(
            matches!(err, ConfigError::InvalidProfile { .. }),
            "{bad:?} accepted"
        );
        assert!(err.to_string().contains("invalid profile name"));
    }
    let long = "a".repeat(65);
    assert!(validate_profile_name(&long).is_err());
}

#[test]
fn traversal_error_is_clear() {
    let err = validate_profile_name("../etc").unwrap_err().to_string();
    assert!(err.contains("'..'"), "{err}");
}

#[test]
fn tilde_expands() {
    let home = HermesHome::resolve(None, &|_| Some("~/custom-h".into())).unwrap();
    assert!(home.root().ends_with("custom-h"));
    assert!(home.root().is_absolute());
}

#[cfg(unix)]
#[test]
fn ensure_dirs_creates_private_home_and_logs() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let home = HermesHome::from_base(dir.path().join("h"), Some("p1")).unwrap();
    home.ensure_dirs().unwrap();
    assert!(home.logs_dir().is_dir());
    let mode = std::fs::metadata(home.root()).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o700);
    // Idempotent.
    home.ensure_dirs().unwrap();
}
