//! A tmux driver for end-to-end tests of the real binary: start a program in a detached
//! session of a fixed size, type into it, and poll the screen until text appears.
//! Every session is killed on drop, so a failing test leaves nothing running.

#![allow(clippy::expect_used)]

use std::process::Command;
use std::time::Duration;
use std::time::Instant;

pub struct Tmux {
    session: String,
}

impl Tmux {
    /// Whether tmux is installed (tests skip with a message when it is not, so a developer
    /// without tmux still gets the rest of the suite; CI installs it).
    pub fn available() -> bool {
        Command::new("tmux")
            .arg("-V")
            .output()
            .is_ok_and(|o| o.status.success())
    }

    /// Start `command` (run by `sh -c`) in a new `width`×`height` session with `env` set.
    pub fn start(command: &str, width: u16, height: u16, env: &[(&str, String)]) -> Self {
        let session = format!("hermes-test-{}-{}", std::process::id(), fastrand_suffix());
        let mut cmd = Command::new("tmux");
        cmd.args(["new-session", "-d", "-s", &session, "-x"])
            .arg(width.to_string())
            .arg("-y")
            .arg(height.to_string());
        for (key, value) in env {
            cmd.arg("-e").arg(format!("{key}={value}"));
        }
        // The pane's environment comes from the tmux server (started by whichever test ran
        // tmux first, maybe long ago): unset the machine's provider settings there.
        let keep: Vec<&str> = env.iter().map(|(key, _)| *key).collect();
        let unset = super::env::ambient_var_names_except(&keep).join(" ");
        // Keep the pane after the program exits so its last screen can be read.
        cmd.arg(format!(
            "unset {unset}; {command}; echo '[exited '$?']'; sleep 30"
        ));
        // When the last session was just killed, the tmux server is still exiting and a new
        // session can fail with "server exited unexpectedly": try again once it is gone.
        for attempt in 0..5 {
            let status = cmd.status().expect("tmux new-session");
            if status.success() {
                return Self { session };
            }
            assert!(attempt < 4, "tmux new-session failed");
            std::thread::sleep(std::time::Duration::from_millis(200));
        }
        unreachable!("the loop returns or panics")
    }

    /// The tmux session name (for `-t`).
    pub fn name(&self) -> &str {
        &self.session
    }

    /// Send keys as tmux key names (`"Enter"`, `"C-c"`) or literal text with `literal`.
    pub fn keys(&self, keys: &[&str]) {
        let status = Command::new("tmux")
            .args(["send-keys", "-t", &self.session])
            .args(keys)
            .status()
            .expect("tmux send-keys");
        assert!(status.success());
    }

    /// Type text literally (no key-name interpretation).
    pub fn type_text(&self, text: &str) {
        let status = Command::new("tmux")
            .args(["send-keys", "-t", &self.session, "-l", text])
            .status()
            .expect("tmux send-keys -l");
        assert!(status.success());
    }

    /// Paste `text` as the terminal would (bracketed, when the app asked for it).
    pub fn paste(&self, text: &str) {
        let buffer = format!("{}-paste", self.session);
        let set = Command::new("tmux")
            .args(["set-buffer", "-b", &buffer, "--", text])
            .status()
            .expect("tmux set-buffer");
        assert!(set.success());
        let pasted = Command::new("tmux")
            .args([
                "paste-buffer",
                "-p",
                "-d",
                "-b",
                &buffer,
                "-t",
                &self.session,
            ])
            .status()
            .expect("tmux paste-buffer");
        assert!(pasted.success());
    }

    pub fn screen(&self) -> String {
        let out = Command::new("tmux")
            .args(["capture-pane", "-p", "-t", &self.session])
            .output()
            .expect("tmux capture-pane");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Poll until `pred(screen)` holds; panics with the last screen after `timeout`.
    pub fn wait_for(&self, what: &str, timeout: Duration, pred: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + timeout;
        loop {
            let screen = self.screen();
            if pred(&screen) {
                return screen;
            }
            if Instant::now() > deadline {
                panic!("timed out waiting for {what}; screen was:\n{screen}");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    pub fn wait_for_text(&self, text: &str, timeout: Duration) -> String {
        self.wait_for(&format!("{text:?}"), timeout, |s| s.contains(text))
    }

    /// Poll until the chat pane's text, with its wrapped lines joined (see `chat_text`),
    /// contains `text`; returns that joined text.
    pub fn wait_for_chat_text(&self, text: &str, timeout: Duration) -> String {
        let screen = self.wait_for(&format!("{text:?} in the chat pane"), timeout, |s| {
            chat_text(s).contains(text)
        });
        chat_text(&screen)
    }
}

/// The chat pane's text (the left pane, between its `│` borders) as one line with single
/// spaces, so a phrase the pane wrapped across lines can be found whole.
pub fn chat_text(screen: &str) -> String {
    let mut words = Vec::new();
    for line in screen.lines() {
        let Some(inner) = line.strip_prefix('│') else {
            continue;
        };
        let inner = inner.split('│').next().unwrap_or("");
        words.extend(inner.split_whitespace().map(str::to_string));
    }
    words.join(" ")
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["kill-session", "-t", &self.session])
            .status();
    }
}

fn fastrand_suffix() -> u64 {
    use std::sync::atomic::AtomicU64;
    use std::sync::atomic::Ordering;
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}
