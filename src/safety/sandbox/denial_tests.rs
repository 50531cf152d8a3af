use super::*;
use crate::safety::classify::ShellContext;
use crate::safety::sandbox::SandboxMode;
use crate::safety::sandbox::SandboxSettings;
use crate::safety::sandbox::Support;

fn sandbox(root: &Path, network: NetworkAccess) -> Sandbox {
    let shell = ShellContext {
        home: root.join("home"),
        hermes_home: root.join("home/.hermes"),
    };
    let settings = SandboxSettings {
        mode: SandboxMode::WorkspaceWrite,
        network,
        writable_roots: Vec::new(),
    };
    Sandbox::new(settings, Support::Landlock { abi: 7 }, shell).with_temp_dirs(Vec::new())
}

#[test]
fn refusals_that_name_a_path_outside_the_roots_are_the_sandbox() {
    let dir = tempfile::tempdir().unwrap();
    let root = real_path(dir.path());
    let work = root.join("work");
    std::fs::create_dir_all(&work).unwrap();
    std::fs::create_dir_all(root.join("home/.hermes")).unwrap();
    std::fs::write(root.join("home/.hermes/.env"), "").unwrap();
    let sb = sandbox(&root, NetworkAccess::Allowed);
    let outside = root.join("other/x");
    let cases = [
        format!(
            "touch: cannot touch '{}': Permission denied",
            outside.display()
        ),
        format!("bash: line 1: {}: Permission denied", outside.display()),
        format!(
            "PermissionError: [Errno 13] Permission denied: '{}'",
            outside.display()
        ),
        format!(
            "Error: EACCES: permission denied, open '{}'",
            outside.display()
        ),
        format!(
            "mkdir: cannot create directory ‘{}’: Permission denied",
            outside.display()
        ),
    ];
    for line in cases {
        assert_eq!(
            find(&sb, &work, &line),
            Some(Denial::Write(outside.clone())),
            "{line}"
        );
    }
    let env = root.join("home/.hermes/.env");
    let line = format!("cat: {}: Permission denied", env.display());
    assert_eq!(find(&sb, &work, &line), Some(Denial::Read(env)));
}

#[test]
fn ordinary_failures_are_not_the_sandbox() {
    let dir = tempfile::tempdir().unwrap();
    let root = real_path(dir.path());
    let work = root.join("work");
    std::fs::create_dir_all(&work).unwrap();
    let sb = sandbox(&root, NetworkAccess::Allowed);
    for output in [
        "touch: cannot touch 'inside.txt': Permission denied",
        "error[E0425]: cannot find value `x` in this scope",
        "curl: (7) Failed to connect to 127.0.0.1 port 9 after 0 ms: Couldn't connect to server",
        "grep: /nonexistent: No such file or directory",
    ] {
        assert_eq!(find(&sb, &work, output), None, "{output}");
    }
}

#[test]
fn network_privileges_and_signals() {
    let dir = tempfile::tempdir().unwrap();
    let root = real_path(dir.path());
    let off = sandbox(&root, NetworkAccess::Denied);
    let curl =
        "curl: (7) Failed to connect to 127.0.0.1 port 9 after 0 ms: Couldn't connect to server";
    assert_eq!(find(&off, &root, curl), Some(Denial::Network));
    let py = "PermissionError: [Errno 13] Permission denied (connect to socket)";
    assert_eq!(find(&off, &root, py), Some(Denial::Network));
    let sudo =
        "sudo: The \"no new privileges\" flag is set, which prevents sudo from running as root.";
    assert_eq!(find(&off, &root, sudo), Some(Denial::Privileges));
    let kill = "bash: line 1: kill: (4242) - Operation not permitted";
    assert_eq!(find(&off, &root, kill), Some(Denial::Signal));
    assert!(refusal_text(&Denial::Network).contains("sandbox.network is false"));
}
