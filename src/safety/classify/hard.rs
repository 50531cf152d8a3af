//! The hardline tier (blocked in every mode) and `rm`, whose tiers are decided together.
//!
//! Hardline: recursive `rm` (and `rimraf`, `rsync --delete` into the place) of `/`, a
//! top-level system directory or the home directory (after `~`/`$HOME` expansion, `..`
//! collapsing and any `cd` earlier on the line); `mkfs`; `dd of=`, `cp`, `tee`, `shred` or a
//! redirection onto a disk device; `kill -1`, `kill 1`, `killall5`;
//! shutdown/reboot/halt/poweroff, `init|telinit 0|6`, `systemctl poweroff|reboot|suspend|…`,
//! writes to `/proc/sysrq-trigger` and `/sys/power/state`. Disk and other power tools are in
//! `machine`; the fork bomb is found by `parse`. Any other recursive `rm` is dangerous
//! (`recursive_rm`), any other `rsync --delete` is `rsync_delete`. It does not
//! expand globs other than a trailing `*` / `.*`, nor variables other than HOME.
//! Invariant: every hardline key has a static reason in `reason_for_key`.

use super::cx::{Cx, Sink, components, is_disk_device};
use super::opts::scan;
use super::words::Word;
use super::{keys, machine};

const ROOT: &str = "recursive delete of the filesystem root";
const SYSTEM_DIR: &str = "recursive delete of a top-level system directory";
const HOME: &str = "recursive delete of the home directory";
const MKFS: &str = "formatting a filesystem (mkfs)";
const DISK_WRITE: &str = "writing raw data to a disk device";
const FORK_BOMB: &str = "fork bomb";
const KILL_ALL: &str = "killing every process or init (kill -1, kill 1, killall5)";
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
        _ if prog == "rimraf" || prog.starts_with("rimraf@") => {
            // rimraf is `rm -r` as an npm package (`npx rimraf dist`).
            let mut with_r = vec![Word::plain("-r")];
            with_r.extend(args.iter().cloned());
            rm(&with_r, cx, sink);
        }
        "rsync" => rsync(args, cx, sink),
        "kill" => kill(args, sink),
        "killall5" if !asks_for_help => {
            sink.hardline(keys::KILL_ALL, format!("{KILL_ALL}: killall5"));
        }
        _ if asks_for_help => {}
        "shutdown" if !args.iter().any(|a| a.text == "-c" || a.text == "-k") => power(sink, prog),
        "reboot" | "halt" | "poweroff" => power(sink, prog),
        "init" | "telinit" if args.first().is_some_and(|a| a.text == "0" || a.text == "6") => {
            power(sink, prog);
        }
        "systemctl" => {
            const VERBS: &[&str] = &[
                "poweroff",
                "reboot",
                "halt",
                "kexec",
                "soft-reboot",
                "suspend",
                "hibernate",
                "hybrid-sleep",
                "suspend-then-hibernate",
                "sleep",
                "rescue",
                "emergency",
            ];
            let verb = args.iter().find(|a| !a.text.starts_with('-'));
            if verb.is_some_and(|v| VERBS.contains(&v.text.as_str())) {
                power(sink, prog);
            }
        }
        _ => machine::check(prog, args, sink),
    }
}

fn power(sink: &mut Sink, prog: &str) {
    sink.hardline(keys::POWER, format!("{POWER}: {prog}"));
}

/// A path something writes to: hardline when it is a disk device or the sysrq trigger.
pub(super) fn written_path(path: &str, sink: &mut Sink) {
    if is_disk_device(path) {
        sink.hardline(keys::DISK_WRITE, format!("{DISK_WRITE}: {path}"));
    } else if path == "/proc/sysrq-trigger" || path == "/sys/power/state" {
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

/// `kill` of every process (`-1`) or of init (pid 1); signal 0 only tests for the process.
fn kill(args: &[Word], sink: &mut Sink) {
    let Some((signal, pids)) = kill_args(args) else {
        return;
    };
    if signal.trim_start_matches("SIG") == "0" {
        return;
    }
    if pids.contains(&"-1") {
        sink.hardline(keys::KILL_ALL, KILL_ALL.to_string());
    } else if pids.contains(&"1") {
        sink.hardline(keys::KILL_ALL, format!("{KILL_ALL}: pid 1 (init)"));
    }
}

/// The signal and the pids of a `kill` (`None` for `kill -l`, which only lists signals).
pub(super) fn kill_args(args: &[Word]) -> Option<(String, Vec<&str>)> {
    let mut pids = Vec::new();
    let mut signal = None;
    let mut options_done = false;
    let mut iter = args.iter().map(|a| a.text.as_str());
    while let Some(arg) = iter.next() {
        if options_done || !arg.starts_with('-') {
            pids.push(arg);
        } else if arg == "--" {
            options_done = true;
        } else if arg == "-l" || arg == "-L" {
            return None;
        } else if arg == "-s" || arg == "-n" {
            signal = iter.next().map(str::to_string);
        } else if signal.is_none() {
            // The first dash word is the signal (`kill -9 …`), except a lone `kill -1`.
            if arg == "-1" && args.len() == 1 {
                return Some(("TERM".to_string(), vec!["-1"]));
            }
            signal = Some(arg[1..].to_string());
        } else {
            pids.push(arg);
        }
    }
    Some((signal.unwrap_or_else(|| "TERM".to_string()), pids))
}

/// `rsync --delete` removes what the source lacks from the destination: tiered like
/// `rm -r` of where the deletion happens (the destination itself when the source ends in
/// `/`, else `DEST/name`). A dry run (`-n`) deletes nothing.
fn rsync(args: &[Word], cx: &Cx, sink: &mut Sink) {
    let s = scan(
        args,
        "efTB",
        &[
            "--rsh",
            "--exclude",
            "--include",
            "--filter",
            "--temp-dir",
            "--rsync-path",
            "--backup-dir",
            "--partial-dir",
            "--files-from",
            "--exclude-from",
            "--include-from",
            "--password-file",
            "--log-file",
            "--block-size",
        ],
    );
    let removes_sources = s.long.contains(&"--remove-source-files");
    let deletes = s
        .long
        .iter()
        .any(|l| *l == "--del" || l.starts_with("--delete"));
    if s.has('n', "--dry-run") || !(deletes || removes_sources) {
        return;
    }
    if let (true, Some((dest, sources))) = (deletes, s.operands.split_last()) {
        for source in sources {
            let src = source.text.as_str();
            let contents = src.ends_with('/') || src.ends_with("/.") || src == ".";
            let name = src.trim_end_matches('/').rsplit('/').next().unwrap_or("");
            let target = if contents || name.is_empty() {
                (*dest).clone()
            } else {
                Word {
                    text: format!("{}/{name}", dest.text.trim_end_matches('/')),
                    ..(*dest).clone()
                }
            };
            if let Some(path) = cx.resolve(&target)
                && let Some((key, reason)) = hardline_target(&path, &cx.expand.home)
            {
                sink.hardline(
                    key,
                    format!("{reason} (rsync --delete into {})", cx.display(&path)),
                );
                return;
            }
        }
    }
    sink.dangerous(
        keys::RSYNC_DELETE,
        if deletes {
            "rsync --delete removes files from the destination".to_string()
        } else {
            "rsync --remove-source-files deletes the copied sources".to_string()
        },
    );
}
