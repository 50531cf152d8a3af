//! What a pipeline's output is, when it is fed to a shell or an interpreter.
//!
//! `source_of` summarises the output of a pipeline as fetched from the network (`curl`,
//! `wget`, `nc`, …), literal text (`echo`, `printf` — its format and `%s`/`%b`/`%c`
//! conversions are applied — a here-document through `cat`, `base64 -d` of a literal), obfuscated
//! (other decoders, or words hermes cannot see), or something else. It does not run anything:
//! `printf` is emulated only as far as its text goes (widths and number formats are not).
//! Invariant: `Literal` is only returned for text that is fully visible in the command.

use base64::Engine as _;

use super::lex::RedirKind;
use super::parse::Simple;
use super::unwrap::unwrap;
use super::words::{Word, basename, c_escape};

const FETCHERS: &[&str] = &[
    "curl",
    "wget",
    "fetch",
    "http",
    "https",
    "xh",
    "aria2c",
    "lwp-request",
    "GET",
    "nc",
    "ncat",
];
const DECODERS: &[&str] = &[
    "base64", "base32", "xxd", "openssl", "gzip", "gunzip", "zcat", "bzip2", "bzcat", "xz",
    "xzcat", "rev", "tr", "uudecode",
];
/// Programs that download (`curl`, `wget`, …).
pub(super) fn is_fetcher(prog: &str) -> bool {
    FETCHERS.contains(&prog)
}

/// What a pipeline's output (fed to a shell or interpreter) is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Source {
    Fetch(String),
    Literal(String),
    Obfuscated,
    Other,
}

pub(super) fn source_of(cmds: &[Simple]) -> Source {
    let progs: Vec<Option<String>> = cmds.iter().map(program).collect();
    if let Some(fetcher) = progs
        .iter()
        .flatten()
        .find(|p| FETCHERS.contains(&p.as_str()))
    {
        return Source::Fetch(fetcher.clone());
    }
    let Some(last) = cmds.last() else {
        return Source::Other;
    };
    let last_prog = progs.last().cloned().flatten().unwrap_or_default();
    if last_prog == "base64" && decodes(last) {
        let fed = literal_input(last).or_else(|| match cmds.split_last() {
            Some((_, before)) if !before.is_empty() => match source_of(before) {
                Source::Literal(text) => Some(text),
                _ => None,
            },
            _ => None,
        });
        if let Some(text) = fed {
            return base64::engine::general_purpose::STANDARD
                .decode(text.trim())
                .ok()
                .and_then(|b| String::from_utf8(b).ok())
                .map_or(Source::Obfuscated, Source::Literal);
        }
    }
    if progs
        .iter()
        .flatten()
        .any(|p| DECODERS.contains(&p.as_str()))
    {
        return Source::Obfuscated;
    }
    literal_output(&last_prog, last)
}

fn program(cmd: &Simple) -> Option<String> {
    let p = unwrap(&cmd.words).program?;
    Some(basename(&cmd.words[p].text).to_string())
}

fn decodes(cmd: &Simple) -> bool {
    cmd.words
        .iter()
        .any(|w| matches!(w.text.as_str(), "-d" | "-D" | "--decode"))
}

/// The text of a here-document or here-string given to `cmd`.
fn literal_input(cmd: &Simple) -> Option<String> {
    cmd.redirects.iter().find_map(|r| match r.kind {
        RedirKind::Heredoc => r.body.clone(),
        RedirKind::HereString if !r.target.opaque() => Some(r.target.text.clone()),
        _ => None,
    })
}

/// The text `echo`/`printf`/`cat <<EOF` print, when it is written in the command.
fn literal_output(prog: &str, cmd: &Simple) -> Source {
    let Some(p) = unwrap(&cmd.words).program else {
        return Source::Other;
    };
    let args = &cmd.words[p + 1..];
    if args.iter().any(Word::opaque) {
        return Source::Obfuscated;
    }
    match prog {
        "echo" => {
            let start = args
                .iter()
                .take_while(|a| {
                    a.text.len() > 1
                        && a.text.starts_with('-')
                        && a.text[1..].chars().all(|c| "neE".contains(c))
                })
                .count();
            let escapes = args[..start].iter().any(|a| a.text.contains('e'));
            let text = join(&args[start..], " ");
            Source::Literal(if escapes { unescape(&text) } else { text })
        }
        "printf" => printf(args),
        "cat" if args.is_empty() => literal_input(cmd).map_or(Source::Other, Source::Literal),
        _ => Source::Other,
    }
}

/// `printf FORMAT ARGS…`: the format is reused while arguments remain, as the shell does.
fn printf(args: &[Word]) -> Source {
    let args: Vec<&str> = args.iter().map(|a| a.text.as_str()).collect();
    let args = match args.as_slice() {
        ["--", rest @ ..] => rest,
        // `-v NAME` assigns instead of printing.
        ["-v", ..] => return Source::Other,
        all => all,
    };
    let Some((format, mut rest)) = args.split_first() else {
        return Source::Other;
    };
    let format: Vec<char> = format.chars().collect();
    let mut out = String::new();
    // Bounded: each round consumes an argument, and a round without one ends the loop.
    loop {
        let before = rest.len();
        let mut i = 0;
        while let Some(&c) = format.get(i) {
            i += 1;
            match c {
                '\\' => {
                    let (decoded, used) = c_escape(&format[i..]);
                    out.extend(decoded);
                    i += used.max(1).min(format.len() - i);
                }
                '%' => {
                    // Flags, width and precision are skipped: only the text matters here.
                    while format
                        .get(i)
                        .is_some_and(|c| "-+ #0123456789.*".contains(*c))
                    {
                        i += 1;
                    }
                    let conv = format.get(i).copied().unwrap_or('%');
                    i += 1;
                    if conv == '%' {
                        out.push('%');
                        continue;
                    }
                    let arg = rest.first().copied().unwrap_or("");
                    rest = rest.get(1..).unwrap_or(&[]);
                    match conv {
                        'b' => out.push_str(&unescape(arg)),
                        'c' => out.extend(arg.chars().next()),
                        _ => out.push_str(arg),
                    }
                }
                other => out.push(other),
            }
        }
        if rest.is_empty() || rest.len() == before {
            break;
        }
    }
    Source::Literal(out)
}

fn join(words: &[Word], sep: &str) -> String {
    words
        .iter()
        .map(|w| w.text.as_str())
        .collect::<Vec<_>>()
        .join(sep)
}

fn unescape(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == '\\' && i + 1 < chars.len() {
            let (c, used) = c_escape(&chars[i + 1..]);
            out.extend(c);
            i += 1 + used.max(1);
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    out
}
