//! A POSIX-shell lexer: command text → words, control operators and redirections.
//!
//! Quote removal happens here (`'…'`, `"…"`, `$'…'`, backslashes), as do the expansions the
//! classifier can know: `~`, `~user`, `$HOME`, `${HOME}`, `$HERMES_HOME`, and `$IFS` as a
//! word separator. Command substitutions (`$(…)`, backticks) and process substitutions
//! (`<(…)`, `>(…)`) are recorded with their inner text and left in the word as `$(…)`;
//! other variables stay as `$NAME` and mark the word dynamic. Here-document bodies are
//! attached to their redirection. It does not expand globs, braces (see `parse`), or
//! arithmetic, and does not parse compound commands (that is `parse`'s coarse job).
//! Invariant: it never fails and never recurses deeper than `MAX_LEX_DEPTH` (only `${…}`
//! contents and here-document bodies are lexed recursively); unterminated quotes and
//! substitutions run to the end of the text.

use super::words::{Expand, Quoting, Word};

/// `${…}` contents and here-document bodies nest no deeper than this.
pub(super) const MAX_LEX_DEPTH: usize = 8;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Op {
    /// `;`, `;;`, newline.
    Seq,
    And,
    Or,
    /// `|` and `|&`.
    Pipe,
    Background,
    Open,
    Close,
}

impl Op {
    pub(super) fn text(self) -> &'static str {
        match self {
            Op::Seq => ";",
            Op::And => "&&",
            Op::Or => "||",
            Op::Pipe => "|",
            Op::Background => "&",
            Op::Open => "(",
            Op::Close => ")",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum RedirKind {
    /// `>`, `>|`, `&>`, `>& file`.
    Write,
    /// `>>`, `&>>`.
    Append,
    Read,
    /// `<>`.
    ReadWrite,
    /// `<<`, `<<-`.
    Heredoc,
    /// `<<<`.
    HereString,
    /// `>&N`, `<&N`, `>&-`.
    Dup,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Redirect {
    pub fd: Option<String>,
    pub op: &'static str,
    pub kind: RedirKind,
    pub target: Word,
    /// The here-document body (for `<<`), raw.
    pub body: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Token {
    Word(Word),
    Op(Op),
    Redirect(Redirect),
}

#[derive(Debug, Default)]
pub(super) struct Lexed {
    pub tokens: Vec<Token>,
    /// Inner text of every command/process substitution, in order of appearance.
    pub substitutions: Vec<String>,
}

struct Pending {
    token: usize,
    delim: String,
    strip_tabs: bool,
    expand: bool,
}

pub(super) struct Lexer<'a> {
    pub(super) chars: Vec<char>,
    pub(super) i: usize,
    pub(super) expand: &'a Expand,
    pub(super) depth: usize,
    tokens: Vec<Token>,
    pub(super) substitutions: Vec<String>,
    pending: Vec<Pending>,
    last_word_end: Option<usize>,
    /// Set by an unquoted `$IFS`: the current word ends here.
    pub(super) split: bool,
}

pub(super) fn lex(src: &str, expand: &Expand) -> Lexed {
    let mut lexer = Lexer::new(src, expand, 0);
    lexer.run();
    lexer.finish_heredocs();
    Lexed {
        tokens: lexer.tokens,
        substitutions: lexer.substitutions,
    }
}

impl<'a> Lexer<'a> {
    pub(super) fn new(src: &str, expand: &'a Expand, depth: usize) -> Self {
        Self {
            chars: src.chars().collect(),
            i: 0,
            expand,
            depth,
            tokens: Vec::new(),
            substitutions: Vec::new(),
            pending: Vec::new(),
            last_word_end: None,
            split: false,
        }
    }

    pub(super) fn peek(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.i + ahead).copied()
    }

    fn op(&mut self, op: Op, len: usize) {
        self.i += len;
        self.tokens.push(Token::Op(op));
    }

    fn run(&mut self) {
        while let Some(c) = self.peek(0) {
            let next = self.peek(1);
            match c {
                ' ' | '\t' | '\r' => self.i += 1,
                '\\' if next == Some('\n') => self.i += 2,
                '\n' => {
                    self.op(Op::Seq, 1);
                    self.read_heredocs();
                }
                '#' => {
                    while self.peek(0).is_some_and(|c| c != '\n') {
                        self.i += 1;
                    }
                }
                ';' => self.op(
                    Op::Seq,
                    if matches!(next, Some(';' | '&')) {
                        2
                    } else {
                        1
                    },
                ),
                '&' => match next {
                    Some('&') => self.op(Op::And, 2),
                    Some('>') => self.redirect(None),
                    _ => self.op(Op::Background, 1),
                },
                '|' => match next {
                    Some('|') => self.op(Op::Or, 2),
                    Some('&') => self.op(Op::Pipe, 2),
                    _ => self.op(Op::Pipe, 1),
                },
                '(' => self.op(Op::Open, 1),
                ')' => self.op(Op::Close, 1),
                '<' | '>' if next != Some('(') => {
                    let fd = self.take_fd();
                    self.redirect(fd);
                }
                _ => {
                    let word = self.read_word();
                    if !word.text.is_empty() || word.quoted || word.dynamic {
                        self.tokens.push(Token::Word(word));
                        self.last_word_end = Some(self.i);
                    }
                    self.split = false;
                }
            }
        }
    }

    /// `2>file`: a digits-only word touching the operator is its file descriptor.
    fn take_fd(&mut self) -> Option<String> {
        if self.last_word_end != Some(self.i) {
            return None;
        }
        let Some(Token::Word(w)) = self.tokens.last() else {
            return None;
        };
        if w.quoted || w.dynamic || w.text.is_empty() || !w.text.chars().all(|c| c.is_ascii_digit())
        {
            return None;
        }
        let text = w.text.clone();
        self.tokens.pop();
        Some(text)
    }

    fn redirect(&mut self, fd: Option<String>) {
        let rest: String = self.chars[self.i..self.chars.len().min(self.i + 3)]
            .iter()
            .collect();
        let (op, kind) = [
            ("&>>", RedirKind::Append),
            ("&>", RedirKind::Write),
            (">>", RedirKind::Append),
            (">|", RedirKind::Write),
            (">&", RedirKind::Dup),
            ("<<<", RedirKind::HereString),
            ("<<-", RedirKind::Heredoc),
            ("<<", RedirKind::Heredoc),
            ("<&", RedirKind::Dup),
            ("<>", RedirKind::ReadWrite),
            (">", RedirKind::Write),
            ("<", RedirKind::Read),
        ]
        .into_iter()
        .find(|(op, _)| rest.starts_with(op))
        .unwrap_or((">", RedirKind::Write));
        self.i += op.chars().count();
        while matches!(self.peek(0), Some(' ' | '\t')) {
            self.i += 1;
        }
        let target = self.read_word();
        self.split = false;
        let kind = match kind {
            RedirKind::Dup if op == ">&" && !is_fd_word(&target) => RedirKind::Write,
            other => other,
        };
        if kind == RedirKind::Heredoc {
            self.pending.push(Pending {
                token: self.tokens.len(),
                delim: target.text.clone(),
                strip_tabs: op == "<<-",
                expand: !target.quoted,
            });
        }
        self.tokens.push(Token::Redirect(Redirect {
            fd,
            op,
            kind,
            target,
            body: None,
        }));
        self.last_word_end = None;
    }

    /// After a newline: the bodies of the here-documents started on the line just ended.
    fn read_heredocs(&mut self) {
        for pending in std::mem::take(&mut self.pending) {
            let mut body = String::new();
            while self.i < self.chars.len() {
                let end = self.chars[self.i..]
                    .iter()
                    .position(|&c| c == '\n')
                    .map_or(self.chars.len(), |p| self.i + p);
                let line: String = self.chars[self.i..end].iter().collect();
                self.i = (end + 1).min(self.chars.len());
                let check = if pending.strip_tabs {
                    line.trim_start_matches('\t')
                } else {
                    line.as_str()
                };
                if check == pending.delim {
                    break;
                }
                body.push_str(&line);
                body.push('\n');
            }
            self.attach_body(&pending, body);
        }
    }

    /// Here-documents whose body never started (no newline after the operator).
    fn finish_heredocs(&mut self) {
        for pending in std::mem::take(&mut self.pending) {
            self.attach_body(&pending, String::new());
        }
    }

    fn attach_body(&mut self, pending: &Pending, body: String) {
        if pending.expand {
            // Substitutions in an unquoted here-document run when the command runs.
            let inner = self.sub_lexer_dq(&body);
            self.substitutions.extend(inner.substitutions);
        }
        if let Some(Token::Redirect(r)) = self.tokens.get_mut(pending.token) {
            r.body = Some(body);
        }
    }

    fn read_word(&mut self) -> Word {
        let mut w = Word::default();
        let start = self.i;
        while let Some(c) = self.peek(0) {
            let next = self.peek(1);
            match c {
                ' ' | '\t' | '\r' | '\n' | ';' | '&' | '|' | '(' | ')' => break,
                '<' | '>' if next == Some('(') => self.process_subst(&mut w, c),
                '<' | '>' => break,
                '\\' => {
                    if let Some(n) = next.filter(|n| *n != '\n') {
                        w.push_quoted(n);
                    }
                    self.i = (self.i + 2).min(self.chars.len());
                }
                '\'' => {
                    self.i += 1;
                    w.quoted = true;
                    while let Some(c) = self.peek(0) {
                        self.i += 1;
                        if c == '\'' {
                            break;
                        }
                        w.push_quoted(c);
                    }
                }
                '"' => {
                    self.i += 1;
                    w.quoted = true;
                    self.double_quoted(&mut w, Some('"'));
                }
                '$' => self.dollar(&mut w, Quoting::Bare),
                '`' => self.backtick(&mut w),
                '~' if self.i == start
                    || (w.text.ends_with('=') && is_name(&w.text[..w.text.len() - 1])) =>
                {
                    self.tilde(&mut w)
                }
                '*' | '?' | '[' => {
                    w.glob = true;
                    w.push_lit(c);
                    self.i += 1;
                }
                _ => {
                    w.push_lit(c);
                    self.i += 1;
                }
            }
            if self.split {
                break;
            }
        }
        w
    }

    /// The inside of `"…"` (or a whole here-document body when `end` is `None`).
    pub(super) fn double_quoted(&mut self, w: &mut Word, end: Option<char>) {
        while let Some(c) = self.peek(0) {
            if Some(c) == end {
                self.i += 1;
                return;
            }
            match c {
                '\\' => match self.peek(1) {
                    Some('\n') => self.i += 2,
                    Some(n @ ('$' | '`' | '"' | '\\')) => {
                        w.push_quoted(n);
                        self.i += 2;
                    }
                    _ => {
                        w.push_quoted('\\');
                        self.i += 1;
                    }
                },
                '$' => self.dollar(w, Quoting::Double),
                '`' => self.backtick(w),
                _ => {
                    w.push_quoted(c);
                    self.i += 1;
                }
            }
        }
    }
}

fn is_fd_word(w: &Word) -> bool {
    w.text == "-" || (!w.text.is_empty() && w.text.chars().all(|c| c.is_ascii_digit()))
}

pub(super) fn is_name(text: &str) -> bool {
    !text.is_empty()
        && !text.starts_with(|c: char| c.is_ascii_digit())
        && text.chars().all(|c| c == '_' || c.is_ascii_alphanumeric())
}

#[cfg(test)]
#[path = "lex_tests.rs"]
mod tests;
