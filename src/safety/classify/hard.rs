//! The hardline tier (blocked in every mode) and `rm`, whose tiers are decided together.
//!
//! Hardline: recursive `rm` of `/`, a top-level system directory or the home directory
//! (after `~`/`$HOME` expansion, `..` collapsing and any `cd` earlier on the line); `mkfs`;
//! `dd of=`, `cp`, `tee`, `shred`, `wipefs`, `blkdiscard` or a redirection onto a disk
//! device; `kill -1`; shutdown/reboot/halt/poweroff, `init|telinit 0|6`,
//! `systemctl poweroff|reboot|halt|kexec`, writes to `/proc/sysrq-trigger`. The fork bomb is
//! found by `parse`. Any other recursive `rm` is dangerous (`recursive_rm`). It does not
//! expand globs other than a trailing `*` / `.*`, nor variables other than HOME.
//! Invariant: every hardline key has a static reason in `reason_for_key`.

use super::cx::{Cx, Sink, components, is_disk_device};
use super::keys;
use super::words::Word;

const ROOT: &str = "recursive delete of the filesystem root";
const SYSTEM_DIR: &str = "recursive delete of a top-level system directory";
const HOME: &str = "recursive delete of the home directory";
const MKFS: &str = "formatting a filesystem (mkfs)";
const DISK_WRITE: &str = "writing raw data to a disk device";
const FORK_BOMB: &str = "fork bomb";
const KILL_ALL: &str = "killing every process (kill -1)";
const POWER: &str = "shutting down or rebooting the machine";

/// Top-level directories whose recursive deletion is hardline.
const SYSTEM_DIRS: &[&str] = &[
    "bin",
    "boot",
    "dev",
    "etc",
    "home",
    "lib",
    "lib32",
    "lib64",
    "libx32",
    "media",
    "mnt",
    "opt",
    "proc",
    "root",
    "run",
    "sbin",
    "snap",
    "srv",
    "sys",
    "usr",
    "var",
    "Applications",
    "Library",
    "System",
    "Users",
    "Volumes",
    "private",
];

/// The fixed human reason of a hardline key (`""` for other keys).
pub fn reason_for_key(key: &str) -> &'static str {
    match key {
        keys::RM_ROOT => ROOT,
        keys::RM_SYSTEM_DIR => SYSTEM_DIR,
        keys::RM_HOME => HOME,
        keys::MKFS => MKFS,
        keys::DISK_WRITE => DISK_WRITE,
        keys::FORK_BOMB => FORK_BOMB,
        keys::KILL_ALL => KILL_ALL,
        keys::POWER => POWER,
        _ => "",
    }
}

pub(super) fn fork_bomb(sink: &mut Sink) {
    sink.hardline(keys::FORK_BOMB, FORK_BOMB.to_string());
}

/// Hardline checks on one simple command (program basename and its arguments).
pub(super) fn check(prog: &str, args: &[Word], cx: &Cx, sink: &mut Sink) {
    let asks_for_help = args
        .iter()
        .any(|a| a.text == "--help" || a.text == "--version");
    match prog {
        "rm" => rm(args, cx, sink),
        _ if prog.starts_with("mkfs") || prog == "mke2fs" => {
            sink.hardline(keys::MKFS, format!("{MKFS}: {prog}"));
        }
        "wipefs" | "blkdiscard" | "sgdisk" => {
            if let Some(dev) = args.iter().find(|a| is_disk_device(&a.text)) {
                sink.hardline(
                    keys::DISK_WRITE,
                    format!("{DISK_WRITE}: {prog} {}", dev.text),
                );
            }
        }
        "kill" if kills_all(args) => sink.hardline(keys::KILL_ALL, KILL_ALL.to_string()),
        _ if asks_for_help => {}
        "shutdown" if !args.iter().any(|a| a.text == "-c" || a.text == "-k") => power(sink, prog),
        "reboot" | "halt" | "poweroff" => power(sink, prog),
        "init" | "telinit" if args.first().is_some_and(|a| a.text == "0" || a.text == "6") => {
            power(sink, prog);
        }
        "systemctl" => {
            let verb = args.iter().find(|a| !a.text.starts_with('-'));
            if verb.is_some_and(|v| {
                matches!(v.text.as_str(), "poweroff" | "reboot" | "halt" | "kexec")
            }) {
                power(sink, prog);
            }
        }
        _ => {}
    }
}

fn power(sink: &mut Sink, prog: &str) {
    sink.hardline(keys::POWER, format!("{POWER}: {prog}"));
}

/// A path something writes to: hardline when it is a disk device or the sysrq trigger.
pub(super) fn written_path(path: &str, sink: &mut Sink) {
    if is_disk_device(path) {
        sink.hardline(keys::DISK_WRITE, format!("{DISK_WRITE}: {path}"));
    } else if path == "/proc/sysrq-trigger" {
        sink.hardline(keys::POWER, format!("{POWER}: write to {path}"));
    }
}

fn rm(args: &[Word], cx: &Cx, sink: &mut Sink) {
    let mut recursive = false;
    let mut targets = Vec::new();
    let mut options_done = false;
    for arg in args {
        let text = arg.text.as_str();
        if options_done || !text.starts_with('-') || text == "-" {
            targets.push(arg);
        } else if text == "--" {
            options_done = true;
        } else if text == "--recursive" || (!text.starts_with("--") && text.contains(['r', 'R'])) {
            recursive = true;
        }
    }
    if !recursive {
        return;
    }
    let mut hardline = false;
    for target in &targets {
        let Some(path) = cx.resolve(target) else {
            continue;
        };
        if let Some((key, reason)) = hardline_target(&path, &cx.expand.home) {
            sink.hardline(key, format!("{reason} ({})", cx.display(&path)));
            hardline = true;
        }
    }
    if hardline {
        return;
    }
    let shown: Vec<String> = targets
        .iter()
        .map(|t| match cx.resolve(t) {
            Some(path) if t.text.starts_with('/') || t.text.starts_with(&cx.expand.home) => {
                cx.display(&path)
            }
            _ => t.text.clone(),
        })
        .collect();
    let what = if shown.is_empty() {
        "files given by the caller".to_string()
    } else {
        shown.join(" ")
    };
    sink.dangerous(keys::RECURSIVE_RM, format!("recursive delete of {what}"));
}

/// Whether deleting `path` (absolute, normalised) recursively is hardline.
pub(super) fn hardline_target(path: &str, home: &str) -> Option<(&'static str, &'static str)> {
    let parts = components(path);
    let home_parts = components(home);
    let everything = |rest: &[&str]| match rest {
        [] => true,
        [glob] => glob.contains('*') && glob.chars().all(|c| "*?[]!.".contains(c)),
        _ => false,
    };
    if !home_parts.is_empty()
        && parts.starts_with(&home_parts)
        && everything(&parts[home_parts.len()..])
    {
        return Some((keys::RM_HOME, HOME));
    }
    match parts.as_slice() {
        rest if everything(rest) => Some((keys::RM_ROOT, ROOT)),
        [dir, rest @ ..] if SYSTEM_DIRS.contains(dir) && everything(rest) => {
            Some((keys::RM_SYSTEM_DIR, SYSTEM_DIR))
        }
        _ => None,
    }
}

fn kills_all(args: &[Word]) -> bool {
    let mut pids = Vec::new();
    let mut signal_seen = false;
    let mut options_done = false;
    let mut iter = args.iter().map(|a| a.text.as_str());
    while let Some(arg) = iter.next() {
        if options_done || !arg.starts_with('-') {
            pids.push(arg);
        } else if arg == "--" {
            options_done = true;
        } else if arg == "-l" || arg == "-L" {
            return false;
        } else if arg == "-s" || arg == "-n" {
            iter.next();
            signal_seen = true;
        } else if !signal_seen {
            // The first dash word is the signal (`kill -9 …`), except a lone `kill -1`.
            signal_seen = true;
            if arg == "-1" && args.len() == 1 {
                return true;
            }
        } else {
            pids.push(arg);
        }
    }
    pids.contains(&"-1")
}
