//! Telling a sandbox refusal from an ordinary failure, from a confined command's output.
//!
//! The kernel does not tell the parent why a child's system call failed, so this reads what
//! programs print for EACCES/EPERM (`Permission denied`, `EACCES`, `Operation not permitted`,
//! Python's `[Errno 13]`, node's `EACCES: permission denied, open '…'`, sudo's "no new
//! privileges") and keeps a refusal only when the sandbox explains it: a named path that the
//! sandbox does not let the command write (or read, for a secret), a refused connection with
//! the network off, a setuid program, or a signal to a process outside the sandbox. An
//! ordinary permission error inside the workspace is not a sandbox denial. It does not look
//! at the exit status; the caller only asks for commands that failed.

use std::path::Path;
use std::path::PathBuf;

use super::NetworkAccess;
use super::Sandbox;
use super::plan::real_path;
use super::protected::SpecialAccess;

/// What the sandbox refused, in words for the approval request and the model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Denial {
    Write(PathBuf),
    Read(PathBuf),
    Network,
    Privileges,
    Signal,
}

impl Denial {
    pub fn describe(&self) -> String {
        match self {
            Self::Write(path) => format!(
                "writing {} (outside the sandbox's writable roots, or protected)",
                path.display()
            ),
            Self::Read(path) => {
                format!("reading {} (a secret the sandbox hides)", path.display())
            }
            Self::Network => "a network connection (sandbox.network is false)".to_string(),
            Self::Privileges => {
                "gaining privileges (sudo and setuid programs do not work in the sandbox)"
                    .to_string()
            }
            Self::Signal => "signalling a process outside the sandbox".to_string(),
        }
    }
}

/// What the model is told when a sandboxed command was refused and nobody let it out.
pub fn refusal_text(denial: &Denial) -> String {
    format!(
        "The sandbox blocked this command: {}. It was not re-run outside the sandbox (nobody \
         approved that). Work inside the workspace, or tell the user what you need and why.",
        denial.describe()
    )
}

const REFUSALS: &[&str] = &[
    "permission denied",
    "eacces",
    "operation not permitted",
    "eperm",
    "errno 13",
    "errno 1]",
];
const NETWORK_WORDS: &[&str] = &["connect", "port", "socket", "network", "host"];
/// How programs report a connect() that failed, whatever the errno: with the network off,
/// Landlock refuses every TCP connect, so these are the sandbox's doing.
const CONNECT_FAILURES: &[&str] = &[
    "failed to connect",
    "couldn't connect",
    "could not connect",
    "unable to connect",
    "curl: (7)",
];

/// The sandbox refusal that explains `output` of a command run confined in `cwd`, if any.
pub fn find(sandbox: &Sandbox, cwd: &Path, output: &str) -> Option<Denial> {
    let network_off = sandbox.settings().network == NetworkAccess::Denied;
    for line in output.lines() {
        let lower = line.to_ascii_lowercase();
        if lower.contains("no new privileges") || lower.contains("no_new_privs") {
            return Some(Denial::Privileges);
        }
        if network_off && CONNECT_FAILURES.iter().any(|w| lower.contains(w)) {
            return Some(Denial::Network);
        }
        if !REFUSALS.iter().any(|r| lower.contains(r)) {
            continue;
        }
        for candidate in path_candidates(line) {
            let path = real_path(&resolve(cwd, &candidate, sandbox));
            if is_secret(sandbox, cwd, &path) {
                return Some(Denial::Read(path));
            }
            if !sandbox.may_write(cwd, &path) {
                return Some(Denial::Write(path));
            }
        }
        if network_off && NETWORK_WORDS.iter().any(|w| lower.contains(w)) {
            return Some(Denial::Network);
        }
        if lower.contains("kill") && lower.contains("not permitted") {
            return Some(Denial::Signal);
        }
    }
    None
}

fn is_secret(sandbox: &Sandbox, cwd: &Path, path: &Path) -> bool {
    super::protected::special_paths(&sandbox.shell, cwd)
        .iter()
        .any(|s| s.access == SpecialAccess::None && path.starts_with(real_path(&s.path)))
}

fn resolve(cwd: &Path, candidate: &str, sandbox: &Sandbox) -> PathBuf {
    if let Some(rest) = candidate.strip_prefix("~/") {
        return sandbox.shell.home.join(rest);
    }
    let path = Path::new(candidate);
    if path.is_absolute() {
        path.to_path_buf()
    } else {
        cwd.join(path)
    }
}

/// Paths a refusal line names: quoted text (`'…'`, `"…"`, `‘…’`, `` `…' ``) that looks like a
/// path, and bare words starting with `/` or `~/` (up to a colon or space).
fn path_candidates(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let quotes = [
        ('\'', '\''),
        ('"', '"'),
        ('‘', '’'),
        ('`', '\''),
        ('“', '”'),
    ];
    for (open, close) in quotes {
        let mut rest = line;
        while let Some(start) = rest.find(open) {
            let after = &rest[start + open.len_utf8()..];
            let Some(end) = after.find(close) else {
                break;
            };
            let inner = &after[..end];
            if looks_like_path(inner) {
                out.push(inner.to_string());
            }
            rest = &after[end + close.len_utf8()..];
        }
    }
    // `bash: line 1: note.txt: Permission denied`: the field before the refusal.
    let fields: Vec<&str> = line.split(": ").collect();
    if let Some(i) = fields
        .iter()
        .position(|f| f.to_ascii_lowercase().starts_with("permission denied"))
        && i > 0
        && looks_like_path(fields[i - 1].trim())
    {
        out.push(fields[i - 1].trim().to_string());
    }
    for word in line.split(|c: char| c.is_whitespace() || c == ',') {
        let word = word.trim_matches(|c: char| matches!(c, '\'' | '"' | '(' | ')' | '[' | ']'));
        let word = word.trim_end_matches(':');
        if (word.starts_with('/') || word.starts_with("~/")) && word.len() > 1 {
            out.push(word.to_string());
        }
    }
    out
}

fn looks_like_path(text: &str) -> bool {
    !text.is_empty()
        && !text.contains('\n')
        && text.len() < 4096
        && (text.contains('/') || !text.contains(' '))
}

#[cfg(test)]
#[path = "denial_tests.rs"]
mod tests;
