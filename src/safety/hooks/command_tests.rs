use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use super::*;

#[test]
fn argv_splits_like_a_shell_without_running_one() {
    assert_eq!(
        argv(r#"python3 "/my dir/hook.py" --flag 'a b' $HOME | tee"#).unwrap(),
        [
            "python3",
            "/my dir/hook.py",
            "--flag",
            "a b",
            "$HOME",
            "|",
            "tee"
        ]
    );
}

#[test]
fn argv_rejects_broken_and_empty_commands() {
    assert_eq!(
        argv("echo 'unclosed").unwrap_err().to_string(),
        "unbalanced quotes"
    );
    assert_eq!(argv("   ").unwrap_err().to_string(), "empty command");
}

#[test]
fn argv_expands_a_leading_tilde_in_every_word() {
    let Some(home) = dirs::home_dir() else {
        return;
    };
    let words = argv("~/bin/hook ~/data ~ a~b ~user/x").unwrap();
    assert_eq!(words[0], home.join("bin/hook").to_string_lossy());
    assert_eq!(words[1], home.join("data").to_string_lossy());
    assert_eq!(words[2], home.to_string_lossy());
    assert_eq!(&words[3..], ["a~b", "~user/x"]);
}

#[test]
fn expand_tilde_without_a_home_changes_nothing() {
    assert_eq!(expand_tilde("~/x", None), "~/x");
    assert_eq!(expand_tilde("~/x", Some(Path::new("/h"))), "/h/x");
    assert_eq!(expand_tilde("~", Some(Path::new("/h"))), "/h");
    assert_eq!(expand_tilde("x/~/y", Some(Path::new("/h"))), "x/~/y");
}

#[test]
fn script_path_prefers_a_script_word_then_a_path_then_the_program() {
    let cwd = Path::new("/work");
    assert_eq!(
        script_path("python3 /opt/hooks/ctx.py --x", cwd).unwrap(),
        Path::new("/opt/hooks/ctx.py")
    );
    assert_eq!(
        script_path("/usr/local/bin/guard --strict", cwd).unwrap(),
        Path::new("/usr/local/bin/guard")
    );
    assert_eq!(
        script_path("tools/guard arg", cwd).unwrap(),
        Path::new("/work/tools/guard")
    );
    assert_eq!(
        script_path("definitely-not-a-program-xyz", cwd).unwrap(),
        Path::new("/work/definitely-not-a-program-xyz")
    );
    assert!(script_path("'", cwd).is_none());
}

#[test]
fn program_path_searches_path_for_bare_names() {
    let sh = program_path("sh -c true", Path::new("/")).unwrap();
    assert!(sh.is_absolute() && is_executable(&sh), "{}", sh.display());
    assert!(
        program_path("definitely-not-a-program-xyz", Path::new("/"))
            .unwrap_err()
            .to_string()
            .contains("not on PATH")
    );
    assert_eq!(
        program_path("./hook.sh", Path::new("/w")).unwrap(),
        Path::new("/w/./hook.sh")
    );
}

#[test]
fn executable_means_a_file_with_an_execute_bit() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("f");
    std::fs::write(&file, "x").unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
    assert!(!is_executable(&file));
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o744)).unwrap();
    assert!(is_executable(&file));
    assert!(!is_executable(dir.path()));
    assert!(!is_executable(&dir.path().join("missing")));
    assert!(mtime(&file).is_some());
    assert!(mtime(&dir.path().join("missing")).is_none());
}
