//! Running the `git` CLI against a shadow repository, isolated from the user's git setup.
//!
//! Every command gets `GIT_DIR=<shadow repo>` and, when given, `GIT_WORK_TREE=<work dir>`; the
//! other inherited `GIT_*` variables (but `GIT_EXEC_PATH`) are removed, system and global config
//! are not read (`GIT_CONFIG_NOSYSTEM`, `GIT_CONFIG_GLOBAL=/dev/null`), and identity, signing,
//! line endings, auto-gc, reflogs, hooks and the global excludes file are pinned with `-c`.
//! Pathspecs are literal (`GIT_LITERAL_PATHSPECS=1`), so a file named `*.rs` is only that file.
//!
//! Blocking: callers run on a blocking thread. Does not parse output beyond NUL/line splitting.
//! Invariant: a missing `git` executable is `CheckpointError::GitMissing`, never a panic.

use std::ffi::OsStr;
use std::io::Write;
use std::path::Path;
use std::process::Command;
use std::process::Stdio;

use super::error::CheckpointError;

#[cfg(windows)]
const NULL_DEVICE: &str = "NUL";
#[cfg(not(windows))]
const NULL_DEVICE: &str = "/dev/null";

/// `-c` settings passed to every command (the user's config is never read).
const CONFIG: &[&str] = &[
    "user.name=hermes",
    "user.email=hermes@localhost",
    "commit.gpgsign=false",
    "tag.gpgsign=false",
    "core.autocrlf=false",
    "core.safecrlf=false",
    "core.quotepath=false",
    "core.fsmonitor=false",
    "core.logAllRefUpdates=false",
    "gc.auto=0",
    "maintenance.auto=false",
    "advice.detachedHead=false",
];

/// A shadow repository and, for commands that look at files, the work tree it snapshots.
#[derive(Debug, Clone, Copy)]
pub(super) struct Git<'a> {
    git_dir: &'a Path,
    work_tree: Option<&'a Path>,
}

impl<'a> Git<'a> {
    /// Commands on `git_dir` alone (refs, objects, gc): no work tree is needed.
    pub fn bare(git_dir: &'a Path) -> Self {
        Self {
            git_dir,
            work_tree: None,
        }
    }

    /// Commands that read or write the files of `work_tree`.
    pub fn with_work_tree(git_dir: &'a Path, work_tree: &'a Path) -> Self {
        Self {
            git_dir,
            work_tree: Some(work_tree),
        }
    }

    /// Runs `git args…` and returns its stdout.
    pub fn run(&self, args: &[&str]) -> Result<Vec<u8>, CheckpointError> {
        self.run_with_input(args, None)
    }

    /// Runs `git args…` and returns its stdout as text, trailing whitespace trimmed.
    pub fn text(&self, args: &[&str]) -> Result<String, CheckpointError> {
        let out = self.run(args)?;
        Ok(String::from_utf8_lossy(&out).trim_end().to_string())
    }

    /// Runs `git args…` with `input` on stdin (written from a helper thread, so a command that
    /// answers while it reads cannot deadlock) and returns its stdout.
    pub fn run_with_input(
        &self,
        args: &[&str],
        input: Option<Vec<u8>>,
    ) -> Result<Vec<u8>, CheckpointError> {
        // A missing current directory also fails the spawn with `NotFound`: report it as such,
        // not as a missing git.
        let cwd = self.work_tree.unwrap_or(self.git_dir);
        if !cwd.is_dir() {
            return Err(CheckpointError::Io(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                format!("{} is not a directory", cwd.display()),
            )));
        }
        let mut cmd = self.command(args);
        cmd.stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        });
        cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
        let mut child = cmd.spawn().map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => CheckpointError::GitMissing,
            _ => CheckpointError::Io(e),
        })?;
        let writer = match (input, child.stdin.take()) {
            (Some(bytes), Some(mut stdin)) => Some(std::thread::spawn(move || {
                // A command that exits early closes the pipe; its exit status reports that.
                let _ = stdin.write_all(&bytes);
            })),
            _ => None,
        };
        let output = child.wait_with_output()?;
        if let Some(handle) = writer {
            let _ = handle.join();
        }
        if output.status.success() {
            return Ok(output.stdout);
        }
        let mut stderr = String::from_utf8_lossy(&output.stderr).trim().to_string();
        if stderr.is_empty() {
            stderr = format!("exited with {}", output.status);
        }
        Err(CheckpointError::Git {
            command: format!("git {}", args.join(" ")),
            stderr,
        })
    }

    fn command(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new("git");
        for (key, _) in std::env::vars_os() {
            let key_text = key.to_string_lossy();
            // GIT_EXEC_PATH locates git's own helpers on unusual installs: keep it.
            if key_text.starts_with("GIT_") && key_text != "GIT_EXEC_PATH" {
                cmd.env_remove(&key);
            }
        }
        cmd.env("GIT_DIR", self.git_dir)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", NULL_DEVICE)
            .env("GIT_LITERAL_PATHSPECS", "1")
            .env("GIT_TERMINAL_PROMPT", "0")
            .env("GIT_OPTIONAL_LOCKS", "0");
        if let Some(work_tree) = self.work_tree {
            cmd.env("GIT_WORK_TREE", work_tree);
        }
        cmd.current_dir(self.work_tree.unwrap_or(self.git_dir));
        for setting in CONFIG {
            cmd.arg("-c").arg(setting);
        }
        cmd.arg("-c")
            .arg(format!("core.excludesFile={NULL_DEVICE}"))
            .arg("-c")
            .arg(format!("core.hooksPath={NULL_DEVICE}"));
        cmd.args(args.iter().map(OsStr::new));
        cmd
    }
}

/// Splits NUL-terminated output (`-z`) into raw paths (bytes, as git stores them).
pub(super) fn split_nul(out: &[u8]) -> Vec<Vec<u8>> {
    out.split(|b| *b == 0)
        .filter(|part| !part.is_empty())
        .map(<[u8]>::to_vec)
        .collect()
}

/// Joins raw paths into NUL-terminated stdin for `--stdin -z` / `--pathspec-file-nul`.
pub(super) fn join_nul(paths: &[&[u8]]) -> Vec<u8> {
    let mut out = Vec::new();
    for path in paths {
        out.extend_from_slice(path);
        out.push(0);
    }
    out
}

/// A raw git path for display (lossy only for the rare non-UTF-8 name).
pub(super) fn display(path: &[u8]) -> String {
    String::from_utf8_lossy(path).into_owned()
}

/// The file a raw git path (relative, `/`-separated) names under `work_dir`.
pub(super) fn work_path(work_dir: &Path, path: &[u8]) -> std::path::PathBuf {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        work_dir.join(OsStr::from_bytes(path))
    }
    #[cfg(not(unix))]
    {
        work_dir.join(String::from_utf8_lossy(path).as_ref())
    }
}
