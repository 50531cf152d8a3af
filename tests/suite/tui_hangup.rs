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

/// The hermes process running in `workspace` (its working directory).
fn hermes_in(workspace: &std::path::Path) -> Option<u32> {
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .find(|pid| {
            let exe = std::fs::read_link(format!("/proc/{pid}/exe")).unwrap_or_default();
            let cwd = std::fs::read_link(format!("/proc/{pid}/cwd")).unwrap_or_default();
            cwd == workspace && exe.to_string_lossy().contains("hermes") && alive(*pid)
        })
}

/// The output terminal closes while a reply streams, and hermes learns it only from the next
/// frame failing (EIO): no hangup signal (own session) and no hangup on stdin (a terminal this
/// test keeps open). That is a normal end too: it must exit quietly, without a crash report
/// and without ending as an error (the failed frame used to end the app with "terminal error:
/// Input/output error" and exit status 2).
#[test]
fn a_frame_that_fails_on_a_closed_terminal_ends_hermes_quietly() {
    if !Tmux::available() {
        eprintln!("skipping: tmux is not installed (scripts/test.sh installs it)");
        return;
    }
    let words: Vec<String> = (0..600).map(|i| format!("word{i} ")).collect();
    let server =
        ScriptedServer::start_on_own_thread([support::Response::text(words).with_delay_ms(20)]);
    let app = TmuxApp::new(&server, "");
    let (mut master, mut slave) = (0, 0);
    // SAFETY: openpty fills two descriptors we own and close below.
    let opened = unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            std::ptr::null(),
        )
    };
    assert_eq!(opened, 0);
    // SAFETY: termios calls on our own descriptor with a struct they fill.
    unsafe {
        let mut raw: libc::termios = std::mem::zeroed();
        assert_eq!(libc::tcgetattr(slave, &mut raw), 0);
        libc::cfmakeraw(&mut raw);
        assert_eq!(libc::tcsetattr(slave, libc::TCSANOW, &raw), 0);
    }
    let stdin = std::fs::read_link(format!("/proc/self/fd/{slave}")).unwrap();
    // hermes asks the terminal things at start-up (device attributes, the cursor position)
    // and reads the answers from stdin, which is ours: answer until the composer is up.
    let answering = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let answerer = {
        let answering = std::sync::Arc::clone(&answering);
        std::thread::spawn(move || {
            let answers = b"\x1b[?1;2c\x1b[1;1R";
            while answering.load(std::sync::atomic::Ordering::SeqCst) {
                // SAFETY: writing our own buffer to our own descriptor.
                unsafe { libc::write(master, answers.as_ptr().cast(), answers.len()) };
                std::thread::sleep(Duration::from_millis(100));
            }
        })
    };
    let command = format!(
        "{} < {}",
        app.command.replacen(" && ", " && setsid ", 1),
        stdin.display()
    );
    let env = [
        ("HERMES_HOME", app.home().display().to_string()),
        ("TERM", "xterm-256color".to_string()),
    ];
    let tmux = Tmux::start(&command, 120, 40, &env);
    tmux.wait_for_text("(/ for commands", Duration::from_secs(20));
    answering.store(false, std::sync::atomic::Ordering::SeqCst);
    answerer.join().unwrap();
    let pid = hermes_in(app.dir.path()).expect("hermes is running");
    let typed = b"hello\r";
    // SAFETY: writing our own buffer to our own descriptor.
    let written = unsafe { libc::write(master, typed.as_ptr().cast(), typed.len()) };
    assert_eq!(written, typed.len() as isize);
    let deadline = Instant::now() + Duration::from_secs(10);
    while server.completion_requests().is_empty() {
        assert!(Instant::now() < deadline, "the prompt was not sent");
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(500));
    drop(tmux);
    assert_gone_within_8_s(pid, "output closed");
    assert_no_crash_report(&app, "output closed");
    // A normal end: not "hermes: terminal error: Input/output error" and exit status 2.
    let logs = app.home().join("logs");
    let stderr = std::fs::read_to_string(logs.join("stderr.log")).unwrap_or_default();
    assert!(!stderr.contains("terminal error"), "{stderr}");
    let log = std::fs::read_to_string(logs.join("hermes.log")).unwrap_or_default();
    assert!(log.contains("the terminal is gone"), "{log}");
    // SAFETY: closing our own descriptors.
    unsafe {
        libc::close(master);
        libc::close(slave);
    }
}
