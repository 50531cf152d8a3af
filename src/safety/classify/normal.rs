//! The canonical form of a command, used to recognise "the same command" after a denial.
//!
//! Words are re-joined with single spaces after quote removal and re-quoted canonically
//! (bare when safe, else single quotes); absolute program paths (of wrappers and of the
//! command they run) are reduced to their basename; `~`, `$HOME`, `${HOME}` and the literal home path are all
//! written `~`; substitutions are normalised recursively; comments are dropped; newlines and
//! `;` are both written `;`; here-document bodies are appended at the end. It is not meant
//! to be run, only compared. Invariant: two commands that differ only in whitespace,
//! quoting, `/bin/rm` vs `rm` or `~` vs `$HOME` normalise to the same string.

use super::lex::{Op, RedirKind, Token, lex};
use super::unwrap::unwrap;
use super::words::{Expand, Word, basename};
use super::{MAX_DEPTH, ShellContext};

/// Reserved words that `parse` drops before a command (kept in the output as written).
const KEYWORDS: &[&str] = &[
    "if", "then", "else", "elif", "fi", "do", "done", "while", "until", "!", "{", "}", "esac",
];

pub(super) fn normalize(command: &str, ctx: &ShellContext) -> String {
    let expand = Expand::new(&ctx.home, &ctx.hermes_home);
    normalize_at(command, &expand, 0)
}

fn normalize_at(command: &str, expand: &Expand, depth: usize) -> String {
    let tokens = lex(command, expand).tokens;
    let mut out: Vec<String> = Vec::new();
    let mut bodies: Vec<String> = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let start = i;
        while i < tokens.len() && !matches!(tokens[i], Token::Op(_)) {
            i += 1;
        }
        let segment = &tokens[start..i];
        let programs = program_words(segment);
        let mut word_index = 0;
        for token in segment {
            match token {
                Token::Word(w) => {
                    let program = programs.contains(&word_index);
                    out.push(render(
                        w,
                        if program {
                            Role::Program
                        } else {
                            Role::Argument
                        },
                        expand,
                        depth,
                    ));
                    word_index += 1;
                }
                Token::Redirect(r) => {
                    let fd = r.fd.as_deref().unwrap_or("");
                    let target = render(&r.target, Role::Argument, expand, depth);
                    out.push(if r.kind == RedirKind::Dup {
                        format!("{fd}{}{target}", r.op)
                    } else {
                        format!("{fd}{} {target}", r.op)
                    });
                    if let Some(body) = &r.body {
                        bodies.push(format!("{body}{}", r.target.text));
                    }
                }
                Token::Op(_) => {}
            }
        }
        if let Some(Token::Op(op)) = tokens.get(i) {
            let after_op = out
                .last()
                .is_none_or(|l| matches!(l.as_str(), ";" | "&&" | "||" | "|" | "&" | "("));
            if !(*op == Op::Seq && after_op) {
                out.push(op.text().to_string());
            }
        }
        i += 1;
    }
    while out.last().is_some_and(|l| l == ";") {
        out.pop();
    }
    let mut text = out.join(" ");
    for body in bodies {
        text.push('\n');
        text.push_str(&body);
    }
    text
}

/// Whether a word is a program name (wrapper or command) or anything else.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    Program,
    Argument,
}

/// Indices (among the segment's words) of wrapper and program words.
fn program_words(segment: &[Token]) -> Vec<usize> {
    let words: Vec<Word> = segment
        .iter()
        .filter_map(|t| match t {
            Token::Word(w) => Some(w.clone()),
            _ => None,
        })
        .collect();
    let skip = words
        .iter()
        .take_while(|w| !w.quoted && KEYWORDS.contains(&w.text.as_str()))
        .count();
    unwrap(&words[skip..])
        .positions
        .into_iter()
        .map(|p| p + skip)
        .collect()
}

fn render(word: &Word, role: Role, expand: &Expand, depth: usize) -> String {
    let mut text = if role == Role::Program && !word.dynamic && word.text.starts_with('/') {
        basename(&word.text).to_string()
    } else {
        word.text.clone()
    };
    if depth < MAX_DEPTH {
        for inner in &word.substitutions {
            let normal = normalize_at(inner, expand, depth + 1);
            text = text.replacen(&format!("({inner})"), &format!("({normal})"), 1);
        }
    }
    let text = unify_home(&text, &expand.home);
    quote(&text, word)
}

/// `$HOME`, `${HOME}` and the home path (at a path boundary) → `~`.
fn unify_home(text: &str, home: &str) -> String {
    let text = text.replace("${HOME}", "~").replace("$HOME", "~");
    if home == "/" || home.is_empty() {
        return text;
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(at) = rest.find(home) {
        let before_ok = rest[..at]
            .chars()
            .last()
            .or_else(|| out.chars().last())
            .is_none_or(|c| c.is_whitespace() || "=:'\"".contains(c));
        let after = &rest[at + home.len()..];
        let after_ok = after
            .chars()
            .next()
            .is_none_or(|c| c == '/' || c.is_whitespace() || ":;'\")".contains(c));
        out.push_str(&rest[..at]);
        out.push_str(if before_ok && after_ok { "~" } else { home });
        rest = after;
    }
    out.push_str(rest);
    out
}

/// `text` bare when every character is safe (unquoted globs of `word` stay bare), else in
/// single quotes.
fn quote(text: &str, word: &Word) -> String {
    let glob = word.glob;
    let safe = |c: char| {
        c.is_ascii_alphanumeric() || "-_./=:,+@%~^{}".contains(c) || (glob && "*?[]".contains(c))
    };
    if !text.is_empty() && text.chars().all(safe) {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}
