//! A HERMES_HOME for the real binary in tmux against the scripted provider: its config
//! points at the server, and `start*` open a 120×40 tmux session running hermes in it.
//! The workspace (`dir`, hermes's working directory) and HERMES_HOME (`home()`) are separate
//! temporary directories, as on a user's machine: a HERMES_HOME inside the workspace would
//! make the sandbox keep commands from creating files at the workspace's top level.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;

use super::ScriptedServer;
use super::tmux::Tmux;

const WAIT: Duration = Duration::from_secs(15);

/// A HERMES_HOME configured for `server` and the command line that runs hermes in it.
pub struct TmuxApp {
    /// The workspace: hermes runs with this as its working directory.
    pub dir: tempfile::TempDir,
    /// Holds `home/`, the HERMES_HOME.
    home_root: tempfile::TempDir,
    pub command: String,
}

impl TmuxApp {
    pub fn new(server: &ScriptedServer, flags: &str) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let home_root = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(home_root.path().join("home")).unwrap();
        std::fs::write(
            home_root.path().join("home/config.yaml"),
            server.config_yaml(),
        )
        .unwrap();
        let command = format!(
            "cd {} && {} {flags}",
            dir.path().display(),
            // `option_env!`: the scripted-provider example includes this module too, and
            // cargo sets the variable only for integration tests.
            option_env!("CARGO_BIN_EXE_hermes").unwrap_or("hermes")
        );
        Self {
            dir,
            home_root,
            command,
        }
    }

    /// The HERMES_HOME hermes runs with.
    pub fn home(&self) -> std::path::PathBuf {
        self.home_root.path().join("home")
    }

    /// hermes with voice settings appended to its config and a HOME of its own
    /// (`userhome/`, where ALSA looks for `.asoundrc`), in a new 120×40 tmux session, with the
    /// composer ready.
    pub fn start_with_voice(&self, voice_yaml: &str) -> Tmux {
        let dir = self.dir.path();
        std::fs::create_dir_all(dir.join("userhome")).unwrap();
        let config = self.home().join("config.yaml");
        let mut yaml = std::fs::read_to_string(&config).unwrap();
        yaml.push_str(voice_yaml);
        std::fs::write(&config, yaml).unwrap();
        let env = [
            ("HERMES_HOME", self.home().display().to_string()),
            ("HOME", dir.join("userhome").display().to_string()),
            ("TERM", "xterm-256color".to_string()),
        ];
        let tmux = Tmux::start(&self.command, 120, 40, &env);
        // The composer placeholder ("Message <agent name>… (/ for commands…") names the skin's agent.
        tmux.wait_for_text("(/ for commands", WAIT);
        tmux
    }

    /// hermes run through `prefix` (e.g. `env -u DISPLAY`) with `extra` variables set, in a new
    /// 120×40 tmux session, with the composer ready.
    pub fn start_with(&self, prefix: &str, extra: &[(&str, String)]) -> Tmux {
        let mut env = vec![
            ("HERMES_HOME", self.home().display().to_string()),
            ("TERM", "xterm-256color".to_string()),
        ];
        env.extend(extra.iter().cloned());
        let command = self.command.replacen(" && ", &format!(" && {prefix} "), 1);
        let tmux = Tmux::start(&command, 120, 40, &env);
        // The composer placeholder ("Message <agent name>… (/ for commands…") names the skin's agent.
        tmux.wait_for_text("(/ for commands", WAIT);
        tmux
    }

    /// hermes in a new 120×40 tmux session.
    pub fn start(&self) -> Tmux {
        let env = [
            ("HERMES_HOME", self.home().display().to_string()),
            ("TERM", "xterm-256color".to_string()),
        ];
        Tmux::start(&self.command, 120, 40, &env)
    }
}
