//! Mouse reports never type text, through the real binary on a pty this test drives byte by
//! byte (tmux re-encodes mouse input, so it cannot send a raw or a split report): an X10 click
//! (`ESC [ M` + `" !!"`) arriving while hermes asks the terminal about its background at
//! start-up, and one whose ESC arrives apart from the rest while the TUI runs. Typed keys
//! after it still reach the composer.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::Read;
use std::io::Write;
use std::os::fd::FromRawFd;
use std::os::unix::process::CommandExt;
use std::sync::Arc;
use std::sync::Mutex;
use std::time::Duration;
use std::time::Instant;

use crate::support::cli_home::CliHome;

const CLICK_AT_1_1: &[u8] = b"\x1b[M !!";

/// The screen's text so far, escape sequences removed.
fn text_of(bytes: &[u8]) -> String {
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != 0x1b {
            out.push(bytes[i]);
            i += 1;
            continue;
        }
        i += 1;
        match bytes.get(i) {
            Some(b'[') => {
                i += 1;
                while i < bytes.len() && !(0x40..=0x7e).contains(&bytes[i]) {
                    i += 1;
                }
                i += 1;
            }
            Some(b']') => {
                while i < bytes.len() && bytes[i] != 0x07 && bytes[i] != 0x1b {
                    i += 1;
                }
                i += if bytes.get(i) == Some(&0x1b) { 2 } else { 1 };
            }
            _ => i += 1,
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// hermes on a fresh pty; `report_at_start` sends a click while the background query reads.
fn composer_after_click(report_at_start: bool) -> String {
    let home = CliHome::new(
        "model:\n  provider: custom\n  base_url: http://127.0.0.1:9/v1\n  default: m\n",
    );
    std::fs::write(home.home().join(".env"), "CUSTOM_API_KEY=pty-test-Kq81mZ\n").unwrap();
    let (mut master_fd, mut slave_fd) = (0, 0);
    let size = libc::winsize {
        ws_row: 30,
        ws_col: 100,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    // SAFETY: openpty fills two descriptors this test owns from here on.
    let opened = unsafe {
        libc::openpty(
            &mut master_fd,
            &mut slave_fd,
            std::ptr::null_mut(),
            std::ptr::null(),
            &size,
        )
    };
    assert_eq!(opened, 0);
    // SAFETY: both descriptors were just created; each is owned by exactly one File.
    let (master, slave) = unsafe {
        (
            std::fs::File::from_raw_fd(master_fd),
            std::fs::File::from_raw_fd(slave_fd),
        )
    };
    let mut command = home.command(&[]);
    command
        .env("TERM", "xterm-256color")
        .env_remove("COLORFGBG")
        .stdin(slave.try_clone().unwrap())
        .stdout(slave.try_clone().unwrap())
        .stderr(slave.try_clone().unwrap());
    // SAFETY: only async-signal-safe calls between fork and exec: a new session whose
    // controlling terminal is the pty, as a terminal emulator starts a shell.
    unsafe {
        command.pre_exec(|| {
            if libc::setsid() < 0 || libc::ioctl(0, libc::TIOCSCTTY, 0) < 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let mut child = command.spawn().unwrap();
    // Only the child may hold the pty's slave side, so reads see its end when it exits.
    drop(command);
    drop(slave);

    // The terminal: answer hermes's questions, record what it draws.
    let screen = Arc::new(Mutex::new(Vec::<u8>::new()));
    let mut writer = master.try_clone().unwrap();
    let reader = {
        let screen = Arc::clone(&screen);
        let mut master = master;
        let mut answers = master.try_clone().unwrap();
        std::thread::spawn(move || {
            let mut chunk = [0u8; 4096];
            while let Ok(n) = master.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                let new = &chunk[..n];
                let has = |needle: &[u8]| new.windows(needle.len()).any(|w| w == needle);
                if has(b"\x1b[6n") {
                    let _ = answers.write_all(b"\x1b[1;1R");
                }
                if has(b"\x1b]11;?") {
                    if report_at_start {
                        let _ = answers.write_all(CLICK_AT_1_1);
                    }
                    let _ = answers.write_all(b"\x1b[?64;1c");
                } else if has(b"\x1b[c") {
                    let _ = answers.write_all(b"\x1b[?64;1c");
                }
                screen.lock().unwrap().extend_from_slice(new);
            }
        })
    };
    let wait_for = |needle: &str| {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let text = text_of(&screen.lock().unwrap());
            if text.contains(needle) {
                return text;
            }
            assert!(
                Instant::now() < deadline,
                "no {needle:?} on screen:\n{text}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    };
    wait_for("for commands");
    if !report_at_start {
        writer.write_all(b"\x1b").unwrap();
        std::thread::sleep(Duration::from_millis(5));
        writer.write_all(&CLICK_AT_1_1[1..]).unwrap();
        std::thread::sleep(Duration::from_millis(300));
    }
    writer.write_all(b"zq").unwrap();
    wait_for("zq");
    std::thread::sleep(Duration::from_millis(200));
    let _ = child.kill();
    let _ = child.wait();
    drop(writer);
    let screen = text_of(&screen.lock().unwrap());
    // The reader ends when the pty does; it is not waited for, so nothing here can hang.
    drop(reader);
    screen
}

#[test]
fn a_click_during_the_start_up_query_types_nothing() {
    let screen = composer_after_click(true);
    assert!(!screen.contains("!!"), "{screen}");
}

#[test]
fn a_click_whose_esc_arrives_alone_types_nothing() {
    let screen = composer_after_click(false);
    assert!(!screen.contains("!!"), "{screen}");
    assert!(!screen.contains("[M"), "{screen}");
}
