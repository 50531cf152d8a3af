//! Code hermes can only partly see: interpreter inline code, SQL, and how shells get input.
//!
//! - Interpreters (`python -c`, `perl -e`, `ruby -e`, `node -e|-p`, `php -r`, `lua -e`,
//!   `deno eval`, an `awk` program): the inline code is searched for a short list of destructive-looking
//!   markers (`RISKY_CODE`: `shutil.rmtree`, `os.remove`, `subprocess`, `os.system`, `rm -rf`,
//!   `child_process`, `unlink`, paths like `.ssh/` …). This is a plain substring search on the
//!   already-unquoted code, on purpose: it is a hint, not a parser.
//! - SQL: the words of a pipeline that mentions a database client (`psql`, `mysql`, `sqlite3`, …
//!   also via `docker exec`) and its here-documents are scanned for `DROP TABLE|DATABASE|SCHEMA`,
//!   `TRUNCATE`, and `DELETE FROM` without `WHERE`.
//! - Shells: where `bash`/`sh`/… take their script from (`-c`, a file, stdin — also `/dev/stdin`,
//!   `/dev/fd/0`). What that input is, is `source`'s job.
//!
//! It does not parse any language but the shell, and does not read scripts from disk. Invariant:
//! code and SQL checks only see text that the shell passes to an interpreter or a database client,
//! never data given to other programs.

use super::cx::Sink;
use super::keys;
use super::opts::scan;
use super::parse::Simple;
use super::words::{Word, basename};

const RISKY_CODE: &[&str] = &[
    "rmtree",
    "os.remove",
    "removedirs",
    "os.rmdir",
    "unlink",
    "os.system",
    "subprocess",
    "popen",
    "os.exec",
    "os.spawn",
    "pty.spawn",
    "os.kill",
    "child_process",
    "execsync",
    "spawnsync",
    "fs.rm",
    "rmsync",
    "rmdirsync",
    "rimraf",
    "file.delete",
    "fileutils.rm",
    "rm -rf",
    "rm -fr",
    "rm -r ",
    "system(",
    "shell_exec",
    "passthru",
    "%x(",
    ".ssh/",
    "authorized_keys",
    ".bashrc",
    ".zshrc",
    ".profile",
    ".hermes/",
];

const SQL_CLIENTS: &[&str] = &[
    "psql",
    "mysql",
    "mariadb",
    "sqlite3",
    "sqlite",
    "sqlcmd",
    "clickhouse-client",
    "clickhouse",
    "duckdb",
    "cockroach",
    "pgcli",
    "mycli",
    "litecli",
    "usql",
    "snowsql",
    "sqlplus",
    "isql",
    "trino",
    "presto",
    "spark-sql",
    "beeline",
    "impala-shell",
    "cqlsh",
];

pub(super) const SHELLS: &[&str] = &[
    "bash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "fish", "yash", "tcsh", "csh",
];

/// The first risky marker in inline code, if any.
pub(super) fn risky_code(code: &str) -> Option<&'static str> {
    let lower = code.to_lowercase();
    RISKY_CODE.iter().copied().find(|m| lower.contains(m))
}

/// What an interpreter invocation runs.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Interp {
    /// Inline code (`-c`, `-e`, …).
    Code(String),
    /// A script file or module.
    File,
    /// Code read from stdin.
    Stdin,
    /// Inline code that is only a variable or a substitution (`python -c "$CODE"`).
    Opaque,
}

/// How `prog` (an interpreter name) runs code, or `None` when it is not an interpreter.
pub(super) fn interpreter(prog: &str, args: &[Word]) -> Option<Interp> {
    let (code_short, code_long, value_short, value_long): (&str, &[&str], &str, &[&str]) =
        match prog {
            _ if prog.starts_with("python") || prog == "pypy" || prog == "pypy3" => {
                ("c", &[], "WXQ", &[])
            }
            "perl" | "ruby" => ("eE", &[], "IrCMmdxFl0i", &[]),
            "node" | "nodejs" | "bun" => (
                "ep",
                &["--eval", "--print"],
                "r",
                &["--require", "--import", "--loader"],
            ),
            "php" => ("r", &[], "dcz", &[]),
            "lua" | "luajit" => ("e", &[], "l", &[]),
            "awk" | "gawk" | "mawk" | "nawk" | "busybox-awk" => {
                let s = scan(args, "Fvf", &["--file", "--assign", "--field-separator"]);
                if s.short.contains('f') || s.long.contains(&"--file") {
                    return Some(Interp::File);
                }
                return Some(match s.operands.first() {
                    None => Interp::File,
                    Some(code) if code.opaque() => Interp::Opaque,
                    Some(code) => Interp::Code(code.text.clone()),
                });
            }
            "deno" => {
                return match args.first().map(|a| a.text.as_str()) {
                    Some("eval") => Some(Interp::Code(
                        args.iter()
                            .skip(1)
                            .map(|a| a.text.as_str())
                            .collect::<Vec<_>>()
                            .join(" "),
                    )),
                    _ => Some(Interp::File),
                };
            }
            _ => return None,
        };
    let mut code = Vec::new();
    let mut i = 0;
    while let Some(a) = args.get(i) {
        i += 1;
        let t = a.text.as_str();
        if t == "-" {
            return Some(Interp::Stdin);
        }
        if t == "--" || !t.starts_with('-') {
            let operand = t != "--" || args.get(i).is_some();
            return Some(code_or(
                code,
                if operand { Interp::File } else { Interp::Stdin },
            ));
        }
        if let Some((name, value)) = t.split_once('=').filter(|_| t.starts_with("--")) {
            if code_long.contains(&name) {
                code.push(value.to_string());
            }
            continue;
        }
        if t.starts_with("--") {
            if code_long.contains(&t) {
                match args.get(i) {
                    Some(w) if w.opaque() => return Some(Interp::Opaque),
                    Some(w) => code.push(w.text.clone()),
                    None => {}
                }
                i += 1;
            } else if value_long.contains(&t) {
                i += 1;
            }
            continue;
        }
        let cluster: Vec<char> = t.chars().skip(1).collect();
        for (k, c) in cluster.iter().enumerate() {
            let rest: String = cluster[k + 1..].iter().collect();
            if prog.starts_with("python") && *c == 'm' {
                return Some(code_or(code, Interp::File));
            }
            if code_short.contains(*c) {
                if rest.is_empty() {
                    match args.get(i) {
                        Some(w) if w.opaque() => return Some(Interp::Opaque),
                        Some(w) => code.push(w.text.clone()),
                        None => {}
                    }
                    i += 1;
                } else {
                    code.push(rest);
                }
                break;
            }
            if value_short.contains(*c) {
                // perl/ruby `-i.bak`, `-Ilib`: the value is attached; python `-W x`: next.
                if rest.is_empty() && !matches!(*c, 'i' | 'l' | '0') {
                    i += 1;
                }
                break;
            }
        }
        if prog.starts_with("python") && !code.is_empty() {
            // Python stops option parsing at `-c CODE`.
            break;
        }
    }
    Some(code_or(code, Interp::Stdin))
}

fn code_or(code: Vec<String>, fallback: Interp) -> Interp {
    if code.is_empty() {
        fallback
    } else {
        Interp::Code(code.join("\n"))
    }
}

/// How a shell invocation gets its script.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum ShellInput {
    /// `-c`: the script is the argument at this index.
    Command(usize),
    /// A script file operand at this index.
    File(usize),
    Stdin,
}

pub(super) fn shell_input(args: &[Word]) -> ShellInput {
    let mut stdin_flag = false;
    let mut i = 0;
    while let Some(a) = args.get(i) {
        let t = a.text.as_str();
        match t {
            "--" => break,
            "-o" | "+o" | "--rcfile" | "--init-file" => i += 2,
            _ if t.starts_with("--") => i += 1,
            _ if (t.starts_with('-') && t.len() > 1) || t.starts_with('+') => {
                if t.starts_with('-') && t.contains('c') {
                    return ShellInput::Command(i + 1);
                }
                stdin_flag |= t.starts_with('-') && t.contains('s');
                i += 1;
            }
            _ => break,
        }
    }
    if t_at(args, i) == Some("--") {
        i += 1;
    }
    match t_at(args, i) {
        _ if stdin_flag => ShellInput::Stdin,
        None => ShellInput::Stdin,
        Some(t) if t == "-" || is_stdin(t) => ShellInput::Stdin,
        Some(_) => ShellInput::File(i),
    }
}

/// A path that reads the command's own standard input.
pub(super) fn is_stdin(path: &str) -> bool {
    matches!(path, "/dev/stdin" | "/dev/fd/0" | "/proc/self/fd/0")
}

fn t_at(args: &[Word], i: usize) -> Option<&str> {
    args.get(i).map(|a| a.text.as_str())
}

/// Whether any word of the pipeline names a database client.
pub(super) fn mentions_sql_client(cmds: &[Simple]) -> bool {
    cmds.iter()
        .flat_map(|c| &c.words)
        .any(|w| SQL_CLIENTS.contains(&basename(&w.text)))
}

/// SQL families in `text` (statements split on `;`).
pub(super) fn sql(text: &str, sink: &mut Sink) {
    for statement in text.split(';') {
        let words: Vec<String> = statement
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect();
        for (k, w) in words.iter().enumerate() {
            let next = words.get(k + 1).map_or("", String::as_str);
            match w.as_str() {
                "drop" if matches!(next, "table" | "database" | "schema") => {
                    sink.dangerous(keys::SQL_DROP, format!("SQL DROP {}", next.to_uppercase()));
                }
                "truncate" if !next.is_empty() => {
                    sink.dangerous(keys::SQL_TRUNCATE, "SQL TRUNCATE".to_string());
                }
                "delete" if next == "from" && !words[k..].iter().any(|w| w == "where") => {
                    sink.dangerous(
                        keys::SQL_DELETE_WITHOUT_WHERE,
                        "SQL DELETE without WHERE".to_string(),
                    );
                }
                _ => {}
            }
        }
    }
}
