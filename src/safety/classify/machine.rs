//! Hardline checks for what takes the whole machine down: disk tools and power requests.
//!
//! Disks: `wipefs -a|-o` (not with `-n`), `blkdiscard`, `sgdisk` (not print/verify/pretend runs),
//! `sfdisk` (not list/dump/verify runs), `parted DEVICE mklabel|mktable|rm|mkpart|
//! resizepart|mkfs|move`, `mkswap`/`newfs*` aimed at a disk device; `cryptsetup luksFormat|
//! erase|luksErase` and `diskutil eraseDisk|zeroDisk|…` on any target, like `mkfs`. Power:
//! `loginctl poweroff|reboot|halt|suspend|hibernate|…`, `rtcwake -m off|mem|disk|…`,
//! `pm-suspend`/`pm-hibernate`, and `dbus-send`/`busctl`/`gdbus`/`qdbus` calls of logind's or
//! systemd's `PowerOff`/`Reboot`/`Halt`/`Suspend`/`Hibernate`/… methods. Read-only runs
//! (`parted -l`, `sfdisk -d`, `wipefs /dev/sda`, `loginctl list-sessions`, `busctl … CanPowerOff`) are
//! benign. It does not follow interactive partitioners (`fdisk`, `gdisk`, `cfdisk`) fed on stdin.
//! Invariant: a disk finding needs a disk-device operand unless the tool formats whatever it is
//! given.

use super::cx::{Sink, is_disk_device};
use super::keys;
use super::opts::scan;
use super::words::Word;

const DISK_WRITE: &str = "writing raw data to a disk device";
const FORMAT: &str = "formatting a filesystem or encrypted volume";
const POWER: &str = "shutting down or rebooting the machine";

/// logind / systemd manager methods that power off, reboot or suspend.
const POWER_METHODS: &[&str] = &[
    "PowerOff",
    "Reboot",
    "Halt",
    "KExec",
    "SoftReboot",
    "Suspend",
    "Hibernate",
    "HybridSleep",
    "SuspendThenHibernate",
    "Sleep",
];

pub(super) fn check(prog: &str, args: &[Word], sink: &mut Sink) {
    let device = args.iter().find(|a| is_disk_device(&a.text));
    let on_device = |sink: &mut Sink, dev: &Word| {
        sink.hardline(
            keys::DISK_WRITE,
            format!("{DISK_WRITE}: {prog} {}", dev.text),
        );
    };
    match prog {
        "wipefs" => {
            let s = scan(
                args,
                "otOp",
                &["--offset", "--types", "--output", "--backup"],
            );
            let erases = s.has('a', "--all") || s.has('o', "--offset");
            if let Some(dev) = device.filter(|_| erases && !s.has('n', "--no-act")) {
                on_device(sink, dev);
            }
        }
        "blkdiscard" => {
            if let Some(dev) = device {
                on_device(sink, dev);
            }
        }
        "sgdisk" | "sfdisk" => {
            if let Some(dev) = device.filter(|_| !partition_read_only(prog, args)) {
                on_device(sink, dev);
            }
        }
        "parted" => {
            const EDITS: &[&str] = &[
                "mklabel",
                "mktable",
                "rm",
                "mkpart",
                "mkpartfs",
                "resizepart",
                "resize",
                "mkfs",
                "move",
            ];
            let s = scan(args, "a", &["--align"]);
            let edits = s
                .operands
                .iter()
                .flat_map(|w| w.text.split_whitespace())
                .any(|t| EDITS.contains(&t.to_ascii_lowercase().as_str()));
            if let Some(dev) = device.filter(|_| edits && !s.has('l', "--list")) {
                on_device(sink, dev);
            }
        }
        "mkswap" => {
            if let Some(dev) = device {
                sink.hardline(keys::MKFS, format!("{FORMAT}: mkswap {}", dev.text));
            }
        }
        _ if prog.starts_with("newfs") => {
            if let Some(dev) = device {
                sink.hardline(keys::MKFS, format!("{FORMAT}: {prog} {}", dev.text));
            }
        }
        "cryptsetup" => {
            let verb = verb_in(args, &["luksFormat", "erase", "luksErase"]);
            match verb.as_deref() {
                Some("luksformat") => {
                    sink.hardline(keys::MKFS, format!("{FORMAT}: cryptsetup luksFormat"));
                }
                Some(_) => sink.hardline(
                    keys::DISK_WRITE,
                    "erasing the key slots of an encrypted volume (cryptsetup erase)".to_string(),
                ),
                None => {}
            }
        }
        "diskutil" => {
            const ERASE: &[&str] = &[
                "eraseDisk",
                "eraseVolume",
                "zeroDisk",
                "randomDisk",
                "secureErase",
                "reformat",
                "partitionDisk",
                "deleteContainer",
                "deleteVolume",
            ];
            if let Some(verb) = verb_in(args, ERASE) {
                sink.hardline(keys::MKFS, format!("{FORMAT}: diskutil {verb}"));
            }
        }
        _ => power(prog, args, sink),
    }
}

fn power(prog: &str, args: &[Word], sink: &mut Sink) {
    let reason = match prog {
        "loginctl" => {
            const VERBS: &[&str] = &[
                "poweroff",
                "reboot",
                "halt",
                "kexec",
                "suspend",
                "hibernate",
                "hybrid-sleep",
                "suspend-then-hibernate",
                "sleep",
            ];
            let s = scan(args, "HMpPsn", &["--host", "--machine", "--property"]);
            s.operands
                .first()
                .filter(|v| VERBS.contains(&v.text.as_str()))
                .map(|v| format!("loginctl {}", v.text))
        }
        "rtcwake" => {
            let mode = args.iter().enumerate().find_map(|(k, a)| {
                let t = a.text.as_str();
                match t {
                    "-m" | "--mode" => args.get(k + 1).map(|v| v.text.clone()),
                    _ => t
                        .strip_prefix("--mode=")
                        .or_else(|| t.strip_prefix("-m").filter(|v| !v.is_empty()))
                        .map(str::to_string),
                }
            });
            mode.filter(|m| ["off", "disk", "mem", "standby", "freeze"].contains(&m.as_str()))
                .map(|m| format!("rtcwake -m {m}"))
        }
        "pm-suspend" | "pm-hibernate" | "pm-suspend-hybrid" => Some(prog.to_string()),
        "dbus-send" | "busctl" | "gdbus" | "qdbus" | "qdbus6" => dbus_power(args),
        _ => None,
    };
    if let Some(what) = reason {
        sink.hardline(keys::POWER, format!("{POWER}: {what}"));
    }
}

/// A D-Bus call of a logind or systemd manager power method.
fn dbus_power(args: &[Word]) -> Option<String> {
    let texts: Vec<&str> = args.iter().map(|a| a.text.as_str()).collect();
    let manager = texts.iter().any(|t| {
        let t = t.to_ascii_lowercase();
        t.contains("org.freedesktop.login1") || t.contains("org.freedesktop.systemd1")
    });
    if !manager {
        return None;
    }
    texts.iter().find_map(|t| {
        let method = t.rsplit(['.', '=']).next().unwrap_or("");
        let method = method.strip_suffix("WithFlags").unwrap_or(method);
        POWER_METHODS
            .contains(&method)
            .then(|| format!("D-Bus {method}"))
    })
}

/// sgdisk/sfdisk runs that only print, verify or pretend.
fn partition_read_only(prog: &str, args: &[Word]) -> bool {
    let options: Vec<&str> = args
        .iter()
        .map(|a| a.text.as_str())
        .filter(|t| t.starts_with('-'))
        .collect();
    let (read_only, dry): (&[&str], &[&str]) = if prog == "sgdisk" {
        (
            &[
                "-p",
                "--print",
                "-v",
                "--verify",
                "-O",
                "--print-mbr",
                "-L",
                "--list-types",
            ],
            &["-P", "--pretend"],
        )
    } else {
        (
            &[
                "-l",
                "--list",
                "-d",
                "--dump",
                "-J",
                "--json",
                "-s",
                "--show-size",
                "-V",
                "--verify",
                "-g",
                "--show-geometry",
                "-F",
                "--list-free",
                "-T",
                "--list-types",
            ],
            &["-n", "--no-act"],
        )
    };
    let info = |t: &&str| t.starts_with("-i") || t.starts_with("--info");
    if options.iter().any(|t| dry.contains(t)) {
        return true;
    }
    if prog == "sfdisk" {
        // `--part-type DEV N` prints; with a value it changes the partition.
        let part_query = ["--part-type", "--part-label", "--part-uuid", "--part-attrs"];
        let operands = args.iter().filter(|a| !a.text.starts_with('-')).count();
        if options.iter().any(|t| part_query.contains(t)) && operands < 3 {
            return true;
        }
    }
    !options.is_empty() && options.iter().all(|t| read_only.contains(t) || info(t))
}

/// The first argument that is one of `verbs` (ASCII case-insensitive), lowercased.
fn verb_in(args: &[Word], verbs: &[&str]) -> Option<String> {
    args.iter()
        .map(|a| a.text.to_ascii_lowercase())
        .find(|t| verbs.iter().any(|v| v.eq_ignore_ascii_case(t)))
}
