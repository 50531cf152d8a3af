//! Wrapper stripping: which word of a simple command is the program that really runs.
//!
//! Leading `NAME=value` assignments and wrapper programs are skipped, with their options:
//! `sudo`/`doas`/`pkexec`/`run0`, `env` (and `env -S '…'`), `nohup`, `setsid`, `time`, `exec`,
//! `command`, `builtin`, `nice`, `ionice`, `stdbuf`, `timeout`, `chroot`, `flock`, `busybox`,
//! `unbuffer`, `strace`, `ltrace`, `torsocks`, `proxychains`, `caffeinate`, `xvfb-run`, `unshare`,
//! `systemd-run`, `taskset`, `chrt`, `xargs`, `npx`/`bunx`/`npm exec`/`pnpm dlx`/`yarn dlx`
//! (`-c '…'` is a script); `watch …`, `su -c '…'`, `script -c '…'` and `flock … -c '…'` hand a
//! string to a shell, which is reported as a script range. Wrapper names are matched on the basename, so
//! `/usr/bin/sudo` is `sudo`. It does not interpret shells, `eval` or `find -exec` (the walker
//! does), and knows nothing about aliases. Invariant: every index it returns is within `words`.

use std::ops::Range;

use super::lex::is_name;
use super::words::{Word, basename};

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Unwrapped {
    /// Index of the program word, when a command runs.
    pub program: Option<usize>,
    /// Indices of the wrapper words and of the program, in order.
    pub positions: Vec<usize>,
    /// Words a wrapper runs as shell text (joined with spaces).
    pub script: Option<Range<usize>>,
    /// The program runs under `xargs` (it gets more arguments than we see).
    pub xargs: bool,
    /// `sudo -S` / `--stdin` / `-A` / `--askpass`.
    pub sudo_password: bool,
    /// `sudo -e` / `sudoedit`: the files from this index on are edited.
    pub edits: Option<usize>,
    /// `NAME=value` words, before the program or given to `env`.
    pub assignments: Vec<usize>,
}

pub(super) fn unwrap(words: &[Word]) -> Unwrapped {
    let mut out = Unwrapped::default();
    let mut i = 0;
    while let Some(word) = words.get(i) {
        if is_assignment(&word.text) {
            out.assignments.push(i);
            i += 1;
            continue;
        }
        if word.dynamic && !word.literal {
            out.program = Some(i);
            out.positions.push(i);
            return out;
        }
        let name = basename(&word.text);
        let next = i + 1;
        let after = match name {
            "sudo" | "doas" | "pkexec" | "run0" => sudo(words, next, &mut out),
            "sudoedit" => {
                out.edits = Some(next);
                None
            }
            "env" => env(words, next, &mut out),
            "command" => {
                let j = skip_opts(words, next, &[]);
                let query = words[next..j.min(words.len())]
                    .iter()
                    .any(|w| w.text.starts_with('-') && w.text.contains(['v', 'V']));
                (!query).then_some(j)
            }
            "nohup" | "builtin" | "unbuffer" => Some(skip_opts(words, next, &[])),
            "setsid" => Some(skip_opts(words, next, &[])),
            "exec" => Some(skip_opts(words, next, &["-a"])),
            "time" => Some(skip_opts(
                words,
                next,
                &["-f", "-o", "--format", "--output"],
            )),
            "nice" => Some(skip_opts(words, next, &["-n", "--adjustment"])),
            "ionice" => Some(skip_opts(words, next, &["-c", "-n", "-p", "-P", "-u"])),
            "stdbuf" => Some(skip_opts(words, next, &["-i", "-o", "-e"])),
            "timeout" => {
                Some(skip_opts(words, next, &["-s", "-k", "--signal", "--kill-after"]) + 1)
            }
            "chroot" => Some(skip_opts(words, next, &["--userspec", "--groups"]) + 1),
            "busybox" => Some(next),
            "strace" => Some(skip_opts(
                words,
                next,
                &[
                    "-a", "-b", "-e", "-E", "-I", "-o", "-O", "-p", "-P", "-s", "-S", "-u", "-X",
                ],
            )),
            "ltrace" => Some(skip_opts(
                words,
                next,
                &[
                    "-a", "-A", "-D", "-e", "-F", "-l", "-n", "-o", "-p", "-s", "-u", "-w", "-x",
                ],
            )),
            "torsocks" | "proxychains" | "proxychains4" | "caffeinate" | "xvfb-run" | "unshare"
            | "systemd-run" | "sg" => Some(skip_opts(
                words,
                next,
                &[
                    "-f",
                    "-t",
                    "-w",
                    "-u",
                    "-p",
                    "-n",
                    "-s",
                    "-e",
                    "--unit",
                    "--property",
                ],
            )),
            "taskset" | "chrt" => Some(skip_opts(words, next, &[]) + 1),
            "flock" => {
                let j = skip_opts(
                    words,
                    next,
                    &["-w", "-E", "--timeout", "--conflict-exit-code"],
                );
                match words.get(j + 1) {
                    Some(w) if w.text == "-c" || w.text == "--command" => {
                        out.positions.push(i);
                        out.script = Some(range(words, j + 2, j + 3));
                        return out;
                    }
                    _ => Some(j + 1),
                }
            }
            "npx" | "bunx" | "pnpx" => npx(words, next, &mut out),
            "npm" | "pnpm" | "yarn" | "bun"
                if words.get(next).is_some_and(|w| {
                    matches!(w.text.as_str(), "exec" | "x" | "dlx")
                        && (name != "npm" || w.text != "dlx")
                }) =>
            {
                npx(words, next + 1, &mut out)
            }
            "xargs" => {
                out.xargs = true;
                Some(skip_opts(words, next, XARGS_VALUE_OPTS))
            }
            "watch" => {
                let j = skip_opts(words, next, &["-n", "--interval", "-q", "--equexit"]);
                out.positions.push(i);
                out.script = Some(range(words, j, words.len()));
                return out;
            }
            "su" | "script" => match dash_c(words, next) {
                Some(at) => {
                    out.positions.push(i);
                    out.script = Some(range(words, at, at + 1));
                    return out;
                }
                None => {
                    out.program = Some(i);
                    out.positions.push(i);
                    return out;
                }
            },
            "runuser" => Some(skip_opts(
                words,
                next,
                &["-u", "-g", "-G", "--user", "--group"],
            )),
            _ => {
                out.program = Some(i);
                out.positions.push(i);
                return out;
            }
        };
        out.positions.push(i);
        match after {
            Some(j) => i = j,
            None => return out,
        }
    }
    out
}

const XARGS_VALUE_OPTS: &[&str] = &[
    "-I",
    "-L",
    "-n",
    "-P",
    "-d",
    "-E",
    "-s",
    "-a",
    "--arg-file",
    "--delimiter",
    "--max-args",
    "--max-procs",
    "--max-lines",
    "--max-chars",
    "--eof",
    "--process-slot-var",
];

fn range(words: &[Word], start: usize, end: usize) -> Range<usize> {
    let end = end.min(words.len());
    start.min(end)..end
}

/// `sudo`'s options: returns where the command starts, or `None` when it runs none.
fn sudo(words: &[Word], from: usize, out: &mut Unwrapped) -> Option<usize> {
    const LONG_VALUE: &[&str] = &[
        "--user",
        "--group",
        "--prompt",
        "--chdir",
        "--close-from",
        "--host",
        "--role",
        "--type",
        "--other-user",
        "--command-timeout",
        "--chroot",
    ];
    let mut j = from;
    let mut edit = false;
    while let Some(w) = words.get(j) {
        let arg = w.text.as_str();
        if arg == "--" {
            j += 1;
            break;
        }
        if !arg.starts_with('-') || arg == "-" {
            break;
        }
        j += 1;
        if let Some(long) = arg.strip_prefix("--") {
            match long {
                "stdin" | "askpass" => out.sudo_password = true,
                "edit" => edit = true,
                _ if LONG_VALUE.contains(&arg) => j += 1,
                _ => {}
            }
            continue;
        }
        let cluster: Vec<char> = arg.chars().skip(1).collect();
        for (k, c) in cluster.iter().enumerate() {
            match c {
                'S' | 'A' => out.sudo_password = true,
                'e' => edit = true,
                'u' | 'g' | 'C' | 'D' | 'h' | 'p' | 'r' | 't' | 'T' | 'U' | 'R' => {
                    if k + 1 == cluster.len() {
                        j += 1;
                    }
                    break;
                }
                _ => {}
            }
        }
    }
    if edit {
        out.edits = Some(j);
        return None;
    }
    Some(j)
}

/// `env [-i] [-u NAME] [-C DIR] [NAME=VALUE]… COMMAND`; `-S` hands its argument to a shell.
fn env(words: &[Word], from: usize, out: &mut Unwrapped) -> Option<usize> {
    let mut j = from;
    while let Some(w) = words.get(j) {
        match w.text.as_str() {
            "--" => return Some(j + 1),
            "-u" | "-C" | "--unset" | "--chdir" => j += 2,
            "-S" | "--split-string" => {
                out.script = Some(range(words, j + 1, words.len()));
                return None;
            }
            a if a.starts_with('-') => j += 1,
            a if is_assignment(a) => {
                out.assignments.push(j);
                j += 1;
            }
            _ => break,
        }
    }
    Some(j)
}

/// `npx [-y] [-p PKG] CMD …` (also `npm exec`, `pnpm dlx`, `bunx`): CMD runs; `-c '…'`
/// hands a string to a shell.
fn npx(words: &[Word], from: usize, out: &mut Unwrapped) -> Option<usize> {
    let mut j = from;
    while let Some(w) = words.get(j) {
        match w.text.as_str() {
            "--" => return Some(j + 1),
            "-p" | "--package" | "--registry" | "--cache" | "--prefix" => j += 2,
            "-c" | "--call" => {
                out.script = Some(range(words, j + 1, j + 2));
                return None;
            }
            a if a.starts_with('-') => j += 1,
            _ => break,
        }
    }
    Some(j)
}

/// The index of the argument of `-c` / `--command` (also in a cluster like `-qc`).
fn dash_c(words: &[Word], from: usize) -> Option<usize> {
    (from..words.len()).find_map(|j| {
        let arg = words[j].text.as_str();
        let is_c = arg == "--command"
            || (arg.starts_with('-') && !arg.starts_with("--") && arg.ends_with('c'));
        (is_c && j + 1 < words.len()).then_some(j + 1)
    })
}

/// Index of the first operand at or after `from`: skips `-x` options (and the value of
/// those in `with_value`) and a `--`.
pub(super) fn skip_opts(words: &[Word], from: usize, with_value: &[&str]) -> usize {
    let mut i = from;
    while let Some(w) = words.get(i) {
        let arg = w.text.as_str();
        if arg == "--" {
            return i + 1;
        }
        if !arg.starts_with('-') || arg == "-" {
            break;
        }
        i += if with_value.contains(&arg) { 2 } else { 1 };
    }
    i.min(words.len())
}

pub(super) fn is_assignment(word: &str) -> bool {
    word.split_once('=')
        .is_some_and(|(name, _)| is_name(name.strip_suffix('+').unwrap_or(name)))
}

#[cfg(test)]
#[path = "unwrap_tests.rs"]
mod tests;
