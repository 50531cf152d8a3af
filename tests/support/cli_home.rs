//! A throwaway HERMES_HOME (`home/` with a config.yaml, and a `work/` directory to run in) and
//! the `hermes` binary run in it with a clean environment, for tests of CLI commands. Does not
//! start a server: callers write one's URL into the config.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::process::Output;

use super::env::CleanEnv;

pub struct CliHome {
    pub dir: tempfile::TempDir,
}

/// What a finished `hermes` printed and its exit code (-1 when killed by a signal).
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl From<Output> for Run {
    fn from(out: Output) -> Self {
        Self {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }
}

impl CliHome {
    pub fn new(config: &str) -> Self {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("home")).unwrap();
        std::fs::create_dir_all(dir.path().join("work")).unwrap();
        std::fs::write(dir.path().join("home/config.yaml"), config).unwrap();
        Self { dir }
    }

    pub fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }

    pub fn work(&self) -> PathBuf {
        self.dir.path().join("work")
    }

    /// `hermes ARGS` in `work/` with this home, a clean environment and no stdin.
    pub fn command(&self, args: &[&str]) -> std::process::Command {
        // `option_env!`: the scripted-provider example includes the support modules too, and
        // cargo sets the variable only for integration tests.
        let hermes = option_env!("CARGO_BIN_EXE_hermes").unwrap_or("hermes");
        let mut cmd = std::process::Command::new(hermes);
        cmd.clean_env()
            .args(args)
            .current_dir(self.work())
            .env("HERMES_HOME", self.home())
            .stdin(std::process::Stdio::null());
        cmd
    }
}
