//! git: the dangerous subcommands, and the commands git settings make it run.
//!
//! `check` flags `git push --force`/`--delete`, `git reset --hard`, `git clean -f` and
//! `git branch -D`. `config_commands` returns the shell text hidden in settings that git
//! runs as commands — given for one run (`git -c alias.x='!…'`, `core.pager`,
//! `core.sshCommand`, …; `hooks` uses `setting_command` for `GIT_CONFIG_PARAMETERS`) or
//! stored for later (`git config [--global] KEY VALUE`, `git config set KEY VALUE`). It
//! does not read git configuration files. Invariant: rules only read the words.

use super::cx::Sink;
use super::keys;
use super::opts::scan;
use super::words::Word;

/// Settings whose value git runs as a shell command (lowercase).
pub(super) const RUNS: &[&str] = &[
    "core.pager",
    "core.editor",
    "core.sshcommand",
    "core.fsmonitor",
    "core.hookspath",
    "sequence.editor",
    "diff.external",
    "gpg.program",
    "gpg.ssh.program",
    "pager.log",
    "pager.diff",
    "pager.show",
    "interactive.difffilter",
];

pub(super) fn check(args: &[Word], sink: &mut Sink) {
    let mut i = 0;
    while let Some(a) = args.get(i) {
        match a.text.as_str() {
            "-C" | "-c" | "--git-dir" | "--work-tree" | "--namespace" | "--config-env" => i += 2,
            t if t.starts_with('-') => i += 1,
            _ => break,
        }
    }
    let Some(sub) = args.get(i) else {
        return;
    };
    let rest = &args[i + 1..];
    match sub.text.as_str() {
        "push" => {
            let s = scan(
                rest,
                "o",
                &["--push-option", "--repo", "--receive-pack", "--exec"],
            );
            let plus_refspec = s.operands.iter().skip(1).any(|o| o.text.starts_with('+'));
            if s.short.contains('f')
                || s.long.contains(&"--force")
                || s.has_long_prefix("--force-with-lease")
                || s.long.contains(&"--mirror")
                || plus_refspec
            {
                sink.dangerous(
                    keys::GIT_FORCE_PUSH,
                    "git push --force rewrites the remote branch".to_string(),
                );
            }
            let colon_refspec = s.operands.iter().skip(1).any(|o| o.text.starts_with(':'));
            if s.has('d', "--delete") || colon_refspec {
                sink.dangerous(
                    keys::GIT_PUSH_DELETE,
                    "git push deletes a remote branch".to_string(),
                );
            }
        }
        "reset" if rest.iter().any(|a| a.text == "--hard") => {
            sink.dangerous(
                keys::GIT_RESET_HARD,
                "git reset --hard discards uncommitted changes".to_string(),
            );
        }
        "clean" => {
            let s = scan(rest, "e", &["--exclude"]);
            if s.has('f', "--force") && !s.has('n', "--dry-run") {
                sink.dangerous(
                    keys::GIT_CLEAN,
                    "git clean -f deletes untracked files".to_string(),
                );
            }
        }
        "branch" => {
            let s = scan(rest, "tu", &["--set-upstream-to", "--contains", "--merged"]);
            let force_delete =
                s.short.contains('D') || (s.has('d', "--delete") && s.has('f', "--force"));
            if force_delete {
                sink.dangerous(
                    keys::GIT_BRANCH_DELETE,
                    "git branch -D deletes a branch even if unmerged".to_string(),
                );
            }
        }
        _ => {}
    }
}

/// Commands hidden in git settings that git runs: `git -c KEY=VALUE`, and
/// `git config [options] KEY VALUE` / `git config set KEY VALUE` (stored, run later).
pub(super) fn config_commands(args: &[Word]) -> Vec<String> {
    let mut out = Vec::new();
    let mut iter = args.iter().map(|a| a.text.as_str());
    while let Some(arg) = iter.next() {
        if !arg.starts_with('-') {
            break;
        }
        if arg == "-c" {
            if let Some((key, value)) = iter.next().and_then(|kv| kv.split_once('=')) {
                out.extend(setting_command(key, value));
            }
        } else if matches!(arg, "-C" | "--git-dir" | "--work-tree" | "--namespace") {
            iter.next();
        }
    }
    out.extend(stored_setting(args));
    out
}

/// The shell text a setting runs, when it is one git runs (`alias.x=!cmd`, `core.pager`, …).
pub(super) fn setting_command(key: &str, value: &str) -> Option<String> {
    let key = key.to_ascii_lowercase();
    let shell = value.strip_prefix('!');
    if key.starts_with("alias.") || key.starts_with("credential.") {
        return shell.map(str::to_string);
    }
    // `pager.<cmd>` takes any subcommand; `diff.<driver>.command` and `filter.<x>.clean`
    // run programs too.
    let runs = RUNS.contains(&key.as_str())
        || key.starts_with("pager.")
        || (key.starts_with("diff.") && (key.ends_with(".command") || key.ends_with(".textconv")))
        || (key.starts_with("filter.")
            && (key.ends_with(".clean") || key.ends_with(".smudge") || key.ends_with(".process")))
        || (key.starts_with("merge.") && key.ends_with(".driver"));
    (runs && value != "false" && value != "true").then(|| value.to_string())
}

/// `git config [--global|--system|--local|--file F|--add|--replace-all] KEY VALUE`, and the
/// newer `git config set [options] KEY VALUE`.
fn stored_setting(args: &[Word]) -> Option<String> {
    let at = super::unwrap::skip_opts(args, 0, &["-C", "-c", "--git-dir", "--work-tree"]);
    if args.get(at).map(|a| a.text.as_str()) != Some("config") {
        return None;
    }
    let s = scan(
        &args[at + 1..],
        "f",
        &[
            "--file",
            "--blob",
            "--type",
            "--default",
            "--comment",
            "--value",
        ],
    );
    let ops: Vec<&str> = s.operands.iter().map(|w| w.text.as_str()).collect();
    let (key, value) = match ops.as_slice() {
        ["set", key, value, ..] => (*key, *value),
        [key, value, ..]
            if !matches!(
                *key,
                "get"
                    | "unset"
                    | "list"
                    | "edit"
                    | "rename-section"
                    | "remove-section"
                    | "get-regexp"
                    | "get-all"
            ) =>
        {
            (*key, *value)
        }
        _ => return None,
    };
    setting_command(key, value)
}
