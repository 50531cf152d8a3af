//! Commands hidden in options and environment variables: what a program runs because a
//! setting names a command.
//!
//! Options: `tar --checkpoint-action=exec=`/`--to-command`/`-I`/`--use-compress-program`/
//! `-F`/`--info-script`/`--rsh-command`, `ssh`/`scp`/`sftp -o ProxyCommand=|LocalCommand=|
//! KnownHostsCommand=`, `rsync -e`/`--rsh` (and `--rsync-path`, run on the other side),
//! `man -P`/`--pager`/`-H`/`--html=`, `vim`/`nvim`/`ex -c`/`--cmd`/`+cmd` with `!…`,
//! `rg --pre`/`--hostname-bin`, `sort --compress-program`, `zip -TT`, `socat EXEC:`/`SYSTEM:`,
//! `git rebase -x`/`--exec`, `git submodule foreach`. Environment: `GIT_SSH_COMMAND`,
//! `GIT_EXTERNAL_DIFF`, `GIT_PAGER`, `GIT_EDITOR`, `PAGER`, `MANPAGER`, `EDITOR`, `VISUAL`,
//! `LESSOPEN`, `GIT_CONFIG_VALUE_n`, `GIT_CONFIG_PARAMETERS`, … given as a prefix, through
//! `env` or with `export`; `LD_PRELOAD`/`LD_AUDIT`/`DYLD_INSERT_LIBRARIES` are
//! `preload_library`. What they run is classified like `bash -c` text — `PAGER=cat` and
//! `tar -I zstd` are benign — whether or not the program would read it. It does not know
//! configuration files (`~/.ssh/config`, `.gitattributes`). Invariant: every hook text goes
//! through `Walker::nested`, one level deeper.

use super::minilang::ex_shell;
use super::walk::Walker;
use super::words::Word;
use super::{git, keys};

/// Variables whose value a program runs as a command line.
const COMMAND_VARS: &[&str] = &[
    "GIT_SSH_COMMAND",
    "GIT_SSH",
    "GIT_EXTERNAL_DIFF",
    "GIT_PAGER",
    "GIT_EDITOR",
    "GIT_SEQUENCE_EDITOR",
    "GIT_ASKPASS",
    "GIT_PROXY_COMMAND",
    "SSH_ASKPASS",
    "SUDO_ASKPASS",
    "SUDO_EDITOR",
    "PAGER",
    "MANPAGER",
    "SYSTEMD_PAGER",
    "BAT_PAGER",
    "DELTA_PAGER",
    "EDITOR",
    "VISUAL",
    "FCEDIT",
    "BROWSER",
    "RSYNC_RSH",
    "CVS_RSH",
    "PROMPT_COMMAND",
    "LESSOPEN",
    "LESSCLOSE",
];

/// Variables that load a library into every program started.
const PRELOAD_VARS: &[&str] = &["LD_PRELOAD", "LD_AUDIT", "DYLD_INSERT_LIBRARIES"];

impl Walker<'_> {
    /// `NAME=value` given to `prog` (`None`: for the rest of the shell, as with `export`).
    pub(super) fn assignment(&mut self, word: &Word, prog: Option<&str>, depth: usize) {
        let Some((name, value)) = word.text.split_once('=') else {
            return;
        };
        let settings = match name {
            "HERMES_YOLO_MODE" => Some("turns hermes approvals off (HERMES_YOLO_MODE)"),
            "HERMES_ACCEPT_HOOKS" => Some("accepts hermes shell hooks without asking"),
            "HERMES_HOME" if prog.is_none_or(|p| p == "hermes") => {
                Some("points hermes at another home (other approval settings)")
            }
            _ => None,
        };
        if let Some(reason) = settings {
            self.sink
                .dangerous(keys::HERMES_SETTINGS, reason.to_string());
        }
        if PRELOAD_VARS.contains(&name) && !value.is_empty() {
            self.sink.dangerous(
                keys::PRELOAD_LIBRARY,
                format!("{name} loads {value} into every program it starts"),
            );
        }
        let command = if COMMAND_VARS.contains(&name) {
            // `LESSOPEN='| cmd %s'` pipes through the command.
            Some(value.trim_start_matches(['|', '-', ' ']).to_string())
        } else if name.starts_with("GIT_CONFIG_VALUE_") {
            Some(value.trim_start_matches('!').to_string())
        } else if name == "GIT_CONFIG_PARAMETERS" {
            let found: Vec<String> = config_parameters(value)
                .into_iter()
                .filter_map(|(k, v)| git::setting_command(&k, &v))
                .collect();
            (!found.is_empty()).then(|| found.join("\n"))
        } else {
            None
        };
        if let Some(text) = command.filter(|t| !t.trim().is_empty()) {
            self.hook(value_word(word, &text), depth);
        }
    }

    /// Commands a program runs because one of its options names them.
    pub(super) fn option_hooks(&mut self, prog: &str, args: &[Word], depth: usize) {
        let (local, remote) = option_commands(prog, args);
        for w in local {
            self.hook(w, depth);
        }
        for w in remote {
            let label = format!("the other side of {prog}");
            self.remote_script(&label, &w.text, depth);
        }
    }

    fn hook(&mut self, word: Word, depth: usize) {
        self.nested(std::slice::from_ref(&word), depth);
    }
}

/// The hook text as a word that keeps what is known about how it was written.
fn value_word(word: &Word, text: &str) -> Word {
    Word {
        text: text.to_string(),
        literal: !text.is_empty() && (!word.dynamic || text != word.text),
        ..word.clone()
    }
}

/// `'core.pager'='less' 'alias.x'='!cmd'` (git's own quoting) → pairs.
fn config_parameters(value: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut parts = Vec::new();
    let mut current = String::new();
    let mut quoted = false;
    let mut chars = value.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => quoted = !quoted,
            '\\' if !quoted => current.extend(chars.next()),
            ' ' if !quoted => parts.push(std::mem::take(&mut current)),
            _ => current.push(c),
        }
    }
    parts.push(current);
    for part in parts.iter().filter(|p| !p.is_empty()) {
        if let Some((k, v)) = part.split_once('=') {
            out.push((k.to_string(), v.to_string()));
        }
    }
    out
}

/// (commands run here, commands run on the other side) of an invocation.
fn option_commands(prog: &str, args: &[Word]) -> (Vec<Word>, Vec<Word>) {
    let mut local = Vec::new();
    let mut remote = Vec::new();
    let value = |k: usize, attached: &str| -> Option<Word> {
        if attached.is_empty() {
            args.get(k + 1).cloned()
        } else {
            Some(value_word(&args[k], attached))
        }
    };
    for (k, a) in args.iter().enumerate() {
        let t = a.text.as_str();
        if t == "--" && !matches!(prog, "git") {
            break;
        }
        let long = |name: &str| -> Option<Word> {
            match t.strip_prefix(name)? {
                "" => args.get(k + 1).cloned(),
                rest => rest.strip_prefix('=').map(|v| value_word(a, v)),
            }
        };
        let short = |c: char| -> Option<Word> {
            let rest = t.strip_prefix('-').filter(|r| !r.starts_with('-'))?;
            let at = rest.find(c)?;
            value(k, &rest[at + c.len_utf8()..])
        };
        let found: Option<Word> = match prog {
            "tar" | "gtar" => long("--to-command")
                .or_else(|| long("--use-compress-program"))
                .or_else(|| long("--info-script"))
                .or_else(|| long("--new-volume-script"))
                .or_else(|| long("--rsh-command"))
                .or_else(|| {
                    long("--checkpoint-action")
                        .and_then(|w| w.text.strip_prefix("exec=").map(|c| value_word(&w, c)))
                })
                .or_else(|| short('I'))
                .or_else(|| short('F')),
            "ssh" | "scp" | "sftp" => short('o').and_then(|w| ssh_option(&w, &mut remote)),
            "rsync" => {
                if let Some(w) = long("--rsync-path") {
                    remote.push(w);
                }
                long("--rsh").or_else(|| short('e'))
            }
            "man" => long("--pager")
                .or_else(|| short('P'))
                .or_else(|| t.strip_prefix("--html=").map(|v| value_word(a, v)))
                .or_else(|| {
                    t.strip_prefix("-H")
                        .filter(|v| !v.is_empty())
                        .map(|v| value_word(a, v))
                }),
            "vim" | "vi" | "nvim" | "ex" | "view" | "gvim" | "gview" | "vimdiff" | "nvi"
            | "evim" => {
                // `-c CMD`, also at the end of a cluster (`ex -sc CMD`).
                let dash_c = t == "--cmd"
                    || (t.starts_with('-') && !t.starts_with("--") && t.ends_with('c'));
                let ex = if dash_c {
                    args.get(k + 1).cloned()
                } else {
                    t.strip_prefix('+').map(|v| value_word(a, v))
                };
                ex.and_then(|w| ex_shell(&w.text).map(|c| value_word(&w, &c)))
            }
            "rg" => long("--pre").or_else(|| long("--hostname-bin")),
            "sort" => long("--compress-program"),
            "zip" => {
                long("--unzip-command").or_else(|| (t == "-TT").then(|| value(k, "")).flatten())
            }
            "socat" => {
                let lower = t.to_ascii_lowercase();
                ["exec:", "system:"].iter().find_map(|p| {
                    lower.starts_with(p).then(|| {
                        let rest = &t[p.len()..];
                        value_word(a, rest.split(',').next().unwrap_or(rest))
                    })
                })
            }
            "git" => git_hook(args, k),
            _ => None,
        };
        local.extend(found);
    }
    (local, remote)
}

/// `ssh -o ProxyCommand=CMD` (also `-o 'ProxyCommand CMD'`); `RemoteCommand` runs remotely.
fn ssh_option(w: &Word, remote: &mut Vec<Word>) -> Option<Word> {
    let text = w.text.trim();
    let split = text.find(['=', ' ', '\t'])?;
    let (key, rest) = text.split_at(split);
    let value = rest.trim_start_matches(['=', ' ', '\t']).trim();
    if value.eq_ignore_ascii_case("none") || value.is_empty() {
        return None;
    }
    let key = key.to_ascii_lowercase();
    let word = value_word(w, value);
    match key.as_str() {
        "proxycommand" | "localcommand" | "knownhostscommand" => Some(word),
        "remotecommand" => {
            remote.push(word);
            None
        }
        _ => None,
    }
}

/// `git rebase -x CMD` / `--exec CMD`, `git difftool -x CMD`, `git submodule foreach CMD`.
fn git_hook(args: &[Word], k: usize) -> Option<Word> {
    let t = args[k].text.as_str();
    let sub = args
        .iter()
        .map(|a| a.text.as_str())
        .find(|s| matches!(*s, "rebase" | "difftool" | "submodule"))?;
    let before = |n: usize| k.checked_sub(n).map(|i| args[i].text.as_str());
    match (sub, t) {
        ("rebase", "-x" | "--exec") | ("difftool", "-x" | "--extcmd") => args.get(k + 1).cloned(),
        ("rebase", _) => t.strip_prefix("--exec=").map(|v| value_word(&args[k], v)),
        ("difftool", _) => t.strip_prefix("--extcmd=").map(|v| value_word(&args[k], v)),
        ("submodule", _)
            if !t.starts_with('-')
                && (before(1) == Some("foreach")
                    || (before(1) == Some("--recursive") && before(2) == Some("foreach"))) =>
        {
            Some(args[k].clone())
        }
        _ => None,
    }
}
