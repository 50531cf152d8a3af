//! A terminal that goes away (tmux session killed, SSH dropped, window closed) ends hermes:
//! no process is left behind spinning on the hung-up tty. crossterm's reader loops on a
//! hung-up tty, so this holds only because of the exit watchdog in `tui::signals`; the race
//! between the hangup signal and the reader is repeated several times to catch it.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::support;

use std::process::Command;
use std::time::Duration;
use std::time::Instant;

use support::ScriptedServer;
use support::tmux::Tmux;
use support::tmux_app::TmuxApp;

fn hermes_pid(tmux: &Tmux) -> u32 {
    let out = Command::new("tmux")
        .args(["display", "-p", "-t", tmux.name(), "#{pane_pid}"])
        .output()
        .unwrap();
    let shell: u32 = String::from_utf8_lossy(&out.stdout).trim().parse().unwrap();
    let children = Command::new("pgrep")
        .args(["-P", &shell.to_string()])
        .output()
        .unwrap();
    String::from_utf8_lossy(&children.stdout)
        .lines()
        .next()
        .map(|l| l.trim().parse().unwrap())
        .unwrap_or(shell)
}

fn alive(pid: u32) -> bool {
    std::path::Path::new(&format!("/proc/{pid}")).exists()
        && !std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .unwrap_or_default()
            .contains(") Z ")
}

/// Fails (after killing it) when `pid` is still running 8 s after its terminal closed.
fn assert_gone_within_8_s(pid: u32, case: &str) {
    let deadline = Instant::now() + Duration::from_secs(8);
    while alive(pid) {
        if Instant::now() > deadline {
            let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
            panic!("{case}: hermes (pid {pid}) still running 8 s after its terminal closed");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A closed terminal is a normal way to leave: it must not leave a crash report behind (a
/// `drop` that printed to the hung-up stderr used to panic).
fn assert_no_crash_report(app: &TmuxApp, case: &str) {
    let logs = app.home().join("logs");
    let crashes: Vec<String> = std::fs::read_dir(&logs)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("crash-"))
        .collect();
    assert!(
        crashes.is_empty(),
        "{case}: crash reports in {}: {crashes:?}\n{}",
        logs.display(),
        crashes
            .first()
            .map(|c| std::fs::read_to_string(logs.join(c)).unwrap_or_default())
            .unwrap_or_default()
    );
}

#[test]
fn a_killed_terminal_never_leaves_hermes_running() {
    if !Tmux::available() {
        eprintln!("skipping: tmux is not installed (scripts/test.sh installs it)");
        return;
    }
    let server = ScriptedServer::start_echo_on_own_thread();
    for round in 0..6 {
        let app = TmuxApp::new(&server, "");
        let tmux = app.start_with("", &[]);
        let pid = hermes_pid(&tmux);
        assert!(alive(pid));
        // Vary the moment: right away, or after some input.
        if round % 2 == 1 {
            tmux.type_text("hello");
        }
        drop(tmux);
        assert_gone_within_8_s(pid, &format!("round {round}"));
        assert_no_crash_report(&app, &format!("round {round}"));
    }
}

/// The terminal closes but no SIGHUP reaches hermes (here: it runs in its own session, as
/// after `setsid`, so the kernel's hangup signal goes to the shell only). The hangup itself
/// must still end it.
#[test]
fn a_closed_terminal_ends_hermes_even_without_a_hangup_signal() {
    if !Tmux::available() {
        eprintln!("skipping: tmux is not installed (scripts/test.sh installs it)");
        return;
    }
    let server = ScriptedServer::start_echo_on_own_thread();
    let app = TmuxApp::new(&server, "");
    let tmux = app.start_with("setsid", &[]);
    let pid = hermes_pid(&tmux);
    assert!(alive(pid));
    tmux.type_text("hello");
    drop(tmux);
    assert_gone_within_8_s(pid, "setsid");
    assert_no_crash_report(&app, "setsid");
}
