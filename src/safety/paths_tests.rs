use std::path::PathBuf;

use super::*;

fn ctx() -> ShellContext {
    ShellContext {
        home: PathBuf::from("/home/dev"),
        hermes_home: PathBuf::from("/home/dev/.hermes"),
    }
}

fn key(path: &str) -> Option<&'static str> {
    sensitive_write(path, Path::new("/home/dev/project"), &ctx()).map(|f| f.key)
}

#[test]
fn sensitive_families() {
    for (path, expected) in [
        ("~/.ssh/authorized_keys", keys::WRITE_SSH),
        ("~/.ssh", keys::WRITE_SSH),
        ("$HOME/.ssh/config", keys::WRITE_SSH),
        ("/home/dev/.bashrc", keys::WRITE_SHELL_RC),
        ("~/.zshenv", keys::WRITE_SHELL_RC),
        ("~/.config/fish/conf.d/x.fish", keys::WRITE_SHELL_RC),
        ("~/.aws/credentials", keys::WRITE_CREDENTIALS),
        ("~/.netrc", keys::WRITE_CREDENTIALS),
        ("~/.docker/config.json", keys::WRITE_CREDENTIALS),
        ("~/.kube/config", keys::WRITE_CREDENTIALS),
        ("~/.gnupg/pubring.kbx", keys::WRITE_CREDENTIALS),
        ("~/.config/gh/hosts.yml", keys::WRITE_CREDENTIALS),
        ("~/.hermes/config.yaml", keys::HERMES_SETTINGS),
        ("~/.hermes/.env", keys::HERMES_SETTINGS),
        ("~/.hermes/auth.json", keys::HERMES_SETTINGS),
        ("~/.hermes/state.db", keys::HERMES_SETTINGS),
        ("~/.hermes/hooks/pre.sh", keys::HERMES_SETTINGS),
        (
            "~/.hermes/shell-hooks-allowlist.json",
            keys::HERMES_SETTINGS,
        ),
        ("/etc/hosts", keys::WRITE_SYSTEM),
        ("/etc", keys::WRITE_SYSTEM),
        ("/usr/local/bin/x", keys::WRITE_SYSTEM),
        ("/var/lib/x", keys::WRITE_SYSTEM),
        ("/lib64/x.so", keys::WRITE_SYSTEM),
        ("/boot/grub/grub.cfg", keys::WRITE_SYSTEM),
        ("/home/alice/notes.txt", keys::WRITE_OTHER_HOME),
        ("/root/.bashrc", keys::WRITE_OTHER_HOME),
        ("../../alice/x", keys::WRITE_OTHER_HOME),
        ("../.bashrc", keys::WRITE_SHELL_RC),
        ("./../../../etc/passwd", keys::WRITE_SYSTEM),
    ] {
        assert_eq!(key(path), Some(expected), "{path}");
    }
}

#[test]
fn ordinary_paths_are_not_sensitive() {
    for path in [
        "src/main.rs",
        "/home/dev/project/.env",
        "~/.hermes/skills/x.md",
        "~/.hermes/config.yaml.bak",
        "~/.sshx",
        "~/.bashrc.d.txt",
        "/tmp/x",
        "/var/tmp/x",
        "/var/folders/ab/T/x",
        "/opt/app/x",
        "/home",
    ] {
        assert_eq!(key(path), None, "{path}");
    }
}

#[test]
fn reasons_name_the_path() {
    let f = sensitive_write("~/.ssh/id_rsa", Path::new("/"), &ctx()).unwrap();
    assert_eq!(f.tier, Tier::Dangerous);
    assert_eq!(
        f.reason,
        "writes ~/.ssh/id_rsa (SSH keys and configuration)"
    );
}

#[test]
fn root_home_is_not_another_users_home() {
    let root = ShellContext {
        home: PathBuf::from("/root"),
        hermes_home: PathBuf::from("/root/.hermes"),
    };
    assert_eq!(sensitive_write("/root/x", Path::new("/"), &root), None);
    assert_eq!(
        sensitive_write("/root/.ssh/config", Path::new("/"), &root).map(|f| f.key),
        Some(keys::WRITE_SSH)
    );
    assert_eq!(
        sensitive_write("/home/dev/x", Path::new("/"), &root).map(|f| f.key),
        Some(keys::WRITE_OTHER_HOME)
    );
}

#[cfg(unix)]
#[test]
fn symlinks_are_resolved() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let project = tmp.path().join("project");
    std::fs::create_dir_all(home.join(".ssh")).unwrap();
    std::fs::create_dir_all(&project).unwrap();
    std::os::unix::fs::symlink(home.join(".ssh"), project.join("keys")).unwrap();
    std::os::unix::fs::symlink(home.join(".bashrc"), project.join("rc")).unwrap();
    let ctx = ShellContext {
        hermes_home: home.join(".hermes"),
        home,
    };
    // Through a symlinked directory, to a file that does not exist yet.
    assert_eq!(
        sensitive_write("keys/new_key", &project, &ctx).map(|f| f.key),
        Some(keys::WRITE_SSH)
    );
    // A dangling symlink to a sensitive file is not resolved (its target does not exist),
    // but an ordinary project file stays ordinary.
    assert_eq!(sensitive_write("notes.md", &project, &ctx), None);
    assert_eq!(
        sensitive_write("../home/.bashrc", &project, &ctx).map(|f| f.key),
        Some(keys::WRITE_SHELL_RC)
    );
}

#[test]
fn profile_settings_are_hermes_settings() {
    assert_eq!(
        key("~/.hermes/profiles/work/config.yaml"),
        Some(keys::HERMES_SETTINGS)
    );
    assert_eq!(
        key("~/.hermes/profiles/work/.env"),
        Some(keys::HERMES_SETTINGS)
    );
    assert_eq!(key("~/.hermes/profiles/work/skills/config.yaml"), None);
    assert_eq!(key("~/.hermes/sub/config.yaml"), None);
}
