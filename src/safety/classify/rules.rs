//! Program-specific dangerous families (need approval, never hardline).
//!
//! `chmod` world-writable modes and recursive permission changes of system directories (and
//! the same through `setfacl -m o::w` / `setfacl -R`), `chown -R root`, `dd`, git (in `git`),
//! stopping services (`systemctl`, `service`, `launchctl`), `pkill -9` / `killall -9|-KILL|-r`,
//! killing hermes itself (also `kill $PPID`), stopping containers, `hermes` commands that
//! change its own approval settings or stop/update it, `crontab` installs/removals, and
//! `find -delete` (the `-exec` commands of `find` are returned by `find_exec` for the walker
//! to classify). It does not look at what a command writes (`writes`), inline code or SQL
//! (`code`). Invariant: rules only read the words; a rule that cannot tell stays silent.

use super::cx::{Cx, Sink};
use super::git;
use super::hard::hardline_target;
use super::keys;
use super::opts::scan;
use super::words::{Word, basename};

/// `hermes config set KEY` prefixes that are approval/safety settings.
const PROTECTED_CONFIG: &[&str] = &[
    "approvals",
    "command_allowlist",
    "security",
    "hooks",
    "hooks_auto_accept",
    "checkpoints",
];

pub(super) fn check(prog: &str, args: &[Word], cx: &Cx, sink: &mut Sink) {
    match prog {
        "chmod" => chmod(args, cx, sink),
        "chown" => chown(args, cx, sink),
        "dd" if args
            .iter()
            .any(|a| a.text.starts_with("if=") || a.text.starts_with("of=")) =>
        {
            sink.dangerous(keys::DD, "raw copy with dd".to_string());
        }
        "git" => git::check(args, sink),
        "systemctl" => {
            let s = scan(
                args,
                "HMpsnt",
                &["--host", "--machine", "--property", "--signal"],
            );
            if let Some(verb) = s.operands.first() {
                let stops = [
                    "stop",
                    "restart",
                    "disable",
                    "mask",
                    "kill",
                    "isolate",
                    "try-restart",
                ];
                if stops.contains(&verb.text.as_str()) {
                    let unit = s.operands.get(1).map_or("", |u| u.text.as_str());
                    sink.dangerous(
                        keys::SERVICE_STOP,
                        format!("systemctl {} {unit}", verb.text),
                    );
                }
            }
        }
        "service" | "rc-service" => {
            if let Some(action) = args.get(1)
                && ["stop", "restart", "force-reload", "zap"].contains(&action.text.as_str())
            {
                let unit = &args[0].text;
                sink.dangerous(
                    keys::SERVICE_STOP,
                    format!("service {unit} {}", action.text),
                );
            }
        }
        "launchctl" => {
            let verb = args.first().map_or("", |a| a.text.as_str());
            if ["stop", "unload", "bootout", "kill", "remove"].contains(&verb) {
                sink.dangerous(keys::SERVICE_STOP, format!("launchctl {verb}"));
            }
        }
        "pkill" | "killall" => kill_by_name(prog, args, sink),
        "kill" if args.iter().any(|a| names_hermes(&a.text)) => {
            sink.dangerous(keys::KILL_HERMES, "kills hermes itself".to_string());
        }
        // The shell's parent is hermes.
        "kill"
            if args
                .iter()
                .any(|a| a.text == "$PPID" || a.text == "${PPID}") =>
        {
            sink.dangerous(
                keys::KILL_HERMES,
                "kills the shell's parent (hermes itself)".to_string(),
            );
        }
        "setfacl" => setfacl(args, cx, sink),
        "docker" | "podman" | "docker-compose" | "podman-compose" => docker(prog, args, sink),
        "hermes" => hermes(args, sink),
        "crontab" => {
            let s = scan(args, "u", &[]);
            if s.short.contains('r') {
                sink.dangerous(keys::CRONTAB, "removes the user's crontab".to_string());
            } else if s.short.contains('e') || !s.operands.is_empty() {
                sink.dangerous(keys::CRONTAB, "installs or edits a crontab".to_string());
            }
        }
        "find" if args.iter().any(|a| a.text == "-delete") => {
            sink.dangerous(keys::FIND_DELETE, "find -delete".to_string());
        }
        _ => {}
    }
}

fn chmod(args: &[Word], cx: &Cx, sink: &mut Sink) {
    // `-w`/`-x`/`-rwx` are modes, not options: only `-R -v -c -f` clusters are options.
    let is_option = |t: &str| {
        t.starts_with("--")
            || t.strip_prefix('-')
                .is_some_and(|rest| !rest.is_empty() && rest.chars().all(|c| "Rvcf".contains(c)))
    };
    let recursive = args
        .iter()
        .any(|a| a.text == "--recursive" || (is_option(&a.text) && a.text[1..].contains('R')));
    let operands: Vec<&Word> = args
        .iter()
        .filter(|a| !a.text.starts_with('-') || !is_option(&a.text))
        .collect();
    let Some((mode, targets)) = operands.split_first() else {
        return;
    };
    if world_writable(&mode.text) {
        let what: Vec<String> = targets.iter().map(|t| shown(t, cx)).collect();
        sink.dangerous(
            keys::CHMOD_WORLD_WRITABLE,
            format!(
                "chmod {} makes {} writable by everyone",
                mode.text,
                what.join(" ")
            ),
        );
    }
    if recursive {
        recursive_system(&format!("chmod -R {}", mode.text), targets, cx, sink);
    }
}

fn chown(args: &[Word], cx: &Cx, sink: &mut Sink) {
    let s = scan(args, "", &["--from", "--reference"]);
    let recursive = s.has('R', "--recursive");
    let Some((owner, targets)) = s.operands.split_first() else {
        return;
    };
    let user = owner.text.split([':', '.']).next().unwrap_or("");
    if recursive && (user == "root" || user == "0") {
        sink.dangerous(
            keys::CHOWN_RECURSIVE_ROOT,
            format!(
                "chown -R {} (recursive change of owner to root)",
                owner.text
            ),
        );
    }
    if recursive {
        recursive_system(&format!("chown -R {}", owner.text), targets, cx, sink);
    }
}

/// `setfacl -m o::rwx` gives others write like `chmod o+w`; `setfacl -R` of a system
/// directory or the home is like `chmod -R`.
fn setfacl(args: &[Word], cx: &Cx, sink: &mut Sink) {
    let s = scan(
        args,
        "mMxX",
        &[
            "--modify",
            "--modify-file",
            "--remove",
            "--remove-file",
            "--set",
            "--set-file",
        ],
    );
    let entries: Vec<&str> = args
        .windows(2)
        .filter(|p| matches!(p[0].text.as_str(), "-m" | "--modify" | "--set"))
        .map(|p| p[1].text.as_str())
        .chain(args.iter().filter_map(|a| {
            let t = a.text.as_str();
            t.strip_prefix("--modify=")
                .or_else(|| t.strip_prefix("--set="))
                .or_else(|| t.strip_prefix("-m").filter(|v| !v.is_empty()))
        }))
        .collect();
    let others_write = entries.iter().flat_map(|e| e.split(',')).any(|entry| {
        let parts: Vec<&str> = entry.trim().split(':').collect();
        let (tag, perms) = (parts[0], parts.last().copied().unwrap_or(""));
        matches!(tag, "o" | "other") && parts.len() > 1 && perms.contains('w')
    });
    let targets: Vec<&Word> = s.operands.clone();
    if others_write {
        let what: Vec<String> = targets.iter().map(|t| shown(t, cx)).collect();
        sink.dangerous(
            keys::CHMOD_WORLD_WRITABLE,
            format!("setfacl makes {} writable by everyone", what.join(" ")),
        );
    }
    if s.has('R', "--recursive") {
        recursive_system("setfacl -R", &targets, cx, sink);
    }
}

fn recursive_system(what: &str, targets: &[&Word], cx: &Cx, sink: &mut Sink) {
    for target in targets {
        let Some(path) = cx.resolve(target) else {
            continue;
        };
        if hardline_target(&path, &cx.expand.home).is_some() {
            sink.dangerous(
                keys::RECURSIVE_PERMS_SYSTEM,
                format!("{what} of {}", cx.display(&path)),
            );
        }
    }
}

/// Whether a chmod mode gives write permission to "others".
pub(super) fn world_writable(mode: &str) -> bool {
    if !mode.is_empty() && mode.chars().all(|c| c.is_digit(8)) {
        return u32::from_str_radix(mode, 8).is_ok_and(|m| m & 0o002 != 0);
    }
    mode.split(',').any(|clause| {
        let who: String = clause.chars().take_while(|c| "ugoa".contains(*c)).collect();
        let everyone = who.contains('o') || who.contains('a');
        let mut op = ' ';
        clause[who.len()..].chars().any(|c| {
            if "+-=".contains(c) {
                op = c;
                false
            } else {
                everyone && c == 'w' && (op == '+' || op == '=')
            }
        })
    })
}

fn kill_by_name(prog: &str, args: &[Word], sink: &mut Sink) {
    let texts: Vec<&str> = args.iter().map(|a| a.text.as_str()).collect();
    let kill_signal = |s: &str| {
        let s = s.trim_start_matches("SIG");
        s == "9" || s.eq_ignore_ascii_case("KILL")
    };
    let mut forced = false;
    for (k, t) in texts.iter().enumerate() {
        let value = texts.get(k + 1).copied().unwrap_or("");
        forced |= match *t {
            "-s" | "--signal" => kill_signal(value),
            "-r" | "--regexp" => prog == "killall",
            _ => t
                .strip_prefix("--signal=")
                .or_else(|| t.strip_prefix('-').filter(|s| !s.starts_with('-')))
                .is_some_and(kill_signal),
        };
    }
    if forced {
        sink.dangerous(
            keys::FORCE_KILL,
            format!("{prog} with SIGKILL or by pattern"),
        );
    }
    if texts.iter().any(|t| names_hermes(t)) {
        sink.dangerous(keys::KILL_HERMES, "kills hermes itself".to_string());
    }
}

fn names_hermes(text: &str) -> bool {
    text.to_ascii_lowercase().contains("hermes")
}

fn docker(prog: &str, args: &[Word], sink: &mut Sink) {
    let s = scan(
        args,
        "Hcfp",
        &[
            "--host",
            "--context",
            "--config",
            "--file",
            "--project-name",
            "--env-file",
            "--profile",
            "--log-level",
        ],
    );
    let ops: Vec<&str> = s.operands.iter().map(|w| w.text.as_str()).collect();
    let (group, verb) = match (prog, ops.as_slice()) {
        ("docker-compose" | "podman-compose", [verb, ..]) => ("", *verb),
        (_, [group @ ("compose" | "container"), verb, ..]) => (*group, *verb),
        (_, [verb, ..]) => ("", *verb),
        _ => return,
    };
    let stopping = match ops.first() {
        Some(&"compose") => ["stop", "restart", "kill", "down"].contains(&verb),
        _ if prog.ends_with("compose") => ["stop", "restart", "kill", "down"].contains(&verb),
        _ => ["stop", "restart", "kill"].contains(&verb),
    };
    if stopping {
        let what = [basename(prog), group, verb]
            .iter()
            .filter(|s| !s.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join(" ");
        sink.dangerous(
            keys::DOCKER_STOP,
            format!("{what} stops or removes containers"),
        );
    }
}

fn hermes(args: &[Word], sink: &mut Sink) {
    if args.iter().any(|a| a.text == "--yolo") {
        sink.dangerous(
            keys::HERMES_SETTINGS,
            "runs hermes with approvals off (--yolo)".to_string(),
        );
    }
    if args.iter().any(|a| a.text == "--accept-hooks") {
        sink.dangerous(
            keys::HERMES_SETTINGS,
            "runs hermes accepting shell hooks without asking (--accept-hooks)".to_string(),
        );
    }
    let s = scan(args, "pm", &["--profile", "--model", "--provider"]);
    let ops: Vec<String> = s
        .operands
        .iter()
        .map(|w| w.text.to_ascii_lowercase())
        .collect();
    let ops: Vec<&str> = ops.iter().map(String::as_str).collect();
    match ops.as_slice() {
        ["gateway", "stop" | "restart", ..] | ["update", ..] => {
            sink.dangerous(keys::HERMES_LIFECYCLE, format!("hermes {}", ops.join(" ")));
        }
        ["config", "set" | "unset", key, ..] => {
            let key = key.split(['=', ' ']).next().unwrap_or("");
            let protected = PROTECTED_CONFIG.iter().any(|p| {
                key == *p || key.starts_with(&format!("{p}.")) || key.starts_with(&format!("{p}["))
            });
            if protected {
                sink.dangerous(
                    keys::HERMES_SETTINGS,
                    format!("changes hermes's own approval/safety settings ({key})"),
                );
            }
        }
        ["config", "edit" | "reset", ..] => {
            sink.dangerous(
                keys::HERMES_SETTINGS,
                "edits hermes's own configuration".to_string(),
            );
        }
        _ => {}
    }
}

/// The commands `find … -exec CMD … ;` runs, as word lists. When nothing filters the
/// results (only global options before `-exec`), `{}` is replaced by the first start path,
/// because the start path itself is the first result.
pub(super) fn find_exec(args: &[Word]) -> Vec<Vec<Word>> {
    const GLOBAL: &[&str] = &["-depth", "-xdev", "-mount", "-follow", "-noleaf", "-d"];
    const GLOBAL_VALUE: &[&str] = &["-maxdepth", "-mindepth"];
    let starts: Vec<&Word> = args
        .iter()
        .take_while(|a| !a.text.starts_with('-') && a.text != "(" && a.text != "!")
        .collect();
    let start = starts.first().map_or(".", |w| w.text.as_str());
    let mut out = Vec::new();
    let mut filtered = false;
    let mut i = starts.len();
    while let Some(a) = args.get(i) {
        let t = a.text.as_str();
        if matches!(t, "-exec" | "-execdir" | "-ok" | "-okdir") {
            let end = args[i + 1..]
                .iter()
                .position(|w| w.text == ";" || w.text == "+")
                .map_or(args.len(), |p| i + 1 + p);
            let inner: Vec<Word> = args[i + 1..end]
                .iter()
                .map(|w| {
                    if w.text == "{}" && !filtered {
                        Word::plain(start)
                    } else {
                        w.clone()
                    }
                })
                .collect();
            out.push(inner);
            filtered = true;
            i = end + 1;
        } else if GLOBAL_VALUE.contains(&t) {
            i += 2;
        } else {
            filtered |= !GLOBAL.contains(&t);
            i += 1;
        }
    }
    out
}

fn shown(word: &Word, cx: &Cx) -> String {
    match cx.resolve(word) {
        Some(path) if word.text.starts_with('/') => cx.display(&path),
        _ => word.text.clone(),
    }
}
