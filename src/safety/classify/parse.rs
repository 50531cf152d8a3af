//! Tokens → pipelines of simple commands, plus the fork-bomb shape.
//!
//! This is a deliberately coarse parser: every control operator and parenthesis ends a
//! simple command, `|` joins simple commands into a pipeline, reserved words at the start of
//! a command (`if`, `then`, `do`, `!`, `{`, …) are dropped and the headers of `for`,
//! `select`, `case` and `function` are skipped, so the commands inside compound commands are
//! seen one by one. Unquoted brace expansion (`{rm,-rf,/}`, `/{etc,usr}`) is applied here.
//! It does not build a syntax tree, track which branch runs, or know about functions and
//! aliases. Invariant: every word the shell could execute as a command ends up at the start
//! of some `Simple`.

use super::lex::{Op, Redirect, Token, is_name};
use super::words::Word;

/// Shell words that may precede a command without changing what runs.
const KEYWORDS: &[&str] = &[
    "if", "then", "else", "elif", "fi", "do", "done", "while", "until", "!", "{", "}", "esac",
];
/// Compound-command headers whose words are not a command (`for x in a b`, `case $x in`).
const HEADERS: &[&str] = &["for", "select", "case", "function"];
/// Brace expansion never produces more words than this from one word.
const BRACE_LIMIT: usize = 256;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Simple {
    pub words: Vec<Word>,
    pub redirects: Vec<Redirect>,
}

impl Simple {
    fn is_empty(&self) -> bool {
        self.words.is_empty() && self.redirects.is_empty()
    }
}

/// Simple commands joined by `|`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Pipeline {
    pub cmds: Vec<Simple>,
}

pub(super) fn parse(tokens: Vec<Token>) -> Vec<Pipeline> {
    let mut pipelines = Vec::new();
    let mut pipeline = Pipeline::default();
    let mut simple = Simple::default();
    // `coproc NAME { …; }` names the coprocess; `coproc CMD …` runs CMD. The word after
    // `coproc` is held until the next token says which.
    let mut coproc = Coproc::No;
    for token in tokens {
        let held = match std::mem::replace(&mut coproc, Coproc::No) {
            Coproc::Held(name) => {
                let body_follows = matches!(&token, Token::Op(Op::Open))
                    || matches!(&token, Token::Word(w) if w.text == "{" && !w.quoted);
                (!body_follows).then_some(name)
            }
            Coproc::Next => {
                if let Token::Word(w) = &token
                    && !w.quoted
                    && is_name(&w.text)
                {
                    coproc = Coproc::Held(w.clone());
                    continue;
                }
                None
            }
            Coproc::No => None,
        };
        if let Some(name) = held {
            brace_expand_into(name, &mut simple.words);
        }
        match token {
            Token::Word(w) => {
                if simple.words.is_empty() && !w.quoted && KEYWORDS.contains(&w.text.as_str()) {
                    continue;
                }
                if simple.words.is_empty() && !w.quoted && w.text == "coproc" {
                    coproc = Coproc::Next;
                    continue;
                }
                brace_expand_into(w, &mut simple.words);
            }
            Token::Redirect(r) => simple.redirects.push(r),
            Token::Op(Op::Pipe) => finish_simple(&mut pipeline, &mut simple),
            Token::Op(_) => {
                finish_simple(&mut pipeline, &mut simple);
                if !pipeline.cmds.is_empty() {
                    pipelines.push(std::mem::take(&mut pipeline));
                }
            }
        }
    }
    if let Coproc::Held(name) = coproc {
        brace_expand_into(name, &mut simple.words);
    }
    finish_simple(&mut pipeline, &mut simple);
    if !pipeline.cmds.is_empty() {
        pipelines.push(pipeline);
    }
    pipelines
}

/// Where `parse` is after a `coproc` keyword.
enum Coproc {
    No,
    /// Just after `coproc`.
    Next,
    /// The word after `coproc`: a name if a body follows, else the command.
    Held(Word),
}

fn finish_simple(pipeline: &mut Pipeline, simple: &mut Simple) {
    let mut done = std::mem::take(simple);
    if done
        .words
        .first()
        .is_some_and(|w| !w.quoted && HEADERS.contains(&w.text.as_str()))
    {
        done.words.clear();
    }
    if !done.is_empty() {
        pipeline.cmds.push(done);
    }
}

/// Pushes `word`, brace-expanded when it is plain unquoted text.
fn brace_expand_into(word: Word, out: &mut Vec<Word>) {
    if word.quoted || word.dynamic || !word.text.contains('{') || !word.text.contains(',') {
        out.push(word);
        return;
    }
    let mut texts = Vec::new();
    let mut budget = BRACE_LIMIT;
    brace_expand(&word.text, &mut texts, &mut budget);
    if texts.len() >= BRACE_LIMIT {
        out.push(word);
        return;
    }
    out.extend(texts.into_iter().map(|text| Word {
        glob: word.glob,
        ..Word::plain(&text)
    }));
}

fn brace_expand(text: &str, out: &mut Vec<String>, budget: &mut usize) {
    if *budget == 0 {
        return;
    }
    let Some((open, close, commas)) = first_group(text) else {
        *budget -= 1;
        out.push(text.to_string());
        return;
    };
    let (prefix, suffix) = (&text[..open], &text[close + 1..]);
    let mut start = open + 1;
    for end in commas.into_iter().chain(std::iter::once(close)) {
        let alt = &text[start..end];
        brace_expand(&format!("{prefix}{alt}{suffix}"), out, budget);
        start = end + 1;
    }
}

/// The first `{…}` group holding a top-level comma: its `{`, its `}` and the commas.
fn first_group(text: &str) -> Option<(usize, usize, Vec<usize>)> {
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(rel) = text[from..].find('{') {
        let open = from + rel;
        let mut depth = 0usize;
        let mut commas = Vec::new();
        for (k, &b) in bytes.iter().enumerate().skip(open) {
            match b {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        if !commas.is_empty() {
                            return Some((open, k, commas));
                        }
                        break;
                    }
                }
                b',' if depth == 1 => commas.push(k),
                _ => {}
            }
        }
        from = open + 1;
    }
    None
}

/// `name(){ name|name& };name` (any spacing, any name), also `function name { … }`.
pub(super) fn is_fork_bomb(tokens: &[Token]) -> bool {
    (0..tokens.len()).any(|i| {
        let Some(Token::Word(name)) = tokens.get(i) else {
            return false;
        };
        let body_at = match (tokens.get(i + 1), tokens.get(i + 2)) {
            (Some(Token::Op(Op::Open)), Some(Token::Op(Op::Close))) => i + 3,
            (Some(Token::Word(n)), _) if name.text == "function" => {
                return squeezed(&tokens[(i + 2).min(tokens.len())..])
                    .starts_with(&format!("{{{0}|{0}&", n.text));
            }
            _ => return false,
        };
        squeezed(&tokens[body_at.min(tokens.len())..])
            .starts_with(&format!("{{{0}|{0}&", name.text))
    })
}

fn squeezed(tokens: &[Token]) -> String {
    let mut out = String::new();
    for token in tokens.iter().take(12) {
        match token {
            Token::Word(w) => out.push_str(&w.text),
            Token::Op(op) => out.push_str(op.text()),
            Token::Redirect(r) => out.push_str(r.op),
        }
    }
    out
}

#[cfg(test)]
#[path = "parse_tests.rs"]
mod tests;

/// Interpreter code that forks forever: `perl -e 'fork while 1'`, `fork until 0`,
/// `while True: os.fork()`, `while(fork)`, `loop { fork }`, `for(;;) fork`. Only loops whose
/// condition is constant (or is the fork itself) count, so `while (<>) { fork … }` does not.
pub(super) fn is_fork_loop(code: &str) -> bool {
    let squeezed: String = code
        .to_lowercase()
        .chars()
        .map(|c| if c == '\n' { ';' } else { c })
        .filter(|c| !c.is_whitespace())
        .collect();
    if !squeezed.contains("fork") {
        return false;
    }
    let s: &str = &squeezed;
    let rests = |kw: &'static str| s.match_indices(kw).map(move |(i, _)| &s[i + kw.len()..]);
    let forks_soon = |rest: &str| rest.chars().take(48).collect::<String>().contains("fork");
    let forever = |rest: &str, tokens: &[&str]| {
        tokens.iter().any(|t| {
            rest.strip_prefix(*t).is_some_and(|after| {
                after.is_empty() || after.starts_with([':', ';', '{', ')', 'd'])
            })
        })
    };
    let fork_first = |rest: &str| {
        let r = rest.trim_start_matches('(');
        r.starts_with("fork") || r.starts_with("os.fork")
    };
    const TRUE: &[&str] = &["1", "(1", "true", "(true"];
    const FALSE: &[&str] = &["0", "(0", "false", "(false"];
    rests("forkwhile")
        .chain(rests("fork()while"))
        .any(|r| forever(r, TRUE) || r.starts_with("fork"))
        || rests("forkuntil")
            .chain(rests("fork()until"))
            .any(|r| forever(r, FALSE))
        || rests("while").any(|r| fork_first(r) || (forever(r, TRUE) && forks_soon(r)))
        || rests("until").any(|r| forever(r, FALSE) && forks_soon(r))
        || ["loop{", "loopdo", "for(;;)"]
            .iter()
            .any(|kw| rests(kw).any(&forks_soon))
}
