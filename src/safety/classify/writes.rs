//! What a simple command writes: the paths it modifies and whether it changes files at all.
//!
//! Known writers: `rm`, `unlink`, `rmdir`, `shred`, `touch`, `mkdir`, `truncate`, `tee`, `mv`
//! (sources and destination), `cp`/`install`/`ln`/`rsync`/`scp` (destination), `sed -i`,
//! `perl -i`/`ruby -i`, `gawk -i inplace`, `yq -i`, `sponge`, `rimraf`, `dd of=`, `patch` (its file,
//! `-o`, `-r`, `-d DIR`), `find -fprint|-fls|-fprintf`, `sort -o`, `curl -o|-O`, `wget`, `tar x`
//! and `unzip` (with their `-C`/`-d` directory), and the git subcommands that touch the working
//! tree. (`ed` and sed's `w` commands are found by the walker, which sees their scripts.)
//! Redirections are handled by the walker, since any program can have them. It does not know what
//! unknown programs (`make`, `npm`, scripts) write: they count as not writing. Invariant: a
//! returned path is a word as written (already `~`-expanded); resolving it against the working
//! directory is the caller's job.

use super::opts::scan;
use super::words::Word;

/// Git subcommands that change files in the working tree.
const GIT_WRITERS: &[&str] = &[
    "checkout",
    "reset",
    "clean",
    "restore",
    "stash",
    "apply",
    "am",
    "merge",
    "rebase",
    "pull",
    "switch",
    "rm",
    "mv",
    "cherry-pick",
    "revert",
];

#[derive(Debug, Default)]
pub(super) struct Writes {
    /// Paths written, created, truncated or removed.
    pub paths: Vec<Word>,
    /// The command modifies files (even when the paths are not known).
    pub modifies: bool,
}

impl Writes {
    fn of(paths: Vec<Word>) -> Self {
        Self {
            paths,
            modifies: true,
        }
    }

    fn unknown() -> Self {
        Self::of(Vec::new())
    }
}

pub(super) fn writes(prog: &str, args: &[Word]) -> Writes {
    let operands = |short_value: &str, long_value: &[&str]| -> Vec<Word> {
        scan(args, short_value, long_value)
            .operands
            .into_iter()
            .cloned()
            .collect()
    };
    match prog {
        "rm" | "unlink" | "rmdir" | "tee" | "rimraf" => Writes::of(operands("", &[])),
        "sponge" => Writes::of(operands("", &[])),
        "yq" => yq(args),
        "awk" | "gawk" => awk_inplace(args),
        "find" => Writes {
            paths: find_outputs(args),
            modifies: false,
        },
        "shred" => Writes::of(operands("ns", &["--iterations", "--size"])),
        "touch" => Writes::of(operands("rdt", &["--reference", "--date"])),
        "mkdir" => Writes::of(operands("m", &["--mode", "--context"])),
        "truncate" => Writes::of(operands("sr", &["--size", "--reference"])),
        "mv" => {
            let s = scan(args, "tS", &["--target-directory", "--suffix"]);
            let mut paths: Vec<Word> = s.operands.iter().map(|w| (*w).clone()).collect();
            if let Some(dir) = option_value(args, 't', "--target-directory") {
                paths.extend(into_dir(&dir, &s.operands));
            } else if let Some((dest, sources)) = s.operands.split_last() {
                paths.extend(into_dir(dest, sources).into_iter().skip(1));
            }
            Writes::of(paths)
        }
        "cp" | "ln" | "install" | "rsync" | "scp" => destination(prog, args),
        "sed" => sed(args),
        "perl" | "ruby" => {
            let s = scan(args, "eEIrCx", &[]);
            if s.short.contains('i') {
                Writes::of(s.operands.into_iter().cloned().collect())
            } else {
                Writes::default()
            }
        }
        "dd" => {
            let paths: Vec<Word> = args
                .iter()
                .filter_map(|a| {
                    a.text.strip_prefix("of=").map(|p| Word {
                        text: p.to_string(),
                        ..a.clone()
                    })
                })
                .collect();
            Writes {
                modifies: !paths.is_empty(),
                paths,
            }
        }
        "patch" if !args.iter().any(|a| a.text == "--dry-run") => patch(args),
        "sort" => {
            let paths: Vec<Word> = option_value(args, 'o', "--output").into_iter().collect();
            Writes {
                modifies: !paths.is_empty(),
                paths,
            }
        }
        "curl" => {
            let mut w = Writes::of(option_value(args, 'o', "--output").into_iter().collect());
            let remote_name = scan(
                args,
                "oHdXAeuFTbcrwxKEmy",
                &[
                    "--output",
                    "--header",
                    "--data",
                    "--request",
                    "--user-agent",
                    "--referer",
                    "--user",
                    "--form",
                    "--upload-file",
                    "--cookie",
                    "--config",
                ],
            );
            w.modifies = !w.paths.is_empty()
                || remote_name.short.contains('O')
                || remote_name.long.contains(&"--remote-name");
            w
        }
        "wget" => wget(args),
        "tar" => {
            let first = args.first().map_or("", |a| a.text.as_str());
            let s = scan(args, "CfTXbLN", &["--directory", "--file"]);
            let extract = (!first.starts_with('-') && first.contains('x'))
                || s.short.contains('x')
                || s.long.contains(&"--extract")
                || s.long.contains(&"--get");
            if extract {
                Writes::of(option_value(args, 'C', "--directory").into_iter().collect())
            } else {
                Writes::default()
            }
        }
        "unzip" => {
            let s = scan(args, "dx", &[]);
            if ['l', 't', 'v', 'Z', 'p']
                .iter()
                .any(|c| s.short.contains(*c))
            {
                Writes::default()
            } else {
                Writes::of(option_value(args, 'd', "").into_iter().collect())
            }
        }
        "git" => {
            let sub = args
                .iter()
                .scan(false, |skip, a| {
                    let take = !*skip && !a.text.starts_with('-');
                    *skip = matches!(a.text.as_str(), "-C" | "-c" | "--git-dir" | "--work-tree");
                    Some(take.then_some(a))
                })
                .flatten()
                .next();
            let dry_run =
                sub.is_some_and(|s| s.text == "clean") && scan(args, "", &[]).has('n', "--dry-run");
            Writes {
                paths: Vec::new(),
                modifies: !dry_run && sub.is_some_and(|s| GIT_WRITERS.contains(&s.text.as_str())),
            }
        }
        _ => Writes::default(),
    }
}

fn destination(prog: &str, args: &[Word]) -> Writes {
    let s = match prog {
        "install" => scan(
            args,
            "tSgmo",
            &[
                "--target-directory",
                "--suffix",
                "--group",
                "--mode",
                "--owner",
            ],
        ),
        "rsync" => scan(
            args,
            "efT",
            &["--rsh", "--exclude", "--include", "--filter", "--temp-dir"],
        ),
        "scp" => scan(args, "cFiJloPS", &[]),
        _ => scan(args, "tS", &["--target-directory", "--suffix"]),
    };
    if let Some(dir) = option_value(args, 't', "--target-directory") {
        return Writes::of(into_dir(&dir, &s.operands));
    }
    if prog == "install" && s.short.contains('d') {
        return Writes::of(s.operands.into_iter().cloned().collect());
    }
    match s.operands.split_last() {
        Some((dest, sources)) if !sources.is_empty() && !is_remote(dest) => {
            Writes::of(into_dir(dest, sources))
        }
        _ => Writes::unknown(),
    }
}

/// `host:path` names a remote file (scp, rsync).
fn is_remote(w: &Word) -> bool {
    w.text
        .split_once(':')
        .is_some_and(|(host, _)| !host.is_empty() && !host.contains('/'))
}

/// A destination that may be a directory: itself, and where each source lands inside it.
fn into_dir(dest: &Word, sources: &[&Word]) -> Vec<Word> {
    let mut out = vec![dest.clone()];
    let dir = dest.text.trim_end_matches('/');
    for source in sources.iter().filter(|s| !s.opaque() && !is_remote(s)) {
        let name = source
            .text
            .trim_end_matches('/')
            .rsplit('/')
            .next()
            .unwrap_or("");
        if !name.is_empty() && name != "." && name != ".." {
            out.push(Word {
                text: format!("{dir}/{name}"),
                dynamic: dest.dynamic || source.dynamic,
                ..Word::plain("")
            });
        }
    }
    out
}

/// `patch [ORIGFILE [PATCHFILE]]`, `-o OUT`, `-r REJECTS`; `-d DIR` patches files in DIR.
fn patch(args: &[Word]) -> Writes {
    let s = scan(
        args,
        "ioBdDFpVYzrg",
        &[
            "--input",
            "--output",
            "--directory",
            "--prefix",
            "--basename-prefix",
            "--suffix",
            "--reject-file",
            "--ifdef",
            "--fuzz",
            "--strip",
            "--version-control",
            "--get",
            "--quoting-style",
            "--reject-format",
        ],
    );
    let mut paths: Vec<Word> = s
        .operands
        .first()
        .map(|w| (*w).clone())
        .into_iter()
        .collect();
    for (short, long) in [
        ('o', "--output"),
        ('r', "--reject-file"),
        ('d', "--directory"),
    ] {
        paths.extend(option_value(args, short, long));
    }
    Writes::of(paths)
}

/// `yq -i EXPR FILE…` / `yq e -i …` / `yq --inplace …`: the files after the expression.
fn yq(args: &[Word]) -> Writes {
    let s = scan(
        args,
        "opIs",
        &[
            "--output-format",
            "--input-format",
            "--indent",
            "--front-matter",
            "--split-exp",
            "--arg",
            "--argjson",
        ],
    );
    if !(s.has('i', "--inplace") || s.long.contains(&"--in-place")) {
        return Writes::default();
    }
    let mut ops = s.operands.iter().peekable();
    if ops
        .peek()
        .is_some_and(|w| matches!(w.text.as_str(), "e" | "eval" | "ea" | "eval-all"))
    {
        ops.next();
    }
    let from_file = s.long.contains(&"--from-file");
    Writes::of(
        ops.skip(usize::from(!from_file))
            .map(|w| (*w).clone())
            .collect(),
    )
}

/// `gawk -i inplace 'PROG' FILE…` edits the files.
fn awk_inplace(args: &[Word]) -> Writes {
    let inplace = args
        .windows(2)
        .any(|p| matches!(p[0].text.as_str(), "-i" | "--include") && p[1].text == "inplace")
        || args
            .iter()
            .any(|a| a.text == "-iinplace" || a.text == "--include=inplace");
    if !inplace {
        return Writes::default();
    }
    let s = scan(
        args,
        "Fvfi",
        &["--file", "--assign", "--field-separator", "--include"],
    );
    let program_given = !(s.short.contains('f') || s.long.contains(&"--file"));
    Writes::of(
        s.operands
            .into_iter()
            .skip(usize::from(program_given))
            .filter(|w| !super::unwrap::is_assignment(&w.text))
            .cloned()
            .collect(),
    )
}

/// `find … -fprint FILE`, `-fprint0 FILE`, `-fls FILE`, `-fprintf FILE FORMAT`.
fn find_outputs(args: &[Word]) -> Vec<Word> {
    args.windows(2)
        .filter(|p| {
            matches!(
                p[0].text.as_str(),
                "-fprint" | "-fprint0" | "-fls" | "-fprintf"
            )
        })
        .map(|p| p[1].clone())
        .collect()
}

fn sed(args: &[Word]) -> Writes {
    let mut rest: Vec<Word> = Vec::new();
    let mut in_place = false;
    let mut skip_empty = false;
    for a in args {
        if skip_empty && a.text.is_empty() {
            skip_empty = false;
            continue;
        }
        skip_empty = false;
        if a.text == "-i" {
            in_place = true;
            skip_empty = true;
        } else if a.text.starts_with("--in-place")
            || (a.text.starts_with('-') && !a.text.starts_with("--") && a.text.contains('i'))
        {
            in_place = true;
        }
        rest.push(a.clone());
    }
    if !in_place {
        return Writes::default();
    }
    let s = scan(&rest, "efl", &["--expression", "--file", "--line-length"]);
    let explicit_script = s.short.contains('e')
        || s.short.contains('f')
        || s.long.contains(&"--expression")
        || s.long.contains(&"--file");
    let skip = usize::from(!explicit_script);
    Writes::of(s.operands.into_iter().skip(skip).cloned().collect())
}

fn wget(args: &[Word]) -> Writes {
    let spider = args.iter().any(|a| a.text == "--spider");
    let mut paths: Vec<Word> = option_value(args, 'O', "--output-document")
        .into_iter()
        .chain(option_value(args, 'P', "--directory-prefix"))
        .collect();
    let to_stdout = paths.iter().any(|p| p.text == "-");
    paths.retain(|p| p.text != "-");
    Writes {
        modifies: !spider && !to_stdout,
        paths,
    }
}

/// The value of `-x VALUE`, `-xVALUE`, a cluster ending in `x` (`-qO FILE`) or holding it
/// (`-qO-`), `--long VALUE`, `--long=VALUE`.
fn option_value(args: &[Word], short: char, long: &str) -> Option<Word> {
    let mut iter = args.iter().peekable();
    while let Some(a) = iter.next() {
        let t = a.text.as_str();
        if t == "--" {
            return None;
        }
        if !long.is_empty() {
            if t == long {
                return iter.next().cloned();
            }
            if let Some(v) = t.strip_prefix(long).and_then(|r| r.strip_prefix('=')) {
                return Some(with_text(a, v));
            }
        }
        if t.starts_with('-')
            && !t.starts_with("--")
            && let Some(at) = t.find(short)
        {
            let value = &t[at + short.len_utf8()..];
            if value.is_empty() {
                return iter.next().cloned();
            }
            return Some(with_text(a, value));
        }
    }
    None
}

fn with_text(word: &Word, text: &str) -> Word {
    Word {
        text: text.to_string(),
        ..word.clone()
    }
}
