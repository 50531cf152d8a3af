//! The sandbox against the real kernel: confined shell commands in a throwaway home.

use std::path::Path;
use std::path::PathBuf;

use super::*;
use crate::util::process::StdinMode;

/// A home with a hermes home, a workspace, a project outside it and the sandbox's own temp
/// dir, all under one temp dir (which the sandbox does not treat as temp).
struct Machine {
    _dir: tempfile::TempDir,
    home: PathBuf,
    work: PathBuf,
    outside: PathBuf,
    tmp: PathBuf,
}

impl Machine {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().join("home");
        let work = home.join("work");
        let outside = home.join("other-project");
        let tmp = dir.path().join("tmp");
        for d in [
            &work,
            &outside,
            &tmp,
            &home.join(".ssh"),
            &home.join(".hermes/skills"),
            &home.join(".hermes/memories"),
        ] {
            std::fs::create_dir_all(d).unwrap();
        }
        std::fs::write(
            home.join(".ssh/authorized_keys"),
            "ssh-ed25519 AAAA canary\n",
        )
        .unwrap();
        std::fs::write(home.join(".bashrc"), "# canary rc\n").unwrap();
        std::fs::write(home.join(".hermes/.env"), "OPENAI_API_KEY=sk-canary\n").unwrap();
        std::fs::write(
            home.join(".hermes/config.yaml"),
            "model:\n  default: canary\n",
        )
        .unwrap();
        std::fs::write(outside.join("main.rs"), "fn main() {}\n").unwrap();
        Self {
            _dir: dir,
            home,
            work,
            outside,
            tmp,
        }
    }

    fn sandbox(&self, mode: SandboxMode, network: NetworkAccess) -> Sandbox {
        let shell = ShellContext {
            home: self.home.clone(),
            hermes_home: self.home.join(".hermes"),
        };
        let settings = SandboxSettings {
            mode,
            network,
            writable_roots: Vec::new(),
        };
        Sandbox::new(settings, Support::probe(), shell).with_temp_dirs(vec![self.tmp.clone()])
    }
}

/// Runs `command` confined by `sandbox` in `cwd`: (exit code, stdout + stderr).
fn run(sandbox: &Sandbox, cwd: &Path, command: &str) -> (i32, String) {
    let confine = sandbox.confine(cwd).unwrap();
    assert!(
        confine.is_some(),
        "the sandbox is not active: {}",
        sandbox.status_line()
    );
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let child = crate::util::process::spawn_confined(
            command,
            cwd,
            StdinMode::Null,
            &[],
            confine.as_ref(),
        )
        .unwrap();
        let out = child.wait_with_output().await.unwrap();
        let mut text = String::from_utf8_lossy(&out.stdout).to_string();
        text.push_str(&String::from_utf8_lossy(&out.stderr));
        (out.status.code().unwrap_or(-1), text)
    })
}

#[test]
fn this_kernel_has_landlock() {
    // The machines this project runs on report Landlock ABI 7; a kernel without it would make
    // every other test here meaningless, so say so loudly.
    match Support::probe() {
        Support::Landlock { abi } => assert!(abi >= 4, "Landlock ABI {abi}: no network rules"),
        other => panic!("no Landlock on this machine: {other:?}"),
    }
}

#[test]
fn workspace_is_writable_and_everything_else_is_not() {
    let m = Machine::new();
    let sandbox = m.sandbox(SandboxMode::WorkspaceWrite, NetworkAccess::Allowed);
    let (code, out) = run(
        &sandbox,
        &m.work,
        "echo hi > made.txt && mkdir -p a/b && mv made.txt a/b/ && rm -r a && echo ok > kept && cat kept",
    );
    assert_eq!((code, out.trim()), (0, "ok"), "{out}");
    let (code, _) = run(&sandbox, &m.work, "echo x > ../other-project/main.rs");
    assert_ne!(code, 0);
    assert_eq!(
        std::fs::read_to_string(m.outside.join("main.rs")).unwrap(),
        "fn main() {}\n"
    );
    let (code, _) = run(
        &sandbox,
        &m.work,
        "rm -rf ../.ssh ../other-project; echo >> ../.bashrc",
    );
    assert_ne!(code, 0);
    assert!(m.home.join(".ssh/authorized_keys").exists());
    assert!(m.outside.join("main.rs").exists());
    assert_eq!(
        std::fs::read_to_string(m.home.join(".bashrc")).unwrap(),
        "# canary rc\n"
    );
    let (code, out) = run(&sandbox, &m.work, "echo t > \"$0\"; true");
    assert_eq!(code, 0, "{out}");
    let (code, out) = run(
        &sandbox,
        &m.work,
        &format!(
            "echo t > {}/scratch && cat {0}/scratch && echo > /dev/null",
            m.tmp.display()
        ),
    );
    assert_eq!((code, out.trim()), (0, "t"), "{out}");
}

#[test]
fn secrets_are_unreadable_and_settings_read_only() {
    let m = Machine::new();
    let sandbox = m.sandbox(SandboxMode::WorkspaceWrite, NetworkAccess::Allowed);
    let (code, out) = run(&sandbox, &m.work, "cat ../.hermes/.env");
    assert_ne!(code, 0);
    assert!(!out.contains("sk-canary"), "{out}");
    assert!(out.contains("Permission denied"), "{out}");
    let (code, out) = run(
        &sandbox,
        &m.work,
        "cat ../.hermes/config.yaml && ls -a ../.hermes",
    );
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("default: canary") && out.contains(".env"),
        "{out}"
    );
    let (code, _) = run(
        &sandbox,
        &m.work,
        "echo 'model: {}' > ../.hermes/config.yaml",
    );
    assert_ne!(code, 0);
    // Even when the workspace is the hermes home itself.
    let sandbox_in_home = m.sandbox(SandboxMode::WorkspaceWrite, NetworkAccess::Allowed);
    let hermes_home = m.home.join(".hermes");
    let (code, out) = run(
        &sandbox_in_home,
        &hermes_home,
        "echo note > notes.md; echo m > memories/x; cat .env; rm -f config.yaml; ln .env leak; cp .env leak2",
    );
    assert_ne!(code, 0);
    assert!(!out.contains("sk-canary"), "{out}");
    assert!(hermes_home.join("config.yaml").exists());
    assert!(!hermes_home.join("leak").exists() && !hermes_home.join("leak2").exists());
    assert!(
        hermes_home.join("memories/x").exists(),
        "a subdirectory of the workspace stays writable: {out}"
    );
    assert!(
        !hermes_home.join("notes.md").exists(),
        "nothing is created in a directory holding secrets"
    );
}

#[test]
fn home_as_workspace_keeps_start_up_files_and_keys() {
    let m = Machine::new();
    let sandbox = m.sandbox(SandboxMode::WorkspaceWrite, NetworkAccess::Allowed);
    let (code, out) = run(
        &sandbox,
        &m.home,
        "echo evil >> .bashrc; rm -f .ssh/authorized_keys; echo k > .ssh/authorized_keys2; mv .bashrc .bashrc.bak; echo fine > work/new.txt && cat work/new.txt",
    );
    assert!(out.contains("fine"), "{out}");
    assert_eq!(code, 0, "the last command, inside the workspace, worked");
    assert_eq!(
        std::fs::read_to_string(m.home.join(".bashrc")).unwrap(),
        "# canary rc\n"
    );
    assert!(m.home.join(".ssh/authorized_keys").exists());
    assert!(!m.home.join(".ssh/authorized_keys2").exists());
}

#[test]
fn read_only_mode_writes_only_temp() {
    let m = Machine::new();
    let sandbox = m.sandbox(SandboxMode::ReadOnly, NetworkAccess::Allowed);
    let (code, _) = run(&sandbox, &m.work, "echo x > in-workspace");
    assert_ne!(code, 0);
    assert!(!m.work.join("in-workspace").exists());
    let (code, out) = run(
        &sandbox,
        &m.work,
        &format!(
            "echo x > {}/t && cat README 2>/dev/null; ls",
            m.tmp.display()
        ),
    );
    assert_eq!(code, 0, "{out}");
}

#[test]
fn network_off_refuses_tcp_and_on_allows_it() {
    let m = Machine::new();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let connect = format!("exec 3<>/dev/tcp/127.0.0.1/{port} && echo connected");
    let off = m.sandbox(SandboxMode::WorkspaceWrite, NetworkAccess::Denied);
    let (code, out) = run(&off, &m.work, &connect);
    assert_ne!(code, 0, "{out}");
    assert!(!out.contains("connected"));
    assert!(
        off.status_line().contains("network off"),
        "{}",
        off.status_line()
    );
    let on = m.sandbox(SandboxMode::WorkspaceWrite, NetworkAccess::Allowed);
    let (code, out) = run(&on, &m.work, &connect);
    assert_eq!((code, out.trim()), (0, "connected"), "{out}");
}

#[test]
fn confined_commands_cannot_signal_outside_their_sandbox() {
    let m = Machine::new();
    let sandbox = m.sandbox(SandboxMode::WorkspaceWrite, NetworkAccess::Allowed);
    // $PPID is this test process.
    let (code, out) = run(&sandbox, &m.work, "kill -0 $PPID && echo reached");
    assert_ne!(code, 0, "{out}");
    assert!(out.contains("not permitted"), "{out}");
    let (code, out) = run(
        &sandbox,
        &m.work,
        "sleep 5 & kill $! && wait; echo own-child",
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("own-child"));
}

#[test]
fn setuid_programs_stay_unprivileged() {
    let m = Machine::new();
    let sandbox = m.sandbox(SandboxMode::WorkspaceWrite, NetworkAccess::Allowed);
    let (_, out) = run(&sandbox, &m.work, "grep NoNewPrivs /proc/self/status");
    assert!(out.contains("NoNewPrivs:\t1"), "{out}");
}

#[test]
fn status_lines() {
    let m = Machine::new();
    let on = m.sandbox(SandboxMode::WorkspaceWrite, NetworkAccess::Allowed);
    assert_eq!(on.status_line(), "workspace-write, network on");
    let shell = ShellContext {
        home: m.home.clone(),
        hermes_home: m.home.join(".hermes"),
    };
    assert_eq!(Sandbox::off(shell.clone()).status_line(), "off");
    assert!(!Sandbox::off(shell.clone()).is_active());
    let missing = Sandbox::new(
        SandboxSettings::default(),
        Support::Unavailable {
            reason: "no Landlock".to_string(),
        },
        shell,
    );
    assert!(!missing.is_active());
    assert_eq!(
        missing.status_line(),
        "unavailable (no Landlock); approvals only"
    );
    assert!(missing.start_notice().unwrap().contains("approvals only"));
    assert!(missing.confine(&m.work).unwrap().is_none());
}

#[test]
fn mode_names_parse() {
    assert_eq!(
        SandboxMode::parse("workspace-write"),
        Some(SandboxMode::WorkspaceWrite)
    );
    assert_eq!(SandboxMode::parse("read_only"), Some(SandboxMode::ReadOnly));
    assert_eq!(SandboxMode::parse("OFF"), Some(SandboxMode::Off));
    assert_eq!(SandboxMode::parse("sometimes"), None);
}
