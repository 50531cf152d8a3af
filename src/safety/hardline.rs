//! The hardline list: shell commands hermes refuses in every mode, YOLO included.
//!
//! `check` splits a command line into simple commands (on `;`, `&&`, `||`, `|`, `&`, newlines,
//! subshell parentheses), looks inside `$(…)`, backticks, `bash -c '…'` and `eval`, tokenises
//! each simple command with `shlex`, strips wrappers (`sudo`, `env`, `nohup`, `time`, `exec`,
//! `nice`, `timeout`, …) and absolute program paths, and then matches a short list of
//! catastrophic patterns: recursive `rm` of `/`, the home directory or a top-level system
//! directory; `mkfs`; raw writes to disk devices; the fork bomb; `kill -1`; shutdown/reboot.
//!
//! It is not the approvals classifier (merely dangerous commands pass here) and it does not
//! evaluate variables or globs beyond `~`/`$HOME`. Invariant: quoted text passed as data (e.g.
//! `echo "rm -rf /"`) never matches; what the shell would execute is what is checked.

const ROOT: &str = "recursive delete of the filesystem root";
const SYSTEM_DIR: &str = "recursive delete of a top-level system directory";
const HOME: &str = "recursive delete of the home directory";
const MKFS: &str = "formatting a filesystem (mkfs)";
const DISK_WRITE: &str = "writing raw data to a disk device";
const FORK_BOMB: &str = "fork bomb";
const KILL_ALL: &str = "killing every process (kill -1)";
const POWER: &str = "shutting down or rebooting the machine";

const SYSTEM_DIRS: &[&str] = &[
    "bin", "boot", "dev", "etc", "home", "lib", "lib64", "proc", "root", "sbin", "sys", "usr",
    "var",
];
const DISK_PREFIXES: &[&str] = &["sd", "nvme", "vd", "hd", "xvd", "mmcblk"];
const SHELLS: &[&str] = &["bash", "sh", "zsh", "dash", "ksh"];
/// Shell words that may precede a command without changing what runs.
const KEYWORDS: &[&str] = &[
    "if", "then", "else", "elif", "fi", "do", "done", "while", "until", "!", "{", "}",
];
/// Nested `bash -c`/`eval`/substitutions deeper than this are not inspected further.
const MAX_DEPTH: usize = 6;

/// The reason `command` must never run, or `None` when it is not on the hardline list.
pub fn check(command: &str) -> Option<&'static str> {
    check_at(command, 0)
}

fn check_at(command: &str, depth: usize) -> Option<&'static str> {
    if depth > MAX_DEPTH {
        return None;
    }
    if is_fork_bomb(command) {
        return Some(FORK_BOMB);
    }
    let scan = scan(command);
    for inner in &scan.substitutions {
        if let Some(reason) = check_at(inner, depth + 1) {
            return Some(reason);
        }
    }
    scan.segments
        .iter()
        .find_map(|segment| check_segment(segment, depth))
}

/// `:(){ :|:& };:` and the same shape with any function name, after removing whitespace.
fn is_fork_bomb(command: &str) -> bool {
    let squeezed: String = command.chars().filter(|c| !c.is_whitespace()).collect();
    let mut search_from = 0;
    while let Some(found) = squeezed[search_from..].find("(){") {
        let at = search_from + found;
        let name_start = squeezed[..at]
            .rfind(|c: char| ";&|(){}\"'".contains(c))
            .map_or(0, |i| i + 1);
        let name = &squeezed[name_start..at];
        let body = &squeezed[at + 3..];
        if !name.is_empty() && body.starts_with(&format!("{name}|{name}&")) {
            return true;
        }
        search_from = at + 3;
    }
    false
}

/// A command line cut into simple commands, plus the text of command substitutions.
#[derive(Debug, Default)]
struct Scan {
    segments: Vec<String>,
    substitutions: Vec<String>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Quote {
    None,
    Single,
    Double,
}

/// Quote-aware split on control operators. Redirection operators are surrounded by spaces so
/// that `shlex` sees them as separate words; substitutions are replaced by a placeholder word.
fn scan(command: &str) -> Scan {
    let chars: Vec<char> = command.chars().collect();
    let mut scan = Scan::default();
    let mut current = String::new();
    let mut quote = Quote::None;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        match quote {
            Quote::Single => {
                current.push(c);
                if c == '\'' {
                    quote = Quote::None;
                }
            }
            Quote::Double | Quote::None if c == '\\' => {
                current.push(c);
                if let Some(n) = next {
                    current.push(n);
                    i += 1;
                }
            }
            Quote::Double | Quote::None if c == '`' => {
                let end = find_unescaped(&chars, i + 1, '`').unwrap_or(chars.len());
                scan.substitutions.push(chars[i + 1..end].iter().collect());
                current.push_str(" __subst__ ");
                i = end;
            }
            Quote::Double | Quote::None if c == '$' && next == Some('(') => {
                let end = matching_paren(&chars, i + 2);
                scan.substitutions
                    .push(chars[i + 2..end.min(chars.len())].iter().collect());
                current.push_str(if quote == Quote::None {
                    " __subst__ "
                } else {
                    "__subst__"
                });
                i = end;
            }
            Quote::Double => {
                current.push(c);
                if c == '"' {
                    quote = Quote::None;
                }
            }
            Quote::None => match c {
                '\'' => {
                    quote = Quote::Single;
                    current.push(c);
                }
                '"' => {
                    quote = Quote::Double;
                    current.push(c);
                }
                '$' if next == Some('{') => {
                    // `${HOME}`: keep the braces, they are not a group.
                    let end = find_unescaped(&chars, i + 2, '}').unwrap_or(chars.len() - 1);
                    current.extend(&chars[i..=end.min(chars.len() - 1)]);
                    i = end;
                }
                '#' if current.is_empty() || current.ends_with(char::is_whitespace) => {
                    // A comment runs to the end of the line and is not executed.
                    while i + 1 < chars.len() && chars[i + 1] != '\n' {
                        i += 1;
                    }
                }
                '>' => {
                    current.push_str(" > ");
                    if matches!(next, Some('>' | '|' | '&')) {
                        i += 1;
                    }
                }
                '&' if next == Some('>') => {
                    current.push_str(" > ");
                    i += 1;
                    if chars.get(i + 1) == Some(&'>') {
                        i += 1;
                    }
                }
                ';' | '&' | '|' | '\n' | '(' | ')' => {
                    scan.segments.push(std::mem::take(&mut current));
                }
                _ => current.push(c),
            },
        }
        i += 1;
    }
    scan.segments.push(current);
    scan.segments.retain(|s| !s.trim().is_empty());
    scan
}

fn find_unescaped(chars: &[char], from: usize, wanted: char) -> Option<usize> {
    let mut i = from;
    while i < chars.len() {
        if chars[i] == '\\' {
            i += 2;
            continue;
        }
        if chars[i] == wanted {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// Index of the `)` closing a `$(` whose body starts at `from` (or `chars.len()`).
fn matching_paren(chars: &[char], from: usize) -> usize {
    let mut depth = 1usize;
    let mut quote = Quote::None;
    let mut i = from;
    while i < chars.len() {
        let c = chars[i];
        match (quote, c) {
            (Quote::Single, '\'') | (Quote::Double, '"') => quote = Quote::None,
            (Quote::Single, _) => {}
            (_, '\\') => i += 1,
            (Quote::None, '\'') => quote = Quote::Single,
            (Quote::None, '"') => quote = Quote::Double,
            (Quote::None, '(') => depth += 1,
            (Quote::None, ')') => {
                depth -= 1;
                if depth == 0 {
                    return i;
                }
            }
            _ => {}
        }
        i += 1;
    }
    chars.len()
}

fn check_segment(segment: &str, depth: usize) -> Option<&'static str> {
    // An unbalanced quote makes shlex give up; whitespace words are a sound fallback here.
    let words = shlex::split(segment)
        .unwrap_or_else(|| segment.split_whitespace().map(str::to_string).collect());
    let mut args = Vec::with_capacity(words.len());
    let mut iter = words.into_iter();
    while let Some(word) = iter.next() {
        if word == ">" {
            if iter.next().is_some_and(is_disk_device) {
                return Some(DISK_WRITE);
            }
        } else {
            args.push(word);
        }
    }
    match strip_wrappers(&args)? {
        Unwrapped::Args(args) => check_simple(args, depth),
        Unwrapped::Script(script) => check_at(&script, depth + 1),
    }
}

/// What runs once wrappers are stripped: plain words, or a string the wrapper re-parses.
enum Unwrapped<'a> {
    Args(&'a [String]),
    Script(String),
}

/// Drop keywords, assignments and wrapper programs (`sudo`, `env`, `nice`, …).
fn strip_wrappers(args: &[String]) -> Option<Unwrapped<'_>> {
    let mut rest = args;
    loop {
        let first = rest.first()?;
        let prog = basename(first);
        let after = &rest[1..];
        rest = match prog {
            _ if KEYWORDS.contains(&first.as_str()) => after,
            _ if is_assignment(first) => after,
            "sudo" | "doas" => skip_options(
                after,
                &["-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-T", "-U"],
            ),
            "env" => match skip_env(after) {
                Unwrapped::Args(rest) => rest,
                script @ Unwrapped::Script(_) => return Some(script),
            },
            "nohup" | "builtin" | "command" | "setsid" | "time" => skip_options(after, &[]),
            "exec" => skip_options(after, &["-a"]),
            "nice" => skip_options(after, &["-n"]),
            "ionice" => skip_options(after, &["-c", "-n", "-p", "-P", "-u"]),
            "stdbuf" => skip_options(after, &["-i", "-o", "-e"]),
            "timeout" => {
                let rest = skip_options(after, &["-s", "-k"]);
                rest.get(1..).unwrap_or(&[])
            }
            _ => return Some(Unwrapped::Args(rest)),
        };
    }
}

fn check_simple(args: &[String], depth: usize) -> Option<&'static str> {
    let prog = basename(args.first()?);
    let rest = &args[1..];
    match prog {
        "rm" => check_rm(rest),
        "dd" => rest
            .iter()
            .filter_map(|a| a.strip_prefix("of="))
            .any(is_disk_device)
            .then_some(DISK_WRITE),
        _ if prog.starts_with("mkfs") || prog == "mke2fs" => Some(MKFS),
        "kill" => check_kill(rest),
        "shutdown" | "reboot" | "halt" | "poweroff" => Some(POWER),
        "init" | "telinit" => rest
            .first()
            .is_some_and(|a| a == "0" || a == "6")
            .then_some(POWER),
        "systemctl" => rest
            .iter()
            .find(|a| !a.starts_with('-'))
            .is_some_and(|verb| matches!(verb.as_str(), "poweroff" | "reboot" | "halt" | "kexec"))
            .then_some(POWER),
        "eval" => check_at(&rest.join(" "), depth + 1),
        _ if SHELLS.contains(&prog) => shell_c_script(rest).and_then(|s| check_at(s, depth + 1)),
        _ => None,
    }
}

/// The script of `bash -c 'script'` (also `-lc`, `-ec`, …).
fn shell_c_script(args: &[String]) -> Option<&str> {
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        if !arg.starts_with(['-', '+']) || arg == "--" {
            return None;
        }
        if arg == "-o" || arg == "+o" {
            iter.next();
        } else if !arg.starts_with("--") && arg.starts_with('-') && arg.contains('c') {
            return iter.next().map(String::as_str);
        }
    }
    None
}

fn check_rm(args: &[String]) -> Option<&'static str> {
    let mut recursive = false;
    let mut targets = Vec::new();
    let mut options_done = false;
    for arg in args {
        if options_done || !arg.starts_with('-') || arg == "-" {
            targets.push(arg.as_str());
        } else if arg == "--" {
            options_done = true;
        } else if arg == "--recursive" || (!arg.starts_with("--") && arg.contains(['r', 'R'])) {
            recursive = true;
        }
    }
    if !recursive {
        return None;
    }
    targets.into_iter().find_map(dangerous_target)
}

fn dangerous_target(target: &str) -> Option<&'static str> {
    for home in ["~", "$HOME", "${HOME}"] {
        let Some(rest) = target.strip_prefix(home) else {
            continue;
        };
        if rest.is_empty() || rest.starts_with('/') {
            let parts = normalize(rest);
            return (parts.is_empty() || parts == ["*"]).then_some(HOME);
        }
    }
    if !target.starts_with('/') {
        return None;
    }
    match normalize(target).as_slice() {
        [] | ["*"] => Some(ROOT),
        [dir] | [dir, "*"] if SYSTEM_DIRS.contains(dir) => Some(SYSTEM_DIR),
        _ => None,
    }
}

/// Components of an absolute path with empty parts and `.` removed and `..` applied (`..` at
/// the top stays at the top, as the kernel does for `/`).
fn normalize(path: &str) -> Vec<&str> {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            other => parts.push(other),
        }
    }
    parts
}

fn check_kill(args: &[String]) -> Option<&'static str> {
    let mut pids = Vec::new();
    let mut signal_seen = false;
    let mut options_done = false;
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        if options_done || !arg.starts_with('-') {
            pids.push(arg.as_str());
        } else if arg == "--" {
            options_done = true;
        } else if arg == "-l" || arg == "-L" {
            return None;
        } else if arg == "-s" || arg == "-n" {
            iter.next();
            signal_seen = true;
        } else if !signal_seen {
            // The first dash word is the signal (`kill -9 …`, and a lone `kill -1`).
            signal_seen = true;
            if arg == "-1" && args.len() == 1 {
                return Some(KILL_ALL);
            }
        } else {
            pids.push(arg.as_str());
        }
    }
    pids.contains(&"-1").then_some(KILL_ALL)
}

fn skip_options<'a>(args: &'a [String], with_value: &[&str]) -> &'a [String] {
    let mut i = 0;
    while let Some(arg) = args.get(i) {
        if arg == "--" {
            return &args[i + 1..];
        }
        if !arg.starts_with('-') || arg == "-" {
            break;
        }
        i += if with_value.contains(&arg.as_str()) {
            2
        } else {
            1
        };
    }
    args.get(i..).unwrap_or(&[])
}

/// `env [-i] [-u NAME] [-C DIR] [NAME=VALUE]… COMMAND`; `-S` splits its argument into words.
fn skip_env(args: &[String]) -> Unwrapped<'_> {
    let mut i = 0;
    while let Some(arg) = args.get(i) {
        match arg.as_str() {
            "--" => return Unwrapped::Args(args.get(i + 1..).unwrap_or(&[])),
            "-u" | "-C" | "--unset" | "--chdir" => i += 2,
            "-S" | "--split-string" => {
                return Unwrapped::Script(args.get(i + 1..).unwrap_or(&[]).join(" "));
            }
            a if a.starts_with('-') || is_assignment(a) => i += 1,
            _ => break,
        }
    }
    Unwrapped::Args(args.get(i..).unwrap_or(&[]))
}

fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty()
            && !name.starts_with(|c: char| c.is_ascii_digit())
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

fn basename(word: &str) -> &str {
    word.rsplit('/').next().unwrap_or(word)
}

fn is_disk_device(path: impl AsRef<str>) -> bool {
    path.as_ref()
        .strip_prefix("/dev/")
        .is_some_and(|dev| DISK_PREFIXES.iter().any(|p| dev.starts_with(p)))
}

#[cfg(test)]
#[path = "hardline_tests.rs"]
mod tests;
